"""The game, written from the puzzle text: used by the checker (part 1 replay) and by the reference DP.
Positions are 1..track; a turn moves by the sum of ``rolls`` die values and scores the landing space."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

from .instance import Game


def advance(position: int, steps: int, track: int) -> int:
    return (position + steps - 1) % track + 1


@lru_cache(maxsize=64)
def roll_sums(sides: int, rolls: int) -> tuple[tuple[int, int], ...]:
    """(sum, number of universes) for one Dirac turn: ``sides ** rolls`` universes in all."""
    counts = Counter(sum(values) for values in product(range(1, sides + 1), repeat=rolls))
    return tuple(sorted(counts.items()))


def play_deterministic(starts: tuple[int, int], game: Game) -> tuple[int, tuple[int, int]]:
    """Part 1 by simulation: (number of die rolls, final scores)."""
    positions, scores = list(starts), [0, 0]
    rolled, player = 0, 0
    while max(scores) < game.det_target:
        steps = sum((rolled + i) % game.det_sides + 1 for i in range(game.rolls))
        rolled += game.rolls
        positions[player] = advance(positions[player], steps, game.track)
        scores[player] += positions[player]
        player = 1 - player
    return rolled, (scores[0], scores[1])


def max_turns(game: Game) -> int:
    """The most turns one player can take before reaching the target (over every roll sequence), so
    every Dirac game ends within ``2 * max_turns`` turns: the horizon of the counting encoding."""
    sums = [s for s, _ in roll_sums(game.sides, game.rolls)]
    # turns[score][position], filled from the highest score down (a turn only raises the score), so
    # no recursion: a target of 300 on a track of 1 is 300 turns deep
    turns = [[0] * (game.track + 1) for _ in range(game.target + game.track + 1)]
    for score in range(game.target - 1, -1, -1):
        for position in range(1, game.track + 1):
            landings = (advance(position, steps, game.track) for steps in sums)
            turns[score][position] = 1 + max(turns[score + landed][landed] for landed in landings)
    return max(turns[0][1:])
