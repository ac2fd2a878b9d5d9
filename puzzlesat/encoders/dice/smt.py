"""Z3 formulations: part 1 as an unrolling of the deterministic game, and part 2's universe counts as
integer equations of the recurrence over game states, solved block by block (an oracle independent of
the CNF and the DP code).
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
    ``2 * det_target``, always enough). Terms: the number of turns played and the final scores.

    Written as SMT-LIB text and parsed by Z3, one assertion a turn: building the same terms through
    Z3's Python API took ten times as long (0.22 s against 0.02 s for 512 turns), and each assertion
    costs a Python object on the way to the solver (four a turn took 0.04 s more per 512 turns)."""
    import z3

    game = instance.game
    horizon = horizon or 2 * game.det_target
    target = game.det_target
    lines = [f"(declare-const {name}{p}_{t} Int)" for p in (1, 2) for t in range(horizon + 1) for name in ("pos", "score")]
    lines += ["(declare-const turns Int)",
              f"(assert (= pos1_0 {instance.starts[0]}))", f"(assert (= pos2_0 {instance.starts[1]}))",
              "(assert (= score1_0 0))", "(assert (= score2_0 0))"]
    played = []
    for t in range(horizon):
        mover, other = t % 2 + 1, 2 - t % 2
        steps = sum((t * game.rolls + i) % game.det_sides + 1 for i in range(game.rolls))
        over = f"(or (>= score1_{t} {target}) (>= score2_{t} {target}))"
        landed = f"(+ (mod (+ pos{mover}_{t} {steps - 1}) {game.track}) 1)"
        lines.append(f"(assert (and (= pos{mover}_{t + 1} (ite {over} pos{mover}_{t} {landed})) "
                     f"(= score{mover}_{t + 1} (ite {over} score{mover}_{t} (+ score{mover}_{t} pos{mover}_{t + 1}))) "
                     f"(= pos{other}_{t + 1} pos{other}_{t}) (= score{other}_{t + 1} score{other}_{t})))")
        played.append(f"(ite {over} 0 1)")
    lines += [f"(assert (= turns (+ 0 {' '.join(played)})))",
              f"(assert (or (>= score1_{horizon} {target}) (>= score2_{horizon} {target})))"]
    assertions = list(z3.parse_smt2_string("\n".join(lines)))
    terms = {"turns": z3.Int("turns"), "score1": z3.Int(f"score1_{horizon}"), "score2": z3.Int(f"score2_{horizon}")}
    return Encoding("smt", assertions=assertions, terms=terms, show_terms=list(terms.values()))


State = tuple[int, int, int, int]  # (mover's position, other's position, mover's score, other's score)

#: states per linear system given to Z3 at once. Z3's simplex slows steeply with the system's size and
#: its numbers' (the AoC example: 7,072 states at target 16 took 1.6 s as one system, all 17,512 at
#: target 21 took 47 s); in blocks of 1,000 states (two or three total scores each) target 21 takes
#: 2.7 s, of 500 3.0 s, of 5,000 4.6 s
BLOCK_STATES = 1000


def reachable_states(instance: DiceInstance) -> dict[State, list[tuple[int, State | None]]]:
    """Every state reachable from the start, with its moves: (universes, next state), the next state
    None when that roll wins the game for the player to move."""
    game = instance.game
    sums = roll_sums(game.sides, game.rolls)
    start = (instance.starts[0], instance.starts[1], 0, 0)
    moves: dict[State, list[tuple[int, State | None]]] = {}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if state in moves:
            continue
        mover, other, mine, theirs = state
        moves[state] = []
        for steps, ways in sums:
            landed = advance(mover, steps, game.track)
            nxt = (other, landed, theirs, mine + landed) if mine + landed < game.target else None
            moves[state].append((ways, nxt))
            if nxt is not None and nxt not in moves:
                frontier.append(nxt)
    return moves


def recurrence_blocks(moves: dict[State, list[tuple[int, State | None]]]) -> list[list[State]]:
    """The states in blocks of consecutive total scores, highest first. A move adds at least 1 to the
    total, so a block's equations name only its own states and those of earlier blocks: once Z3 has
    solved the earlier blocks, their values enter as numbers and each block is a system of its own."""
    by_total: dict[int, list[State]] = {}
    for state in moves:
        by_total.setdefault(state[2] + state[3], []).append(state)
    blocks: list[list[State]] = [[]]
    for total in sorted(by_total, reverse=True):
        if len(blocks[-1]) >= BLOCK_STATES:
            blocks.append([])
        blocks[-1].extend(sorted(by_total[total]))
    return blocks


def mover_name(state: State) -> str:
    """The integer of universes won by the player to move in ``state`` (``o_...``: by the other)."""
    return "m_{}_{}_{}_{}".format(*state)


def other_name(state: State) -> str:
    return "o_{}_{}_{}_{}".format(*state)


def block_smt2(block: list[State], moves: dict[State, list[tuple[int, State | None]]],
               known: dict[str, int]) -> str:
    """SMT-LIB 2 of one block: two integers per state (universes won by the player to move, by the
    other one) and one linear equation each from the roll-sum multiplicities, the values of earlier
    blocks' states (``known``, as Z3 solved them) written as numbers. The game graph is acyclic, so the
    system has exactly one solution: Z3 finds the counts by solving it, not by being told them."""
    def term(name: str, ways: int) -> str:
        value = known.get(name)
        return f"(* {ways} {name})" if value is None else str(ways * value)

    lines = [f"(declare-const {name(state)} Int)" for state in block for name in (mover_name, other_name)]
    for state in block:
        won = [str(ways) if nxt is None else term(other_name(nxt), ways) for ways, nxt in moves[state]]
        lost = [term(mover_name(nxt), ways) for ways, nxt in moves[state] if nxt is not None]
        lines.append(f"(assert (= {mover_name(state)} (+ 0 {' '.join(won)})))")
        lines.append(f"(assert (= {other_name(state)} (+ 0 {' '.join(lost)})))")
    return "\n".join(lines)
