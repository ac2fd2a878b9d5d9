"""A tiling's encoder options: symmetry breaking, and how the CNF says "at most one piece here"."""
from __future__ import annotations

from dataclasses import dataclass

from ...core.choices import CARDINALITY_ENCODINGS
from ...core.options import EncoderOptions, choice


@dataclass(frozen=True)
class TilingOptions(EncoderOptions):
    #: keep one solution per orbit of the grid's symmetries (:mod:`.symmetry`). ``None``: the command's
    #: choice: off for counts and exports (every solution: what a model counter or a user expects), on
    #: for ``solve``, where any one solution will do and the smaller search is faster
    break_symmetry: bool | None = None
    #: ``pysat.card`` encoding of each cell's and each piece's at-most-one
    cardinality: str = choice("seqcounter", CARDINALITY_ENCODINGS)
