"""An explanation drawn: one small grid per step, the cells fixed before it in their colours and the
cells it fixes highlighted, titled with the facts it uses (``explain --svg`` / ``--png``), with a legend
of the colours below the panels. A step that only rules out values a text does not list one by one (a
tiling's placements) marks each cell where it rules some out, with how many: without the marks, the
66 steps of a 5 x 5 jig were 66 panels alike."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..formats.picture import CHARACTER_WIDTH, Picture, Pixel
from . import Explanation, Facts
from .hints import Hint

#: a cell's colour by (its value, fixed by this step)
COLOURS: dict[tuple[bool, bool], Pixel] = {(True, False): (70, 130, 220), (False, False): (225, 225, 225),
                                           (True, True): (245, 150, 20), (False, True): (250, 215, 160)}
#: a cell where this step rules out values that are not drawn (a tiling's placements), and its text
RULED_OUT: Pixel = (240, 175, 175)
RULED_OUT_TEXT: Pixel = (150, 20, 20)
GRID: Pixel = (190, 190, 190)
WALL: Pixel = (30, 30, 30)
TITLE_SIZE = 0.45
#: the fewest PNG pixels a cell gets, so that a title of TITLE_SIZE (in cells, at most the panel's width
#: times 0.06) is some 9 pixels tall whatever the number of steps
LEAST_SCALE = 12


def steps_picture(explanation: Explanation) -> Picture:
    """Every step as a panel, left to right and top to bottom. A cell is a shown variable's (row, column)
    (its first two coordinates); values a text does not list (a tiling's ruled-out placements) are not
    drawn."""
    facts = explanation.facts
    where = {var: [(int(cell[0]), int(cell[1])) for cell in cells] for var, cells in facts.cells.items()}
    #: what a cell shows as text where its variable is true: a tiling's piece (a placement's third entry)
    written = {var: str(cells[0][2]) for var, cells in facts.cells.items() if len(cells) == 1 and len(cells[0]) > 2}
    rows = 1 + max((r for spots in where.values() for r, _ in spots), default=0)
    cols = 1 + max((c for spots in where.values() for _, c in spots), default=0)
    steps = explanation.steps
    title_size = max(TITLE_SIZE, 0.06 * cols)
    width, height = cols + 1, rows + 0.5 + 2.4 * title_size  # a margin, and the title's two lines
    # as many panels a row as make the picture about square (five a row made a 15 x 15 puzzle's 77
    # steps a strip 1330 pixels tall with 3-pixel titles)
    across = max(1, min(len(steps), math.ceil(math.sqrt(len(steps) * height / width))))
    picture = Picture(across * width + 0.5, -(-len(steps) // across) * height + 0.5, least_scale=LEAST_SCALE)
    top = 2.4 * title_size  # where a panel's grid starts, below its title
    known: list[int] = []
    for number, step in enumerate(steps):
        x0 = 0.5 + (number % across) * width
        y0 = 0.5 + (number // across) * height
        for literals, fresh in ((known, False), (step.forced, True)):
            for literal in literals:
                if (literal > 0) in facts.listed:
                    for r, c in where[abs(literal)]:
                        picture.rect(x0 + c, y0 + top + r, 1, 1, COLOURS[literal > 0, fresh])
                        if literal > 0 and literal in written:
                            text = written[literal]
                            picture.label(x0 + c + 0.5, y0 + top + 0.5 + r, text, min(0.45, 1.6 / max(1, len(text))),
                                          (255, 255, 255))
        taken = {spot for literal in (*known, *step.forced) if literal > 0 and literal in written
                 for spot in where[literal]}
        ruled_out: dict[tuple[int, int], int] = {}  # this step's values not drawn, by cell
        for literal in step.forced:
            if (literal > 0) not in facts.listed:
                for spot in where[abs(literal)]:
                    ruled_out[spot] = ruled_out.get(spot, 0) + 1
        for (r, c), many in ruled_out.items():
            if (r, c) in taken:  # a badge in the corner, the cell's own text left readable
                picture.rect(x0 + c + 0.45, y0 + top + r + 0.55, 0.5, 0.4, RULED_OUT)
                picture.label(x0 + c + 0.7, y0 + top + r + 0.75, f"-{many}", 0.3, RULED_OUT_TEXT)
            else:
                picture.rect(x0 + c + 0.1, y0 + top + r + 0.1, 0.8, 0.8, RULED_OUT)
                picture.label(x0 + c + 0.5, y0 + top + 0.5 + r, f"-{many}", 0.4, RULED_OUT_TEXT)
        _lines(picture, facts, x0, y0 + top, rows, cols)
        title = f"{number + 1}. " + " + ".join(facts.facts[i].short or facts.facts[i].label for i in step.facts)
        for line, text in enumerate(_wrapped(title, int(cols / (CHARACTER_WIDTH * title_size)))):
            picture.label(x0, y0 + 0.6 * title_size + 1.1 * title_size * line, text, title_size, start=True)
        known += step.forced
    picture.legend(_legend(facts), title_size)
    return picture


def _lines(picture: Picture, facts: Facts, x0: float, y0: float, rows: int, cols: int) -> None:
    """A grid's lines at (x0, y0), and its walls (an aquarium's region borders, with a wall all round)."""
    for k in range(cols + 1):
        picture.rect(x0 + k - 0.02, y0, 0.04, rows, GRID)
    for k in range(rows + 1):
        picture.rect(x0, y0 + k - 0.02, cols, 0.04, GRID)
    if facts.walls:
        for edge in (0, cols):
            picture.rect(x0 + edge - 0.05, y0 - 0.05, 0.1, rows + 0.1, WALL)
        for edge in (0, rows):
            picture.rect(x0 - 0.05, y0 - 0.05 + edge, cols + 0.1, 0.1, WALL)
    for r, c, r2, c2 in facts.walls:  # between (r, c) and the cell right of it or below it
        if c2 > c:
            picture.rect(x0 + c2 - 0.05, y0 + r - 0.05, 0.1, 1.1, WALL)
        else:
            picture.rect(x0 + c - 0.05, y0 + r2 - 0.05, 1.1, 0.1, WALL)


#: a wrong mark's ring, and the ring of marks that clash
WRONG: Pixel = (215, 25, 25)
CLASH: Pixel = (150, 60, 200)


def hint_picture(hint: Hint, marked: Mapping[int, Sequence[Any]]) -> Picture:
    """A hint drawn on the grid: the player's marks in their colours (water blue, dry grey), each wrong
    mark ringed in red with a cross, marks that clash ringed in purple, and the next step's cells in
    orange; titled with what the hint says."""
    facts = hint.facts
    spots = [(int(cell[0]), int(cell[1])) for cells in facts.cells.values() for cell in cells]
    rows, cols = 1 + max((r for r, _ in spots), default=0), 1 + max((c for _, c in spots), default=0)
    size = max(TITLE_SIZE, 0.06 * cols)
    top = 2.4 * size
    picture = Picture(cols + 1, rows + 1 + top, least_scale=LEAST_SCALE)
    x0, y0 = 0.5, 0.5 + top
    def fill(cell: Any, literal: int, fresh: bool) -> None:
        """A cell in its value's colour; a tiling's placed piece with its id written on it."""
        r, c = int(cell[0]), int(cell[1])
        picture.rect(x0 + c, y0 + r, 1, 1, COLOURS[literal > 0, fresh])
        if len(cell) > 2 and literal > 0:
            text = str(cell[2])
            picture.label(x0 + c + 0.5, y0 + r + 0.5, text, min(0.45, 1.6 / max(1, len(text))), (255, 255, 255))

    for literal, cells in marked.items():
        for cell in cells:
            fill(cell, literal, False)
    if hint.next is not None:
        for literal in hint.next.forced:
            if (literal > 0) in facts.listed:  # (a tiling's placements ruled out are not drawn)
                for cell in facts.cells[abs(literal)]:
                    if cell not in marked.get(literal, ()):
                        fill(cell, literal, True)
    _lines(picture, facts, x0, y0, rows, cols)
    for literals, colour in (([wrong.literal for wrong in hint.wrong], WRONG), (list(hint.clashing), CLASH)):
        for literal in literals:
            for cell in marked[literal]:
                r, c = int(cell[0]), int(cell[1])
                for x, y, w, h in ((0.08, 0.08, 0.84, 0.1), (0.08, 0.82, 0.84, 0.1), (0.08, 0.08, 0.1, 0.84),
                                   (0.82, 0.08, 0.1, 0.84)):
                    picture.rect(x0 + c + x, y0 + r + y, w, h, colour)
                if colour == WRONG:  # in the corner: a piece's id stays readable
                    picture.label(x0 + c + 0.72, y0 + r + 0.3, "X", 0.32, WRONG)
    wrong = sum(len(marked[wrong.literal]) for wrong in hint.wrong)
    said = (f"{wrong} wrong mark{'s' * (wrong != 1)}" if hint.wrong
            else "marks that clash" if hint.clashing
            else "next: " + " + ".join(facts.facts[i].short or facts.facts[i].label for i in hint.next.facts)
            if hint.next is not None and hint.next.facts
            else "next: cells that fill with a marked one" if hint.next is not None
            else "solved" if hint.solved else "no step from these marks")
    for line, text in enumerate(_wrapped(said, int(cols / (CHARACTER_WIDTH * size)))):
        picture.label(0.5, 0.5 + 0.6 * size + 1.1 * size * line, text, size, start=True)
    upcoming = hint.next.forced if hint.next is not None else ()
    key: list[tuple[Pixel | None, str]] = [(COLOURS[value, False], f"marked {facts.values[value]}")
                                           for value in (True, False) if any((lit > 0) == value for lit in marked)]
    key += [(WRONG, "wrong mark")] if hint.wrong else []
    key += [(CLASH, "marks that clash")] if hint.clashing else []
    key += [(COLOURS[value, True], f"{facts.values[value]} next") for value in (True, False)
            if value in facts.listed and any((lit > 0) == value for lit in upcoming)]
    picture.legend(key, size)
    return picture


def _legend(facts: Facts) -> list[tuple[Pixel | None, str]]:
    """What the colours say, in the puzzle's words for its two values ("water", "dry"; "placed")."""
    no, yes = facts.values
    key: list[tuple[Pixel | None, str]] = [(COLOURS[True, False], f"{yes} before the step"),
                                           (COLOURS[True, True], f"{yes} by the step")]
    if False in facts.listed:
        key += [(COLOURS[False, False], f"{no} before the step"), (COLOURS[False, True], f"{no} by the step")]
    else:
        key.append((RULED_OUT, f"-N: N {no} by the step"))
    return key


def _wrapped(title: str, fits: int) -> list[str]:
    """The title in at most two lines of ``fits`` characters, broken between words, cut short after."""
    lines = [""]
    for word in title.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > fits:
            if len(lines) == 2:
                lines[-1] = lines[-1][:max(1, fits - 1)] + "…"
                return lines
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return [line if len(line) <= fits else line[:max(1, fits - 1)] + "…" for line in lines]
