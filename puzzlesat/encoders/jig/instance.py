"""The ``.jig`` format: ``ROWS COLS`` then one ``ID TOP RIGHT BOTTOM LEFT`` line per piece; ``#`` starts
a comment. Sides: 0 flat, +k tab of type k, -k blank that takes a tab of type k."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import PuzzleFormatError
from ...core.text import lines_of

Sides = tuple[int, int, int, int]
#: at most 9 digits: larger numbers are no size or tab (and Python refuses over 4,300)
_INT = re.compile(r"[+-]?\d{1,9}")


@dataclass(frozen=True)
class JigInstance:
    rows: int
    cols: int
    ids: tuple[int, ...]
    pieces: tuple[Sides, ...]
    source: str = field(default="", compare=False)


#: the largest grid side accepted (docs/limits.md, the table of sizes): a 50x50 jig is 2,500 pieces in 4 turns on
#: 2,500 cells, some 25 M placement variables before pruning
MAX_SIDE = 50


def _ints(fields: list[str], path: str, number: int, line: str) -> list[int]:
    out = []
    for token in fields:
        if not _INT.fullmatch(token):
            raise PuzzleFormatError(path, number, line.find(token) + 1, f"'{token[:20]}' is not an integer (of at most 9 digits)")
        out.append(int(token))
    return out


def parse(text: str, path: str) -> JigInstance:
    rows = cols = None
    ids: list[int] = []
    pieces: list[Sides] = []
    seen: dict[int, int] = {}
    for number, raw in enumerate(lines_of(text), 1):
        line = raw.split("#", 1)[0]
        fields = line.split()
        if not fields:
            continue
        if rows is None:
            if len(fields) != 2:
                raise PuzzleFormatError(path, number, 1, f"expected 2 fields 'ROWS COLS', found {len(fields)}")
            rows, cols = _ints(fields, path, number, raw)
            if rows < 1 or cols < 1:
                raise PuzzleFormatError(path, number, 1, f"grid {rows}x{cols}: both sizes must be positive")
            if rows > MAX_SIDE or cols > MAX_SIDE:
                raise PuzzleFormatError(path, number, 1,
                                        f"grid {rows}x{cols} is over this toolkit's limit of {MAX_SIDE} a side")
            continue
        if len(fields) != 5:
            raise PuzzleFormatError(path, number, 1, f"expected 5 fields 'ID TOP RIGHT BOTTOM LEFT', found {len(fields)}")
        piece_id, *sides = _ints(fields, path, number, raw)
        if piece_id in seen:
            raise PuzzleFormatError(path, number, 1, f"duplicate piece id {piece_id} (first at line {seen[piece_id]})")
        seen[piece_id] = number
        ids.append(piece_id)
        pieces.append(tuple(sides))  # type: ignore[arg-type]
    if rows is None or cols is None:
        raise PuzzleFormatError(path, None, None, "empty file: expected 'ROWS COLS' and piece lines")
    if len(pieces) != rows * cols:
        raise PuzzleFormatError(path, None, None, f"{len(pieces)} pieces for a {rows}x{cols} grid: expected {rows * cols}")
    return JigInstance(rows, cols, tuple(ids), tuple(pieces), source=path)
