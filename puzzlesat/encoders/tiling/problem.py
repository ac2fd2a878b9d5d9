"""The common form of an edge-matching tiling.

Each piece has oriented *variants*; a variant has four side keys (top, right, bottom, left). Two cells
fit across a vertical edge when the left cell's right key equals the right cell's left key, and across a
horizontal edge when the upper cell's bottom key equals the lower cell's top key. A key of ``None`` never
fits (a jig's flat side inside the grid, when every flat side is needed on the border). ``outer_ok``
says which sides may face the grid's border.

Orientations that look the same (a jig piece with sides ``+1 -1 +1 -1`` after a half turn, a jigsaw tile
that is its own mirror image) are one variant: a solution is what a person sees, so such a piece counts
once per look, not once per rotation index (docs/puzzles.md, section 2). ``variant_index`` maps every
(piece, orientation) to the variant that shows it, which is how the grid's symmetries act on variants.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

TOP, RIGHT, BOTTOM, LEFT = range(4)

Keys = tuple[Hashable | None, Hashable | None, Hashable | None, Hashable | None]
Placement = tuple[int, int]  # (cell, variant index)


@dataclass(frozen=True)
class Variant:
    piece: int  # index into the puzzle's piece list
    orientation: int
    keys: Keys
    outer_ok: tuple[bool, bool, bool, bool] = (True, True, True, True)


@dataclass(frozen=True)
class TilingProblem:
    rows: int
    cols: int
    num_pieces: int
    variants: tuple[Variant, ...]
    #: the whole-grid symmetries as maps orientation -> orientation of a piece (identity first)
    grid_symmetries: tuple[tuple[int, ...], ...]
    #: the same symmetries as transforms of the grid: ``4 * mirror + quarter_turns`` (turn clockwise,
    #: then mirror left-right), in the order of ``grid_symmetries``
    grid_transforms: tuple[int, ...]
    #: (piece, orientation) -> index of the variant showing it (orientations that look alike share one)
    variant_index: dict[tuple[int, int], int] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def build(cls, rows: int, cols: int, num_pieces: int,
              oriented: Sequence[tuple[Variant, Hashable]],
              grid_symmetries: tuple[tuple[int, ...], ...], grid_transforms: tuple[int, ...]) -> TilingProblem:
        """From every (variant, appearance) of every piece: the first orientation of each look is kept."""
        variants: list[Variant] = []
        index: dict[tuple[int, int], int] = {}
        seen: dict[tuple[int, Hashable], int] = {}
        for variant, appearance in oriented:
            look = (variant.piece, appearance)
            if look not in seen:
                seen[look] = len(variants)
                variants.append(variant)
            index[variant.piece, variant.orientation] = seen[look]
        return cls(rows, cols, num_pieces, tuple(variants), grid_symmetries, grid_transforms, index)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

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

    def variant_map(self, symmetry: int) -> list[int]:
        """Which variant each variant becomes when the whole grid undergoes symmetry number ``symmetry``."""
        orientations = self.grid_symmetries[symmetry]
        return [self.variant_index[v.piece, orientations[v.orientation]] for v in self.variants]

    @cached_property
    def placement_maps(self) -> list[tuple[list[int], list[int]]]:
        """(cell map, variant map) of every grid symmetry, identity first: how G acts on placements.
        Made once per problem (the anchoring, its symmetry breaking and the encoding's all read them);
        read-only to every caller."""
        return [(self.cell_map(t), self.variant_map(s)) for s, t in enumerate(self.grid_transforms)]

    def variants_of(self, piece: int) -> list[int]:
        return [i for i, v in enumerate(self.variants) if v.piece == piece]


OPPOSITE = {TOP: BOTTOM, BOTTOM: TOP, LEFT: RIGHT, RIGHT: LEFT}
