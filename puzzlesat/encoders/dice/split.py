"""Part 2 split by game length (encoding ``split``): the two players' rolls are independent, and the game
couples them only through who reaches the target first. So, exactly,

    wins(player 1) = sum over k of  F1(k) * S2(k - 1),     wins(player 2) = sum over k of  F2(k) * S1(k),

where Fp(k) counts player p's roll sequences of k own turns that first reach the target at turn k, and
Sp(k) those of k turns that stay below it. All of them are conditional model counts of one small formula
per player (:func:`encode_track`: that player alone, no "over" bookkeeping, 491 variables at target 21
against 1,002 for the whole game), which a compiling counter answers from one compilation (D4: compile to
a d-DNNF once, then count it under each query). Each factor is a model count; only the sum of products
above is arithmetic.

Measured at target 21 (D4, per player, AoC inputs): compile 0.8-1.0 s and its 21 queries 0.1 s, against
1.9-2.5 s for counting the whole-game formula of one winner.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.encoding import Encoding
from ...core.errors import CheckFailed
from .cnf import Layers
from .instance import DiceInstance
from .rules import max_turns

if TYPE_CHECKING:
    from pysat.formula import IDPool


def encode_track(instance: DiceInstance, player: int, pool: IDPool | None = None) -> Encoding:
    """Player ``player`` alone for ``max_turns`` own turns, moving on after reaching the target (score
    capped), so every roll sequence is one model: 27^turns models with the puzzle's dice. ``queries``
    lists, for k = 0..turns, "below the target after k turns" and then, for k = 1..turns, "first reaches
    the target at turn k"; their counts are S(k) and F(k) times the 27^(turns - k) free later turns."""
    layers = Layers(instance, past_target=True, pool=pool)
    turns = max_turns(instance.game)
    layers.player(player, turns)
    for k in range(turns):
        _, total = layers.rolls(k)
        layers.move(player, k, k, total, [])
    reached = [layers.at_least(player, k, instance.game.target) for k in range(turns + 1)]
    queries = [[-reached[k]] for k in range(turns + 1)]
    queries += [[-reached[k - 1], reached[k]] for k in range(1, turns + 1)]
    return layers.encoding(turns, queries, player=player + 1)


def wins_from_tracks(instance: DiceInstance, counts: list[list[int]]) -> tuple[int, int]:
    """Both players' universe counts from the query counts of both tracks (``counts[p]`` answers
    ``encode_track(instance, p).queries`` in order)."""
    game = instance.game
    turns = max_turns(game)
    per_turn = game.sides ** game.rolls
    below, ends = [], []
    for player in (0, 1):
        free = [per_turn ** (turns - k) for k in range(turns + 1)]  # the later turns no query constrains
        raw_below, raw_ends = counts[player][:turns + 1], [0] + counts[player][turns + 1:]
        # every query leaves the later turns free, so a count that is not a multiple is a counter's error
        if len(raw_ends) != turns + 1 or any(raw_below[k] % free[k] or raw_ends[k] % free[k]
                                             for k in range(turns + 1)):
            raise CheckFailed(f"player {player + 1}'s track counts cannot be right: {counts[player]}")
        below.append([count // free[k] for k, count in enumerate(raw_below)])
        ends.append([count // free[k] for k, count in enumerate(raw_ends)])
    one = sum(ends[0][k] * below[1][k - 1] for k in range(1, turns + 1))
    two = sum(ends[1][k] * below[0][k] for k in range(1, turns + 1))
    return one, two
