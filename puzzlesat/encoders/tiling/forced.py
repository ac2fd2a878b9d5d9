"""What every layout of a tiling shares (``solve --forced``): the placements fixed in every layout.

A placement is a piece at a cell in one orientation; the shown variables of the tiling's CNF are exactly
these, so the backbone of the shown variables (:mod:`puzzlesat.pipeline.forced`) read at its true
variables is, per cell, the placement every layout puts there, or none where layouts differ.

``solve`` breaks the grid's symmetries (:mod:`.symmetry`): it keeps one layout of each class of layouts
that a turn (or flip) of the whole grid maps onto each other, so what is forced is what those kept
layouts share. A puzzle unique up to symmetry has all of its layout forced; without the breaking, every
piece of a square grid could stand in a corner turned four ways and nothing would be.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.encoding import Encoding

if TYPE_CHECKING:
    from ...formats.picture import Picture

#: a placed cell, one whose layouts differ, and the grid lines
PLACED, OPEN, GRID = (235, 225, 200), (170, 170, 170), (90, 90, 90)


@dataclass(frozen=True)
class TilingForced:
    """Per cell (row-major), the (piece id, orientation) every layout puts there, or None where they
    differ. The answer key of a puzzle unique up to symmetry is its whole layout."""

    rows: int
    cols: int
    placement: tuple[tuple[int, int] | None, ...]

    def labels(self) -> list[str]:
        return ["?" if placed is None else f"{placed[0]}/{placed[1]}" for placed in self.placement]

    def render(self, colour: bool = False) -> str:
        """A row a line, each cell ``id/orientation`` or ``?``, right-aligned in columns as wide as the
        widest label."""
        labels = self.labels()
        width = max(map(len, labels))
        return "\n".join(" ".join(f"{label:>{width}}" for label in labels[r * self.cols:(r + 1) * self.cols])
                         for r in range(self.rows))

    def to_json(self) -> dict[str, Any]:
        layout = [[list(placed) if placed is not None else None for placed in self.placement[r * self.cols:(r + 1) * self.cols]]
                  for r in range(self.rows)]
        return {"layout": layout, "forced": sum(placed is not None for placed in self.placement),
                "cells": self.rows * self.cols}

    def picture(self) -> Picture:
        """The grid with each fixed cell's piece and orientation written in it, the others grey (the
        picture module is imported here: a solve that draws nothing does not pay for it at start-up)."""
        from ...formats.picture import CHARACTER_WIDTH, Picture

        pic = Picture(self.cols + 0.4, self.rows + 0.4)
        labels = self.labels()
        size = min(0.3, 0.85 / (CHARACTER_WIDTH * max(map(len, labels))))  # the longest fits its cell
        for i, label in enumerate(labels):
            r, c = divmod(i, self.cols)
            pic.rect(0.2 + c, 0.2 + r, 1, 1, GRID)
            pic.rect(0.2 + c + 0.03, 0.2 + r + 0.03, 0.94, 0.94, OPEN if label == "?" else PLACED)
            pic.label(0.2 + c + 0.5, 0.2 + r + 0.5, label, size)
        pic.legend([(PLACED, "fixed: piece/orientation"), (OPEN, "differs between layouts")],
                   max(0.25, 0.04 * max(self.rows, self.cols)))
        return pic


def forced_placements(rows: int, cols: int, encoding: Encoding, fixed: Mapping[int, bool],
                      piece_ids: Sequence[int]) -> TilingForced:
    """The placements fixed true in ``fixed`` (shown variable -> its value in every layout), with each
    piece index shown as its id."""
    placement: list[tuple[int, int] | None] = [None] * (rows * cols)
    for v, value in fixed.items():
        if value:
            _, r, c, piece, orientation = encoding.variables.obj(v)
            placement[r * cols + c] = (piece_ids[piece], orientation)
    return TilingForced(rows, cols, tuple(placement))
