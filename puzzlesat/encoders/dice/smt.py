"""Z3 formulations: part 1 as an unrolling of the deterministic game, and part 2's universe counts as
integer equations of the recurrence over game states (an oracle independent of the CNF and the DP code).
"""
from __future__ import annotations

from ...core.encoding import Encoding
from .instance import DiceInstance
from .rules import advance, roll_sums


def part1_horizons(instance: DiceInstance) -> list[int]:
    """Unrolling depths to try in turn (bounded model checking): doubling from 64 up to
    ``2 * det_target``, which always suffices because each turn scores at least 1. A shallow unrolling
    whose end is not a finished game is UNSAT, so the first SAT depth holds the whole game."""
    last = 2 * instance.game.det_target
    depths = [64]
    while depths[-1] * 2 < last:
        depths.append(depths[-1] * 2)
    return [d for d in depths if d < last] + [last]


def encode_part1(instance: DiceInstance, horizon: int | None = None) -> Encoding:
    """Integer position and score per player and turn; the die values of turn t are constants (the die
    is deterministic), the landing space is ``(pos + steps - 1) % track + 1``, and once a score reaches
    the target every later state is frozen; the game must be over at the ``horizon`` (default
    ``2 * det_target``, always enough). Terms: the number of turns played and the final scores."""
    import z3

    game = instance.game
    horizon = horizon or 2 * game.det_target
    pos = [[z3.Int(f"pos{p + 1}_{t}") for t in range(horizon + 1)] for p in (0, 1)]
    score = [[z3.Int(f"score{p + 1}_{t}") for t in range(horizon + 1)] for p in (0, 1)]
    assertions = [pos[p][0] == instance.starts[p] for p in (0, 1)] + [score[p][0] == 0 for p in (0, 1)]
    played = []
    for t in range(horizon):
        mover, other = t % 2, 1 - t % 2
        steps = sum((t * game.rolls + i) % game.det_sides + 1 for i in range(game.rolls))
        over = z3.Or(score[0][t] >= game.det_target, score[1][t] >= game.det_target)
        landed = (pos[mover][t] + steps - 1) % game.track + 1
        assertions += [
            pos[mover][t + 1] == z3.If(over, pos[mover][t], landed),
            score[mover][t + 1] == z3.If(over, score[mover][t], score[mover][t] + pos[mover][t + 1]),
            pos[other][t + 1] == pos[other][t],
            score[other][t + 1] == score[other][t],
        ]
        played.append(z3.If(over, 0, 1))
    turns = z3.Int("turns")
    assertions.append(turns == z3.Sum(played))
    assertions.append(z3.Or(score[0][horizon] >= game.det_target, score[1][horizon] >= game.det_target))
    terms = {"turns": turns, "score1": score[0][horizon], "score2": score[1][horizon]}
    return Encoding("smt", assertions=assertions, terms=terms, show_terms=list(terms.values()))


def encode_recurrence(instance: DiceInstance) -> Encoding:
    """Two integers per reachable state (universes won by the player to move, by the other one) and one
    linear equation each, from the roll-sum multiplicities. The game graph is acyclic, so the system has
    exactly one solution: Z3 finds the counts by solving it, not by being told them."""
    import z3

    game = instance.game
    sums = roll_sums(game.sides, game.rolls)
    start = (instance.starts[0], instance.starts[1], 0, 0)
    states, frontier = {start}, [start]
    while frontier:
        mover, other, mine, theirs = frontier.pop()
        for steps, _ in sums:
            landed = advance(mover, steps, game.track)
            if mine + landed < game.target:
                nxt = (other, landed, theirs, mine + landed)
                if nxt not in states:
                    states.add(nxt)
                    frontier.append(nxt)
    mover_wins = {s: z3.Int("m_{}_{}_{}_{}".format(*s)) for s in states}
    other_wins = {s: z3.Int("o_{}_{}_{}_{}".format(*s)) for s in states}
    assertions = []
    for state in states:
        mover, other, mine, theirs = state
        won, lost = [], []
        for steps, ways in sums:
            landed = advance(mover, steps, game.track)
            if mine + landed >= game.target:
                won.append(z3.IntVal(ways))
            else:
                nxt = (other, landed, theirs, mine + landed)
                won.append(ways * other_wins[nxt])
                lost.append(ways * mover_wins[nxt])
        assertions.append(mover_wins[state] == z3.Sum(won))
        assertions.append(other_wins[state] == (z3.Sum(lost) if lost else z3.IntVal(0)))
    terms = {"wins1": mover_wins[start], "wins2": other_wins[start]}
    return Encoding("smt", assertions=assertions, terms=terms, show_terms=list(terms.values()),
                    info={"states": len(states)})
