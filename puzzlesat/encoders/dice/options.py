"""Dice's encoder options: which player's wins a counting formula describes, and how far part 1 unrolls."""
from __future__ import annotations

from dataclasses import dataclass

from ...core.options import EncoderOptions, choice


@dataclass(frozen=True)
class DiceOptions(EncoderOptions):
    #: the player (0 or 1) whose winning universes the ``count`` and ``split`` formulas describe
    winner: int = choice(0, (0, 1))
    #: part 1's ``smt`` unrolling: turns unrolled (None: ``2 * det_target``, always enough)
    horizon: int | None = None
