"""The event ordering as native SMT for Z3 ``Optimize``: an integer instant per event (all distinct)
instead of pairwise precedence literals, a Boolean per parking option, and the detour sum as the
objective. The constraints are those of :mod:`.events`, stated with ``<`` on instants."""
from __future__ import annotations

from itertools import pairwise
from typing import Any

from ...core.encoding import Encoding
from .burrow import Burrow
from .movers import DIRECT, Movers


def encode_smt(burrows: tuple[tuple[str, Burrow], ...]) -> Encoding:
    import z3

    assertions = []
    terms: dict[Any, Any] = {}
    costs = []
    offset = 0
    for label, burrow in burrows:
        movers = Movers(burrow)
        offset += movers.fixed_energy
        instants = [z3.Int(f"t_{label}_{e}") for e in range(2 * len(movers.all))]
        terms.update({("t", label, e): t for e, t in enumerate(instants)})
        if len(instants) > 1:
            assertions.append(z3.Distinct(*instants))
        park = {}
        for m in movers.all:
            for o in movers.options(m):
                park[m.index, o] = terms[("park", label, m.index, o)] = z3.Bool(f"park_{label}_{m.index}_{o}")
                if movers.detour(m, o):
                    costs.append(z3.If(park[m.index, o], movers.detour(m, o), 0))
            # exactly one option, in standard SMT-LIB (z3's PbEq prints as its own (_ pbeq ...) term)
            assertions.append(z3.Sum([z3.If(park[m.index, o], 1, 0) for o in movers.options(m)]) == 1)
            out, into = instants[2 * m.index], instants[2 * m.index + 1]
            assertions.append(out < into)
            if DIRECT in movers.options(m):
                between = [z3.Or(t < out, t > into) for e, t in enumerate(instants) if e // 2 != m.index]
                assertions.append(z3.Implies(park[m.index, DIRECT], z3.And(*between)))
        for room in range(burrow.types):
            starters = movers.starting_in(room)
            assertions.extend(instants[2 * a.index] < instants[2 * b.index] for a, b in pairwise(starters))
            for m in movers.all:
                if m.home == room:
                    assertions.extend(instants[2 * s.index] < instants[2 * m.index + 1] for s in starters if s is not m)
        for m in movers.all:
            for o in movers.options(m):
                walks = ((instants[2 * m.index], movers.out_path(m, o)), (instants[2 * m.index + 1], movers.in_path(m, o)))
                for y in movers.all:
                    if y is m:
                        continue
                    for instant, path in walks:
                        for q in path:
                            if q in burrow.stops:
                                assertions.append(z3.Implies(z3.And(park[m.index, o], park[y.index, q]),
                                                             z3.Or(instant < instants[2 * y.index],
                                                                   instant > instants[2 * y.index + 1])))
    objective = z3.Sum(costs) if costs else z3.IntVal(0)
    return Encoding("smt", assertions=assertions, terms=terms, objective=objective, cost_offset=offset,
                    show_terms=list(terms.values()))
