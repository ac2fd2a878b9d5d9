"""A Sudoku grid as read from a file: N lines of N cells, a digit for a given, '.' or '0' for a blank.

N is 4 (2x2 boxes), 6 (boxes 2 rows by 3 columns) or 9 (3x3 boxes).
"""
from __future__ import annotations

from dataclasses import dataclass

from puzzlesat.core.errors import PuzzleFormatError

#: grid size -> (rows, columns) of one box
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


@dataclass(frozen=True)
class SudokuInstance:
    #: ``givens[r][c]`` is the given digit, 0 for a blank
    givens: tuple[tuple[int, ...], ...]
    source: str = ""

    @property
    def n(self) -> int:
        return len(self.givens)

    def box(self, r: int, c: int) -> int:
        """The box of cell (r, c), numbered row by row."""
        box_rows, box_cols = BOXES[self.n]
        return (r // box_rows) * (self.n // box_cols) + c // box_cols


def parse(text: str, path: str, blank: str | None = None) -> SudokuInstance:
    """Every problem is named by line and column, as puzzlesat's own parsers do; ``blank`` is one more
    character that marks a blank cell."""
    if blank is not None and (len(blank) != 1 or blank.isdigit() or blank.isspace()):
        raise PuzzleFormatError(path, None, None, f"--blank takes one character that is not a digit, not {blank!r}")
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    n = len(lines)
    if n not in BOXES:
        raise PuzzleFormatError(path, None, None, f"{n} lines: a Sudoku has 4, 6 or 9")
    rows = []
    for number, line in enumerate(lines, 1):
        if len(line) != n:
            raise PuzzleFormatError(path, number, None, f"{len(line)} cells, expected {n}")
        row = []
        for col, ch in enumerate(line, 1):
            if ch in ".0" or ch == blank:
                row.append(0)
            elif ch.isdigit() and 1 <= int(ch) <= n:
                row.append(int(ch))
            else:
                raise PuzzleFormatError(path, number, col, f"'{ch}' is neither a digit 1-{n} nor '.'")
        rows.append(tuple(row))
    return SudokuInstance(tuple(rows), path)
