"""Reference without a solver: the dynamic programme over (positions, scores, player to move) that
counts universes won by each player."""
from __future__ import annotations

from functools import cache

from .instance import DiceInstance
from .rules import advance, roll_sums


def dirac_wins(instance: DiceInstance) -> tuple[int, int]:
    game = instance.game
    sums = roll_sums(game.sides, game.rolls)

    @cache
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


def wins_by_turn(instance: DiceInstance) -> dict[int, tuple[int, int]]:
    """Universes won by each player, by the turn (counted over both players) on which the game ends: the
    distribution behind the totals, propagated forward over (positions, scores) layer by layer."""
    game = instance.game
    sums = roll_sums(game.sides, game.rolls)
    # (mover position, other position, mover score, other score) -> universes; player 1 moves on odd turns
    layer = {(instance.starts[0], instance.starts[1], 0, 0): 1}
    ended: dict[int, tuple[int, int]] = {}
    turn = 0
    while layer:
        turn += 1
        won, following = 0, {}
        for (mover, other, mover_score, other_score), universes in layer.items():
            for steps, ways in sums:
                landed = advance(mover, steps, game.track)
                if mover_score + landed >= game.target:
                    won += universes * ways
                else:
                    key = (other, landed, other_score, mover_score + landed)
                    following[key] = following.get(key, 0) + universes * ways
        if won:
            ended[turn] = (won, 0) if turn % 2 else (0, won)
        layer = following
    return ended
