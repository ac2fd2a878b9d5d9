"""Reachability unrolling (bounded model checking): a state per step, one legal macro-move per step.

State at step ``t``: where every mover stands — still in its start slot, parked on a hallway stop, or
home (the cell contents follow: start rooms empty from the top, home rooms fill from the bottom).
Moves at step ``t``: ``leave(m, p, t)`` (start slot -> stop p), ``enter(m, p, t)`` (stop p -> home),
``direct(m, t)`` (start slot -> home); at most one per step, with preconditions (everybody above has
left; the home room holds no stranger, i.e. every mover that started there has left; no parked amphipod
on the hallway cells walked), effects, and frame axioms (a mover that does not move stays). Idle steps
come only at the end, and the goal (every mover home) must hold at the horizon.

Horizon: every amphipod moves at most twice (out to the hallway and home, or once directly), so any
legal plan has at most ``2 * movers`` moves; with idle steps allowed, ``T = 2 * movers`` admits every
plan, and the optimum over this unrolling is the true optimum, not that of a truncated search.

Cost: as in the event encoding, only the detour above the fixed energy is charged: ``leave(m, p, t)``
implies ``parks(m, p)``, and one soft clause per costly ``parks(m, p)`` carries the detour (a mover
leaves once, so each detour is paid once). One soft clause per option rather than per step and option
gives MaxSAT 110 soft clauses instead of thousands on part 2.
"""
from __future__ import annotations

from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...core.encoding import Encoding
from .burrow import Burrow
from .events import moves_from_events
from .movers import DIRECT, Movers, encode_burrows
from .rules import Move

START, HOME = "start", "home"


def encode_unroll(burrows: tuple[tuple[str, Burrow], ...]) -> Encoding:
    return encode_burrows(burrows, _encode_part, "unroll")


def horizon(movers: Movers) -> int:
    return 2 * len(movers.all)


