"""Cross-checking: the same instance through several backends, encodings and the reference method.

A cross-check is planned first (one :class:`Method` per backend and encoding, the reference first) and
then run one method at a time, each under the per-method limit and all under an overall budget, so
rows can be shown as they finish. Every solution passes the independent checker; the answers
(uniqueness included) must agree exactly.

Agreement is worth something only between methods that share no code. Each method belongs to a
*family*: the reference is one; the runs of an encoding are one (they solve the same formula); and
encodings that share a pre-processing step (a tiling's pruning and anchoring, amphipod's movers,
dice's game rules) are one family named after that step. The summary counts families, not runs.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from .backends import get_backend
from .backends.forking import call_with_timeout
from .core.choices import METHODS
from .core.errors import PuzzlesatError, SolverTimeout
from .core.options import EncoderOptions
from .core.puzzle import Puzzle
from .core.timing import Stopwatch
from .request import Request, certifying

if TYPE_CHECKING:
    from .executors import Executor
from .solving import Report, count_every_variant, solve

#: (status, answers or None, error): what running one method gives
Outcome = tuple[str, dict[str, Any] | None, str]

#: the limit of each method, and of the whole cross-check, when the command line sets none: every
#: bundled instance is cross-checked within two minutes (methods past the limit are TIMEOUT rows)
DEFAULT_METHOD_LIMIT = 10.0
DEFAULT_BUDGET = 100.0


@dataclass
class Method:
    label: str
    #: methods of one family share an encoding or a pre-processing step (see the module docstring)
    family: str
    run: Callable[[float | None], Outcome]


@dataclass
class Row:
    method: str
    status: str
    seconds: float
    answers: dict[str, Any] | None
    error: str = ""
    agrees: bool = False
    family: str = ""
    #: under ``--certify``: per claim resting on an UNSAT answer, whether its proof was checked
    certified: dict[str, bool] | None = None


#: the key under which a method's answers carry, under ``--certify``, what its proofs certified; taken out
#: of the answers (into :attr:`Row.certified`) before they are compared
CERTIFIED = "certified"


def default_backends(puzzle: Puzzle[Any, Any, Any]) -> list[str]:
    """The backends the puzzle's task cross-checks when none are named."""
    return puzzle.task.crosscheck_backends(puzzle)


def family(puzzle: Puzzle[Any, Any, Any], kind: str) -> str:
    return puzzle.shared_steps.get(kind, kind)


def label(puzzle: Puzzle[Any, Any, Any], name: str, kind: str) -> str:
    """``backend [encoding]``, or ``backend [encoding, shared step]`` when the encoding shares one."""
    shared = puzzle.shared_steps.get(kind)
    return f"{name} [{kind}, {shared}]" if shared else f"{name} [{kind}]"


def run_methods(methods: list[Method], limit: float | None, budget: float | None = None,
                executor: Executor | None = None) -> Iterator[Row]:
    """Run the methods in order, each under ``limit`` and all within ``budget`` seconds (methods left
    when it is spent are SKIPPED rows), and yield each row as it finishes, already marked: a row agrees
    when it has exactly the yardstick's answers, the yardstick being the first row that answered (the
    reference's, unless it ran out of time or failed). With an ``executor`` (a Dask cluster) the methods
    run at the same time on its workers, each under ``limit``, and the rows come in plan order once all
    are back (the budget does not apply: nothing waits for a turn)."""
    rows = _rows_on(executor, methods, limit) if executor is not None else _rows_here(methods, limit, budget)
    expected: dict[str, Any] | None = None
    for row in rows:
        if row.answers is not None:
            row.certified = row.answers.pop(CERTIFIED, None)
        if row.answers is not None and not row.error:
            expected = row.answers if expected is None else expected
            row.agrees = row.answers == expected
        yield row


