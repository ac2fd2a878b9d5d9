"""The jig layout: each cell a piece (its id in the middle), each side's tab type as a coloured knob
that sticks out (tab, positive type) into the neighbour's notch (blank, negative type)."""
from __future__ import annotations

from ...formats.picture import Picture
from .solution import JigSolution

PIECE, NOTCH = (235, 225, 200), (255, 255, 255)
PALETTE = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 127, 14), (148, 103, 189), (140, 86, 75),
           (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207))
KNOB, DEPTH = 0.3, 0.14  # knob width and how far it reaches across the side


def picture(solution: JigSolution) -> Picture:
    pic = Picture(solution.cols + 0.4, solution.rows + 0.4)
    cells = [(i // solution.cols, i % solution.cols) for i in range(solution.rows * solution.cols)]
    for r, c in cells:
        pic.rect(0.2 + c + 0.04, 0.2 + r + 0.04, 0.92, 0.92, PIECE)
    for sign in (-1, 1):  # notches first, then the tabs that fill them
        for i, (r, c) in enumerate(cells):
            for side, value in enumerate(solution.sides[i]):
                if value and (value > 0) == (sign > 0):
                    _knob(pic, 0.2 + c, 0.2 + r, side, value)
    for i, (r, c) in enumerate(cells):
        pic.label(0.2 + c + 0.5, 0.2 + r + 0.5, str(solution.placement[i][0]), 0.35)
    _key(pic, sorted({abs(value) for sides in solution.sides for value in sides if value}))
    return pic


def _key(pic: Picture, types: list[int]) -> None:
    """Below the grid, what the colours mean: a knob of each tab type's colour (a tab sticks out, the
    blank of the same type takes it in), and what the numbers in the cells are."""
    unit = max(0.3, pic.width / 16)  # in proportion to the grid, so that it reads in a 12 x 12 one too
    column = 4.8 * unit  # a swatch and "type 10" in the SVG's monospace, with a gap
    per_row = max(1, int((pic.width - 0.2) // column))
    top = pic.height + 0.3 * unit
    lines = -(-len(types) // per_row)
    pic.height += (lines + 1.6) * 1.3 * unit
    for number, kind in enumerate(types):
        x = 0.2 + (number % per_row) * column
        y = top + (number // per_row) * 1.3 * unit
        pic.rect(x, y, unit, unit, PALETTE[(kind - 1) % len(PALETTE)])
        pic.label(x + 1.3 * unit, y + unit / 2, f"type {kind}", 0.8 * unit, start=True)
    pic.label(0.2, top + lines * 1.3 * unit + 0.5 * unit, "tab types: a tab fills the blank of its type; "
              "numbers: the pieces", 0.8 * unit, start=True)


def _knob(pic: Picture, x: float, y: float, side: int, value: int) -> None:
    """Side 0..3 = top, right, bottom, left; a tab reaches out of the cell, a blank into it."""
    colour = PALETTE[(abs(value) - 1) % len(PALETTE)] if value > 0 else NOTCH
    reach = DEPTH if value > 0 else -DEPTH
    mid = 0.5 - KNOB / 2
    if side == 0:
        pic.rect(x + mid, y + 0.04 - max(reach, 0), KNOB, abs(reach), colour)
    elif side == 2:
        pic.rect(x + mid, y + 0.96 - max(-reach, 0), KNOB, abs(reach), colour)
    elif side == 3:
        pic.rect(x + 0.04 - max(reach, 0), y + mid, abs(reach), KNOB, colour)
    else:
        pic.rect(x + 0.96 - max(-reach, 0), y + mid, abs(reach), KNOB, colour)
