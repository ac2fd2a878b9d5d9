"""The puzzles: one subpackage each here, plus any that another package registers under the entry-point
group ``puzzlesat.puzzles`` (see :mod:`puzzlesat.core.plugins` and ``docs/adding-a-puzzle.md``).
:func:`get_puzzle` imports only the one asked for."""
from __future__ import annotations

import importlib
from typing import Any

from ..core.errors import PuzzlesatError
from ..core.plugins import PUZZLE_GROUP, load, registered
from ..core.puzzle import Puzzle

#: the puzzles of this package (each subpackage defines ``PUZZLE``), with bundled instances
BUILTIN = ("aquarium", "jigsaw", "jig", "amphipod", "dice")
#: plain formula files read as puzzles (any DIMACS CNF, any WCNF)
FORMULAS = ("cnf", "wcnf")


def puzzle_names() -> tuple[str, ...]:
    """Every puzzle name: the built-in ones, then those other packages register (reads entry points)."""
    return BUILTIN + FORMULAS + tuple(sorted(set(registered(PUZZLE_GROUP)) - set(BUILTIN + FORMULAS)))


def get_puzzle(name: str) -> Puzzle[Any, Any, Any]:
    """The puzzle of that name; a built-in one shadows a plug-in of the same name."""
    if name in BUILTIN + FORMULAS:
        found: object = importlib.import_module(f"{__name__}.{name}").PUZZLE
    elif name in registered(PUZZLE_GROUP):
        found = load(PUZZLE_GROUP, name)
    else:
        raise PuzzlesatError(f"unknown puzzle '{name}' (known: {', '.join(puzzle_names())})")
    if not isinstance(found, Puzzle):
        raise PuzzlesatError(f"puzzle '{name}' is a {type(found).__name__}, not a puzzlesat Puzzle")
    return found