def _encode_part(label: str, movers: Movers, pool: IDPool, clauses: list[list[int]],
                 soft: list[tuple[list[int], int]], show: list[int]) -> None:
    burrow = movers.burrow
    steps = horizon(movers)
    stops = burrow.stops

    def at(m, where, t: int) -> int:
        return pool.id(("at", label, m.index, where, t))

    def occupied(q: int, t: int) -> int:
        return pool.id(("occupied", label, q, t))

    places = {m.index: (START, HOME) + stops for m in movers.all}
    for m in movers.all:
        clauses.append([at(m, START, 0)])
        clauses.append([at(m, HOME, steps)])
        for t in range(steps + 1):
            here = [at(m, w, t) for w in places[m.index]]
            clauses.append(here)
            clauses.extend([-a, -b] for a, b in combinations(here, 2))
            for q in stops:
                clauses.append([-at(m, q, t), occupied(q, t)])

    for t in range(steps):
        moves_now: list[int] = []
        # effects and preconditions of every possible move of every mover
        changes: dict[tuple[int, object], list[int]] = {}  # (mover, place) -> moves that change it
        for m in movers.all:
            for option in movers.options(m):
                if option == DIRECT:
                    move = pool.id(("direct", label, m.index, t))
                    source, target = START, HOME
                    walks = [movers.out_path(m, option)]
                else:
                    move = pool.id(("leave", label, m.index, option, t))
                    source, target = START, option
                    walks = [movers.out_path(m, option)]
                    if t == 0 and movers.detour(m, option):
                        soft.append(([-pool.id(("parks", label, m.index, option))], movers.detour(m, option)))
                    clauses.append([-move, pool.id(("parks", label, m.index, option))])
                    show.append(move)
                    _move_clauses(label, movers, m, move, source, target, walks, t, at, occupied, clauses, home_entry=False)
                    moves_now.append(move)
                    changes.setdefault((m.index, source), []).append(move)
                    changes.setdefault((m.index, target), []).append(move)
                    move = pool.id(("enter", label, m.index, option, t))
                    source, target = option, HOME
                    walks = [movers.in_path(m, option)]
                show.append(move)
                _move_clauses(label, movers, m, move, source, target, walks, t, at, occupied, clauses,
                              home_entry=True, leaving=source == START)
                moves_now.append(move)
                changes.setdefault((m.index, source), []).append(move)
                changes.setdefault((m.index, target), []).append(move)
        # frame axioms: a mover's place changes only through one of its moves
        for m in movers.all:
            for where in places[m.index]:
                why = changes.get((m.index, where), [])
                clauses.append([-at(m, where, t), at(m, where, t + 1)] + why)
                clauses.append([at(m, where, t), -at(m, where, t + 1)] + why)
        clauses.extend(CardEnc.atmost(moves_now, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses)
        _eager_home(label, movers, t, at, pool, clauses)
        # idle steps only at the end
        busy = pool.id(("busy", label, t))
        clauses.append([-busy] + moves_now)
        clauses.extend([busy, -move] for move in moves_now)
        if t:
            clauses.append([-busy, pool.id(("busy", label, t - 1))])


def _eager_home(label: str, movers: Movers, t: int, at, pool: IDPool, clauses: list[list[int]]) -> None:
    """The safe rule "an amphipod goes home as soon as it can": when some mover could enter its home
    at step t, step t is a move home. Going home costs the same whenever it happens and never blocks
    anybody (it frees a hallway cell or a room top), so no optimum is lost; it prunes reorderings."""
    home_moves = []
    for m in movers.all:
        for option in movers.options(m):
            kind = ("direct", label, m.index, t) if option == DIRECT else ("enter", label, m.index, option, t)
            home_moves.append(pool.id(kind))
    for m in movers.all:
        blockers = [at(s, START, t) for s in movers.starting_in(m.home) if s is not m]
        for option in movers.options(m):
            if option == DIRECT:
                source = at(m, START, t)
                path = movers.out_path(m, option)
                above = [at(u, START, t) for u in movers.starting_in(m.room) if u.slot < m.slot]
            else:
                source = at(m, option, t)
                path = movers.in_path(m, option)
                above = []
            parked = [at(y, q, t) for y in movers.all if y is not m for q in path if q in movers.burrow.stops]
            clauses.append([-source] + blockers + above + parked + home_moves)


def _move_clauses(label, movers: Movers, m, move: int, source, target, walks, t: int, at, occupied,
                  clauses: list[list[int]], home_entry: bool, leaving: bool = True) -> None:
    """move at t -> m at source (t) and target (t+1); the way out (or in) is clear."""
    burrow = movers.burrow
    clauses.append([-move, at(m, source, t)])
    clauses.append([-move, at(m, target, t + 1)])
    if leaving:
        for upper in movers.starting_in(m.room):
            if upper.slot < m.slot:
                clauses.append([-move, -at(upper, START, t)])
    if home_entry:
        for stranger in movers.starting_in(m.home):
            if stranger is not m:
                clauses.append([-move, -at(stranger, START, t)])
    for path in walks:
        for q in path:
            if q in burrow.stops:
                clauses.append([-move, -occupied(q, t)])


def decode_unroll(burrows: tuple[tuple[str, Burrow], ...], encoding: Encoding, model) -> list[tuple[list[Move], int]]:
    """Per burrow, the moves step by step and the energy the encoding assigns them."""
    pool = encoding.pool
    plans = []
    for label, burrow in burrows:
        movers = Movers(burrow)
        order: list[int] = []
        chosen: dict[int, int | None] = {m.index: None for m in movers.all}
        for t in range(horizon(movers)):
            for m in movers.all:
                for option in movers.options(m):
                    if option == DIRECT:
                        if model.value(pool.id(("direct", label, m.index, t))):
                            order += [2 * m.index, 2 * m.index + 1]
                            chosen[m.index] = DIRECT
                        continue
                    if model.value(pool.id(("leave", label, m.index, option, t))):
                        order.append(2 * m.index)
                        chosen[m.index] = option
                    if model.value(pool.id(("enter", label, m.index, option, t))):
                        order.append(2 * m.index + 1)
        energy = movers.fixed_energy + sum(movers.detour(m, chosen[m.index]) for m in movers.all
                                           if chosen[m.index] is not None)
        plans.append((moves_from_events(movers, order, chosen), energy))
    return plans
