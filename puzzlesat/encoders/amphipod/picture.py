"""The amphipod plans as strips of burrow states: the start, then the burrow after every move, each
amphipod coloured by type with its letter."""
from __future__ import annotations

import math

from ...formats.picture import Picture
from .burrow import LETTERS
from .rules import apply, start_state
from .solution import AmphipodSolution

WALL, FLOOR = (90, 90, 100), (245, 240, 225)
TYPES = ((230, 159, 0), (86, 180, 233), (0, 158, 115), (213, 94, 0), (204, 121, 167), (0, 114, 178),
         (240, 228, 66), (150, 150, 150), (120, 80, 40), (40, 40, 40))
#: a caption's size, in cells (each cell some 20-30 pixels in the PNG, whose longer side is 1200)
CAPTION = 0.6


def picture(solution: AmphipodSolution) -> Picture:
    drawings: list[tuple[str, list[str]]] = []  # (caption, drawing lines) per plan, per state
    blocks = []
    for plan in solution.plans:
        state = start_state(plan.burrow)
        states = [("start", plan.burrow.draw(*state).split("\n"))]
        for number, move in enumerate(plan.moves, 1):
            state, _ = apply(plan.burrow, state, move)
            states.append((f"{number}. {move.describe()}", plan.burrow.draw(*state).split("\n")))
        blocks.append((f"{plan.label} = {plan.energy} ({len(plan.moves)} moves)", states))
        drawings += states
    width = max(len(line) for _, lines in drawings for line in lines) + 1
    height = max(len(lines) for _, lines in drawings) + 1.2  # room for the caption
    # states per line of the strip, so that the picture is about as wide as it is tall: the PNG scales
    # its longer side to 1200 pixels, and six states a line left the captions some 5 pixels tall
    per_row = max(2, math.ceil(math.sqrt(len(drawings) * height / width)))
    pic_width = per_row * width + 1
    rows = sum(1 + -(-len(states) // per_row) * height for _, states in blocks)
    pic = Picture(pic_width, rows + 0.5)
    y = 0.0
    for title, states in blocks:
        pic.label(pic_width / 2, y + 0.6, title, 0.7)
        y += 1
        for k, (caption, lines) in enumerate(states):
            x0, y0 = 0.5 + (k % per_row) * width, y + (k // per_row) * height
            pic.label(x0 + (width - 1) / 2, y0 + 0.5, caption, min(CAPTION, (width - 1) / (0.6 * len(caption))))
            for r, line in enumerate(lines):
                for c, ch in enumerate(line):
                    _cell(pic, x0 + c, y0 + 1 + r, ch)
        y += -(-len(states) // per_row) * height
    return pic


def _cell(pic: Picture, x: float, y: float, ch: str) -> None:
    if ch == "#":
        pic.rect(x, y, 1, 1, WALL)
    elif ch == ".":
        pic.rect(x, y, 1, 1, FLOOR)
    elif ch in LETTERS:
        pic.rect(x, y, 1, 1, FLOOR)
        pic.rect(x + 0.1, y + 0.1, 0.8, 0.8, TYPES[LETTERS.index(ch) % len(TYPES)])
        pic.label(x + 0.5, y + 0.5, ch, 0.6)
