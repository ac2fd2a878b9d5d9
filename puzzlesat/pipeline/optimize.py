"""Optimal models of an encoding with a cost: the optimisation methods, as strategy objects.

Every method returns the model and its cost only after proving that nothing cheaper exists: RC2 by its
cores, the descent by an UNSAT answer under the bound "cost <= best - 1", Z3 by finishing ``minimize``,
an outside MaxSAT solver by its ``s OPTIMUM FOUND``.

A method declares what it needs (:attr:`OptimisationMethod.formula`: the CNF or the SMT encoding;
:meth:`~OptimisationMethod.takes`: which backends it runs on) and what it can back with a checked proof
(:attr:`~OptimisationMethod.certifiable`), so that requests, cross-checks and ``--certify`` ask the method
rather than compare names. :data:`METHODS` is the registry, keyed by the names ``--method`` takes; a
new method is a subclass and its line there (the command line reads the names and descriptions here).

With ``certify`` (a backend that writes proofs), the proof is checked: the descent's last call is the
UNSAT answer "cost <= best - 1" with every bound before it, and its proof is checked against exactly
those clauses; RC2 and MaxSAT solvers prove optimality with cores that leave no DRAT proof, so one more
call asks a proof-writing solver for "cost <= best - 1" with the
same relaxation and the same bound encoding as the descent.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from functools import reduce
from math import gcd
from typing import TYPE_CHECKING

from ..backends.base import Backend, Capability
from ..backends.forking import call_with_timeout, stoppable, stream_forked
from ..core.encoding import Encoding
from ..core.errors import BackendError, CheckFailed, PuzzlesatError, SolverTimeout
from ..core.model import CnfModel, SmtModel
from ..core.reporting import check_stop
from ..core.result import Result, Status
from ..core.timing import UNLIMITED, Deadline, since_start
from ..proofs.certificate import Certificate
from .stop import STOPPING, Stop

if TYPE_CHECKING:
    from ..backends.portfolio import PortfolioBackend


@dataclass
class Optimum:
    status: Status  # SAT (an optimum was proven) or UNSAT (no plan at all)
    model: CnfModel | SmtModel | None = None
    cost: int | None = None  # including the encoding's fixed offset
    steps: int = 0  # solver calls (descent) or cores (RC2), for reports
    solved_by: str = ""  # the member that won, when a portfolio raced the method
    #: with ``certify``: the checked proofs that nothing cheaper exists (or, for UNSAT, nothing at all)
    certificate: Certificate | None = None
    #: why the method stopped before it proved the optimum (the time limit, a signal): the model is
    #: then the best it had found, its cost an upper bound of the optimum, not proven optimal
    stop: Stop | None = None


class OptimisationMethod(ABC):
    """One way of proving an optimum. Subclasses say which formula and backends they take."""

    #: the name ``--method`` takes (a key of :data:`METHODS`)
    name: str
    #: one line for ``--help``
    description: str
    #: ``cnf`` or ``smt``: the kind of encoding the method optimises
    formula: str = "cnf"
    #: the backend the method always runs on, whatever the request names (Z3 Optimize: z3)
    own_backend: str | None = None
    #: whether ``--certify`` can back its optimum with checked proofs (Z3 Optimize leaves none)
    certifiable: bool = True
    #: how messages name the method, when not "method NAME"
    title: str = ""

    def takes(self, backend: Backend) -> bool:
        """Whether the method runs on ``backend`` (a portfolio: on each of its members)."""
        return Capability.SAT in backend.capabilities

    def requires(self, backend: Backend) -> None:
        """Refuse, in one line, a backend the method does not run on."""
        if not self.takes(backend):
            raise BackendError(f"method {self.name} cannot run on {backend.name}: {self.needs}")

    #: what :meth:`requires` says a refused backend lacks
    needs = "it needs a SAT backend"

    def optimize(self, encoding: Encoding, backend: Backend, deadline: Deadline = UNLIMITED,
                 certify: bool = False) -> Optimum:
        """The optimum; with ``certify``, carrying a certificate from ``backend``'s checked proofs
        (``backend`` must then write proofs: see :meth:`Backend.with_proofs`)."""
        if self.formula != encoding.kind:
            raise PuzzlesatError(f"method {self.name} needs the {self.formula} encoding, not {encoding.kind}")
        portfolio = _portfolio(backend)
        if portfolio is not None and self.own_backend is None:  # the whole method races
            # a method that certifies itself does it inside the race; others once it is won, below, by the
            # winner alone (the loser's core is free for the proof's check)
            winner, optimum = portfolio.race(
                lambda member: self.optimize(encoding, member, certify=certify and self.certifies_itself), deadline)
            optimum.solved_by = winner
        else:
            self.requires(backend)
            optimum = self.run(encoding, backend, deadline)
        if certify and optimum.certificate is None and not self.certifies_itself and optimum.stop is None:
            prover = backend
            if portfolio is not None:  # the winner proves: it found this optimum fastest
                prover = next(member for member in portfolio.members if member.name == optimum.solved_by)
            optimum.certificate = call_with_timeout(lambda: _certified(encoding, optimum, prover), deadline,
                                                    prover.name)
        return optimum

    #: its answer's last solver call is itself the proof (the descent), so nothing is proved afterwards
    certifies_itself = False

    @abstractmethod
    def run(self, encoding: Encoding, backend: Backend, deadline: Deadline) -> Optimum:
        """The optimum on one backend (not a portfolio), without certificates."""


def _portfolio(backend: Backend) -> PortfolioBackend | None:
    """``backend`` when it is a portfolio. Imported here, when an optimum is sought: a command that
    optimises nothing never loads the racing machinery (multiprocessing)."""
    from ..backends.portfolio import PortfolioBackend

    return backend if isinstance(backend, PortfolioBackend) else None


class Rc2(OptimisationMethod):
    """PySAT's RC2 MaxSAT algorithm on one of PySAT's solvers (RC2 builds its own solvers by name)."""

    needs = "RC2 runs on a PySAT solver: choose a pysat:NAME backend"

    def __init__(self, name: str, description: str, stratified: bool = False, tuned: bool = True) -> None:
        """``stratified``: by weight levels (RC2Stratified); ``tuned``: with core exhaustion and core
        minimisation (rc2.py's -x -m; without them the amphipod example takes 13.5 s instead of 0.11 s)."""
        self.name, self.description, self.stratified, self.tuned = name, description, stratified, tuned

    def takes(self, backend: Backend) -> bool:
        portfolio = _portfolio(backend)
        if portfolio is not None:
            return all(self.takes(member) for member in portfolio.members)
        return backend.pysat_solver is not None

    def run(self, encoding: Encoding, backend: Backend, deadline: Deadline) -> Optimum:
        return _rc2(encoding, self, backend, deadline)


class Descent(OptimisationMethod):
    """Linear SAT-UNSAT search under a pseudo-Boolean bound: any backend that takes new clauses."""

    name = "descent"
    description = "SAT descent: solve, then add 'cost <= best - 1' (pysat.pb) until UNSAT"
    certifies_itself = True

    def run(self, encoding: Encoding, backend: Backend, deadline: Deadline) -> Optimum:
        return _descent(encoding, backend, deadline)


class Z3Optimize(OptimisationMethod):
    """Z3's ``minimize`` on the SMT encoding's cost term."""

    name = "z3"
    description = "Z3 Optimize minimising the SMT encoding's cost term"
    formula = "smt"
    own_backend = "z3"
    certifiable = False
    title = "Z3 Optimize"

    def takes(self, backend: Backend) -> bool:
        return Capability.SMT in backend.capabilities

    def run(self, encoding: Encoding, backend: Backend, deadline: Deadline) -> Optimum:
        return _z3(encoding, deadline)


class OwnMaxSat(OptimisationMethod):
    """The backend's own MaxSAT solver (``external-maxsat:BINARY``) on the weighted CNF."""

    name = "maxsat"
    description = "the backend's own MaxSAT solver (external-maxsat:BINARY) on the weighted CNF"
    needs = "it is the backend's own MaxSAT solver: choose an external-maxsat:BINARY backend"

    def takes(self, backend: Backend) -> bool:
        return Capability.OPTIMIZE in backend.capabilities

    def run(self, encoding: Encoding, backend: Backend, deadline: Deadline) -> Optimum:
        result = backend.maxsat(encoding, deadline)
        cost = None if result.cost is None else result.cost + encoding.cost_offset
        return Optimum(result.status, result.model, cost)


#: every optimisation method, by the name ``--method`` takes
METHODS: dict[str, OptimisationMethod] = {method.name: method for method in (
    Rc2("rc2", "RC2 MaxSAT with core exhaustion and core minimisation"),
    Rc2("rc2-stratified", "RC2 with stratification by weight, core exhaustion and minimisation", stratified=True),
    Rc2("rc2-plain", "RC2 without exhaustion or minimisation (for comparison; slow)", tuned=False),
    Descent(), Z3Optimize(), OwnMaxSat())}


def method_named(name: str) -> OptimisationMethod:
    """The method ``--method NAME`` stands for; an unknown name is refused with the list."""
    if name not in METHODS:
        raise PuzzlesatError(f"unknown method '{name}' (known: {', '.join(METHODS)})")
    return METHODS[name]


def _rc2(encoding: Encoding, method: Rc2, backend: Backend, deadline: Deadline) -> Optimum:
    from pysat.examples.rc2 import RC2, RC2Stratified
    from pysat.formula import WCNF

    backend.require(Capability.SAT)
    solver = backend.pysat_solver
    assert solver is not None, "Rc2.takes admits PySAT backends only"
    wcnf = WCNF()
    wcnf.extend(encoding.pysat_clauses())
    for clause, weight in encoding.soft:
        wcnf.append(clause, weight=weight)
    # nothing to stratify without soft clauses (all of a file's were empty: its cost is fixed), and
    # RC2Stratified fails on it where RC2 answers
    kind = RC2Stratified if method.stratified and encoding.soft else RC2

    def run() -> tuple[list[int] | None, int, int]:
        with kind(wcnf, solver=solver, exhaust=method.tuned, minz=method.tuned) as rc2:
            try:
                model = rc2.compute()
            except NotImplementedError as exc:  # RC2 needs limited solves, which Lingeling lacks
                raise BackendError(f"method {method.name} cannot run on {backend.name}: {exc}") from None
            return model, rc2.cost, 0

    model, cost, cores = call_with_timeout(run, deadline, backend.name)
    if model is None:
        return Optimum(Status.UNSAT)
    return Optimum(Status.SAT, CnfModel.from_literals(model, encoding.num_vars), cost + encoding.cost_offset, cores)


def _descent(encoding: Encoding, backend: Backend, deadline: Deadline) -> Optimum:
    """Linear SAT-UNSAT search: each bound is added for good (bounds only tighten), so any backend that
    takes new clauses works, and the final UNSAT proves the last model optimal.

    The time limit covers the whole descent, run in one forked child: a limit per solver call would
    fork for every call and lose what the solver learnt in the previous ones (on the amphipod unrolling
    that made the descent 3-8x slower). The child hands each better model up as it finds it, so that a
    descent stopped by the deadline or a signal still answers with the best model it had (its
    :attr:`Optimum.stop` saying why, the cost an upper bound)."""
    def run() -> Iterator[Optimum]:
        bounded = _Bounded(encoding, backend)
        try:
            yield from _descend(bounded, backend.name)
        finally:
            bounded.session.close()

    best: Optimum | None = None
    started = time.monotonic()
    try:
        for best in stream_forked(run, deadline, backend.name) if stoppable(deadline) else run():
            check_stop()  # in this process (no limit), nothing else looks between the solver's calls
    except STOPPING as stopped:
        if best is None or best.status != Status.SAT:
            raise
        best.stop = Stop.of(stopped, since_start(started))
    assert best is not None, "a descent ends in an answer"
    if best.cost is not None:
        best.cost += encoding.cost_offset
    return best


class _Bounded:
    """A session for bounding the cost: every soft clause broken only through a literal of its
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


def _certified(encoding: Encoding, optimum: Optimum, backend: Backend) -> Certificate:
    """The proofs that ``optimum`` (found by a method that leaves none) is optimal, or that there is no
    model at all: the hard clauses with "cost <= its cost - 1" must be UNSAT, and the proof of that is
    checked. A model there means the optimiser was wrong."""
    if optimum.status != Status.SAT or optimum.model is None:
        with backend.open(encoding) as session:
            return _refuted(session.solve(), backend.name, "the hard clauses")
    model = optimum.model
    assert isinstance(model, CnfModel), "a CNF method's model"
    bounded = _Bounded(encoding, backend)
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


def _descend(bounded: _Bounded, backend: str) -> Iterator[Optimum]:
    """Solve, bound the cost below the model's, repeat until UNSAT: the last model is optimal, and the
    last answer's certificate (from a proving backend) is the checked proof of it. Each better model is
    yielded as it is found (the last one yielded is the answer: the optimum, or UNSAT)."""
    best: Optimum | None = None
    steps = 0
    while True:
        result = bounded.session.solve()
        steps += 1
        if result.status == Status.UNSAT:
            if best is None:
                yield Optimum(Status.UNSAT, steps=steps, certificate=result.certificate)
                return
            best.certificate = result.certificate
            yield best
            return
        if result.status != Status.SAT:
            raise BackendError(f"{backend}: no answer during the descent ({result.status.value})")
        model = result.model
        assert isinstance(model, CnfModel), "a SAT answer of a CNF session has a CNF model"
        cost = bounded.cost(model)
        best = Optimum(Status.SAT, _trim(model, bounded.encoding.num_vars), cost, steps)
        if cost == 0:
            best.certificate = _least_possible(backend) if bounded.session.backend.proving else None
            yield best
            return
        yield best
        bounded.bound(cost - bounded.unit)


def _trim(model: CnfModel, num_vars: int) -> CnfModel:
    """Drop the bound's auxiliary variables so the model matches the encoding."""
    return CnfModel(model.truth[:num_vars + 1])


def _z3(encoding: Encoding, deadline: Deadline) -> Optimum:
    import z3

    optimizer = z3.Optimize()
    left = deadline.left()
    if left is not None:
        optimizer.set("timeout", max(1, int(left * 1000)))
    optimizer.add(*encoding.assertions)
    optimizer.minimize(encoding.objective)
    answer = optimizer.check()
    if answer == z3.unsat:
        return Optimum(Status.UNSAT)
    if answer != z3.sat:
        raise SolverTimeout("z3", deadline.seconds or 0)
    model = optimizer.model()
    cost = model.eval(encoding.objective, model_completion=True).as_long()
    return Optimum(Status.SAT, SmtModel(model), cost + encoding.cost_offset)
