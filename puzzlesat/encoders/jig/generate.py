"""Random jig puzzles: a solved R x C layout with K tab types, then pieces shuffled and rotated. The
layout the pieces were cut from is checked against the rules before the puzzle is written, so every
generated jig has a solution."""
from __future__ import annotations

import random

from ...core.errors import PuzzlesatError
from .check import check
from .instance import parse
from .solution import JigSolution, rotate


def default_types(rows: int, cols: int) -> int:
    """The tab types of a generated jig when none are asked for: the larger of 6, the grid's longer side
    and its cells / 20. Few types make many pieces fit many places, an edge-matching puzzle that is hard
    for every method; the number a grid needs grows with it. Measured with `count jig` on generated jigs
    (seed 1, 2 cores, 2026-11-27; 30 s limit): 10x10 of 6 types 61 s, of 10 types 0.3 s; 12x12 of 8
    types 6.3 s, of 10 0.5 s; 15x15 of 10 past the limit, of 12 1.7 s; 20x20 of 15 past it, of 20 1.6 s;
    30x30 of 30 past it, of 45 0.8 s; 50x50 of 75 past it, of 100 2.5 s. (The published jigs have
    15-17 types on 100-121 pieces.)"""
    return max(6, rows, cols, rows * cols // 20)


def generate(rows: int, cols: int, types: int, seed: int, flat: float = 0.0) -> str:
    """``flat``: the chance that an inner edge is flat on both sides (0: never; the same seed then gives
    the same puzzle as before the option existed)."""
    if rows < 1 or cols < 1 or types < 1:
        raise PuzzlesatError("--rows, --cols and --types must be positive")
    if not 0 <= flat < 1:
        raise PuzzlesatError(f"--flat {flat}: expected a chance from 0 up to (not including) 1")
    rng = random.Random(seed)

    def edge() -> int:
        """An inner edge's side, seen from the left or upper piece; the other piece gets its negation."""
        if flat and rng.random() < flat:
            return 0
        return rng.choice((-1, 1)) * rng.randint(1, types)

    right = [[edge() for _ in range(cols - 1)] for _ in range(rows)]
    down = [[edge() for _ in range(cols)] for _ in range(rows - 1)]
    cut = []  # per cell: (sides as laid, quarter turns given to the piece)
    for r in range(rows):
        for c in range(cols):
            top = -down[r - 1][c] if r else 0
            rgt = right[r][c] if c < cols - 1 else 0
            bottom = down[r][c] if r < rows - 1 else 0
            left = -right[r][c - 1] if c else 0
            cut.append(((top, rgt, bottom, left), rng.randrange(4)))
    order = list(range(rows * cols))
    rng.shuffle(order)  # piece i is the piece cut from cell order[i]
    pieces = [rotate(*cut[cell]) for cell in order]
    flats = f" --flat {flat:g}" if flat else ""
    lines = [f"# generated: puzzlesat generate jig --rows {rows} --cols {cols} --types {types}{flats} --seed {seed}",
             f"{rows} {cols}"]
    lines += [f"{i} {' '.join(str(v) for v in sides)}" for i, sides in enumerate(pieces)]
    text = "\n".join(lines) + "\n"
    piece_at = {cell: i for i, cell in enumerate(order)}
    laid = JigSolution(rows, cols, tuple((piece_at[cell], (4 - cut[cell][1]) % 4) for cell in range(rows * cols)),
                       tuple(sides for sides, _ in cut))
    problems = check(parse(text, "generated"), laid)
    if problems:  # the cut is a solution by construction: a failure here is a bug, not bad luck
        raise PuzzlesatError(f"internal: the generated layout breaks the rules: {problems[0]}")
    return text
