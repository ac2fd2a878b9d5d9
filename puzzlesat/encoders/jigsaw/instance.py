"""Jurassic Jigsaw input: blocks of ``Tile ID:`` and T lines of T characters ``#``/``.``."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ...core.errors import PuzzleFormatError
from ...core.text import lines_of

#: tile ids of at most 9 digits (a longer number is no tile id, and Python refuses over 4,300 digits)
_HEADER = re.compile(r"Tile (\d{1,9}):")


@dataclass(frozen=True)
class JigsawInstance:
    ids: tuple[int, ...]
    tiles: tuple[tuple[str, ...], ...]
    rows: int
    cols: int
    source: str = field(default="", compare=False)

    @property
    def size(self) -> int:
        return len(self.tiles[0])


#: the largest inputs accepted (docs/limits.md, the table of sizes): a 60x60 assembly of tiles at most 100 cells wide
MAX_TILES = 3600
MAX_TILE = 100


def parse(text: str, path: str, rows: int | None = None, cols: int | None = None) -> JigsawInstance:
    lines = lines_of(text)
    ids: list[int] = []
    tiles: list[tuple[str, ...]] = []
    seen: dict[int, int] = {}
    current: list[str] | None = None
    header_line = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line:
            current = None
            continue
        match = _HEADER.fullmatch(line)
        if match:
            tile_id = int(match.group(1))
            if tile_id in seen:
                raise PuzzleFormatError(path, number, 1, f"duplicate tile id {tile_id} (first at line {seen[tile_id]})")
            seen[tile_id] = number
            ids.append(tile_id)
            current = []
            tiles.append(())
            header_line = number
            continue
        if current is None:
            raise PuzzleFormatError(path, number, 1, f"expected a 'Tile ID:' header, found '{line[:20]}'")
        if line.strip("#."):  # a character other than '#' and '.': find the first
            bad = next(i for i, ch in enumerate(line) if ch not in "#.")
            raise PuzzleFormatError(path, number, bad + 1, f"unknown character '{line[bad]}' (tiles use '#' and '.')")
        current.append(line)
        tiles[-1] = tuple(current)
        size = len(tiles[0][0])
        if size > MAX_TILE:
            raise PuzzleFormatError(path, number, 1, f"tiles {size} wide: over this toolkit's limit of {MAX_TILE}")
        if len(line) != size:
            raise PuzzleFormatError(path, number, 1, f"row of length {len(line)}; tiles are {size} wide")
        if len(current) > size:
            raise PuzzleFormatError(path, number, 1, f"tile {ids[-1]} has more than {size} rows")
    if not tiles:
        raise PuzzleFormatError(path, None, None, "no tiles: expected blocks of 'Tile ID:' and rows of '#'/'.'")
    size = len(tiles[0][0]) if tiles[0] else 0
    for tile_id, tile in zip(ids, tiles):
        if len(tile) != size:
            raise PuzzleFormatError(path, seen[tile_id], 1, f"tile {tile_id} has {len(tile)} rows; tiles are {size}x{size}")
    if size < 3:
        raise PuzzleFormatError(path, header_line, 1, f"tiles of size {size}: need at least 3x3")
    count = len(tiles)
    if count > MAX_TILES:
        raise PuzzleFormatError(path, None, None, f"{count} tiles: over this toolkit's limit of {MAX_TILES}")
    if rows is None and cols is None:
        side = math.isqrt(count)
        if side * side != count:
            raise PuzzleFormatError(path, None, None, f"{count} tiles is not a square number (use --rows/--cols for a rectangle)")
        rows = cols = side
    elif rows is None or cols is None or rows * cols != count:
        raise PuzzleFormatError(path, None, None, f"{count} tiles do not fill a {rows}x{cols} grid")
    return JigsawInstance(tuple(ids), tuple(tiles), rows, cols, source=path)
