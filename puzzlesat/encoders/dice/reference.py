"""Reference without a solver: the dynamic programme over (positions, scores, player to move) that
counts universes won by each player."""
from __future__ import annotations

from functools import lru_cache

from .instance import DiceInstance
from .rules import advance, roll_sums


def dirac_wins(instance: DiceInstance) -> tuple[int, int]:
    game = instance.game
    sums = roll_sums(game.sides, game.rolls)

    @lru_cache(maxsize=None)
    def wins(mover: int, other: int, mover_score: int, other_score: int) -> tuple[int, int]:
        """Universes won by (the player to move, the other player)."""
        won, lost = 0, 0
        for steps, ways in sums:
            landed = advance(mover, steps, game.track)
            score = mover_score + landed
            if score >= game.target:
                won += ways
            else:
                theirs, mine = wins(other, landed, other_score, score)
                won += ways * mine
                lost += ways * theirs
        return won, lost

    one, two = wins(instance.starts[0], instance.starts[1], 0, 0)
    return one, two
