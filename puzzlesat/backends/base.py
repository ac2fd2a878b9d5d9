"""The backend interface.

A backend turns an :class:`Encoding` into answers. It opens a :class:`Session` on one encoding; a session
solves, and can block the current model on the encoding's ``show`` set, which is all that enumeration,
uniqueness proofs and counting by enumeration need. Non-incremental solvers (Kissat, external binaries)
implement the same interface by re-solving from scratch, so callers never special-case them.

Adding a solver means one module with a :class:`Backend` subclass, registered in :mod:`.builtin` or, from
another package, through the entry point ``puzzlesat.backends`` (docs/adding-a-puzzle.md has the checklist);
names resolve through :func:`puzzlesat.backends.get_backend` (:mod:`.registry`).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core.encoding import Encoding
from ..core.errors import BackendError, BackendUnavailable
from ..core.model import CnfModel, SmtModel
from ..core.reporting import report_detail
from ..core.result import Result, Status
from ..core.timing import UNLIMITED, Deadline

if TYPE_CHECKING:
    from ..proofs.certificate import Certificate


class Capability(str, Enum):
    """What a backend can do; its value is the name ``puzzlesat backends`` prints (and a plug-in may
    declare, as a plain string: :func:`capabilities_of` checks each one)."""

    #: solves CNF
    SAT = "sat"
    #: solves native SMT encodings
    SMT = "smt"
    #: can block models and solve again (uniqueness, counting by enumeration)
    ENUMERATE = "enumerate"
    #: counts models exactly (:meth:`Backend.count`)
    COUNT = "count"
    #: solves weighted MaxSAT on its own (:meth:`Backend.maxsat`)
    OPTIMIZE = "optimize"
    #: writes a DRAT proof of every UNSAT answer (:meth:`Backend.with_proofs`)
    PROOF = "proof"

    def __str__(self) -> str:
        return self.value


def capabilities_of(backend: Backend) -> frozenset[Capability]:
    """The backend's capabilities as members of :class:`Capability`; a name that is none (a plug-in's
    typo) is refused in one line."""
    try:
        return frozenset(Capability(name) for name in backend.capabilities)
    except ValueError:
        known = ", ".join(c.value for c in Capability)
        raise BackendError(f"backend {backend.name} declares capabilities {sorted(backend.capabilities)}; "
                           f"known: {known}") from None


#: backend name -> why it is not available here (None: it is), filled by :meth:`Backend.missing`
_PROBED: dict[str, str | None] = {}


@dataclass
class SolverStatistics:
    """What a session's solver calls did: how many answered, and the solver's counters summed
    (conflicts, decisions, propagations, restarts: :attr:`Result.stats`)."""

    backend: str
    calls: int = 0
    counts: Counter[str] = field(default_factory=Counter)


def report_statistics(statistics: SolverStatistics | None) -> None:
    """Tell ``--verbose`` what the solver did, where it said (a line, in the process that runs the
    command: a forked child's statistics travel back to it, in a :class:`~puzzlesat.pipeline.steps.Tally`)."""
    if statistics is not None and statistics.counts:
        calls = statistics.calls
        counts = ", ".join(f"{value:,} {name}" for name, value in statistics.counts.items())
        report_detail(f"{statistics.backend}: {calls:,} solver call{'s' * (calls != 1)}, {counts}")


class Session(ABC):
    """One encoding loaded into one solver."""

    def __init__(self, backend: Backend, encoding: Encoding) -> None:
        self.backend = backend
        self.encoding = encoding
        #: the clauses added since it was opened (blocking clauses, bounds): an UNSAT answer's proof is
        #: checked against the encoding's clauses and these
        self.added: list[list[int]] = []
        #: the solver calls answered in this process (``--verbose`` says them when the session closes)
        self.statistics = SolverStatistics(backend.name)
        #: the last selector variable :meth:`models` took (0: none yet)
        self._last_selector = 0

    @abstractmethod
    def solve(self, deadline: Deadline = UNLIMITED) -> Result:
        """Solve; raise :class:`SolverTimeout` when the ``deadline`` passes without an answer."""

    def solve_under(self, assumptions: Sequence[int], deadline: Deadline = UNLIMITED) -> Result:
        """:meth:`solve` with ``assumptions`` (literals) true for this call alone: sessions of a backend
        that :attr:`~Backend.assumes`; the others refuse."""
        raise BackendError(f"{self.backend.name}: cannot solve under assumptions")

    def models(self, deadline: Deadline = UNLIMITED, under: Sequence[int] = ()) -> Generator[Result, None, None]:
        """Every model in turn, each blocked on ``show`` before the next solve; the last result is the
        one that ends the enumeration (UNSAT, or UNKNOWN from an incomplete solver). The ``deadline``
        bounds the whole enumeration, not each call.

        With ``under`` (literals: a cube), the models that have them, assumed rather than added
        (:meth:`solve_under`), so that one session enumerates cube after cube and keeps what its solver
        learnt. Why the counts stay exact: each blocking clause is guarded by a fresh *selector*
        variable, assumed with ``under`` and retired (its negation added) when the enumeration ends,
        however it ends. A retired block is satisfied for good, so no enumeration after it, under the
        same literals or others, loses a model to it; the learnt clauses are consequences of the
        clauses given, guarded ones included, so they exclude nothing either."""
        selector = self._new_selector() if under else None
        try:
            while True:
                result = self.solve(deadline) if selector is None else self.solve_under([*under, selector], deadline)
                yield result
                if result.status != Status.SAT or result.model is None:
                    return
                self.block(result.model, selector)
        finally:
            if selector is not None:
                self.add_clause([-selector])

    def _new_selector(self) -> int:
        """A variable no clause of the encoding names and no earlier selector took."""
        if not self._last_selector:
            self._last_selector = max([self.encoding.num_vars, *self.encoding.show], default=0)
        self._last_selector += 1
        return self._last_selector

    def block(self, model: CnfModel | SmtModel, selector: int | None = None) -> None:
        """Exclude every later model that agrees with ``model`` on the encoding's ``show`` set (while
        ``selector`` is assumed, with one)."""
        if isinstance(model, CnfModel):
            self.add_clause([-v if model.value(v) else v for v in self.encoding.show]
                            + ([] if selector is None else [-selector]))
        elif selector is None:
            self.add_smt_block(model)
        else:
            raise BackendError(f"{self.backend.name}: cannot block SMT models under assumptions")

    def add_clause(self, clause: list[int]) -> None:
        raise BackendError(f"{self.backend.name}: cannot add clauses to an SMT session")

    def sent(self) -> list[list[int]]:
        """The clauses this session has been given: the encoding's and every one added since."""
        return [list(clause) for clause in self.encoding.clauses] + self.added

    def certified(self, proof: bytes | str | list[str], sent: list[list[int]] | None = None) -> Certificate:
        """The certificate of the UNSAT answer just given, from its proof: checked against the clauses
        sent (:meth:`sent`, when the caller has not built them already), never against what the solver
        says it was given. The proof checker is imported here: an answer with no proof asked for (the
        default) does not pay for it at start-up."""
        from ..proofs.certificate import certify

        return certify(self.sent() if sent is None else sent, proof, self.backend.name)

    def add_smt_block(self, model: SmtModel) -> None:
        raise BackendError(f"{self.backend.name}: cannot block SMT models")

    def counted(self, result: Result) -> Result:
        """``result``, its call and statistics added to the session's. A backend calls it where the
        answer reaches this process (a forked child's answers are counted when they arrive)."""
        self.statistics.calls += 1
        self.statistics.counts.update(result.stats)
        return result

    def close(self) -> None:
        """Free solver memory; the session is unusable afterwards."""

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        report_statistics(self.statistics)
        self.close()


class Backend(ABC):
    """A named solver with capability flags."""

    name: str
    capabilities: frozenset[Capability]
    description: str = ""
    #: ``count_each`` answers all its queries from one compilation, so conditional counts are cheap
    compiles: bool = False
    #: its UNSAT answers carry a checked certificate (:meth:`with_proofs`)
    proving: bool = False
    #: its sessions solve under assumptions (:meth:`Session.solve_under`): one session can then
    #: enumerate cube after cube (:mod:`puzzlesat.pipeline.cubes`)
    assumes: bool = False
    #: the PySAT solver it is, by PySAT's name, for PySAT's own algorithms that build their solvers by
    #: name (RC2); None for every other backend
    pysat_solver: str | None = None
    #: how a count of this backend (capability ``count``) is made, as reports say it: ``exact counter``,
    #: or ``probabilistically exact counter`` where the count is right with high probability only
    counting: str = "exact counter"

    def unavailable_reason(self) -> str | None:
        """``None`` when the backend works on this machine, else why not (e.g. binary not on PATH).
        Subclasses probe here; callers ask :meth:`missing`, which probes once per process."""
        return None

    def missing(self) -> str | None:
        """Why the backend does not work here (None: it does), probed once per process and name: a
        command asks several times (request, session, cross-check plan), the machine answers once."""
        if self.name not in _PROBED:
            _PROBED[self.name] = self.unavailable_reason()
        return _PROBED[self.name]

    def require(self, capability: Capability) -> None:
        """Fail before any work starts when this backend cannot do what is asked."""
        reason = self.missing()
        if reason:
            raise BackendUnavailable(f"backend {self.name} is not available here: {reason}")
        if capability not in self.capabilities:
            have = ", ".join(sorted(self.capabilities))
            raise BackendError(f"backend {self.name} cannot do '{capability}' (it can: {have})")

    def with_proofs(self) -> Backend:
        """The same solver, writing a proof of every UNSAT answer, which its sessions check before they
        answer: an UNSAT :class:`Result` then carries a :class:`Certificate` (a rejected proof is an error)."""
        self.require(Capability.PROOF)
        raise NotImplementedError

    def open(self, encoding: Encoding) -> Session:
        """Load ``encoding`` into a new session, after checking the backend can take its kind."""
        self.require(Capability.SAT if encoding.kind == "cnf" else Capability.SMT)
        return self._open(encoding)

    @abstractmethod
    def _open(self, encoding: Encoding) -> Session: ...

    def count(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> int:
        """Exact number of models projected on ``encoding.show`` (backends with capability ``count``)."""
        self.require(Capability.COUNT)
        raise NotImplementedError

    def weighted_count(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> Fraction:
        """The exact weighted model count of a weighted ``encoding`` (:attr:`Encoding.weights
        <puzzlesat.core.encoding.Encoding.weights>`): the sum of its models' weights, projected on
        ``encoding.show`` (counters that count weights exactly)."""
        self.require(Capability.COUNT)
        raise BackendError(f"{self.name} does not count weights")

    def maxsat(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> Result:
        """A model of the hard clauses breaking the least weight of soft clauses, with that weight as
        ``cost`` (backends with capability ``optimize``; status UNSAT when the hard clauses have none)."""
        self.require(Capability.OPTIMIZE)
        raise NotImplementedError

    def count_each(self, encoding: Encoding, queries: list[list[int]], deadline: Deadline = UNLIMITED) -> list[int]:
        """The projected model count of ``encoding`` under each query (a list of literals assumed true),
        in one call: a compiling counter answers all queries from one compilation."""
        self.require(Capability.COUNT)
        raise NotImplementedError
