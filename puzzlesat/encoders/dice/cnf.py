"""Part 2 as projected model counting: a CNF whose models, projected on the roll variables, are exactly
the universes in which one given player wins.

Per turn ``t`` and roll ``r``, one variable per die value (exactly one true): these are the projection.
The state is kept per player and per *own* turn ``k`` (the other player does not move, so no frame
axioms are needed): position and score, one-hot over the values reachable after ``k`` turns (score capped
at the target). A turn adds the roll sum to the position and the landing space to the score, unless the
game is already over: then the state is frozen and every roll of the turn is fixed to 1, so a finished
universe is counted once. The horizon is ``2 * max_turns`` (:func:`.rules.max_turns`: no player can need
more own turns), so every game ends inside it; the winner's final score is the target.
"""
from __future__ import annotations

from itertools import combinations, product

from pysat.formula import IDPool

from ...core.encoding import Encoding
from .instance import DiceInstance
from .rules import advance, max_turns, roll_sums


def reachable(start: int, instance: DiceInstance, turns: int) -> list[tuple[set[int], set[int]]]:
    """(positions, capped scores) a player may have after 0..turns own turns (a superset: a state may
    also stay, frozen, when the other player has won)."""
    game = instance.game
    sums = [s for s, _ in roll_sums(game.sides, game.rolls)]
    states = {(start, 0)}
    out = [({start}, {0})]
    for _ in range(turns):
        nxt = set()
        for position, score in states:
            nxt.add((position, score))
            if score >= game.target:
                continue
            for s in sums:
                landed = advance(position, s, game.track)
                nxt.add((landed, min(game.target, score + landed)))
        states = nxt
        out.append(({p for p, _ in states}, {v for _, v in states}))
    return out


def encode_count(instance: DiceInstance, winner: int) -> Encoding:
    """Models projected on ``show`` = universes won by player ``winner`` (0 or 1)."""
    game = instance.game
    pool = IDPool()
    clauses: list[list[int]] = []
    turns_each = max_turns(game)
    domains = [reachable(instance.starts[p], instance, turns_each) for p in (0, 1)]

    def exactly_one(lits: list[int]) -> None:
        clauses.append(lits)
        clauses.extend([-a, -b] for a, b in combinations(lits, 2))

    def pos(p: int, k: int, value: int) -> int:
        return pool.id(("pos", p + 1, k, value))

    def score(p: int, k: int, value: int) -> int:
        return pool.id(("score", p + 1, k, value))

    def won(p: int, k: int) -> int | None:
        return score(p, k, game.target) if game.target in domains[p][k][1] else None

    for p in (0, 1):
        for k, (positions, scores) in enumerate(domains[p]):
            exactly_one([pos(p, k, v) for v in sorted(positions)])
            exactly_one([score(p, k, v) for v in sorted(scores)])
        clauses.append([pos(p, 0, instance.starts[p])])
        clauses.append([score(p, 0, 0)])

    show: list[int] = []
    sums = dict(roll_sums(game.sides, game.rolls))
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
        done = pool.id(("over", t + 1))
        finished = [w for w in (won(0, (t + 1) // 2), won(1, t // 2)) if w is not None]
        clauses.append([-done] + finished)
        clauses.extend([done, -w] for w in finished)
        clauses.extend([-done, values[0]] for values in rolls)
        positions, scores = domains[p][k]
        for a in positions:
            clauses.append([-done, -pos(p, k, a), pos(p, k + 1, a)])
            for s in sums:
                landed = advance(a, s, game.track)
                # a landing outside the reachable positions cannot happen (the clause forbids the pair);
                # naming it anyway would add a variable that nothing determines
                landing = [pos(p, k + 1, landed)] if landed in domains[p][k + 1][0] else []
                clauses.append([done, -pos(p, k, a), -total[s]] + landing)
        for v in scores:
            clauses.append([-done, -score(p, k, v), score(p, k + 1, v)])
            for b in domains[p][k + 1][0]:
                after = min(game.target, v + b)
                # a sum outside the reachable scores cannot happen: then the clause forbids the pair
                landing = [score(p, k + 1, after)] if after in domains[p][k + 1][1] else []
                clauses.append([done, -score(p, k, v), -pos(p, k + 1, b)] + landing)
    final = won(winner, turns_each)
    clauses.append([final] if final is not None else [])
    if not clauses[-1]:
        contradiction = pool.id(("cannot_win",))
        clauses[-1:] = [[contradiction], [-contradiction]]
    # rolls fix the sums, sums fix the states, states fix "over" and the frozen rolls: nothing is free
    return Encoding("cnf", pool=pool, clauses=clauses, show=show, show_determines_all=True,
                    info={"encoding": "count", "winner": winner + 1, "turns": 2 * turns_each})
