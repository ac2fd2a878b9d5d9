"""The amphipod plans as strips of burrow states: the start, then the burrow after every move, each
amphipod coloured by type with its letter."""
from __future__ import annotations

from ...formats.picture import Picture
from .burrow import LETTERS
from .rules import apply, start_state
from .solution import AmphipodSolution

WALL, FLOOR = (90, 90, 100), (245, 240, 225)
TYPES = ((230, 159, 0), (86, 180, 233), (0, 158, 115), (213, 94, 0), (204, 121, 167), (0, 114, 178),
         (240, 228, 66), (150, 150, 150), (120, 80, 40), (40, 40, 40))
PER_ROW = 6  # states per line of the strip


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
    pic_width = PER_ROW * width + 1
    rows = sum(1 + -(-len(states) // PER_ROW) * height for _, states in blocks)
    pic = Picture(pic_width, rows + 0.5)
    y = 0.0
    for title, states in blocks:
        pic.label(pic_width / 2, y + 0.6, title, 0.7)
        y += 1
        for k, (caption, lines) in enumerate(states):
            x0, y0 = 0.5 + (k % PER_ROW) * width, y + (k // PER_ROW) * height
            pic.label(x0 + (width - 1) / 2, y0 + 0.5, caption, 0.4)
            for r, line in enumerate(lines):
                for c, ch in enumerate(line):
                    _cell(pic, x0 + c, y0 + 1 + r, ch)
        y += -(-len(states) // PER_ROW) * height
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
