"""The aquarium grid as people draw it: water blue, thick region borders, clues outside the grid, and
a legend below."""
from __future__ import annotations

from ...formats.picture import Picture
from .instance import AquariumInstance
from .solution import AquariumForced, AquariumSolution

WATER, DRY, GRID, BORDER = (70, 130, 220), (235, 235, 235), (200, 200, 200), (20, 20, 20)
#: a cell that differs between solutions (``solve --forced``)
OPEN = (170, 170, 170)


def picture(instance: AquariumInstance, solution: AquariumSolution | AquariumForced) -> Picture:
    """A solution, or what every solution shares (its open cells grey)."""
    height, width = instance.height, instance.width
    cells = solution.cells if isinstance(solution, AquariumForced) else solution.water
    pic = Picture(width + 1.5, height + 1.5)
    x0 = y0 = 1.0  # one cell of margin for the clues (top: columns, left: rows)
    for r in range(height):
        for c in range(width):
            if cells[r][c] is None:
                pic.rect(x0 + c, y0 + r, 1, 1, OPEN)
            elif cells[r][c]:
                pic.rect(x0 + c, y0 + r, 1, 1, WATER)
    for k in range(width + 1):  # thin grid lines
        pic.rect(x0 + k - 0.01, y0, 0.02, height, GRID)
    for k in range(height + 1):
        pic.rect(x0, y0 + k - 0.01, width, 0.02, GRID)
    for (r, c), (r2, c2) in instance.wall_set:
        if c2 > c:  # a wall between side-by-side cells: a vertical stroke
            pic.rect(x0 + c + 1 - 0.04, y0 + r - 0.04, 0.08, 1.08, BORDER)
        else:
            pic.rect(x0 + c - 0.04, y0 + r + 1 - 0.04, 1.08, 0.08, BORDER)
    for edge in (0, width):
        pic.rect(x0 + edge - 0.05, y0 - 0.05, 0.1, height + 0.1, BORDER)
    for edge in (0, height):
        pic.rect(x0 - 0.05, y0 + edge - 0.05, width + 0.1, 0.1, BORDER)
    for c, count in enumerate(instance.cols):
        if count is not None:  # no clue: nothing drawn
            pic.label(x0 + c + 0.5, 0.5, str(count))
    for r, count in enumerate(instance.rows):
        if count is not None:
            pic.label(0.5, y0 + r + 0.5, str(count))
    legend = [(WATER, "water"), (DRY, "dry"), (BORDER, "wall")]
    if isinstance(solution, AquariumForced):
        legend.insert(2, (OPEN, "differs between solutions"))
    pic.legend([*legend, (None, "clues: water cells of each row and column")], max(0.3, 0.04 * max(height, width)))
    return pic
