"""Jigsaw tiles as a tiling problem: 8 oriented variants per tile, side keys = border strings.

Borders are read in one direction per axis (left/right sides top to bottom, top/bottom sides left to
right), so touching sides fit exactly when their strings are equal. The outer border is free. An
orientation that looks like an earlier one (a tile that is its own mirror image) is the same variant.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..tiling.problem import TilingProblem, Variant
from .grids import composition_table, orient, oriented_borders
from .instance import JigsawInstance


@lru_cache(maxsize=8)  # encode, decode and reference of one instance share it
def tiling_problem(instance: JigsawInstance) -> TilingProblem:
    """Each orientation's look is told apart by its borders; only where two orientations of a tile have
    the same four borders (a tile that may be its own mirror image) is the whole turned grid compared.
    Different borders mean different looks, so this finds the same variants as comparing every turned
    grid, without turning any other tile."""
    oriented = []
    for piece, tile in enumerate(instance.tiles):
        keys = oriented_borders(tile)
        repeated = Counter(keys)
        oriented += [(Variant(piece, o, side_keys), side_keys if repeated[side_keys] == 1 else (side_keys, orient(tile, o)))
                     for o, side_keys in enumerate(keys)]
    table = composition_table()
    # whole-image symmetries that map the grid onto itself: all 8 for a square, else 180-degree
    # rotation and the two mirrors
    square = instance.rows == instance.cols
    group = range(8) if square else (0, 2, 4, 6)
    return TilingProblem.build(instance.rows, instance.cols, len(instance.tiles), oriented,
                               tuple(tuple(table[g]) for g in group), tuple(group))