def _rows_here(methods: list[Method], limit: float | None, budget: float | None) -> Iterator[Row]:
    start = time.perf_counter()
    for method in methods:
        left = None if budget is None else budget - (time.perf_counter() - start)
        if left is not None and left <= 0:
            yield Row(method.label, "SKIPPED", 0.0, None, f"not run: the budget of {budget:g} s is spent",
                      family=method.family)
            continue
        this_limit = left if limit is None else limit if left is None else min(limit, left)
        began = time.perf_counter()
        status, answers, error = _outcome_of(method, this_limit)
        yield Row(method.label, status, time.perf_counter() - began, answers, error, family=method.family)


def _outcome_of(method: Method, limit: float | None) -> Outcome:
    try:
        return method.run(limit)
    except SolverTimeout as exc:
        return "TIMEOUT", None, str(exc)
    except PuzzlesatError as exc:
        return "ERROR", None, str(exc)


def _rows_on(executor: Executor, methods: list[Method], limit: float | None) -> Iterator[Row]:
    """Every method as one task on ``executor`` (its own hard limit is the executor's guard)."""
    done = dict(executor.run([partial(_outcome_of, method, None) for method in methods], limit))
    for number, method in enumerate(methods):
        ran = done[number]
        if ran.status == "OK" and ran.value is not None:
            status, answers, error = ran.value
        else:
            status, answers, error = ran.status, None, ran.error
        yield Row(method.label, status, ran.seconds, answers, error, family=method.family)


def _reference(answers: Callable[[], Outcome]) -> Method:
    """The solver-free method, killed at the limit like every backend (a jig's search can take long)."""
    return Method("reference", "reference", lambda limit: call_with_timeout(answers, limit, "reference"))


def reference_answers(request: Request, instance: Any, unique: bool = False) -> Outcome:
    """The reference's first solution, checked, and (``unique``) whether it is the only one."""
    puzzle = request.puzzle
    solutions = puzzle.reference(instance, 2 if unique else 1, request.options)
    if not solutions:
        return "UNSAT", {}, ""
    problems = puzzle.check(instance, solutions[0])
    if problems:
        return "SAT", None, f"checker rejected: {problems[0]}"
    answers = dict(solutions[0].answers())
    if unique:
        answers["unique"] = len(solutions) == 1
    return "SAT", answers, ""


def solved(request: Request, instance: Any, proof_key: str | None = None) -> Callable[[float | None], Outcome]:
    """A method that solves the request under the method's limit: its answers without the proof flag
    (``optimal``, ``exact``)."""
    def run(limit: float | None) -> Outcome:
        report = solve(replace(request, timeout=limit), instance)
        return report.status, {k: v for k, v in report.answers.items() if k != proof_key} | _certified(report), ""
    return run


def _certified(report: Report) -> dict[str, Any]:
    """What ``report``'s proofs certified, under the :data:`CERTIFIED` key; nothing without --certify."""
    return {CERTIFIED: report.certified()} if report.certificates else {}


def on_backend(base: Request, backend: str, encoding: str | None = None, method: str | None = None) -> Request:
    """The request of one method: ``base``'s puzzle, options and ``--certify`` on another backend,
    encoding or method, resolved by the puzzle's task like any other request."""
    puzzle = base.puzzle
    return certifying(puzzle.task.request(puzzle, backend, encoding, base.options, None, method), base.certify)


def _encodings_of(puzzle: Puzzle[Any, Any, Any], name: str) -> list[str]:
    backend = get_backend(name)
    return [kind for kind in puzzle.encodings
            if ("sat" if puzzle.formula_kind(kind) == "cnf" else "smt") in backend.capabilities]


def plan_solutions(request: Request, instance: Any, backends: list[str], unique: bool = False) -> list[Method]:
    """The reference, then one solve (with the uniqueness proof when ``unique``) per backend and
    encoding it can take."""
    puzzle = request.puzzle
    methods = [_reference(partial(reference_answers, request, instance, unique))]
    for name in backends:
        for kind in _encodings_of(puzzle, name):
            method = on_backend(request, name, kind)
            methods.append(Method(label(puzzle, method.backend.name, kind), family(puzzle, kind),
                                  solved(method, instance)))
    return methods


