"""Event-ordering CNF (no time horizon): each mover's parking option and a total order of the
leave/enter events, with soft clauses for the detours.

Events: mover ``i`` leaves its start room (event ``2i``) and enters its home room (``2i + 1``). One
variable per pair of events says which comes first; two clauses per triple forbid both 3-cycles, which
makes the order transitive. Feasibility is a set of precedences:

* a mover leaves before it enters, and a DIRECT mover's two events are adjacent (one move);
* an amphipod leaves after the ones above it in its start room;
* a room is entered only after every mover that started in it has left;
* a move never walks through a hallway cell held by a parked amphipod at that instant: for a mover
  parked at ``q`` on the path, the move happens before it leaves or after it entered its home.

The energy is ``Movers.fixed_energy`` plus one soft clause ``not park(m, option)`` per costly option,
weighted by the detour. Several burrows (part 1 and part 2) go into one formula with separate variables:
their optima add up and each plan is optimal on its own.
"""
from __future__ import annotations

from itertools import combinations, pairwise

from pysat.formula import IDPool

from ...core.encoding import Encoding
from ...core.model import CnfModel, SmtModel
from .burrow import Burrow
from .movers import DIRECT, Mover, Movers, encode_burrows
from .rules import Move


def encode_events(burrows: tuple[tuple[str, Burrow], ...], pool: IDPool | None = None) -> Encoding:
    return encode_burrows(burrows, _encode_part, pool=pool)


def _encode_part(label: str, movers: Movers, pool: IDPool, clauses: list[list[int]],
                 soft: list[tuple[list[int], int]], show: list[int]) -> None:
    events = 2 * len(movers.all)

    def lt(a: int, b: int) -> int:
        return pool.id(("before", label, a, b)) if a < b else -pool.id(("before", label, b, a))

    def park(mover: Mover, option: int) -> int:
        return pool.id(("park", label, mover.index, option))

    for a, b in combinations(range(events), 2):
        show.append(lt(a, b))
    for a, b, c in combinations(range(events), 3):
        clauses.append([-lt(a, b), -lt(b, c), lt(a, c)])
        clauses.append([lt(a, b), lt(b, c), -lt(a, c)])
    for m in movers.all:
        options = [park(m, o) for o in movers.options(m)]
        show.extend(options)
        clauses.append(options)
        clauses.extend([-x, -y] for x, y in combinations(options, 2))
        out, into = 2 * m.index, 2 * m.index + 1
        clauses.append([lt(out, into)])
        for o in movers.options(m):
            if movers.detour(m, o):
                soft.append(([-park(m, o)], movers.detour(m, o)))
        if DIRECT in movers.options(m):
            for e in range(events):
                if e not in (out, into):
                    clauses.append([-park(m, DIRECT), -lt(e, out), lt(e, into)])
                    clauses.append([-park(m, DIRECT), lt(e, out), -lt(e, into)])
    for room in range(movers.burrow.types):
        starters = movers.starting_in(room)
        for upper, lower in pairwise(starters):
            clauses.append([lt(2 * upper.index, 2 * lower.index)])
        for m in movers.all:
            if m.home == room:
                clauses.extend([lt(2 * s.index, 2 * m.index + 1)] for s in starters if s is not m)
    for m in movers.all:
        for o in movers.options(m):
            walks = ((2 * m.index, movers.out_path(m, o)), (2 * m.index + 1, movers.in_path(m, o)))
            for y in movers.all:
                if y is m:
                    continue
                for event, path in walks:
                    for q in path:
                        if q in movers.burrow.stops:
                            # m walks through q while y may be parked there: not between y's events
                            clauses.append([-park(m, o), -park(y, q), lt(event, 2 * y.index), lt(2 * y.index + 1, event)])


def decode_events(burrows: tuple[tuple[str, Burrow], ...], encoding: Encoding,
                  model: CnfModel | SmtModel) -> list[tuple[list[Move], int]]:
    """Per burrow, the moves in event order and the energy the encoding assigns them. A CNF model orders
    events by how many come before each; an SMT model by their instants."""
    def chosen(label: str, mover: int, option: int) -> bool:
        if encoding.kind == "smt":
            return bool(model.value(encoding.terms[("park", label, mover, option)]))
        return bool(model.value(encoding.variables.id(("park", label, mover, option))))

    def order(label: str, events: int) -> list[int]:
        if encoding.kind == "smt":
            return sorted(range(events), key=lambda e: model.value(encoding.terms[("t", label, e)]))

        def first(a: int, b: int) -> bool:
            return bool(model.value(encoding.variables.id(("before", label, a, b)))) if a < b else not first(b, a)
        return sorted(range(events), key=lambda e: sum(first(f, e) for f in range(events) if f != e))

    plans = []
    for label, burrow in burrows:
        movers = Movers(burrow)
        options = {m.index: next((o for o in movers.options(m) if chosen(label, m.index, o)), None) for m in movers.all}
        energy = movers.fixed_energy + sum(movers.detour(m, option) for m in movers.all
                                           if (option := options[m.index]) is not None)
        plans.append((moves_from_events(movers, order(label, 2 * len(movers.all)), options), energy))
    return plans


def moves_from_events(movers: Movers, order: list[int], chosen: dict[int, int | None]) -> list[Move]:
    """Replay the event order into moves; the home slot is the deepest free one at that moment."""
    burrow = movers.burrow
    free = [burrow.depth - burrow.settled(k) - 1 for k in range(burrow.types)]
    moves = []
    for event in order:
        m = movers.all[event // 2]
        option = chosen[m.index]
        if option is None:
            option = burrow.stops[0]  # no option chosen: an invalid plan that the checker will reject
        leaving = event % 2 == 0
        if option == DIRECT and not leaving:
            continue  # the direct move was emitted at its leave event
        if leaving and option != DIRECT:
            moves.append(Move(m.kind, ("room", m.room, m.slot), ("hall", option)))
            continue
        source = ("room", m.room, m.slot) if leaving else ("hall", option)
        moves.append(Move(m.kind, source, ("room", m.home, free[m.home])))
        free[m.home] -= 1
    return moves
