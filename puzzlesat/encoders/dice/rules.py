"""The game, written from the puzzle text: used by the checker (part 1 replay) and by the reference DP.
Positions are 1..track; a turn moves by the sum of ``rolls`` die values and scores the landing space."""
from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
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

    @cache
    def turns(position: int, score: int) -> int:
        if score >= game.target:
            return 0
        return 1 + max(turns(advance(position, s, game.track), score + advance(position, s, game.track))
                       for s in sums)

    return max(turns(p, 0) for p in range(1, game.track + 1))
