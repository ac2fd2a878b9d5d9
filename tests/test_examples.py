"""Every example of README.md and the documentation site runs, and prints what the page shows
(tests/examples.py states how pages are read and compared)."""
from __future__ import annotations

import os

import pytest

from .examples import (
    PAGES,
    ROOT,
    all_blocks,
    blocks,
    output_matches,
    run_console,
    run_docstrings,
    run_pycon,
    tools_missing,
    transcript,
)

CONSOLE = all_blocks("console")
PYCON = sorted({block.page for block in all_blocks("pycon")})


@pytest.mark.parametrize("block", CONSOLE, ids=[block.name for block in CONSOLE])
def test_console_example(block):
    missing = sorted({name for command, _ in transcript(block) for name in tools_missing(command)})
    if missing:
        if os.environ.get("PUZZLESAT_REQUIRE_TOOLS"):
            pytest.fail(f"{block.name} runs {', '.join(missing)}, not on the PATH (make solvers)")
        pytest.skip(f"needs {', '.join(missing)}")
    problems = run_console(block)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("page", PYCON, ids=[str(page.relative_to(ROOT)) for page in PYCON])
def test_python_examples(page):
    failures = run_pycon(page)
    assert not failures, failures


def test_api_docstring_examples():
    """The example under every public name of the Python API (the API reference shows them)."""
    import puzzlesat
    from puzzlesat import api
    from puzzlesat.core import errors
    from puzzlesat.pipeline import explaining, report

    failures = "".join(run_docstrings(module) for module in (puzzlesat, api, errors, report, explaining))
    assert not failures, failures


def test_every_command_example_is_run_or_says_why_not():
    """A fenced block that shows a puzzlesat command is a console or pycon block, or is marked with the
    reason it is not run, so no example goes unchecked by accident (MyST directives, ``{code-cell}``
    and ``{image}``, are the build's: the notebook page's cells run when the site is built)."""
    unchecked = [block.name for page in (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
                 if "design-notes" not in page.parts and "_build" not in page.parts
                 for block in blocks(page)
                 if block.info not in {"console", "pycon"} and not block.info.startswith("{")
                 and not block.marked_not_run
                 and any(line.strip().startswith(("puzzlesat ", "$ puzzlesat", "import puzzlesat"))
                         for line in block.body.splitlines())]
    assert unchecked == []


def test_the_comparison_rule():
    """The rule the pages rely on: blanks squeezed, '...' within a line and as a line of its own."""
    assert output_matches(["a  b   c"], ["a b c  "])
    assert output_matches(["times: ..."], ["times: parse 0.2 ms, solve 1.0 s"])
    assert output_matches(["x", "...", "y"], ["x", "1", "2", "y"])
    assert output_matches(["x", "...", "y"], ["x", "y"])
    assert not output_matches(["x", "y"], ["x", "z"])
    assert not output_matches(["x"], ["x", "more"])
    assert not output_matches(["solutions: 8 ..."], ["solutions: 9 (every one checked)"])


def test_no_timing_figure_in_a_hand_written_page():
    """Figures live in BENCHMARKS.md's generated tables, each with its date and machine (issue 45); a
    hand-written page may name a setting (a default limit, a head start) but not a measured time: every
    duration on README and the site's own pages is on a line that says which setting it is."""
    import re

    duration = re.compile(r"\b\d[\d,.]*\s?(ms|s|seconds|minutes|hours)\b")
    settings = ("default", "limit", "--timeout", "within", "head start")
    found = [f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
             for page in PAGES for number, line in enumerate(page.read_text().splitlines(), 1)
             if duration.search(line) and not any(word in line for word in settings)
             and not line.lstrip().startswith((">>>", "... "))]  # a Python example's own strings
    assert found == []