def plan_optima(request: Request, instance: Any, backends: list[str]) -> list[Method]:
    """Every encoding with every optimisation method that fits it, against the reference's optimum."""
    puzzle = request.puzzle
    methods = [_reference(partial(reference_answers, request, instance))]
    for kind in puzzle.encodings:
        for method, (formula, _) in METHODS.items():
            if formula != puzzle.formula_kind(kind):
                continue
            if method == "z3" and request.certify == "strict":
                continue  # Z3 Optimize proves nothing a checker can read
            for name in backends if method != "z3" else ["z3"]:
                if (method == "maxsat") != ("optimize" in get_backend(name).capabilities):
                    continue  # an outside MaxSAT solver runs its own method, and only it
                optimum = on_backend(request, name, kind, method)
                methods.append(Method(label(puzzle, f"{method} on {optimum.backend.name}", kind),
                                      family(puzzle, kind), solved(optimum, instance, "optimal")))
    return methods


def count_answers(puzzle: Puzzle[Any, Any, Any], base: EncoderOptions,
                  counter: Callable[[EncoderOptions], int]) -> tuple[str, dict[str, int]]:
    """(status, counts): every count the puzzle reports (a tiling's solutions and its symmetry
    classes), each by ``counter`` with the options of that count; the status is UNSAT when there is no
    solution at all."""
    counts = {label: counter(options) for label, options in puzzle.count_variants(base)}
    return ("SAT" if next(iter(counts.values())) else "UNSAT"), counts


def plan_counts(request: Request, instance: Any, backends: list[str]) -> list[Method]:
    """Counts from the reference search and from enumeration on every backend and encoding."""
    puzzle = request.puzzle

    def reference_counts() -> Outcome:
        return *count_answers(puzzle, request.options, lambda options: len(puzzle.reference(instance, None, options))), ""

    methods = [_reference(reference_counts)]
    for name, counter in puzzle.other_counts().items():
        def other(limit: float | None, counter: Callable[[Any, Any], int] = counter, name: str = name) -> Outcome:
            return call_with_timeout(lambda: (*count_answers(puzzle, request.options,
                                                             lambda options: counter(instance, options)), ""),
                                     limit, name)
        methods.append(Method(name, name, other))
    for name in backends:
        for kind in _encodings_of(puzzle, name):
            counting = on_backend(request, name, kind)

            def run(limit: float | None, counting: Request = counting) -> Outcome:
                report = Report(puzzle.name, "", counting.backend.name, counting.encoding, "UNKNOWN")
                counts, _ = count_every_variant(replace(counting, timeout=limit), instance, Stopwatch(), report)
                return ("SAT" if next(iter(counts.values())) else "UNSAT"), counts | _certified(report), ""
            methods.append(Method(label(puzzle, counting.backend.name, kind), family(puzzle, kind), run))
    return methods


def plan(request: Request, instance: Any, backends: list[str], by_count: bool = False) -> list[Method]:
    """The methods of the cross-check that fits the puzzle: its task's, or, with ``by_count`` or for a
    puzzle whose solve returns one of several solutions (``crosscheck_by_count``), the solution counts."""
    puzzle = request.puzzle
    if by_count or puzzle.crosscheck_by_count:
        if not puzzle.task.counts_solutions:
            raise PuzzlesatError(f"{puzzle.name} has no solution count to compare")
        return plan_counts(request, instance, backends)
    return request.puzzle.task.plan_crosscheck(request, instance, backends)


def crosscheck(request: Request, instance: Any, backends: list[str], by_count: bool = False,
               budget: float | None = None) -> list[Row]:
    """Every method's row, the reference first; the request's time limit is each method's."""
    return list(run_methods(plan(request, instance, backends, by_count), request.timeout, budget))


def independent_agreement(rows: list[Row]) -> int:
    """How many families (methods that share no code) gave the yardstick's answers."""
    return len({row.family for row in rows if row.agrees})
