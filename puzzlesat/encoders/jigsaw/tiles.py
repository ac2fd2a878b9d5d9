"""Jigsaw tiles as a tiling problem: 8 oriented variants per tile, side keys = border strings.

Borders are read in one direction per axis (left/right sides top to bottom, top/bottom sides left to
right), so touching sides fit exactly when their strings are equal. The outer border is free. An
orientation that looks like an earlier one (a tile that is its own mirror image) is the same variant.
"""
from __future__ import annotations

from functools import lru_cache

from ..tiling.problem import TilingProblem, Variant
from .grids import composition_table, orientations
from .instance import JigsawInstance


def borders(grid: tuple[str, ...]) -> tuple[str, str, str, str]:
    """(top, right, bottom, left)."""
    return grid[0], "".join(row[-1] for row in grid), grid[-1], "".join(row[0] for row in grid)


@lru_cache(maxsize=8)  # encode, decode and reference of one instance share it
def tiling_problem(instance: JigsawInstance) -> TilingProblem:
    oriented = [(Variant(piece, o, borders(look)), look)
                for piece, tile in enumerate(instance.tiles) for o, look in enumerate(orientations(tile))]
    table = composition_table()
    # whole-image symmetries that map the grid onto itself: all 8 for a square, else 180-degree
    # rotation and the two mirrors
    square = instance.rows == instance.cols
    group = range(8) if square else (0, 2, 4, 6)
    return TilingProblem.build(instance.rows, instance.cols, len(instance.tiles), oriented,
                               tuple(tuple(table[g]) for g in group), tuple(group))
