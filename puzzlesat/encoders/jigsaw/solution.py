"""An assembled jigsaw: tile and orientation per cell, the joined image, and the sea monsters."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import prod
from typing import Any

from .grids import orient

MONSTER = ("                  # ",
           "#    ##    ##    ###",
           " #  #  #  #  #  #   ")
MONSTER_CELLS = tuple((r, c) for r, line in enumerate(MONSTER) for c, ch in enumerate(line) if ch == "#")


#: the picture's colours: sea-monster cells, rough water (#), calm water (.), a tile border's # (the
#: border is dropped from the image; its . is drawn light grey)
MONSTER_COLOUR, ROUGH_COLOUR, CALM_COLOUR, BORDER_COLOUR = (40, 170, 60), (30, 60, 140), (200, 220, 240), (90, 90, 120)


@dataclass(frozen=True)
class JigsawSolution:
    rows: int
    cols: int
    #: (tile id, orientation) per cell, row-major
    placement: tuple[tuple[int, int], ...]
    #: the oriented tile grids, row-major
    tiles: tuple[tuple[str, ...], ...]

    @cached_property
    def image(self) -> tuple[str, ...]:
        """Tile interiors (borders removed) joined into one picture, as placed."""
        inner = [tuple(row[1:-1] for row in tile[1:-1]) for tile in self.tiles]
        lines = []
        for r in range(self.rows):
            band = inner[r * self.cols:(r + 1) * self.cols]
            for i in range(len(band[0])):
                lines.append("".join(t[i] for t in band))
        return tuple(lines)

    @cached_property
    def sightings(self) -> list[tuple[int, tuple[str, ...], frozenset[tuple[int, int]]]]:
        """(orientation, image in it, monster cells) for every orientation of the image, 0 to 7."""
        found = []
        for o in range(8):
            picture = orient(self.image, o)
            cells = {(r + dr, c + dc) for r, c in monster_corners(picture) for dr, dc in MONSTER_CELLS}
            found.append((o, picture, frozenset(cells)))
        return found

    @cached_property
    def monsters(self) -> tuple[int, tuple[str, ...], frozenset[tuple[int, int]]]:
        """(orientation, image in it, monster cells) for the orientation with the most monsters (the
        first of them on a tie; orientation 0 and no cells when there is none)."""
        return max(self.sightings, key=lambda seen: len(seen[2]))

    def warnings(self) -> list[str]:
        """Where the input leaves docs/puzzles.md's assumption that monsters appear in one orientation
        of the image: part 2 then depends on the orientation chosen, and the sentence says each; with
        none at all, part 2 counts every '#'."""
        seen = [(o, picture, cells) for o, picture, cells in self.sightings if cells]
        if not seen:
            return ["no sea monster appears in any orientation of the image, and the puzzle assumes some: part 2 "
                    "counts every '#'"]
        if len(seen) < 2:
            return []
        each = ", ".join(f"{_rough(picture, cells)} in orientation {o}" for o, picture, cells in seen)
        return [f"sea monsters appear in {len(seen)} orientations of the image (part 2 would be {each}); the "
                f"puzzle assumes one: part 2 is given for orientation {self.monsters[0]}, the first with the "
                "most monster cells"]

    def corners(self) -> list[int]:
        last = self.rows * self.cols - 1
        return [self.placement[i][0] for i in (0, self.cols - 1, last - self.cols + 1, last)]

    def answers(self) -> dict[str, Any]:
        _, picture, cells = self.monsters
        return {"part1": prod(self.corners()), "part2": _rough(picture, cells)}

    def to_json(self) -> dict[str, Any]:
        """The layout, per cell row by row: [tile id, orientation] (0-3 quarter-turns clockwise, 4-7 the
        same after a flip, see ``grids.orient``); the image and the orientation its monsters were found in."""
        orientation, picture, cells = self.monsters
        return {"layout": [[list(self.placement[r * self.cols + c]) for c in range(self.cols)] for r in range(self.rows)],
                "corners": self.corners(), "image": list(self.image), "monster_orientation": orientation,
                "monster_cells": len(cells)}

    def pixels(self) -> list[list[tuple[int, int, int]]]:
        """The assembled image as placed (tile borders kept, one grey line between tiles), rough water
        dark blue, calm water light, sea-monster cells green."""
        orientation, _, cells = self.monsters
        # monster cells were found in the image turned by `orientation`; map them back to image cells
        n = len(self.image)
        probe = tuple(tuple((r, c) for c in range(n)) for r in range(n))
        turned = _orient_cells(probe, orientation)
        monster = {turned[r][c] for r, c in cells}
        size = len(self.tiles[0])
        inner = size - 2
        out = []
        for tr in range(self.rows):
            for r in range(size):
                line = []
                for tc in range(self.cols):
                    tile = self.tiles[tr * self.cols + tc]
                    for c in range(size):
                        border = r in (0, size - 1) or c in (0, size - 1)
                        image_cell = (tr * inner + r - 1, tc * inner + c - 1)
                        if not border and image_cell in monster:
                            line.append(MONSTER_COLOUR)
                        elif tile[r][c] == "#":
                            line.append(ROUGH_COLOUR if not border else BORDER_COLOUR)
                        else:
                            line.append(CALM_COLOUR if not border else (225, 225, 225))
                    line.append((120, 120, 120))
                out.append(line)
            out.append([(120, 120, 120)] * len(out[-1]))
        return out

    def render(self, colour: bool = False) -> str:
        _, picture, cells = self.monsters
        out = []
        for r, line in enumerate(picture):
            chars = []
            for c, ch in enumerate(line):
                if (r, c) in cells:
                    chars.append("\033[1;32mO\033[0m" if colour else "O")
                else:
                    chars.append(ch)
            out.append("".join(chars))
        grid = "\n".join(" ".join(f"{tid}/{o}" for tid, o in self.placement[r * self.cols:(r + 1) * self.cols])
                         for r in range(self.rows))
        monsters = len(cells) // len(MONSTER_CELLS)
        return f"tiles (id/orientation):\n{grid}\nimage ({monsters} sea monsters marked O):\n" + "\n".join(out)


def _orient_cells(grid: tuple[tuple[tuple[int, int], ...], ...],
                  orientation: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``orient`` for grids of coordinates instead of strings (same rotation and flip convention)."""
    for _ in range(orientation % 4):
        grid = tuple(tuple(row[c] for row in reversed(grid)) for c in range(len(grid[0])))
    if orientation >= 4:
        grid = tuple(row[::-1] for row in grid)
    return grid


