"""One typed request: what to do with an instance, resolved once and passed down unchanged.

The command line (or a Python caller) names a puzzle, maybe a backend, an encoding, encoder options, a
time limit and an optimisation method; :func:`request` resolves them once, through the puzzle's task
(which knows the defaults measured for it), into a frozen :class:`Request`. Below that point nothing
looks a backend up by name again or re-reads an option: a cross-check that tries another backend makes
another request with :func:`dataclasses.replace`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..backends.base import Backend, Capability
from ..core.errors import PuzzlesatError
from ..core.options import EncoderOptions
from ..core.puzzle import Puzzle
from ..core.timing import UNLIMITED, Deadline

if TYPE_CHECKING:
    from .optimize import OptimisationMethod


@dataclass(frozen=True)
class Request:
    puzzle: Puzzle[Any, Any, Any]
    #: the backend object (a portfolio is one too); for Z3 Optimize the z3 backend
    backend: Backend
    #: one of ``puzzle.encodings``
    encoding: str
    #: an instance of ``puzzle.options_type``
    options: EncoderOptions
    #: when the whole request must be answered (made once, where its limit starts: a command's start)
    deadline: Deadline = UNLIMITED
    #: the optimisation method of an optimisation puzzle, else None
    method: OptimisationMethod | None = None
    #: ``--certify``: None (believe the solver), ``strict`` (every claim resting on an UNSAT answer comes
    #: with a checked proof; the backend is the proof-writing one) or ``best-effort`` (the same where the
    #: backend can prove, otherwise the claims are marked uncertified)
    certify: str | None = None
    #: ``count`` races the puzzle's own solver-free search (:meth:`Puzzle.search_count`) against this
    #: backend's count, the first to finish answering: set when no backend was named, since then the
    #: question is the count, not what a given solver makes of it
    race_search: bool = False
    #: ``solve --forced``: also find what every solution shares (:mod:`.forced`)
    forced: bool = False

    def within(self, deadline: Deadline) -> Request:
        """This request under a deadline of its own (a cross-check's method; a forked count that its
        parent keeps the time of: :data:`~puzzlesat.core.timing.UNLIMITED`)."""
        return replace(self, deadline=deadline)

    @property
    def proving(self) -> bool:
        """Whether this request's UNSAT answers come with checked proofs."""
        return self.certify is not None and self.backend.proving

    @property
    def formula_kind(self) -> str:
        """``cnf`` or ``smt``: what the encoding is, so what the backend must take."""
        return self.puzzle.formula_kind(self.encoding)

    @property
    def exact_count(self) -> bool:
        """Whether a count of this request is one exact counter's answer (capability ``count``, e.g.
        ganak) rather than an enumeration of checked solutions: decided here, once, for every surface."""
        return Capability.COUNT in self.backend.capabilities

    def require_solving(self) -> None:
        """Refuse, before anything is built, a backend that cannot solve this request's formula."""
        self.backend.require(Capability.SAT if self.formula_kind == "cnf" else Capability.SMT)


def request(puzzle: Puzzle[Any, Any, Any], backend: str | None = None, encoding: str | None = None,
            timeout: Deadline | float | None = None, method: str | None = None, certify: str | None = None,
            forced: bool = False, counting: bool = False, **options: Any) -> Request:
    """Resolve names into a :class:`Request`: the task fills in the defaults (the puzzle's measured
    fastest backend, its first encoding, the method tuned for the encoding); ``options`` are the
    puzzle's encoder options by name, refused in one line when the puzzle has no such option. The time
    limit is a command's :class:`Deadline`, or seconds from now. ``forced``: also find what every
    solution shares, where the puzzle offers it (refused in one line otherwise). ``counting``: the
    request is a count's, so with no backend named it takes the puzzle's ``count_backend`` (still
    raced against the puzzle's own search, as any count with no backend named is)."""
    deadline = timeout if isinstance(timeout, Deadline) else Deadline.after(timeout)
    chosen = backend or (puzzle.count_backend if counting else None)
    resolved = certifying(puzzle.task.request(puzzle, chosen, encoding, puzzle.options(**options), deadline,
                                              method), certify)
    if backend is None and chosen is not None:
        resolved = replace(resolved, race_search=True)
    if forced:
        if not puzzle.offers_forced:
            raise PuzzlesatError(f"--forced: {puzzle.name} does not say which cells every solution shares")
        if resolved.formula_kind != "cnf":
            raise PuzzlesatError("--forced asks a CNF encoding's solver: leave out --encoding smt")
        resolved = replace(resolved, forced=True)
    return resolved


#: what ``--certify`` takes
CERTIFY_MODES = ("strict", "best-effort")


def certifying(resolved: Request, mode: str | None) -> Request:
    """``resolved`` with ``--certify`` applied: its backend made to write proofs. A backend that cannot
    (Z3, the counters, a binary not known to write proofs) is refused in one line, or under
    ``best-effort`` kept as it is, its claims then marked uncertified."""
    if mode is None:
        return resolved
    if mode not in CERTIFY_MODES:
        raise PuzzlesatError(f"--certify={mode}: expected {' or '.join(CERTIFY_MODES)}")
    backend, method = resolved.backend, resolved.method
    unprovable = method is not None and not method.certifiable
    if unprovable or Capability.PROOF not in backend.capabilities:
        if mode == "best-effort":
            return replace(resolved, certify=mode)
        solver = (method.title or f"method {method.name}") if method is not None and unprovable else backend.name
        raise PuzzlesatError(f"--certify: {solver} writes no proof of its UNSAT answers; choose a backend that "
                             "does (pysat:cadical195, pysat:glucose4, pysat:lingeling, external:cadical, ...: "
                             "'puzzlesat backends' lists them) or --certify=best-effort")
    return replace(resolved, backend=backend.with_proofs(), certify=mode)


def encoding_for(puzzle: Puzzle[Any, Any, Any], kind: str | None) -> str:
    """The encoding asked for, or the puzzle's first; one the puzzle lacks is refused with its list."""
    kind = kind or puzzle.encodings[0]
    if kind not in puzzle.encodings:
        raise PuzzlesatError(f"{puzzle.name} has no {kind} encoding (it has: {', '.join(puzzle.encodings)})")
    return kind
