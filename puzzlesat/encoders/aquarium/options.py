"""Aquarium's encoder options: how the CNF counts water per row and column."""
from __future__ import annotations

from dataclasses import dataclass

from ...core.choices import CARDINALITY_ENCODINGS, PB_ENCODINGS
from ...core.options import EncoderOptions, choice


@dataclass(frozen=True)
class AquariumOptions(EncoderOptions):
    #: ``pysat.card`` encoding of the row and column counts; chosen by measurement
    #: (bench/run.py aquarium-cardinality, BENCHMARKS.md)
    cardinality: str = choice("seqcounter", CARDINALITY_ENCODINGS)
    #: ``pysat.pb`` encoding of the weighted column counts (a region's level fills several cells)
    pb: str = choice("bdd", PB_ENCODINGS)
