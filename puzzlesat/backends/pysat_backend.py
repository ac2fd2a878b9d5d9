"""Every SAT solver that PySAT ships, as ``pysat:<name>`` (CaDiCaL, Kissat, Glucose, MiniSat, ...)."""
from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Generator, Iterable, Sequence
from typing import TYPE_CHECKING

from pysat.solvers import Solver, SolverNames

from ..core.encoding import Encoding
from ..core.errors import CheckFailed
from ..core.model import CnfModel
from ..core.result import Result, Status
from ..core.timing import UNLIMITED, Deadline
from .base import Backend, Capability, Session
from .forking import call_with_timeout, stoppable, stream_forked

if TYPE_CHECKING:
    from ..proofs.certificate import Certificate

#: PySAT solvers that cannot take clauses after a solve (adding one aborts the process in Kissat);
#: their sessions rebuild the solver for every call.
NON_INCREMENTAL = {"kissat404"}

#: PySAT solvers that fail under assumptions as :meth:`~puzzlesat.backends.base.Session.models` makes
#: them (found by tests/test_cubes.py, which runs every other one): Lingeling aborts the process when it
#: is given clauses after such a solve ("API usage error ... adding melted literal": its API wants every
#: assumed variable frozen, which PySAT's wrapper does not do); CryptoMiniSat refuses to assume a variable
#: no clause names yet ("Variable 9 not used in clauses"), which a fresh selector is
NO_ASSUMPTIONS = {"lingeling", "cryptominisat"}

#: PySAT solvers whose ``with_proof=True`` writes DRUP/DRAT proofs that check (tests/test_proofs.py runs
#: each on UNSAT formulas and a uniqueness proof). MapleSAT writes proofs too, but they fail any RUP check
#: (lemma 14 of its pigeonhole-5 proof already), so it is left out.
PROOF_WRITERS = frozenset({"cadical103", "cadical153", "cadical195", "cadical300", "gluecard3", "gluecard4",
                           "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm"})


def _declaring(encoding: Encoding, num_vars: int) -> Iterable[list[int]]:
    """The encoding's clauses for a new solver, after the tautology ``[n, -n]`` of its largest variable
    ``n``: a clause every assignment satisfies, so the formula's models are the same, and the solver
    meets its largest variable first. CaDiCaL then sizes its variable tables once (from nothing it
    takes the variable as asked; once it has any, it doubles until they fit), as its binary does from a
    file's header, which PySAT cannot pass on. Without it, 5x10^6 pebbling clauses (5x10^6 variables)
    took 1.63 GB and 11.0 s in process, with it 1.09 GB and 7.3 s; the cadical binary 0.75 GB. A
    proof's formula is the clauses sent (:meth:`PysatSession._proven` builds its own solver without it)."""
    declared = [[num_vars, -num_vars]] if num_vars else []
    return itertools.chain(declared, encoding.pysat_clauses())


def _canonical(attr: str, names: tuple[str, ...]) -> str:
    """PySAT's attribute name when it is also a solver name, else its most readable alias."""
    if attr in names:
        return attr
    return max((n for n in names if not n[-1].isdigit()), key=len, default=names[0])


class PysatBackend(Backend):
    description = "PySAT embedded solver"

    def __init__(self, solver_name: str, proving: bool = False) -> None:
        self.solver_name = self.pysat_solver = solver_name
        self.name = f"pysat:{solver_name}"
        self.incremental = solver_name not in NON_INCREMENTAL
        # a solver rebuilt for every call would gain nothing from assumptions, and Kissat takes none
        self.assumes = self.incremental and solver_name not in NO_ASSUMPTIONS
        self.proving = proving
        # non-incremental solvers enumerate by re-solving from scratch: correct, just slower
        self.capabilities = frozenset({Capability.SAT, Capability.ENUMERATE}
                                      | ({Capability.PROOF} if solver_name in PROOF_WRITERS else set()))

    def with_proofs(self) -> Backend:
        self.require(Capability.PROOF)
        return PysatBackend(self.solver_name, proving=True)

    def unavailable_reason(self) -> str | None:
        """Read off what this PySAT was built with, without building a solver: CryptoMiniSat comes from
        the separate ``pycryptosat`` package, every other solver from a constructor compiled into PySAT's
        extension (``pysolvers.glucose41_new`` for ``glucose4``). Only a name that matches no constructor
        is settled by building one."""
        if self.solver_name == "cryptominisat":
            import importlib.util

            return None if importlib.util.find_spec("pycryptosat") else "PySAT needs the pycryptosat package for it"
        if _compiled(self.solver_name):
            return None
        try:
            Solver(name=self.solver_name).delete()
        except Exception as exc:  # PySAT raises its own NoSuchSolverError or ImportError variants
            return f"PySAT cannot create it ({exc})"
        return None

    def _open(self, encoding: Encoding) -> Session:
        return PysatSession(self, encoding)


