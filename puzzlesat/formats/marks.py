"""A player's marks on a grid, in the solution's own text format: one line per row, one character per
cell (spaces between them or not, as ``solve --quiet`` and ``solve --forced`` print them), ``?`` for a
cell not marked. Read for ``explain --from`` (:mod:`puzzlesat.deduction.hints`)."""
from __future__ import annotations

from collections.abc import Mapping

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
