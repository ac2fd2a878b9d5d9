"""Puzzles and backends from other packages, registered as entry points.

A package adds a puzzle by declaring, in its ``pyproject.toml``::

    [project.entry-points."puzzlesat.puzzles"]
    sudoku = "puzzlesat_sudoku:PUZZLE"

and a backend likewise under ``puzzlesat.backends`` (the object is a factory: a Backend subclass or a
function returning a Backend). ``importlib.metadata`` costs about 17 ms to import, so the entry
points are read only when a name is not a built-in one or when every name is listed: commands on the
built-in puzzles and backends never pay for it.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .errors import PuzzlesatError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

PUZZLE_GROUP = "puzzlesat.puzzles"
BACKEND_GROUP = "puzzlesat.backends"


@cache
def registered(group: str) -> dict[str, EntryPoint]:
    """The entry points of ``group`` by name, from every installed distribution."""
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group=group)}


def load(group: str, name: str) -> object:
    """The object an entry point names; a package that fails to import is a one-line error naming it."""
    point = registered(group)[name]
    try:
        return point.load()
    except Exception as exc:  # noqa: BLE001  (a broken plug-in is the user's one-line error, not a traceback)
        raise PuzzlesatError(f"{group} entry point '{name}' ({point.value}) failed to load: "
                             f"{type(exc).__name__}: {exc}") from None
