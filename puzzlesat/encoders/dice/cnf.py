"""Part 2 as projected model counting: a CNF whose models, projected on the roll variables, are exactly
the universes in which one given player wins.

Per turn ``t`` and roll ``r``, one variable per die value (exactly one true): these are the projection.
The state is kept per player and per *own* turn ``k`` (the other player does not move, so no frame
axioms are needed): the position one-hot over the values reachable after ``k`` turns, the score in order
encoding (``score>=v`` for v = 1..target, capped at the target; both bounds propagate through a move, so
every order literal is determined). A turn adds the roll sum to the position and the landing space to
the score. ``over`` before turn t+1 is "over before turn t, or the mover just reached the target". Once
the game is over, every roll of a turn is fixed to 1 (a finished universe is counted once) and the
mover's state is set to a constant (start position, score 0) rather than copied, which keeps the formula
small; so the target is reached exactly once, and "the winner wins" is "some own turn of the winner
reaches the target". The horizon is ``2 * max_turns`` (:func:`.rules.max_turns`: no player can need more
own turns), so every game ends inside it.

Measured with D4 at target 21 (per player): one-hot scores 1.8-5.0 s, order-encoded scores with frozen
copies after the end 2.5-2.9 s, with constants after the end 1.9-2.4 s (10.4k clauses instead of 11.4k);
score transitions only for jointly reachable (position, score) states: 9.7k clauses, same time.
"""
from __future__ import annotations

from itertools import combinations, product

from pysat.formula import IDPool

from ...core.encoding import Encoding
from .instance import DiceInstance
from .rules import advance, max_turns, roll_sums


def reachable(start: int, instance: DiceInstance, turns: int) -> list[set[tuple[int, int]]]:
    """The (position, capped score) states a player may be in after 0..turns own turns. A superset: every
    earlier state stays in, so the constant state after the end (start position, score 0) is in range."""
    game = instance.game
    sums = [s for s, _ in roll_sums(game.sides, game.rolls)]
    states = {(start, 0)}
    out = [states]
    for _ in range(turns):
        nxt = set(states)
        for position, score in states:
            if score < game.target:
                for s in sums:
                    landed = advance(position, s, game.track)
                    nxt.add((landed, min(game.target, score + landed)))
        states = nxt
        out.append(states)
    return out


def encode_count(instance: DiceInstance, winner: int) -> Encoding:
    """Models projected on ``show`` = universes won by player ``winner`` (0 or 1)."""
    game = instance.game
    target = game.target
    pool = IDPool()
    clauses: list[list[int]] = []
    turns_each = max_turns(game)
    states = [reachable(instance.starts[p], instance, turns_each) for p in (0, 1)]
    positions = [[{a for a, _ in layer} for layer in states[p]] for p in (0, 1)]
    true = pool.id(("true",))
    clauses.append([true])

    def exactly_one(lits: list[int]) -> None:
        clauses.append(lits)
        clauses.extend([-a, -b] for a, b in combinations(lits, 2))

    def pos(p: int, k: int, value: int) -> int:
        return pool.id(("pos", p + 1, k, value))

    def at_least(p: int, k: int, value: int) -> int:
        """``score >= value`` after ``k`` own turns; constants outside 1..target (scores are capped)."""
        if value <= 0:
            return true
        if value > target:
            return -true
        return pool.id(("score>=", p + 1, k, value))

    for p in (0, 1):
        for k, layer in enumerate(states[p]):
            scores = {v for _, v in layer}
            exactly_one([pos(p, k, a) for a in sorted(positions[p][k])])
            for v in range(2, target + 1):
                clauses.append([-at_least(p, k, v), at_least(p, k, v - 1)])
            # outside the reachable range the order literals are fixed, which keeps every one determined
            clauses.extend([at_least(p, k, v)] for v in range(1, min(scores) + 1))
            clauses.extend([-at_least(p, k, v)] for v in range(max(scores) + 1, target + 1))
        clauses.append([pos(p, 0, instance.starts[p])])

    show: list[int] = []
    sums = dict(roll_sums(game.sides, game.rolls))
    over = [pool.id(("over", t + 1)) for t in range(2 * turns_each + 1)]
    clauses.append([-over[0]])
    for t in range(2 * turns_each):
        p, k = t % 2, t // 2
        rolls = [[pool.id(("roll", t + 1, r + 1, v)) for v in range(1, game.sides + 1)] for r in range(game.rolls)]
        for values in rolls:
            exactly_one(values)
            show.extend(values)
        total = {s: pool.id(("sum", t + 1, s)) for s in sums}
        exactly_one(list(total.values()))  # the sum is a function of the rolls: no free variable
        for combo in product(range(game.sides), repeat=game.rolls):
            s = sum(combo) + game.rolls
            clauses.append([-rolls[r][v] for r, v in enumerate(combo)] + [total[s]])
        done = over[t]
        reached = at_least(p, k + 1, target)
        # over after this turn <-> over before it, or the mover reaches the target now
        clauses.extend([[-over[t + 1], done, reached], [over[t + 1], -done], [over[t + 1], -reached]])
        clauses.extend([-done, values[0]] for values in rolls)
        clauses.append([-done, pos(p, k + 1, instance.starts[p])])
        clauses.append([-done, -at_least(p, k + 1, 1)])
        for a in positions[p][k]:
            for s in sums:
                landed = advance(a, s, game.track)
                # a landing outside the reachable positions cannot happen (the clause forbids the pair);
                # naming it anyway would add a variable that nothing determines
                landing = [pos(p, k + 1, landed)] if landed in positions[p][k + 1] else []
                clauses.append([done, -pos(p, k, a), -total[s]] + landing)
        # a move landing on b: new score = min(target, score + b), written only for the scores v that a
        # live state can have before landing on b (the states are joint, so this is sparser than a range)
        before: dict[int, set[int]] = {}
        for a, v in states[p][k]:
            if v < target:
                for s in sums:
                    before.setdefault(advance(a, s, game.track), set()).add(v)
        for b, values in before.items():
            for v in sorted(values):
                # score >= v  ->  new score >= v + b;  score <= v  ->  new score <= v + b
                clauses.append([done, -pos(p, k + 1, b), -at_least(p, k, v), at_least(p, k + 1, min(target, v + b))])
                if v + b < target:
                    clauses.append([done, -pos(p, k + 1, b), at_least(p, k, v + 1), -at_least(p, k + 1, v + b + 1)])
    clauses.append([at_least(winner, k, target) for k in range(1, turns_each + 1)])
    # rolls fix the sums, sums fix the positions, positions fix the order-encoded scores (both bounds are
    # propagated), scores fix "over" and the frozen rolls: nothing is free
    return Encoding("cnf", pool=pool, clauses=clauses, show=show, show_determines_all=True,
                    info={"encoding": "count", "winner": winner + 1, "turns": 2 * turns_each})
