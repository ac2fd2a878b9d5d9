"""The examples of README.md and the documentation site, found and run (tests/test_examples.py).

A ```` ```console ```` block is a transcript: each line ``$ COMMAND`` is run by bash, in a fresh scratch
directory that links every top-level entry of the repository (so ``instances/...`` paths work and what a
command writes stays there), with the commands of one block sharing that directory in order; the lines
after a command, up to the next ``$``, are what it prints (stdout and stderr together). A
```` ```pycon ```` block is a Python session, run by :mod:`doctest` in a scratch directory likewise; the
pycon blocks of one page are one session, in order.

Comparison rule (the one stated in docs/contributing.md): both sides have trailing blanks removed and
every run of blanks within a line shrunk to one blank, so tables may be aligned either way; in the shown
output ``...`` stands for any text within a line, and a line that is only ``...`` for any number of
lines (times, machine-dependent choices and long stretches are written so). Nothing else is normalised.

Any other fenced block that shows a ``puzzlesat`` command is either one of these or is marked, on the
line before it, ``<!-- not run: REASON -->`` (a Dask cluster to start, a binary to install), so no
example is left unchecked by accident.
"""
from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the pages whose examples run: README and every page of the site but the design notes (a record of
#: what was tried, with its commands as they were then) and the puzzles' specification (its examples
#: are inputs, not commands)
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md")
                                     if "design-notes" not in p.parts and "_build" not in p.parts
                                     and p.name != "puzzles.md")]
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)\s*$",
                   re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!-- not run: [^>]+-->\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, text and the line it starts on."""

    page: Path
    line: int
    info: str
    body: str
    marked_not_run: bool

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    found = []
    for match in FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, match["info"].strip().split(" ")[0],
                           match["body"], bool(NOT_RUN.search(before))))
    return found


def all_blocks(kind: str) -> list[Block]:
    return [block for page in PAGES for block in blocks(page) if block.info == kind]


def transcript(block: Block) -> list[tuple[str, list[str]]]:
    """A console block's (command, shown output lines) pairs."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        else:
            raise ValueError(f"{block.name}: a console block starts with '$ COMMAND'")
    return pairs


def _squeezed(line: str) -> str:
    return re.sub(r"\s+", " ", line.rstrip())


def _line_matches(shown: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in _squeezed(shown).split("..."))
    return re.fullmatch(pattern, _squeezed(actual)) is not None


def output_matches(shown: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is what ``shown`` shows, by the rule of the module docstring."""
    shown = [line for line in shown]
    while shown and not shown[-1].strip():
        shown.pop()
    actual = list(actual)
    while actual and not actual[-1].strip():
        actual.pop()

    def match(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(actual)
        if shown[i].strip() == "...":
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and _line_matches(shown[i], actual[j]) and match(i + 1, j + 1)

    return match(0, 0)


@contextmanager
def scratch() -> Iterator[Path]:
    """A directory that links the repository's top-level entries, for one block's commands."""
    with tempfile.TemporaryDirectory(prefix="puzzlesat-example-") as name:
        here = Path(name)
        for entry in ROOT.iterdir():
            if not entry.name.startswith("."):
                (here / entry.name).symlink_to(entry)
        yield here


@contextmanager
def inside_scratch() -> Iterator[None]:
    """The current directory a :func:`scratch` directory, for Python examples, and back afterwards."""
    with scratch() as here:
        cwd = os.getcwd()
        os.chdir(here)
        try:
            yield
        finally:
            os.chdir(cwd)


def environment() -> dict[str, str]:
    """The examples' environment: this interpreter's console scripts first, no colour, 80 columns."""
    env = dict(os.environ, NO_COLOR="1", COLUMNS="80")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("PUZZLESAT_DEBUG", None)
    return env


def run_console(block: Block, timeout: float = 300) -> list[str]:
    """Run a console block; the differences found, as messages (empty when every output matches)."""
    problems = []
    with scratch() as here:
        for command, shown in transcript(block):
            done = subprocess.run(["bash", "-c", command], cwd=here, env=environment(), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=timeout)
            actual = done.stdout.splitlines()
            if not output_matches(shown, actual):
                problems.append(f"{block.name}: $ {command}\n--- shown\n" + "\n".join(shown)
                                + "\n--- printed\n" + "\n".join(actual))
    return problems


def run_pycon(page: Path) -> str:
    """Run a page's pycon blocks with doctest, in order, as one session (a later block uses what an
    earlier one defined); the failure report (empty when every example passes)."""
    names: dict[str, object] = {}
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with inside_scratch():
        for block in blocks(page):
            if block.info == "pycon":
                test = doctest.DocTestParser().get_doctest(block.body, {}, block.name, str(page), block.line)
                test.globs = names  # DocTest copies what it is given; the page's blocks share one
                runner.run(test, out=report.append, clear_globs=False)
    return "".join(report)


def run_docstrings(module: object) -> str:
    """Run the examples in a module's docstrings (each function's alone, with ``puzzlesat`` imported),
    in a scratch directory; the failure report (empty when every example passes)."""
    import puzzlesat

    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with inside_scratch():
        for test in doctest.DocTestFinder().find(module, globs={"puzzlesat": puzzlesat}):
            runner.run(test, out=report.append)
    return "".join(report)


def tools_missing(command: str) -> list[str]:
    """The outside binaries a command names (``external:NAME``, or a pipeline stage) not on the PATH."""
    names = re.findall(r"external(?:-maxsat|-count)?:([\w.+-]+)", command)
    names += [word for word in re.findall(r"(?:^|[|;&]\s*)([\w.+-]+)", command) if word != "puzzlesat"]
    return [name for name in names if shutil.which(name, path=environment()["PATH"]) is None
            and name not in {"cd", "echo", "cat", "head", "tail", "grep", "export", "jq", "wc", "sed"}]
