"""Reference without a solver: the dynamic programme over (positions, scores, player to move) that
counts universes won by each player, and part 1 by playing the deterministic game.

Written from the puzzle text on its own: it shares no helper with the encoders (which take the game's
moves from ``rules.py``), so a mistake there cannot make both agree."""
from __future__ import annotations

import sys
from functools import cache

from .instance import DiceInstance


def advance(position: int, steps: int, track: int) -> int:
    """The space reached from ``position`` (1..track) after ``steps`` spaces round the circular track."""
    return (position + steps - 1) % track + 1


def roll_sums(sides: int, rolls: int) -> list[tuple[int, int]]:
    """(sum, universes) of one Dirac turn, one roll at a time: ``sides ** rolls`` universes in all."""
    ways = {0: 1}
    for _ in range(rolls):
        following: dict[int, int] = {}
        for total, count in ways.items():
            for value in range(1, sides + 1):
                following[total + value] = following.get(total + value, 0) + count
        ways = following
    return sorted(ways.items())


def deterministic_game(instance: DiceInstance) -> tuple[int, tuple[int, int]]:
    """Part 1: (die rolls, final scores) of the game with the die rolling 1, 2, ..., det_sides, 1, ..."""
    game = instance.game
    positions, scores = list(instance.starts), [0, 0]
    rolled, die, player = 0, 0, 0
    while scores[0] < game.det_target and scores[1] < game.det_target:
        steps = 0
        for _ in range(game.rolls):
            die = die % game.det_sides + 1
            steps += die
            rolled += 1
        positions[player] = advance(positions[player], steps, game.track)
        scores[player] += positions[player]
        player = 1 - player
    return rolled, (scores[0], scores[1])


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

    # every turn scores at least 1, so the recursion is at most 2 * target turns deep (two frames a
    # turn with the cache): make room for it, and give the old limit back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * game.target + 1000))
    try:
        one, two = wins(instance.starts[0], instance.starts[1], 0, 0)
    finally:
        sys.setrecursionlimit(limit)
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
        won, following = 0, dict[tuple[int, int, int, int], int]()
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
