"""The cross-check plans the general tasks use: which methods compare which answers. Each plan takes the
task's own ``solve`` (or count) and ``reference``, so a method of a cross-check is the same code as the
command of the same name: nothing here decides again how to solve.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..backends import get_backend
from ..backends.base import Capability
from ..backends.forking import call_with_timeout
from ..core.puzzle import Puzzle
from ..core.timing import UNLIMITED, Deadline, Stopwatch
from .crosscheck import CERTIFIED, LOWER_BOUNDS, WARNINGS, Method, Outcome
from .optimize import METHODS
from .report import Report, answered
from .request import Request, certifying

#: a task's solve, and its reference (the solver-free answers, see :meth:`~.tasks.Task.reference`)
Solve = Callable[[Request, Any, Stopwatch], Report]
Reference = Callable[[Request, Any], Outcome]


def family(puzzle: Puzzle[Any, Any, Any], kind: str, backend: str = "") -> str:
    """The family of a method (see :mod:`.crosscheck`): on a formula file, the solver itself."""
    if puzzle.solvers_independent:
        return backend
    return puzzle.shared_steps.get(kind, kind)


#: how a cross-check row names its reader (on a formula file; see :mod:`.crosscheck`)
PUZZLESAT_READER = "puzzlesat's reader"
REFERENCE_READER = "the reference's own reader"


def reader(puzzle: Puzzle[Any, Any, Any], instance: Any, backend: str = "", enumerating: bool = False) -> str:
    """Whose reading of a formula file a method's answer rests on: an outside solver given the file
    itself (:meth:`~puzzlesat.core.puzzle.Puzzle.original_file`) reads it its own way, unless it
    enumerates (from the second model on, it gets puzzlesat's copy with the blocking clauses); every
    other solver reads puzzlesat's encoding. Empty for a puzzle, which has no file to misread."""
    if not puzzle.solvers_independent:
        return ""
    from ..backends.external import ExternalBackend

    solver = get_backend(backend)
    if isinstance(solver, ExternalBackend) and Capability.SAT in solver.capabilities and not enumerating \
            and puzzle.original_file(instance) is not None:
        return f"{solver.binary}'s own reader"
    return PUZZLESAT_READER


def label(puzzle: Puzzle[Any, Any, Any], name: str, kind: str) -> str:
    """``backend [encoding]``, or ``backend [encoding, shared step]`` when the encoding shares one."""
    shared = puzzle.shared_steps.get(kind)
    return f"{name} [{kind}, {shared}]" if shared else f"{name} [{kind}]"


def reference_method(answers: Callable[[], Outcome], read_apart: bool = False) -> Method:
    """The solver-free method, killed at the limit like every backend (a jig's search can take long);
    ``read_apart``: it reads a formula file with a reader of its own."""
    return Method("reference", "reference", lambda deadline: call_with_timeout(answers, deadline, "reference"),
                  REFERENCE_READER if read_apart else "")


def carried(report: Report) -> dict[str, Any]:
    """What ``report``'s proofs certified, under the CERTIFIED key (nothing without --certify), and its
    warnings under the WARNINGS key (nothing without any)."""
    return ({CERTIFIED: report.certified()} if report.certificates else {}) | (
        {WARNINGS: report.warnings} if report.warnings else {})


def stopped_outcome(report: Report, bounds: dict[str, Any] | None = None) -> Outcome:
    """The outcome of a method whose work its limit stopped (a report with :attr:`~.Report.stopped`):
    no answer, a TIMEOUT (or MEMOUT) row like a method killed at its limit, with the ``bounds`` it had
    found by then (a count's, under the LOWER_BOUNDS key)."""
    assert report.stopped is not None
    return ("MEMOUT" if report.stopped.by == "memory limit" else "TIMEOUT"), bounds, report.stopped.said()


def solved(solve: Solve, request: Request, instance: Any, proof_key: str | None = None) -> Callable[[Deadline], Outcome]:
    """A method that solves the request under the method's own deadline: its answers without the proof
    flag (``optimal``, ``exact``)."""
    def run(deadline: Deadline) -> Outcome:
        report = solve(request.within(deadline), instance, Stopwatch())
        if report.stopped is not None:  # an optimisation's best plan so far is no optimum to compare
            return stopped_outcome(report)
        answers = {k: v for k, v in report.answers.items() if k != proof_key}
        return report.status.value, answers | carried(report), ""
    return run


def on_backend(base: Request, backend: str, encoding: str | None = None, method: str | None = None) -> Request:
    """The request of one method: ``base``'s puzzle, options and ``--certify`` on another backend,
    encoding or method, resolved by the puzzle's task like any other request."""
    puzzle = base.puzzle
    return certifying(puzzle.task.request(puzzle, backend, encoding, base.options, UNLIMITED, method), base.certify)


def encodings_of(puzzle: Puzzle[Any, Any, Any], name: str, counting: bool = False) -> list[str]:
    """The puzzle's encodings the named backend can take; with ``counting``, a model counter (capability
    ``count``) takes the CNF ones too."""
    backend = get_backend(name)

    def takes(kind: str) -> bool:
        if puzzle.formula_kind(kind) != "cnf":
            return Capability.SMT in backend.capabilities
        return Capability.SAT in backend.capabilities or counting and Capability.COUNT in backend.capabilities

    return [kind for kind in puzzle.encodings if takes(kind)]


def plan_solutions(request: Request, instance: Any, backends: list[str], solve: Solve,
                   reference: Reference) -> list[Method]:
    """The reference, then one solve (with the uniqueness proof when the task proves one) per backend
    and encoding it can take."""
    puzzle = request.puzzle
    methods = [reference_method(lambda: reference(request, instance), puzzle.solvers_independent)]
    for name in backends:
        for kind in encodings_of(puzzle, name):
            method = on_backend(request, name, kind)
            methods.append(Method(label(puzzle, method.backend.name, kind), family(puzzle, kind, method.backend.name),
                                  solved(solve, method, instance), reader(puzzle, instance, name)))
    return methods


def plan_optima(request: Request, instance: Any, backends: list[str], solve: Solve,
                reference: Reference) -> list[Method]:
    """Every encoding with every optimisation method that fits it, against the reference's optimum."""
    puzzle = request.puzzle
    methods = [reference_method(lambda: reference(request, instance), puzzle.solvers_independent)]
    for kind in puzzle.encodings:
        for strategy in METHODS.values():
            if strategy.formula != puzzle.formula_kind(kind):
                continue
            if not strategy.certifiable and request.certify == "strict":
                continue  # its optimum comes with nothing a checker can read
            names = [strategy.own_backend] if strategy.own_backend else backends
            for name in names:
                if not strategy.takes(get_backend(name)):
                    continue  # RC2 on PySAT's solvers only, an outside MaxSAT solver's own method on it only
                optimum = on_backend(request, name, kind, strategy.name)
                methods.append(Method(label(puzzle, f"{strategy.name} on {optimum.backend.name}", kind),
                                      family(puzzle, kind, optimum.backend.name),
                                      solved(solve, optimum, instance, "optimal"),
                                      PUZZLESAT_READER if puzzle.solvers_independent else ""))
    return methods


def count_outcome(counts: dict[str, int]) -> Outcome:
    """A counting method's outcome: its counts by label, SAT when the first finds a solution at all."""
    return answered(next(iter(counts.values()))).value, counts, ""


def plan_counts(request: Request, instance: Any, backends: list[str],
                count: Callable[[Request, Any], Report]) -> list[Method]:
    """Counts from the reference search, the puzzle's other solver-free counters, and the task's count
    on every backend and encoding (an exact counter named among ``backends`` counting the CNF ones)."""
    puzzle = request.puzzle

    methods = [reference_method(lambda: count_outcome(puzzle.reference_counts(instance, request.options)),
                                puzzle.solvers_independent)]
    for name, counter in puzzle.other_counts().items():
        def other(deadline: Deadline, counter: Callable[[Any, Any], int] = counter, name: str = name) -> Outcome:
            return call_with_timeout(lambda: count_outcome({label: counter(instance, options) for label, options
                                                            in puzzle.count_variants(request.options)}), deadline, name)
        methods.append(Method(name, name, other))
    for name in backends:
        for kind in encodings_of(puzzle, name, counting=True):
            counting = on_backend(request, name, kind)

            def run(deadline: Deadline, counting: Request = counting) -> Outcome:
                report = count(counting.within(deadline), instance)
                if report.stopped is not None:  # its counts are lower bounds: no answer, but they may contradict one
                    return stopped_outcome(report, {LOWER_BOUNDS: dict(report.answers)})
                return report.status.value, dict(report.answers) | carried(report), ""
            methods.append(Method(label(puzzle, counting.backend.name, kind),
                                  family(puzzle, kind, counting.backend.name), run,
                                  reader(puzzle, instance, name, enumerating=True)))
    return methods
