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


def oriented_borders(grid: Grid) -> list[tuple[str, str, str, str]]:
    """``[borders(orient(grid, o)) for o in range(8)]``, the borders (top, right, bottom, left; top and
    bottom read left to right, left and right top to bottom) from the grid's own four, without turning
    the grid: a clockwise turn makes the left border the top one, read the other way, the top the right,
    the right the bottom (the other way) and the bottom the left; a left-right mirror reverses top and
    bottom and swaps left and right. Encoding a 12x12 input needs only these, not 1,152 turned grids."""
    top, right, bottom, left = grid[0], "".join(row[-1] for row in grid), grid[-1], "".join(row[0] for row in grid)
    turned = [(top, right, bottom, left)]
    for _ in range(3):
        top, right, bottom, left = left[::-1], top, right[::-1], bottom
        turned.append((top, right, bottom, left))
    return turned + [(t[::-1], lt, b[::-1], r) for t, r, b, lt in turned]


def composition_table() -> list[list[int]]:
    """``table[g][o]``: the orientation equal to applying ``o`` and then ``g`` (found on a probe grid)."""
    probe = ("ab", "cd")
    lookup = {orient(probe, o): o for o in range(8)}
    return [[lookup[orient(orient(probe, o), g)] for o in range(8)] for g in range(8)]