class PysatSession(Session):
    backend: PysatBackend

    def __init__(self, backend: PysatBackend, encoding: Encoding) -> None:
        super().__init__(backend, encoding)
        self.num_vars = encoding.num_vars
        self.solver: Solver | None = self._new_solver() if backend.incremental else None

    def _new_solver(self) -> Solver:
        solver = Solver(name=self.backend.solver_name, bootstrap_with=_declaring(self.encoding, self.num_vars))
        if self.encoding.decide_false_first:
            try:
                solver.set_phases([-var for var in range(1, self.num_vars + 1)])
            except NotImplementedError:  # a hint only: solvers without user phases search as usual
                pass
        for clause in self.added:
            solver.add_clause(clause)
        return solver

    def add_clause(self, clause: list[int]) -> None:
        self.added.append(clause)
        if self.solver is not None:
            self.solver.add_clause(clause)

    def solve(self, deadline: Deadline = UNLIMITED) -> Result:
        return self.solve_under((), deadline)

    def solve_under(self, assumptions: Sequence[int], deadline: Deadline = UNLIMITED) -> Result:
        if assumptions and not self.backend.assumes:
            return super().solve_under(assumptions, deadline)
        start = time.perf_counter()
        solver = self.solver if self.solver is not None else self._new_solver()

        def run() -> tuple[bool | None, list[int] | None, Certificate | None, dict[str, int]]:
            before = _statistics(solver)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sat = solver.solve(assumptions=list(assumptions))
            used = {name: value - before.get(name, 0) for name, value in _statistics(solver).items()}
            if sat:
                return sat, solver.get_model(), None, used
            return sat, None, self._proven(assumptions) if self.backend.proving else None, used

        try:
            sat, literals, certificate, used = call_with_timeout(run, deadline, self.backend.name)
        finally:
            if solver is not self.solver:
                solver.delete()
        elapsed = time.perf_counter() - start
        if not sat:
            return self.counted(Result(Status.UNSAT, None, self.backend.name, elapsed, certificate=certificate,
                                       stats=used))
        return self.counted(Result(Status.SAT, CnfModel.from_literals(literals or [], self.num_vars), self.backend.name,
                                   elapsed, stats=used))

    def _proven(self, assumptions: Sequence[int]) -> Certificate:
        """The certificate of an UNSAT answer: a fresh solver, writing a proof, refutes the clauses sent
        (the encoding's and every one added, and the assumptions as unit clauses) and the proof is
        checked against them.

        Not the session's own proof: that one covers every call since the session opened, so it grows
        with every model enumerated or bound tightened (2.1 million steps for a descent on amphipod's
        unrolling), and CaDiCaL's is wrong across calls, since clauses it restores for a variable it had
        eliminated are not in it (its lemma 2,145,543 there fails the check). One more solve of the last
        formula costs less than checking either."""
        sent = self.sent() + [[lit] for lit in assumptions]
        with Solver(name=self.backend.solver_name, bootstrap_with=sent, with_proof=True) as fresh:
            if fresh.solve():
                raise CheckFailed(f"{self.backend.name}: answered UNSAT, but the same solver finds a model of "
                                  "the same clauses when solving them afresh")
            return self.certified(fresh.get_proof(), sent)

    def models(self, deadline: Deadline = UNLIMITED, under: Sequence[int] = ()) -> Generator[Result, None, None]:
        """Under a time limit, the whole enumeration runs in one forked child (a child per solve would
        cost a fork and the learnt clauses every time); the parent blocks each model it receives as
        well, so the session stays in step with what was enumerated. Under assumptions (``under``: a
        cube's, counted in a process that is itself killed at its limit), each solve is limited alone."""
        if not stoppable(deadline) or self.solver is None or under:  # no limit, a solver rebuilt anyway, a cube
            yield from super().models(deadline, under)
            return
        for result in stream_forked(lambda: Session.models(self), deadline, self.backend.name):
            self.counted(result)
            if result.status == Status.SAT:
                self.block(result.model)
            yield result

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


def _statistics(solver: Solver) -> dict[str, int]:
    """What the solver has done since it was built (conflicts, decisions, propagations, restarts), or
    nothing where PySAT does not expose it (Kissat)."""
    try:
        return dict(solver.accum_stats())
    except NotImplementedError:
        return {}


def _compiled(name: str) -> bool:
    """Whether PySAT's extension has a constructor for the solver ``name`` (its own spelling drops the
    dash and may add a minor version: ``minisat-gh`` is ``minisatgh``, ``glucose4`` is ``glucose41``)."""
    try:
        import pysolvers  # PySAT's compiled extension
    except ImportError:
        return False
    spelled = name.replace("-", "")
    return any(attr.startswith(spelled) and attr.endswith("_new") for attr in dir(pysolvers))


def pysat_names() -> list[str]:
    """The canonical name of every solver this PySAT offers."""
    return [_canonical(attr, names) for attr, names in vars(SolverNames).items()
            if not attr.startswith("_") and isinstance(names, tuple)]
