"""Random amphipod burrows: ``rooms`` rooms of ``depth`` slots, amphipods shuffled, hallway of the AoC
shape (two cells at each end, one between rooms). A start is kept only when the SAT solver finds a plan
for it (the event encoding's hard clauses), so every generated burrow is solvable."""
from __future__ import annotations

import random

from ...core.errors import PuzzlesatError
from .burrow import LETTERS, Burrow

ATTEMPTS = 50


def random_burrow(rooms: int, depth: int, rng: random.Random) -> Burrow:
    amphipods = [kind for kind in range(rooms) for _ in range(depth)]
    rng.shuffle(amphipods)
    room_x = tuple(2 + 2 * k for k in range(rooms))
    return Burrow(2 * rooms + 3, room_x, tuple(tuple(amphipods[k * depth:(k + 1) * depth]) for k in range(rooms)))


def solvable(burrow: Burrow) -> bool:
    from pysat.solvers import Solver

    from .events import encode_events
    with Solver(name="glucose4", bootstrap_with=encode_events((("energy", burrow),)).clauses) as solver:
        return solver.solve()


def generate(rooms: int, depth: int, seed: int) -> str:
    if not 1 <= rooms <= len(LETTERS) or depth < 1:
        raise PuzzlesatError(f"--rooms must be 1-{len(LETTERS)} and --depth >= 1")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        burrow = random_burrow(rooms, depth, rng)
        if solvable(burrow):
            return burrow.draw() + "\n"
    raise PuzzlesatError(f"no solvable start in {ATTEMPTS} attempts")
