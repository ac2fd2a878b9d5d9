"""A newcomer's first hour (issue 70): what a person first touches works as they would expect. Each test
failed on the code before the fix."""
from __future__ import annotations

import subprocess
import sys

import pytest


def test_every_report_displays_in_a_notebook(tmp_path):
    """Issue 70: a cell showing a cnf or wcnf report raised ('a model has no picture', two tracebacks);
    a solve's grid showed as a Python list repr."""
    import puzzlesat

    cnf, wcnf = tmp_path / "f.cnf", tmp_path / "f.wcnf"
    cnf.write_text("p cnf 2 1\n1 2 0\n")
    wcnf.write_text("h 1 2 0\n3 -1 0\n")
    for puzzle, path in (("cnf", cnf), ("wcnf", wcnf)):
        report = puzzlesat.solve(puzzle, puzzlesat.read(puzzle, str(path)))
        assert report._repr_svg_() is None and "<table>" in report._repr_html_()
    grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    shown = puzzlesat.solve("aquarium", grid)._repr_html_()
    assert "<pre style='margin:0'>" in shown  # the grid, line under line
    assert "[&#x27;" not in shown and "unique</th><td style='text-align:left'>yes" in shown


def test_python_dash_m_puzzlesat_is_the_command_line():
    """Issue 70: 'python -m puzzlesat' said the package cannot be directly executed."""
    ran = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "aquarium",
                          "instances/aquarium/pa-6x6-easy-681742.txt", "--quiet"], capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0 and ran.stdout.startswith(". . # # # #"), ran


def test_export_writes_to_stdout_when_no_output_is_given():
    """'-o' was required: 'puzzlesat export aquarium FILE | cadical' failed with "Missing option '-o'"."""
    from pathlib import Path

    ran = subprocess.run([str(Path(sys.executable).parent / "puzzlesat"), "export", "aquarium",
                          "instances/aquarium/pa-6x6-easy-681742.txt"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.startswith("c puzzlesat aquarium ") and "p cnf 95 203" in ran.stdout
    assert not ran.stderr


@pytest.mark.parametrize("args, said", [
    (["slove", "aquarium", "f"], "No such command 'slove'. Did you mean 'solve'?"),
    (["solve", "aquarum", "f"], "'aquarum' is not a puzzle. Did you mean 'aquarium'?"),
    (["generate", "aquarum"], "No such puzzle 'aquarum'. Did you mean 'aquarium'?"),
    (["solve", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "-b", "cadicl"],
     "unknown backend 'cadicl'. Did you mean 'cadical'?"),
    (["solve", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "--timout", "3"],
     "No such option '--timout'. Did you mean '--timeout'?"),
])
def test_a_misspelt_name_gets_a_suggestion(run_cli, args, said):
    code, _, err = run_cli(*args)
    assert code == 2 and said in err and err.count("\n") == 1, err


def test_dir_shows_the_public_names_only():
    """dir(puzzlesat) listed Any, TYPE_CHECKING, annotations, _API and core beside the interface."""
    import puzzlesat

    assert dir(puzzlesat) == sorted(puzzlesat.__all__)
    assert all(hasattr(puzzlesat, name) for name in puzzlesat.__all__)


def test_a_compilation_is_announced_where_numba_has_not_cached_it(tmp_path, capsys):
    """A first run compiled the proof checker for 95 s (at load 6) without a word: a compilation that
    numba's cache does not hold is now said once before it starts, naming what is compiled."""
    import sys

    from puzzlesat.core import compiled, reporting
    from puzzlesat.encoders.jig import compiled as jig_compiled

    namespace = vars(jig_compiled)
    assert not compiled.cached_in(tmp_path, namespace, "_search")
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    index = tmp_path / "jig_0123" / f"compiled._search-40.{tag}.nbi"
    index.parent.mkdir()
    index.write_text("")  # an index of that name, but not numba's for this source: not cached
    assert not compiled.cached_in(tmp_path, namespace, "_search")
    for _ in range(2):
        reporting.say_once("compiling the test's kernel")
    assert capsys.readouterr().err == "puzzlesat: note: compiling the test's kernel\n"


def test_every_public_name_and_parameter_is_described():
    """The API reference showed types only (nothing said what backend=, encoding=, method= or
    **options take), and named types it never documented: every public name is in the reference, and
    every parameter of each public function has its ':param NAME:' sentence, every field of each public
    dataclass its sentence."""
    import dataclasses
    import inspect
    from pathlib import Path

    import puzzlesat

    reference = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "api.md").read_text()
    for name in puzzlesat.__all__:
        if name == "__version__":
            continue
        assert f"\n   {name}\n" in reference, f"{name} is not in the API reference"
        member = getattr(puzzlesat, name)
        if dataclasses.is_dataclass(member):  # every field a '#:' comment, which the reference renders
            source = inspect.getsource(member).splitlines()
            for field in dataclasses.fields(member):
                at = next(i for i, line in enumerate(source) if line.startswith(f"    {field.name}: "))
                assert source[at - 1].strip().startswith("#:"), f"{name}.{field.name} is not described"
        if inspect.isfunction(member):
            doc = inspect.getdoc(member) or ""
            for parameter in inspect.signature(member).parameters:
                assert f":param {parameter}:" in doc, f"{name}({parameter}) is not described"


def test_the_backends_page_says_what_puzzlesat_backends_says():
    """docs/backends.md gave the default backend 'sat, enumerate', where `puzzlesat backends` (and
    --certify) says it writes proofs too."""
    import re
    from pathlib import Path

    from puzzlesat.backends import get_backend

    page = (Path(__file__).resolve().parent.parent / "docs" / "backends.md").read_text()
    row = next(line for line in page.splitlines() if line.startswith("| `pysat:cadical195`"))
    said = set(re.split(r",\s*", row.rstrip(" |").rsplit("|", 1)[1].strip()))
    assert said == {capability.value for capability in get_backend("cadical195").capabilities}


def test_user_pages_speak_of_use_not_of_the_tests():
    """crosscheck.md cited tests/ seven times, and six other user pages more: where a promise is tested
    is said on the contributors' page that lists them (docs/verification.md), not on the pages of use."""
    from .examples import ROOT

    contributors = {"architecture.md", "contributing.md", "verification.md", "adding-a-puzzle.md",
                    "adding-a-backend.md", "benchmarks.md", "changelog.md"}
    pages = [ROOT / "README.md", *(page for page in (ROOT / "docs").rglob("*.md")
                                  if page.name not in contributors and not {"design-notes", "_build", "_generated"}
                                  & set(page.parts))]
    citing = [f"{page.relative_to(ROOT)}:{number}" for page in pages
              for number, line in enumerate(page.read_text().splitlines(), 1) if "tests/" in line]
    assert citing == []


def test_a_plug_in_puzzle_is_marked_in_the_help():
    """'sudoku', a plug-in a plain install lacks, was listed among the built-in puzzles in every usage
    line: the usage says PUZZLE, and the help lists the built-in puzzles apart from the plug-ins, each
    plug-in with the package that brings it."""
    from puzzlesat.encoders import builtin_names

    helped = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "--help"], capture_output=True, text=True)
    text = " ".join(helped.stdout.split())  # as read, not as wrapped
    assert "Usage: python -m puzzlesat solve [OPTIONS] PUZZLE FILE" in text, text[:300]
    assert f"PUZZLE is a built-in puzzle ({', '.join(builtin_names())})" in text
    assert "sudoku" not in builtin_names() and "or a plug-in, installed separately: sudoku (from puzzlesat-sudoku)." \
        in text
