"""The solver-free reference for tilings: backtracking over the pruned cell domains, line by line.

Cells are filled line by line along the grid's shorter side (row-major when the rows are no longer than
the columns, else column-major), so that a line is closed by the border soon: partial lines that fit
stay alive until the border rejects them, and a long line keeps many alive. Either way the placed
neighbours of the next cell are its left and top ones, and a variant fits when its left and top keys
match theirs and its piece is unused. It does not assume that an edge has a unique partner, so
ambiguous inputs are searched completely.
"""
from __future__ import annotations

import sys

from .domains import cell_domains
from .problem import BOTTOM, LEFT, RIGHT, TOP, TilingProblem


def backtrack(problem: TilingProblem, limit: int | None = None, break_symmetry: bool = False) -> list[list[tuple[int, int]]]:
    """Up to ``limit`` assemblies (all when None), each as (piece, orientation) per cell."""
    variants, cols = problem.variants, problem.cols
    domains = cell_domains(problem, break_symmetry)
    # per cell: (left key, top key) -> candidate variants; None stands for "no neighbour there"
    index = []
    for cell, domain in enumerate(domains):
        table: dict[tuple, list[int]] = {}
        r, c = divmod(cell, cols)
        for i in domain:
            keys = variants[i].keys
            table.setdefault((keys[LEFT] if c else None, keys[TOP] if r else None), []).append(i)
        index.append(table)
    cells = problem.rows * cols
    if cols <= problem.rows:
        order = list(range(cells))
    else:
        order = [r * cols + c for c in range(cols) for r in range(problem.rows)]
    placed = [0] * cells
    used = [False] * problem.num_pieces
    found: list[list[tuple[int, int]]] = []

    def fill(step: int) -> bool:
        if step == cells:
            found.append([(variants[i].piece, variants[i].orientation) for i in placed])
            return limit is not None and len(found) >= limit
        cell = order[step]
        r, c = divmod(cell, cols)
        left = variants[placed[cell - 1]].keys[RIGHT] if c else None
        top = variants[placed[cell - cols]].keys[BOTTOM] if r else None
        for i in index[cell].get((left, top), ()):
            piece = variants[i].piece
            if used[piece]:
                continue
            used[piece] = True
            placed[cell] = i
            stop = fill(step + 1)
            used[piece] = False
            if stop:
                return True
        return False

    sys.setrecursionlimit(max(sys.getrecursionlimit(), cells + 200))
    fill(0)
    return found
