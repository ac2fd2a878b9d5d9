"""The common form of an edge-matching tiling.

Each piece has oriented *variants*; a variant has four side keys (top, right, bottom, left). Two cells
fit across a vertical edge when the left cell's right key equals the right cell's left key, and across a
horizontal edge when the upper cell's bottom key equals the lower cell's top key. A key of ``None`` never
fits (a jig's flat side inside the grid). ``outer_ok`` says which sides may face the grid's border.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

TOP, RIGHT, BOTTOM, LEFT = range(4)


@dataclass(frozen=True)
class Variant:
    piece: int  # index into the puzzle's piece list
    orientation: int
    keys: tuple[Hashable | None, Hashable | None, Hashable | None, Hashable | None]
    outer_ok: tuple[bool, bool, bool, bool] = (True, True, True, True)


@dataclass(frozen=True)
class TilingProblem:
    rows: int
    cols: int
    num_pieces: int
    variants: tuple[Variant, ...]
    #: the whole-grid symmetries as maps orientation -> orientation of a piece (identity first);
    #: used for symmetry breaking, which needs the group to act freely on a piece's orientations
    grid_symmetries: tuple[tuple[int, ...], ...]
    #: the same symmetries as transforms of the grid: ``4 * mirror + quarter_turns`` (turn clockwise,
    #: then mirror left-right), in the order of ``grid_symmetries``
    grid_transforms: tuple[int, ...]

    def neighbours(self, cell: int) -> list[tuple[int, int]]:
        """(side, neighbour cell) for each side of ``cell`` that is inside the grid."""
        r, c = divmod(cell, self.cols)
        out = []
        if r > 0:
            out.append((TOP, cell - self.cols))
        if c < self.cols - 1:
            out.append((RIGHT, cell + 1))
        if r < self.rows - 1:
            out.append((BOTTOM, cell + self.cols))
        if c > 0:
            out.append((LEFT, cell - 1))
        return out

    def cell_map(self, transform: int) -> list[int]:
        """Where each cell (row-major) goes when the whole grid is transformed (see ``grid_transforms``);
        only transforms that keep the grid's shape are meaningful."""
        grid: tuple[tuple[int, ...], ...] = tuple(tuple(range(r * self.cols, (r + 1) * self.cols))
                                                 for r in range(self.rows))
        for _ in range(transform % 4):
            grid = tuple(zip(*reversed(grid)))  # a clockwise quarter turn
        if transform >= 4:
            grid = tuple(row[::-1] for row in grid)
        image = [0] * (self.rows * self.cols)
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                image[cell] = r * len(row) + c
        return image

    def canonical_orientations(self) -> set[int]:
        """One orientation per orbit of the grid symmetries: fixing piece 0 to these keeps exactly one
        assembly of every symmetry class."""
        seen: set[int] = set()
        keep = set()
        for variant in self.variants:
            if variant.piece != 0 or variant.orientation in seen:
                continue
            keep.add(variant.orientation)
            seen.update(sym[variant.orientation] for sym in self.grid_symmetries)
        return keep


OPPOSITE = {TOP: BOTTOM, BOTTOM: TOP, LEFT: RIGHT, RIGHT: LEFT}
