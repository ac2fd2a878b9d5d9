"""The aquarium grid as people draw it: water blue, thick region borders, clues outside the grid, and
a legend below."""
from __future__ import annotations

from ...formats.picture import Picture
from .instance import AquariumInstance
from .solution import AquariumSolution

WATER, DRY, GRID, BORDER = (70, 130, 220), (235, 235, 235), (200, 200, 200), (20, 20, 20)


def picture(instance: AquariumInstance, solution: AquariumSolution) -> Picture:
    n = instance.n
    pic = Picture(n + 1.5, n + 1.5)
    x0 = y0 = 1.0  # one cell of margin for the clues (top: columns, left: rows)
    for r in range(n):
        for c in range(n):
            if solution.water[r][c]:
                pic.rect(x0 + c, y0 + r, 1, 1, WATER)
    for k in range(n + 1):  # thin grid lines
        pic.rect(x0 + k - 0.01, y0, 0.02, n, GRID)
        pic.rect(x0, y0 + k - 0.01, n, 0.02, GRID)
    regions = instance.regions
    for r in range(n):
        for c in range(n):
            if c + 1 < n and regions[r][c] != regions[r][c + 1]:
                pic.rect(x0 + c + 1 - 0.04, y0 + r - 0.04, 0.08, 1.08, BORDER)
            if r + 1 < n and regions[r][c] != regions[r + 1][c]:
                pic.rect(x0 + c - 0.04, y0 + r + 1 - 0.04, 1.08, 0.08, BORDER)
    for edge in (0, n):
        pic.rect(x0 + edge - 0.05, y0 - 0.05, 0.1, n + 0.1, BORDER)
        pic.rect(x0 - 0.05, y0 + edge - 0.05, n + 0.1, 0.1, BORDER)
    for k in range(n):
        pic.label(x0 + k + 0.5, 0.5, str(instance.cols[k]))
        pic.label(0.5, y0 + k + 0.5, str(instance.rows[k]))
    pic.legend([(WATER, "water"), (DRY, "dry"), (BORDER, "region wall"),
                (None, "clues: water cells of each row and column")], max(0.3, 0.04 * n))
    return pic