def _rough(picture: tuple[str, ...], monster: frozenset[tuple[int, int]]) -> int:
    """Part 2: the '#' cells of the image that belong to no sea monster."""
    return sum(line.count("#") for line in picture) - len(monster)


def monster_corners(picture: tuple[str, ...]) -> list[tuple[int, int]]:
    """Top-left corners of every sea monster in ``picture``. Each row is an integer whose bit
    ``width - 1 - c`` is cell c, so one AND over the monster's 15 cells, each row shifted by the cell's
    column, tests every start column of a row at once (the plain scan of every cell took 20 ms of a
    50 ms solve)."""
    height, width = len(picture), len(picture[0]) if picture else 0
    span_rows, span_cols = len(MONSTER), len(MONSTER[0])
    if height < span_rows or width < span_cols:
        return []
    rows = [int(line.replace(".", "0").replace("#", "1").translate(_NOT_BITS), 2) for line in picture]
    starts = (1 << (width - span_cols + 1)) - 1  # bit k: the monster's right edge at column width-1-k
    found = []
    for r in range(height - span_rows + 1):
        hits = starts
        for dr, dc in MONSTER_CELLS:
            hits &= rows[r + dr] >> (span_cols - 1 - dc)
            if not hits:
                break
        while hits:
            bit = hits & -hits
            found.append((r, width - span_cols - (bit.bit_length() - 1)))
            hits ^= bit
    return found


#: any character other than '0'/'1' left in a row (not '#' or '.') counts as empty
_NOT_BITS = {code: "0" for code in range(128) if chr(code) not in "01"}
