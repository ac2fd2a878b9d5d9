"""Reachability unrolling (bounded model checking): a state per step, one move out of a start room
per step followed by the home entries it makes possible.

State at step ``t``: where every mover stands — still in its start slot, parked on a hallway stop, or
home (the cell contents follow: start rooms empty from the top, home rooms fill from the bottom).
Step ``t`` is one move out of a start room — ``leave(m, p, t)`` (start slot -> stop p) or
``direct(m, t)`` (start slot -> home) — followed by ``enter(m, p, t)`` (stop p -> home) moves, the
leaver's own included, in an order the path conditions imply. Preconditions: everybody above has left;
the home room holds no stranger (every mover that started there has left); no parked amphipod stands on
a hallway cell walked. The move out walks in the state before the step, each entry in the state after
it (an amphipod entering in the same step has gone home by then). Frame axioms: a mover that does not
move stays. The decoder lists the moves one by one and the checker replays them.

Why steps of this shape lose no optimum: going home as soon as possible never costs more — a move home
costs the same whenever it happens and never blocks anybody (it frees a hallway cell). So some optimal
plan enters homes eagerly: after every move out of a room, all possible entries follow before the next
move out (the leaver's own too: its leave may let somebody else go home and so clear its way), and a
direct move, when one is possible, comes before any other move out. The encoding demands exactly this
(no state in which a parked amphipod could enter; a step that could be a direct move is one). Two
parked amphipods whose ways home cross each other's stops can never both get home, so such states are
excluded, also in the middle of a step; with that, the entries of one step can always be ordered (a
cycle of "walks through the other's stop" on a line implies such a crossing pair).

Horizon: every mover leaves its start room exactly once, so there are exactly ``movers`` steps — half
the ``2 * movers`` single moves of a move-per-step unrolling, with no idle steps. Every eager plan fits,
so the optimum over this unrolling is the true optimum, not that of a truncated search. (Tests compare
it with the A* reference on generated burrows.)

Cost: as in the event encoding, only the detour above the fixed energy is charged: ``leave(m, p, t)``
implies ``parks(m, p)``, and one soft clause per costly ``parks(m, p)`` carries the detour (a mover
leaves once, so each detour is paid once).
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...core.encoding import Encoding
from ...core.model import CnfModel, SmtModel
from .burrow import Burrow
from .events import moves_from_events
from .movers import DIRECT, Mover, Movers, encode_burrows
from .rules import Move

START, HOME = "start", "home"


def encode_unroll(burrows: tuple[tuple[str, Burrow], ...], pool: IDPool | None = None) -> Encoding:
    return encode_burrows(burrows, _encode_part, decide_false_first=True, pool=pool)


def horizon(movers: Movers) -> int:
    return len(movers.all)


def _stops_on(path: range, movers: Movers) -> list[int]:
    return [q for q in path if q in movers.burrow.stops]


def crossing(movers: Movers, x: Mover, p: int, y: Mover, q: int) -> bool:
    """x parked at p and y parked at q each have the other's stop on their way home: a dead end."""
    return q in movers.in_path(x, p) and p in movers.in_path(y, q)


