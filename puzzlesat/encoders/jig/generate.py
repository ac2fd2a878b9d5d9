"""Random jig puzzles: a solved R x C layout with K tab types, then pieces shuffled and rotated."""
from __future__ import annotations

import random

from ...core.errors import PuzzlesatError
from .solution import rotate


def generate(rows: int, cols: int, types: int, seed: int) -> str:
    if rows < 1 or cols < 1 or types < 1:
        raise PuzzlesatError("--rows, --cols and --types must be positive")
    rng = random.Random(seed)
    # side value of every internal edge, seen from the left/upper piece; the other piece gets its negation
    right = [[rng.choice((-1, 1)) * rng.randint(1, types) for _ in range(cols - 1)] for _ in range(rows)]
    down = [[rng.choice((-1, 1)) * rng.randint(1, types) for _ in range(cols)] for _ in range(rows - 1)]
    pieces = []
    for r in range(rows):
        for c in range(cols):
            top = -down[r - 1][c] if r else 0
            rgt = right[r][c] if c < cols - 1 else 0
            bottom = down[r][c] if r < rows - 1 else 0
            left = -right[r][c - 1] if c else 0
            pieces.append(rotate((top, rgt, bottom, left), rng.randrange(4)))
    rng.shuffle(pieces)
    lines = [f"# generated: puzzlesat generate jig --rows {rows} --cols {cols} --types {types} --seed {seed}",
             f"{rows} {cols}"]
    lines += [f"{i} {' '.join(str(v) for v in sides)}" for i, sides in enumerate(pieces)]
    return "\n".join(lines) + "\n"
