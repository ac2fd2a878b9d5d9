"""Random Dirac Dice inputs: the puzzle's two lines with starting positions drawn from the track."""
from __future__ import annotations

import random


def generate(track: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(f"Player {p} starting position: {rng.randint(1, track)}\n" for p in (1, 2))