def _encode_part(label: str, movers: Movers, pool: IDPool, clauses: list[list[int]],
                 soft: list[tuple[list[int], int]], show: list[int]) -> None:
    steps = horizon(movers)
    stops = movers.burrow.stops
    everyone = movers.all

    def at(m: Mover, where: int | str, t: int) -> int:
        return pool.id(("at", label, m.index, where, t))

    def occupied(q: int, t: int) -> int:
        return pool.id(("occupied", label, q, t))

    def leave(m: Mover, option: int, t: int) -> int:
        if option == DIRECT:
            return pool.id(("direct", label, m.index, t))
        return pool.id(("leave", label, m.index, option, t))

    def enter(m: Mover, p: int, t: int) -> int:
        return pool.id(("enter", label, m.index, p, t))

    def parks(m: Mover, p: int) -> int:
        return pool.id(("parks", label, m.index, p))

    def strangers(m: Mover) -> list[Mover]:
        return [s for s in movers.starting_in(m.home) if s is not m]

    def above(m: Mover) -> list[Mover]:
        return [u for u in movers.starting_in(m.room) if u.slot < m.slot]

    places = (START, HOME) + stops
    for m in everyone:
        clauses.append([at(m, START, 0)])
        clauses.append([at(m, HOME, steps)])
        for t in range(steps + 1):
            here = [at(m, w, t) for w in places]
            clauses.append(here)
            clauses.extend([-a, -b] for a, b in combinations(here, 2))
            for q in stops:
                clauses.append([-at(m, q, t), occupied(q, t)])
        for p in stops:
            if movers.detour(m, p):
                soft.append(([-parks(m, p)], movers.detour(m, p)))
        # implied invariants, stated as binary clauses for propagation across steps
        for t in range(steps):
            clauses.append([-at(m, START, t + 1), at(m, START, t)])
            clauses.append([-at(m, HOME, t), at(m, HOME, t + 1)])
            for p in stops:
                clauses.append([-at(m, p, t), at(m, p, t + 1), at(m, HOME, t + 1)])
                clauses.append([-at(m, p, t + 1), parks(m, p)])
            clauses.extend([-at(m, HOME, t + 1), -at(s, START, t + 1)] for s in strangers(m))
            clauses.extend([-at(u, START, t + 1), at(m, START, t + 1)] for u in above(m))
    for x, y in combinations(everyone, 2):
        for p in stops:
            for q in stops:
                if p != q and crossing(movers, x, p, y, q):
                    clauses.extend([-at(x, p, t), -at(y, q, t)] for t in range(1, steps))
                    # nor may one of them step out to its stop while the other stands on its own
                    clauses.extend([-leave(x, p, t), -at(y, q, t)] for t in range(1, steps))
                    clauses.extend([-leave(y, q, t), -at(x, p, t)] for t in range(1, steps))

    for t in range(steps):
        outs: list[int] = []
        changes: dict[tuple[int, object], list[int]] = {}  # (mover, place) -> moves that change it
        for m in everyone:
            for option in movers.options(m):
                move = leave(m, option, t)
                outs.append(move)
                show.append(move)
                target = HOME if option == DIRECT else option
                clauses.append([-move, at(m, START, t)])
                if option == DIRECT:
                    clauses.append([-move, at(m, HOME, t + 1)])
                else:  # parked, or gone on home in the same step
                    clauses.append([-move, at(m, option, t + 1), enter(m, option, t)])
                clauses.extend([-move, -at(u, START, t)] for u in above(m))
                clauses.extend([-move, -occupied(q, t)] for q in _stops_on(movers.out_path(m, option), movers))
                if option == DIRECT:
                    clauses.extend([-move, -at(s, START, t)] for s in strangers(m))
                else:
                    clauses.append([-move, parks(m, option)])
                changes.setdefault((m.index, START), []).append(move)
                changes.setdefault((m.index, target), []).append(move)
            for p in stops:
                move = enter(m, p, t)
                show.append(move)
                clauses.append([-move, at(m, p, t), leave(m, p, t)])
                clauses.append([-move, at(m, HOME, t + 1)])
                clauses.extend([-move, -at(s, START, t + 1)] for s in strangers(m))
                clauses.extend([-move, -occupied(q, t + 1)] for q in _stops_on(movers.in_path(m, p), movers))
                changes.setdefault((m.index, p), []).append(move)
                changes.setdefault((m.index, HOME), []).append(move)
        # frame axioms: a mover's place changes only through one of its moves
        for m in everyone:
            for where in places:
                why = changes.get((m.index, where), [])
                clauses.append([-at(m, where, t), at(m, where, t + 1)] + why)
                clauses.append([at(m, where, t), -at(m, where, t + 1)] + why)
        clauses.append(outs)
        clauses.extend(CardEnc.atmost(outs, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses)
        _eager_home(movers, t, at, leave, strangers, above, clauses)


def _eager_home(movers: Movers, t: int, at: Callable[[Mover, int | str, int], int], leave: Callable[[Mover, int, int], int],
                strangers: Callable[[Mover], list[Mover]], above: Callable[[Mover], list[Mover]],
                clauses: list[list[int]]) -> None:
    """State t admits no entry (every possible one has happened), and step t is a direct move when one
    is possible."""
    directs = [leave(m, DIRECT, t) for m in movers.all if DIRECT in movers.options(m)]
    for m in movers.all:
        blockers = [at(s, START, t) for s in strangers(m)]
        for option in movers.options(m):
            if option == DIRECT:
                source = at(m, START, t)
                path = movers.out_path(m, option)
                waiting = [at(u, START, t) for u in above(m)] + directs
            else:
                source = at(m, option, t)
                path = movers.in_path(m, option)
                waiting = []
            parked = [at(y, q, t) for y in movers.all if y is not m for q in _stops_on(path, movers)]
            clauses.append([-source] + blockers + waiting + parked)


def _entry_order(movers: Movers, entering: list[tuple[Mover, int]]) -> list[Mover]:
    """The entries of one step in an order where nobody walks through a stop still held."""
    order: list[Mover] = []
    left = list(entering)
    while left:
        free = next(((m, p) for m, p in left
                     if not any(q in movers.in_path(m, p) for y, q in left if y is not m)), left[0])
        order.append(free[0])
        left.remove(free)
    return order


def decode_unroll(burrows: tuple[tuple[str, Burrow], ...], encoding: Encoding,
                  model: CnfModel | SmtModel) -> list[tuple[list[Move], int]]:
    """Per burrow, the moves step by step and the energy the encoding assigns them."""
    pool = encoding.variables
    plans = []
    for label, burrow in burrows:
        movers = Movers(burrow)
        order: list[int] = []
        chosen: dict[int, int | None] = {m.index: None for m in movers.all}
        for t in range(horizon(movers)):
            for m in movers.all:
                if DIRECT in movers.options(m) and model.value(pool.id(("direct", label, m.index, t))):
                    order += [2 * m.index, 2 * m.index + 1]
                    chosen[m.index] = DIRECT
                for p in burrow.stops:
                    if model.value(pool.id(("leave", label, m.index, p, t))):
                        order.append(2 * m.index)
                        chosen[m.index] = p
            entering = [(m, p) for m in movers.all for p in burrow.stops
                        if model.value(pool.id(("enter", label, m.index, p, t)))]
            order += [2 * m.index + 1 for m in _entry_order(movers, entering)]
        energy = movers.fixed_energy + sum(movers.detour(m, option) for m in movers.all
                                           if (option := chosen[m.index]) is not None)
        plans.append((moves_from_events(movers, order, chosen), energy))
    return plans
