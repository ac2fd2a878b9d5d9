"""A player's marks on a grid, in the solution's own text format, ``?`` for a cell not marked: one
character per cell (spaces between them or not, as ``solve --quiet`` and ``solve --forced`` print an
aquarium), or one token per cell, ``ID/ORIENTATION`` (a tiling's pieces, as a jigsaw's solution lists its
tiles). Read for ``explain --from`` (:mod:`puzzlesat.deduction.hints`)."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from ..core.errors import PuzzleFormatError
from ..core.text import lines_of

#: the character of a cell the player has not marked
UNMARKED = "?"


def read_grid_marks(text: str, path: str, height: int, width: int,
                    symbols: Mapping[str, bool]) -> dict[tuple[int, int], bool]:
    """The marked cells of a ``height`` x ``width`` grid, ``(row, col)`` (0-based) -> the value its
    character stands for in ``symbols``; blank lines are skipped. A line of another width, a character
    that is no symbol, or another number of rows is refused in one line naming where."""
    marks: dict[tuple[int, int], bool] = {}
    row = 0
    last = 0
    for number, line in enumerate(lines_of(text), 1):
        if not line.strip(" \t\r"):
            continue
        last = number
        if row == height:
            raise PuzzleFormatError(path, number, 1, f"the puzzle has {height} rows; this is row {row + 1}")
        cells = [(column, char) for column, char in enumerate(line.rstrip("\r"), 1) if char not in " \t"]
        for column, char in cells:
            if char != UNMARKED and char not in symbols:
                shown = " ".join(f"'{symbol}'" for symbol in [*symbols, UNMARKED])
                raise PuzzleFormatError(path, number, column, f"'{char}' is not a mark: each cell is one of {shown}")
        if len(cells) != width:
            at = cells[width][0] if len(cells) > width else None
            raise PuzzleFormatError(path, number, at, f"row {row + 1} has {len(cells)} cells; the puzzle's rows "
                                    f"have {width}")
        for col, (_, char) in enumerate(cells):
            if char != UNMARKED:
                marks[row, col] = symbols[char]
        row += 1
    if row != height:
        raise PuzzleFormatError(path, last or None, None, f"{row} rows of marks; the puzzle has {height}")
    return marks


#: a placement's token: a piece's id and its orientation
_PLACEMENT = re.compile(r"(-?\d{1,9})/(\d{1,2})")


def read_placement_marks(text: str, path: str, height: int, width: int,
                         placed: Callable[[int, int], tuple[int, int] | str]) -> dict[tuple[int, int], tuple[int, int]]:
    """The marked cells of a ``height`` x ``width`` grid of pieces, ``(row, col)`` -> ``(id,
    orientation)`` as ``placed(id, orientation)`` gives it back (a look two orientations share is named
    once), or a refusal (a string: why there is no such placement). Tokens are split at white space;
    errors name the line and column."""
    marks: dict[tuple[int, int], tuple[int, int]] = {}
    row = 0
    last = 0
    for number, line in enumerate(lines_of(text), 1):
        tokens = [(found.start() + 1, found.group()) for found in re.finditer(r"[^ \t\r]+", line)]
        if not tokens:
            continue
        last = number
        if row == height:
            raise PuzzleFormatError(path, number, 1, f"the puzzle has {height} rows; this is row {row + 1}")
        if len(tokens) != width:
            at = tokens[width][0] if len(tokens) > width else None
            raise PuzzleFormatError(path, number, at, f"row {row + 1} has {len(tokens)} cells; the puzzle's rows "
                                    f"have {width}")
        for col, (column, token) in enumerate(tokens):
            if token == UNMARKED:
                continue
            found = _PLACEMENT.fullmatch(token)
            if found is None:
                raise PuzzleFormatError(path, number, column, f"'{token[:20]}' is not a mark: each cell is "
                                        f"ID/ORIENTATION (a piece and its orientation) or '{UNMARKED}'")
            answer = placed(int(found.group(1)), int(found.group(2)))
            if isinstance(answer, str):
                raise PuzzleFormatError(path, number, column, f"'{token}': {answer}")
            marks[row, col] = answer
        row += 1
    if row != height:
        raise PuzzleFormatError(path, last or None, None, f"{row} rows of marks; the puzzle has {height}")
    return marks
