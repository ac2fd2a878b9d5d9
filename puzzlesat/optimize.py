"""Optimal models of an encoding with a cost: MaxSAT (RC2 variants), SAT descent, Z3 Optimize.

Every method returns the model and its cost only after proving that nothing cheaper exists: RC2 by its
cores, the descent by an UNSAT answer under the bound "cost <= best - 1", Z3 by finishing ``minimize``.

With ``certify`` (a backend that writes proofs), that proof is checked: the descent's last call on each
independent part is the UNSAT answer "cost <= best - 1" with every bound before it, and its proof is
checked against exactly those clauses; RC2 and MaxSAT solvers prove optimality with cores that leave no
DRAT proof, so one more call, on each part, asks a proof-writing solver for "cost <= best - 1" with the
same relaxation and the same bound encoding as the descent.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial, reduce
from math import gcd

from .backends.base import Backend
from .backends.forking import call_with_timeout, run_forked
from .backends.portfolio import PortfolioBackend
from .core.choices import METHODS
from .core.encoding import Encoding
from .core.errors import BackendError, CheckFailed, PuzzlesatError, SolverTimeout
from .core.model import CnfModel, SmtModel
from .core.result import Result, Status
from .proofs.certificate import Certificate


@dataclass
class Optimum:
    status: Status  # SAT (an optimum was proven) or UNSAT (no plan at all)
    model: CnfModel | SmtModel | None = None
    cost: int | None = None  # including the encoding's fixed offset
    steps: int = 0  # solver calls (descent) or cores (RC2), for reports
    solved_by: str = ""  # the member that won, when a portfolio raced the method
    #: with ``certify``: the checked proofs that nothing cheaper exists (or, for UNSAT, nothing at all)
    certificate: Certificate | None = None


def optimize(encoding: Encoding, method: str, backend: Backend, timeout: float | None = None,
             certify: bool = False) -> Optimum:
    """The optimum by ``method``; with ``certify``, carrying a certificate from ``backend``'s checked
    proofs (``backend`` must then write proofs: see :meth:`Backend.with_proofs`)."""
    optimum = _optimize(encoding, method, backend, timeout, certify)
    if certify and optimum.certificate is None and method != "descent":
        prover = backend
        if isinstance(backend, PortfolioBackend):  # the winner proves: it found this optimum fastest
            prover = next(member for member in backend.members if member.name == optimum.solved_by)
        optimum.certificate = call_with_timeout(lambda: _certified(encoding, optimum, prover), timeout,
                                                prover.name)
    return optimum


def _optimize(encoding: Encoding, method: str, backend: Backend, timeout: float | None, certify: bool) -> Optimum:
    if method not in METHODS:
        raise PuzzlesatError(f"unknown method '{method}' (known: {', '.join(METHODS)})")
    if METHODS[method][0] != encoding.kind:
        raise PuzzlesatError(f"method {method} needs the {METHODS[method][0]} encoding, not {encoding.kind}")
    if method == "z3":
        return _z3(encoding, timeout)
    if isinstance(backend, PortfolioBackend):  # the whole method races once per member
        # a descent certifies inside the race (its last call is the proof); other methods once it is won,
        # here, where the parts' proofs can be checked in processes of their own
        winner, optimum = backend.race(
            lambda member: optimize(encoding, method, member, certify=certify and method == "descent"), timeout)
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
            try:
                model = rc2.compute()
            except NotImplementedError as exc:  # RC2 needs limited solves, which Lingeling lacks
                raise BackendError(f"method {method} cannot run on {backend.name}: {exc}") from None
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


class _Bounded:
    """One part's session for bounding its cost: every soft clause broken only through a literal of its
    own (the clause's negated unit, or a relaxation variable), and "cost <= k" as a pseudo-Boolean
    constraint over those literals, added for good (bounds only tighten)."""

    def __init__(self, encoding: Encoding, backend: Backend) -> None:
        pool = encoding.variables
        self.encoding = encoding
        extra: list[list[int]] = []
        self.violated: list[int] = []  # per soft clause, a literal that is true when the clause is broken
        for clause, _ in encoding.soft:
            if len(clause) == 1:
                self.violated.append(-clause[0])
            else:
                relax = pool.id(("relax", *clause))
                extra.append(clause + [relax])
                self.violated.append(relax)
        self.unit = reduce(gcd, (weight for _, weight in encoding.soft), 0) or 1
        self.weights = [weight // self.unit for _, weight in encoding.soft]  # smaller sums, smaller bounds
        self.top = max(pool.top, encoding.num_vars)  # bounds take fresh variables above this
        self.session = backend.open(encoding)
        for clause in extra:
            self.session.add_clause(clause)

    def cost(self, model: CnfModel) -> int:
        """The weight of the soft clauses ``model`` breaks (without the encoding's fixed offset)."""
        return self.unit * sum(w for lit, w in zip(self.violated, self.weights) if model.value(abs(lit)) == (lit > 0))

    def bound(self, cost: int) -> None:
        """Add "cost <= ``cost``" (a multiple of the weights' gcd)."""
        from pysat.pb import EncType, PBEnc

        # a BDD propagates best here: on the amphipod unrolling it made the descent 2-5x faster than
        # EncType.best (weights divided by their gcd)
        clauses = PBEnc.leq(lits=self.violated, weights=self.weights, bound=cost // self.unit, top_id=self.top,
                            encoding=EncType.bdd).clauses
        self.top = max([self.top] + [abs(lit) for clause in clauses for lit in clause])
        for clause in clauses:
            self.session.add_clause(clause)


def _descend_part(encoding: Encoding, backend: Backend) -> Optimum:
    """The descent on one part; its cost excludes the whole encoding's fixed offset."""
    bounded = _Bounded(encoding, backend)
    try:
        return _descend(bounded, backend.name)
    finally:
        bounded.session.close()


def _joined(whole: Encoding, parts: list[Encoding], optima: list[Optimum]) -> Optimum:
    """One model and cost for the whole encoding from the optima of its independent parts."""
    costs: list[int] = []
    models: list[CnfModel] = []
    for optimum in optima:
        assert isinstance(optimum.model, CnfModel) and optimum.cost is not None, "every part has its optimum"
        costs.append(optimum.cost)
        models.append(optimum.model)
    certificate = Certificate.joined([o.certificate for o in optima])
    if len(parts) == 1:
        return Optimum(Status.SAT, models[0], sum(costs) + whole.cost_offset, optima[0].steps, certificate=certificate)
    truth = bytearray(whole.num_vars + 1)
    for part, model in zip(parts, models):
        for var in {abs(lit) for clause in part.clauses for lit in clause}:
            truth[var] = model.truth[var]
    return Optimum(Status.SAT, CnfModel(bytes(truth)), sum(costs) + whole.cost_offset, sum(o.steps for o in optima),
                   certificate=certificate)


def _certified(encoding: Encoding, optimum: Optimum, backend: Backend) -> Certificate:
    """The proofs that ``optimum`` (found by a method that leaves none) is optimal, or that there is no
    model at all: on each part, the hard clauses with "cost <= its cost - 1" must be UNSAT, and the
    proof of that is checked. A part that is SAT there means the optimiser was wrong."""
    if optimum.status != Status.SAT or optimum.model is None:
        with backend.open(encoding) as session:
            return _refuted(session.solve(), backend.name, "the hard clauses")
    model = optimum.model
    assert isinstance(model, CnfModel), "a CNF method's model"
    parts = encoding.split()
    if len(parts) == 1:
        return _part_certified(parts[0], model, backend)
    # independent parts are proved and checked at the same time, each in a process of its own (amphipod's
    # two parts: the certificate's wall time is the slower part's)
    certificates = run_forked([partial(_part_certified, part, model, backend) for part in parts], None, backend.name)
    joined = Certificate.joined(certificates)
    assert joined is not None, "a proving backend certifies every part"
    return replace(joined, seconds=max(c.seconds for c in certificates))  # checked side by side


def _part_certified(part: Encoding, model: CnfModel, backend: Backend) -> Certificate:
    """The checked proof that ``part`` has no model cheaper than ``model``'s cost on it."""
    bounded = _Bounded(part, backend)
    with bounded.session:
        cost = bounded.cost(model)
        if cost == 0:
            return _least_possible(backend.name)
        bounded.bound(cost - bounded.unit)
        return _refuted(bounded.session.solve(), backend.name, f"cost <= {cost - bounded.unit}")


def _refuted(result: Result, backend: str, what: str) -> Certificate:
    if result.status == Status.SAT:
        raise CheckFailed(f"{backend}: a model with {what} exists, so the optimiser's answer is wrong")
    if result.certificate is None:
        raise BackendError(f"{backend}: no answer to {what} ({result.status.value})")
    return result.certificate


def _least_possible(backend: str) -> Certificate:
    """Cost 0 is the least any model can have: optimal without a search, so without a proof."""
    return Certificate(backend, 0, 0, 0.0)


def _descend(bounded: _Bounded, backend: str) -> Optimum:
    """Solve, bound the cost below the model's, repeat until UNSAT: the last model is optimal, and the
    last answer's certificate (from a proving backend) is the checked proof of it."""
    best: Optimum | None = None
    steps = 0
    while True:
        result = bounded.session.solve()
        steps += 1
        if result.status == Status.UNSAT:
            if best is None:
                return Optimum(Status.UNSAT, steps=steps, certificate=result.certificate)
            best.certificate = result.certificate
            return best
        if result.status != Status.SAT:
            raise BackendError(f"{backend}: no answer during the descent ({result.status.value})")
        model = result.model
        assert isinstance(model, CnfModel), "a SAT answer of a CNF session has a CNF model"
        cost = bounded.cost(model)
        best = Optimum(Status.SAT, _trim(model, bounded.encoding.num_vars), cost, steps)
        if cost == 0:
            best.certificate = _least_possible(backend) if bounded.session.backend.proving else None
            return best
        bounded.bound(cost - bounded.unit)


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
