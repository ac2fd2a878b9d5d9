"""Optimal models of an encoding with a cost: MaxSAT (RC2 variants), SAT descent, Z3 Optimize.

Every method returns the model and its cost only after proving that nothing cheaper exists: RC2 by its
cores, the descent by an UNSAT answer under the bound "cost <= best - 1", Z3 by finishing ``minimize``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from math import gcd

from .backends.base import Backend, Session
from .backends.forking import call_with_timeout
from .backends.portfolio import PortfolioBackend
from .core.choices import METHODS
from .core.encoding import Encoding
from .core.errors import BackendError, PuzzlesatError, SolverTimeout
from .core.model import CnfModel, SmtModel
from .core.result import Status


@dataclass
class Optimum:
    status: Status  # SAT (an optimum was proven) or UNSAT (no plan at all)
    model: CnfModel | SmtModel | None = None
    cost: int | None = None  # including the encoding's fixed offset
    steps: int = 0  # solver calls (descent) or cores (RC2), for reports
    solved_by: str = ""  # the member that won, when a portfolio raced the method


def optimize(encoding: Encoding, method: str, backend: Backend, timeout: float | None = None) -> Optimum:
    if method not in METHODS:
        raise PuzzlesatError(f"unknown method '{method}' (known: {', '.join(METHODS)})")
    if METHODS[method][0] != encoding.kind:
        raise PuzzlesatError(f"method {method} needs the {METHODS[method][0]} encoding, not {encoding.kind}")
    if method == "z3":
        return _z3(encoding, timeout)
    if isinstance(backend, PortfolioBackend):  # the whole method races once per member
        winner, optimum = backend.race(lambda member: optimize(encoding, method, member), timeout)
        optimum.solved_by = winner
        return optimum
    if method == "descent":
        return _descent(encoding, backend, timeout)
    if method == "maxsat":
        result = backend.maxsat(encoding, timeout)
        cost = None if result.cost is None else result.cost + encoding.cost_offset
        return Optimum(result.status, result.model, cost)
    return _rc2(encoding, method, backend, timeout)


def _rc2(encoding: Encoding, method: str, backend: Backend, timeout: float | None) -> Optimum:
    from pysat.examples.rc2 import RC2, RC2Stratified
    from pysat.formula import WCNF

    if not backend.name.startswith("pysat:"):
        raise BackendError(f"method {method} runs RC2 on a PySAT solver: choose a pysat:NAME backend, not {backend.name}")
    backend.require("sat")
    wcnf = WCNF()
    wcnf.extend(encoding.clauses)
    for clause, weight in encoding.soft:
        wcnf.append(clause, weight=weight)
    kind = RC2Stratified if method == "rc2-stratified" else RC2
    tuned = method != "rc2-plain"

    def run() -> tuple[list[int] | None, int, int]:
        with kind(wcnf, solver=backend.name.split(":", 1)[1], exhaust=tuned, minz=tuned) as rc2:
            model = rc2.compute()
            return model, rc2.cost, 0

    model, cost, cores = call_with_timeout(run, timeout, backend.name)
    if model is None:
        return Optimum(Status.UNSAT)
    return Optimum(Status.SAT, CnfModel.from_literals(model, encoding.num_vars), cost + encoding.cost_offset, cores)


def _descent(encoding: Encoding, backend: Backend, timeout: float | None) -> Optimum:
    """Linear SAT-UNSAT search: each bound is added for good (bounds only tighten), so any backend that
    takes new clauses works, and the final UNSAT proves the last model optimal. Independent parts of
    the encoding descend one after the other, each under a bound on its own cost only.

    The time limit covers the whole descent, run in one forked child: a limit per solver call would
    fork for every call and lose what the solver learnt in the previous ones (on the amphipod unrolling
    that made the descent 3-8x slower)."""
    parts = encoding.split()

    def run() -> Optimum:
        optima = []
        for part in parts:
            optimum = _descend_part(part, backend)
            if optimum.status == Status.UNSAT:
                return optimum
            optima.append(optimum)
        return _joined(encoding, parts, optima)

    return call_with_timeout(run, timeout, backend.name)


def _descend_part(encoding: Encoding, backend: Backend) -> Optimum:
    """The descent on one part; its cost excludes the whole encoding's fixed offset."""
    pool = encoding.variables
    extra: list[list[int]] = []
    violated: list[int] = []  # per soft clause, a literal that is true when the clause is broken
    for clause, _ in encoding.soft:
        if len(clause) == 1:
            violated.append(-clause[0])
        else:
            relax = pool.id(("relax", *clause))
            extra.append(clause + [relax])
            violated.append(relax)
    unit = reduce(gcd, (weight for _, weight in encoding.soft), 0) or 1
    weights = [weight // unit for _, weight in encoding.soft]  # smaller sums, smaller bound encodings
    top = max(pool.top, encoding.num_vars)  # bounds take fresh variables above this
    session = backend.open(encoding)
    try:
        for clause in extra:
            session.add_clause(clause)
        return _descend(session, encoding, violated, weights, unit, top, backend.name)
    finally:
        session.close()


def _joined(whole: Encoding, parts: list[Encoding], optima: list[Optimum]) -> Optimum:
    """One model and cost for the whole encoding from the optima of its independent parts."""
    costs: list[int] = []
    models: list[CnfModel] = []
    for optimum in optima:
        assert isinstance(optimum.model, CnfModel) and optimum.cost is not None, "every part has its optimum"
        costs.append(optimum.cost)
        models.append(optimum.model)
    if len(parts) == 1:
        return Optimum(Status.SAT, models[0], sum(costs) + whole.cost_offset, optima[0].steps)
    truth = bytearray(whole.num_vars + 1)
    for part, model in zip(parts, models):
        for var in {abs(lit) for clause in part.clauses for lit in clause}:
            truth[var] = model.truth[var]
    return Optimum(Status.SAT, CnfModel(bytes(truth)), sum(costs) + whole.cost_offset, sum(o.steps for o in optima))


def _descend(session: Session, encoding: Encoding, violated: list[int], weights: list[int], unit: int, top: int,
             backend: str) -> Optimum:
    from pysat.pb import EncType, PBEnc

    best: Optimum | None = None
    steps = 0
    while True:
        result = session.solve()
        steps += 1
        if result.status == Status.UNSAT:
            return best or Optimum(Status.UNSAT, steps=steps)
        if result.status != Status.SAT:
            raise BackendError(f"{backend}: no answer during the descent ({result.status.value})")
        model = result.model
        assert isinstance(model, CnfModel), "a SAT answer of a CNF session has a CNF model"
        cost = sum(w for lit, w in zip(violated, weights) if model.value(abs(lit)) == (lit > 0))
        best = Optimum(Status.SAT, _trim(model, encoding.num_vars), cost * unit, steps)
        if cost == 0:
            return best
        # a BDD propagates best here: on the amphipod unrolling it made the descent 2-5x faster than
        # EncType.best (weights divided by their gcd)
        bound = PBEnc.leq(lits=violated, weights=weights, bound=cost - 1, top_id=top, encoding=EncType.bdd).clauses
        top = max([top] + [abs(lit) for clause in bound for lit in clause])
        for clause in bound:
            session.add_clause(clause)


def _trim(model: CnfModel, num_vars: int) -> CnfModel:
    """Drop the bound's auxiliary variables so the model matches the encoding."""
    return CnfModel(model.truth[:num_vars + 1])


def _z3(encoding: Encoding, timeout: float | None) -> Optimum:
    import z3

    optimizer = z3.Optimize()
    if timeout is not None:
        optimizer.set("timeout", max(1, int(timeout * 1000)))
    optimizer.add(*encoding.assertions)
    optimizer.minimize(encoding.objective)
    answer = optimizer.check()
    if answer == z3.unsat:
        return Optimum(Status.UNSAT)
    if answer != z3.sat:
        raise SolverTimeout("z3", timeout or 0)
    model = optimizer.model()
    cost = model.eval(encoding.objective, model_completion=True).as_long()
    return Optimum(Status.SAT, SmtModel(model), cost + encoding.cost_offset)
