"""A tiling's encoder options: symmetry breaking, and how the CNF says "at most one piece here"."""
from __future__ import annotations

from dataclasses import dataclass

from ...core.options import EncoderOptions


@dataclass(frozen=True)
class TilingOptions(EncoderOptions):
    #: fix piece 0 to one orientation per orbit of the grid's symmetries (:mod:`.symmetry`): on for
    #: ``solve`` and for the count of symmetry classes, off when counting every solution
    break_symmetry: bool = True
    #: ``pysat.card`` encoding of each cell's and each piece's at-most-one
    cardinality: str = "seqcounter"
