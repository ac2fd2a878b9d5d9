"""Part 2 as projected model counting over the whole game (encoding ``count``): a CNF whose models,
projected on the roll variables, are exactly the universes in which one given player wins. Per turn ``t`` and roll ``r``, one
variable per die value (exactly one true): these are the projection. The state is kept per player and per
*own* turn ``k`` (the other player does not move, so no frame axioms are needed): the position one-hot
over the values reachable after ``k`` turns, the score in order encoding (``score>=v`` for v = 1..target,
capped at the target; both bounds propagate through a move, so every order literal is determined). A turn
adds the roll sum to the position and the landing space to the score. ``over`` before turn t+1 is "over
before turn t, or the mover just reached the target". Once the game is over, every roll of a turn is fixed
to 1 (a finished universe is counted once) and the mover's state is set to a constant (start position,
score 0) rather than copied, which keeps the formula small; so the target is reached exactly once, and
"the winner wins" is "some own turn of the winner reaches the target". The horizon is ``2 * max_turns``
(:func:`.rules.max_turns`: no player can need more own turns), so every game ends inside it.
:class:`Layers` is also what the split count (:mod:`.split`) is made of.

Measured with D4 at target 21 (per player, whole game): one-hot scores 1.8-5.0 s, order-encoded scores
with frozen copies after the end 2.5-2.9 s, with constants after the end 1.9-2.4 s (10.4k clauses instead
of 11.4k); score transitions only for jointly reachable (position, score) states: 9.7k clauses, same time.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

from pysat.formula import IDPool

from ...core.encoding import Encoding
from .instance import DiceInstance, Game
from .rules import advance, max_turns, roll_sums


def reachable(start: int, game: Game, turns: int, past_target: bool = False) -> list[set[tuple[int, int]]]:
    """The (position, capped score) states a player may be in after 0..turns own turns. A superset: every
    earlier state stays in, so the constant state after the end (start position, score 0) is in range.
    With ``past_target`` a player who has reached the target keeps moving (score capped)."""
    sums = [s for s, _ in roll_sums(game.sides, game.rolls)]
    states = {(start, 0)}
    out = [states]
    for _ in range(turns):
        nxt = set(states)
        for position, score in states:
            if score < game.target or past_target:
                for s in sums:
                    landed = advance(position, s, game.track)
                    nxt.add((landed, min(game.target, score + landed)))
        states = nxt
        out.append(states)
    return out


@dataclass
class DiceEncoding(Encoding):
    """A counting formula of the game, with what dice's own steps read back: the ``horizon`` (turns
    unrolled, for the decoder of a universe) and the ``queries`` (one assumption set per count wanted:
    the ``split`` encoding's questions, each a list of literals, answered by ``count_each``)."""

    horizon: int = 0
    queries: list[list[int]] = field(default_factory=list)


class Layers:
    """The variables and clauses both counting encodings are made of: the rolls of a turn (the
    projection) with the one-hot sum they fix, and each player's state layers (one-hot position,
    order-encoded score) with the move from one layer to the next."""

    def __init__(self, instance: DiceInstance, past_target: bool = False, pool: IDPool | None = None) -> None:
        #: a player who has reached the target keeps moving (one player's track) instead of the game ending
        self.past_target = past_target
        self.game = instance.game
        self.starts = instance.starts
        self.pool = pool if pool is not None else IDPool()
        #: the first variable of this encoding (a caller's pool may hold variables of its own below it)
        self.first = self.pool.top + 1
        self.clauses: list[list[int]] = []
        self.show: list[int] = []
        self.sums = dict(roll_sums(self.game.sides, self.game.rolls))
        self.true = self.pool.id(("true",))
        self.clauses.append([self.true])
        self.states: dict[int, list[set[tuple[int, int]]]] = {}
        #: the game turn (0-based) whose move makes each player's layer: (player, own turns) -> turn
        self.made_by: dict[tuple[int, int], int] = {}
        self.positions: dict[int, list[set[int]]] = {}

    def exactly_one(self, lits: list[int]) -> None:
        self.clauses.append(lits)
        self.clauses.extend([-a, -b] for a, b in combinations(lits, 2))

    def pos(self, p: int, k: int, value: int) -> int:
        return self.pool.id(("pos", p + 1, k, value))

    def at_least(self, p: int, k: int, value: int) -> int:
        """``score >= value`` after ``k`` own turns; constants outside 1..target (scores are capped)."""
        if value <= 0:
            return self.true
        if value > self.game.target:
            return -self.true
        return self.pool.id(("score>=", p + 1, k, value))

    def player(self, p: int, turns: int) -> None:
        """Player ``p``'s layers 0..turns, over the states reachable in that many own turns."""
        target = self.game.target
        self.states[p] = reachable(self.starts[p], self.game, turns, self.past_target)
        self.positions[p] = [{a for a, _ in layer} for layer in self.states[p]]
        for k, layer in enumerate(self.states[p]):
            scores = {v for _, v in layer}
            self.exactly_one([self.pos(p, k, a) for a in sorted(self.positions[p][k])])
            for v in range(2, target + 1):
                self.clauses.append([-self.at_least(p, k, v), self.at_least(p, k, v - 1)])
            # outside the reachable range the order literals are fixed, which keeps every one determined
            self.clauses.extend([self.at_least(p, k, v)] for v in range(1, min(scores) + 1))
            self.clauses.extend([-self.at_least(p, k, v)] for v in range(max(scores) + 1, target + 1))
        self.clauses.append([self.pos(p, 0, self.starts[p])])

    def rolls(self, t: int) -> tuple[list[list[int]], dict[int, int]]:
        """Turn ``t``'s roll variables (shown) and the one-hot sum they determine."""
        game = self.game
        rolls = [[self.pool.id(("roll", t + 1, r + 1, v)) for v in range(1, game.sides + 1)]
                 for r in range(game.rolls)]
        for values in rolls:
            self.exactly_one(values)
            self.show.extend(values)
        total = {s: self.pool.id(("sum", t + 1, s)) for s in self.sums}
        self.exactly_one(list(total.values()))  # the sum is a function of the rolls: no free variable
        for combo in product(range(game.sides), repeat=game.rolls):
            s = sum(combo) + game.rolls
            self.clauses.append([-rolls[r][v] for r, v in enumerate(combo)] + [total[s]])
        return rolls, total

    def move(self, p: int, k: int, turn: int, total: dict[int, int], unless: list[int]) -> None:
        """Player ``p``'s own turn ``k`` -> ``k + 1``, the game's turn ``turn``, by the sum ``total``;
        every clause is switched off by the literals ``unless`` (the whole game's "over")."""
        self.made_by[p, k + 1] = turn
        target, track = self.game.target, self.game.track
        for a in self.positions[p][k]:
            for s in self.sums:
                landed = advance(a, s, track)
                # a landing outside the reachable positions cannot happen (the clause forbids the pair);
                # naming it anyway would add a variable that nothing determines
                landing = [self.pos(p, k + 1, landed)] if landed in self.positions[p][k + 1] else []
                self.clauses.append(unless + [-self.pos(p, k, a), -total[s]] + landing)
        # a move landing on b: new score = min(target, score + b), written only for the scores v that a
        # live state can have before landing on b (the states are joint, so this is sparser than a range)
        before: dict[int, set[int]] = {}
        for a, v in self.states[p][k]:
            if v < target or self.past_target:
                for s in self.sums:
                    before.setdefault(advance(a, s, track), set()).add(v)
        for b, values in before.items():
            for v in sorted(values):
                # score >= v  ->  new score >= v + b;  score <= v  ->  new score <= v + b
                self.clauses.append(unless + [-self.pos(p, k + 1, b), -self.at_least(p, k, v),
                                              self.at_least(p, k + 1, min(target, v + b))])
                if v + b < target:
                    self.clauses.append(unless + [-self.pos(p, k + 1, b), self.at_least(p, k, v + 1),
                                                  -self.at_least(p, k + 1, v + b + 1)])

    def encoding(self, horizon: int, queries: list[list[int]] | None = None, **info: object) -> DiceEncoding:
        # rolls fix the sums, sums fix the positions, positions fix the order-encoded scores (both bounds
        # are propagated), scores fix "over" and the frozen rolls: nothing is free
        return DiceEncoding("cnf", pool=self.pool, clauses=self.clauses, show=self.show, show_determines_all=True,
                            order=self.turn_order(), info=info, horizon=horizon, queries=queries or [])

    def turn_order(self) -> list[int]:
        """Every variable, turn by turn: a turn's rolls, their sum, the mover's new position and score
        (ascending), then "over". Between two turns only the players' states and "over" connect the
        past to the future, so a compiler sweeping in this order keeps just those (as the DP does)."""
        def key(meaning: tuple[Any, ...]) -> tuple[int, ...]:
            kind = meaning[0]
            if kind == "roll":
                return (meaning[1] - 1, 0, meaning[2], meaning[3])
            if kind == "sum":
                return (meaning[1] - 1, 1, meaning[2])
            if kind in ("pos", "score>="):
                _, p, k, value = meaning
                return (self.made_by.get((p - 1, k), -1), 2 if kind == "pos" else 3, value)
            if kind == "over":
                return (meaning[1] - 2, 4)
            return (-2,)  # the constant "true"

        return sorted(range(self.first, self.pool.top + 1), key=lambda v: key(self.pool.obj(v)))


def encode_count(instance: DiceInstance, winner: int, pool: IDPool | None = None) -> Encoding:
    """The whole game: models projected on ``show`` = universes won by player ``winner`` (0 or 1)."""
    layers = Layers(instance, pool=pool)
    turns_each = max_turns(instance.game)
    for p in (0, 1):
        layers.player(p, turns_each)
    over = [layers.pool.id(("over", t + 1)) for t in range(2 * turns_each + 1)]
    layers.clauses.append([-over[0]])
    for t in range(2 * turns_each):
        p, k = t % 2, t // 2
        rolls, total = layers.rolls(t)
        done = over[t]
        reached = layers.at_least(p, k + 1, instance.game.target)
        # over after this turn <-> over before it, or the mover reaches the target now
        layers.clauses.extend([[-over[t + 1], done, reached], [over[t + 1], -done], [over[t + 1], -reached]])
        layers.clauses.extend([-done, values[0]] for values in rolls)
        layers.clauses.append([-done, layers.pos(p, k + 1, instance.starts[p])])
        layers.clauses.append([-done, -layers.at_least(p, k + 1, 1)])
        layers.move(p, k, t, total, [done])
    layers.clauses.append([layers.at_least(winner, k, instance.game.target) for k in range(1, turns_each + 1)])
    return layers.encoding(2 * turns_each, winner=winner + 1)
