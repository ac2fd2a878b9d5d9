"""The 8 symmetries of a square character grid (dihedral group D4), as orientation numbers 0-7.

Orientation ``o = 4 * flip + turns``: rotate clockwise ``turns`` times, then mirror left-right if ``flip``.
"""
from __future__ import annotations

Grid = tuple[str, ...]


def rotate_cw(grid: Grid) -> Grid:
    return tuple("".join(column) for column in zip(*reversed(grid)))


def orient(grid: Grid, orientation: int) -> Grid:
    for _ in range(orientation % 4):
        grid = rotate_cw(grid)
    if orientation >= 4:
        grid = tuple(row[::-1] for row in grid)
    return grid


def orientations(grid: Grid) -> list[Grid]:
    """``[orient(grid, o) for o in range(8)]`` with 3 rotations instead of 12."""
    turned = [grid]
    for _ in range(3):
        turned.append(rotate_cw(turned[-1]))
    return turned + [tuple(row[::-1] for row in look) for look in turned]


def composition_table() -> list[list[int]]:
    """``table[g][o]``: the orientation equal to applying ``o`` and then ``g`` (found on a probe grid)."""
    probe = ("ab", "cd")
    lookup = {orient(probe, o): o for o in range(8)}
    return [[lookup[orient(orient(probe, o), g)] for o in range(8)] for g in range(8)]
