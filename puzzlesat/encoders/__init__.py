"""One subpackage per puzzle; :func:`get_puzzle` imports only the one asked for."""
from __future__ import annotations

import importlib

from ..core.errors import PuzzlesatError
from ..core.puzzle import Puzzle

PUZZLES = ("aquarium", "jigsaw", "jig", "amphipod", "dice")


def get_puzzle(name: str) -> Puzzle:
    if name not in PUZZLES:
        raise PuzzlesatError(f"unknown puzzle '{name}' (known: {', '.join(PUZZLES)})")
    return importlib.import_module(f"{__name__}.{name}").PUZZLE
