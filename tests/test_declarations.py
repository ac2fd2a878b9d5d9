"""Puzzles declare what they take, and nothing else names them (issue 45, item 4): the counts of shared
files each kind of addition touches, as docs/adding-a-puzzle.md states them, checked on the code.

"Names" means in code: a string constant that is not a docstring, or an import of the module. Comments
and docstrings may mention a puzzle as an example."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from puzzlesat.core.declared import Option
from puzzlesat.encoders import builtin_names, get_puzzle, puzzle_names

PACKAGE = Path(__file__).resolve().parent.parent / "puzzlesat"
#: the built-in puzzles that are puzzles proper (cnf and wcnf are also the names of formula kinds and
#: export formats, which the pipeline rightly names)
PUZZLES = [name for name in builtin_names() if name not in ("cnf", "wcnf")]


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def named_in(path: Path, word: str) -> list[int]:
    """The lines of ``path`` whose code (not docstrings, not comments) names ``word``: a string constant
    holding it as a word, an import of a module of that name, or an identifier of that name."""
    tree = ast.parse(path.read_text())
    docstrings = _docstrings(tree)
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if pattern.search(node.value):
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module and word in node.module.split("."):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and any(alias.name == word for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.Name) and node.id == word:
            lines.append(node.lineno)
    return lines


def files_naming(word: str, outside: Path) -> list[str]:
    """The package's files outside ``outside`` whose code names ``word``."""
    return sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                  if outside not in path.parents and path != outside and named_in(path, word))


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_built_in_puzzle_touches_no_shared_file(puzzle):
    """0 shared files: a built-in puzzle is found by its package (``PUZZLE = ...``) and named nowhere
    else, so that cli/ and pipeline/ build everything from what it declares."""
    assert files_naming(puzzle, PACKAGE / "encoders" / puzzle) == []


def test_no_puzzle_is_named_in_the_command_line_or_the_pipeline():
    for layer in ("cli", "pipeline"):
        for path in sorted((PACKAGE / layer).glob("*.py")):
            assert not {name: named_in(path, name) for name in PUZZLES + ["sudoku"] if named_in(path, name)}, path


@pytest.mark.parametrize("module", ["pysat_backend", "z3_backend", "d4_backend", "ganak_backend", "frontier_backend"])
def test_a_backend_touches_one_shared_file(module):
    """1 shared file: a backend is its module and one line in backends/builtin.py's table."""
    assert files_naming(module, PACKAGE / "backends" / f"{module}.py") == ["backends/builtin.py"]


def test_a_task_mode_touches_no_shared_file():
    """0: dice's own task (CountUniverses) lives in its package and nothing outside it names it."""
    assert files_naming("CountUniverses", PACKAGE / "encoders" / "dice") == []


@pytest.mark.parametrize("method", ["Rc2", "Descent", "Z3Optimize", "OwnMaxSat"])
def test_an_optimisation_method_touches_one_shared_file(method):
    """1: a method is its class and its line in pipeline/optimize.py's METHODS, whose names and
    descriptions the command line reads from there."""
    assert files_naming(method, PACKAGE / "pipeline" / "optimize.py") == []


def test_the_documented_counts_are_these():
    table = (PACKAGE.parent / "docs" / "adding-a-puzzle.md").read_text()
    rows = {cells[0]: cells[1] for line in table.splitlines() if line.startswith("| ")
            for cells in [[cell.strip() for cell in line.strip("|").split("|")]] if len(cells) >= 2}
    assert rows["a puzzle, as a plug-in package"].startswith("0")
    assert rows["a built-in puzzle (its package under `encoders/`)"].startswith("0")
    assert rows["a task mode (its `Task` subclass in the puzzle's package)"].startswith("0")
    assert rows["a backend"].startswith("1")
    assert rows["an optimisation method"].startswith("1")


@pytest.mark.parametrize("name", puzzle_names())
def test_every_declaration_is_well_formed(name):
    """What the command line builds from: options of the four types it knows, flags that do not clash
    within a command, generators with a summary, bundled directories that exist."""
    from puzzlesat.core.bundled import located

    puzzle = get_puzzle(name)
    declared = puzzle.reading_options + puzzle.formula_options
    for option in declared + (puzzle.generator.parameters if puzzle.generator else ()):
        assert isinstance(option, Option) and option.type in (int, float, str, bool) and option.help
    spellings = [option.spelling for option in declared]
    assert len(spellings) == len(set(spellings))
    if puzzle.generator is not None:
        assert puzzle.generator.summary and "\n" not in puzzle.generator.summary
    if puzzle.bundled is not None:
        assert Path(located(puzzle.bundled)).is_dir()


def test_shell_completion_offers_the_named_puzzles_declared_options():
    """Completion is click's, on the parameters the named puzzle declares (a plug-in's too)."""
    import os
    import subprocess
    import sys

    exe = str(Path(sys.executable).parent / "puzzlesat")

    def complete(words: str) -> list[str]:
        env = dict(os.environ, _PUZZLESAT_COMPLETE="bash_complete", COMP_WORDS=words,
                   COMP_CWORD=str(len(words.split()) - 1))
        out = subprocess.run([exe], env=env, capture_output=True, text=True).stdout
        return [line.split(",", 1)[1] for line in out.splitlines() if "," in line]

    assert complete("puzzlesat solve dice --tr") == ["--track"]
    assert complete("puzzlesat export jigsaw x --break") == ["--break-symmetry"]
    assert complete("puzzlesat solve aquarium --tr") == []
    assert complete("puzzlesat generate sudoku --si") == ["--size"]
