"""Random amphipod burrows: ``rooms`` rooms of ``depth`` slots, amphipods shuffled, hallway of the AoC
shape (two cells at each end, one between rooms). A start is kept only when the SAT solver finds a plan
for every part ``solve`` reads from it (four rooms: the drawing and part 2's unfolded burrow), so every
generated burrow is solvable as ``solve`` reads it.

Fully shuffled deep burrows are almost never solvable (4 rooms of depth 6: none of 20 random starts;
the hallway has only 7 stops), so when ``ATTEMPTS`` shuffles fail, the bottom rows are left sorted
(home, never moving) and only the rows above are shuffled, one more sorted row at a time."""
from __future__ import annotations

import random

from ...core.errors import PuzzlesatError
from .burrow import LETTERS, Burrow

ATTEMPTS = 50


def random_burrow(rooms: int, depth: int, rng: random.Random, sorted_rows: int = 0) -> Burrow:
    """Shuffled amphipods, except ``sorted_rows`` bottom rows that start home."""
    mixed = depth - sorted_rows
    amphipods = [kind for kind in range(rooms) for _ in range(mixed)]
    rng.shuffle(amphipods)
    room_x = tuple(2 + 2 * k for k in range(rooms))
    return Burrow(2 * rooms + 3, room_x, tuple(tuple(amphipods[k * mixed:(k + 1) * mixed]) + (k,) * sorted_rows
                                               for k in range(rooms)))


def solvable(burrow: Burrow) -> bool:
    """Whether every part that ``solve`` reads from the drawing has a plan: with four rooms that
    includes part 2's unfolded burrow, which can be stuck when the drawing itself is not."""
    from pysat.solvers import Solver

    from .events import encode_events
    from .instance import parse
    parts = parse(burrow.draw(), "generated", unfold_part2=burrow.types == 4).burrows
    with Solver(name="glucose4", bootstrap_with=encode_events(parts).pysat_clauses()) as solver:
        return solver.solve() is True


def generate(rooms: int, depth: int, seed: int) -> str:
    if not 1 <= rooms <= len(LETTERS) or depth < 1:
        raise PuzzlesatError(f"--rooms must be 1-{len(LETTERS)} and --depth >= 1")
    rng = random.Random(seed)
    for sorted_rows in range(depth):
        for _ in range(ATTEMPTS):
            burrow = random_burrow(rooms, depth, rng, sorted_rows)
            if solvable(burrow):
                return burrow.draw() + "\n"
    raise PuzzlesatError("no solvable start found")  # unreachable: one shuffled row is always solvable
