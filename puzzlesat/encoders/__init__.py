"""The puzzles: one subpackage each here, plus any that another package registers under the entry-point
group ``puzzlesat.puzzles`` (see :mod:`puzzlesat.core.plugins` and ``docs/adding-a-puzzle.md``).
:func:`get_puzzle` imports only the one asked for.

A built-in puzzle registers itself the way a plug-in's entry point does, by naming its object, here in
its own package: a subpackage whose ``__init__.py`` has a line ``PUZZLE = ...`` is a puzzle of that
name. The lines are read as text, not imported (reading the installed distributions' entry points costs
about 40 ms, more than a command's start-up may), so adding a built-in puzzle touches no shared file.
"""
from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path
from typing import Any

from ..core.errors import PuzzlesatError
from ..core.plugins import PUZZLE_GROUP, load, registered
from ..core.puzzle import Puzzle

_REGISTERS = re.compile(r"^PUZZLE = ", re.MULTILINE)


@cache
def builtin_names() -> tuple[str, ...]:
    """The puzzles of this package, by name (alphabetical): each subpackage that defines ``PUZZLE``."""
    here = Path(__file__).resolve().parent
    return tuple(sorted(package.parent.name for package in here.glob("*/__init__.py")
                        if _REGISTERS.search(package.read_text(encoding="utf-8"))))


def puzzle_names() -> tuple[str, ...]:
    """Every puzzle name: the built-in ones, then those other packages register (reads entry points)."""
    builtin = builtin_names()
    return builtin + tuple(sorted(set(registered(PUZZLE_GROUP)) - set(builtin)))


def get_puzzle(name: str) -> Puzzle[Any, Any, Any]:
    """The puzzle of that name; a built-in one shadows a plug-in of the same name."""
    if name in builtin_names():
        found: object = importlib.import_module(f"{__name__}.{name}").PUZZLE
    elif name in registered(PUZZLE_GROUP):
        return _plugin_puzzle(name)
    else:
        raise PuzzlesatError(f"unknown puzzle '{name}' (known: {', '.join(puzzle_names())})")
    if not isinstance(found, Puzzle):
        raise PuzzlesatError(f"puzzle '{name}' is a {type(found).__name__}, not a puzzlesat Puzzle")
    return found


@cache
def _plugin_puzzle(name: str) -> Puzzle[Any, Any, Any]:
    """The puzzle another package registers, guarded (:func:`~puzzlesat.core.plugins.guarded`)."""
    found = load(PUZZLE_GROUP, name)
    if not isinstance(found, Puzzle):
        raise PuzzlesatError(f"puzzle '{name}' is a {type(found).__name__}, not a puzzlesat Puzzle")
    from .guard import guarded

    return guarded(found, name)
