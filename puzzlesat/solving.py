"""The pipeline, written once for every puzzle: parse -> encode -> solve -> decode -> check.

A solution is reported only after the independent checker accepted it; uniqueness is claimed only when
the solver answered UNSAT with the first solution blocked.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .backends import DEFAULT_BACKEND, Backend, get_backend
from .backends.forking import run_forked
from .core.encoding import Encoding
from .core.errors import CheckFailed, PuzzlesatError, SolverTimeout
from .core.files import read_text
from .core.puzzle import Puzzle, Solution
from .core.result import Status
from .core.timing import Deadline, Stopwatch


@dataclass
class Report:
    """Everything ``solve`` learned, in the shape ``--json`` prints."""

    puzzle: str
    source: str
    backend: str
    encoding: str
    status: str
    solution: Solution | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    checked: bool = False
    size: dict[str, int] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
    #: the backend that answered each solver call; differs from ``backend`` for a portfolio (the winners)
    solved_by: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"puzzle": self.puzzle, "source": self.source, "backend": self.backend,
                "encoding": self.encoding, "status": self.status, "answers": self.answers,
                "checked": self.checked, "solved_by": self.solved_by, "size": self.size,
                "times": {k: round(v, 6) for k, v in self.times.items()}}


def load(puzzle: Puzzle, path: str, watch: Stopwatch | None = None, **reading: Any) -> Any:
    """Read and parse one instance file (``-`` = stdin). ``reading`` holds the options that say how to
    read it (a rectangular jigsaw's rows and cols, amphipod's unfold); each puzzle accepts its own."""
    watch = watch or Stopwatch()
    for option in reading:
        if option not in puzzle.reading_options:
            flag = "--no-unfold" if option == "unfold" else f"--{option.replace('_', '-')}"
            raise PuzzlesatError(f"{flag} does not apply to {puzzle.name}")
    with watch.phase("parse"):
        return puzzle.parse(read_text(path), path, **reading)


def checked_solution(puzzle: Puzzle, instance: Any, encoding, model, backend: str, watch: Stopwatch) -> Solution:
    """Decode a model and run the independent checker; a violation means a wrong backend or encoding."""
    with watch.phase("decode"):
        solution = puzzle.decode(instance, encoding, model)
    with watch.phase("check"):
        problems = puzzle.check(instance, solution)
    if problems:
        raise CheckFailed(f"{backend} returned a solution that breaks the rules: {problems[0]}")
    return solution


def backend_for(puzzle: Puzzle, name: str | None) -> str:
    """The backend asked for, else the puzzle's measured fastest, else the toolkit default."""
    return name or puzzle.default_backend or DEFAULT_BACKEND


def encoding_for(puzzle: Puzzle, kind: str | None) -> str:
    kind = kind or puzzle.encodings[0]
    if kind not in puzzle.encodings:
        raise PuzzlesatError(f"{puzzle.name} has no {kind} encoding (it has: {', '.join(puzzle.encodings)})")
    return kind


def solve(puzzle: Puzzle[Any, Any], instance: Any, backend_name: str | None, kind: str | None = None,
          timeout: float | None = None, watch: Stopwatch | None = None, method: str | None = None,
          **options: Any) -> Report:
    """Solve one instance as the puzzle's task asks (a unique solution proven, an optimum proven, the
    universes counted, ...): every reported solution has passed the independent checker."""
    return puzzle.task.solve(puzzle, instance, backend_name, kind, timeout, watch or Stopwatch(), method, **options)


def solve_satisfying(puzzle: Puzzle[Any, Any], instance: Any, backend_name: str | None, kind: str, unique: bool,
                     timeout: float | None, watch: Stopwatch, **options: Any) -> Report:
    """A checked solution; with ``unique``, a second search with the first solution blocked proves it
    unique (UNSAT) or refutes it (a second checked solution)."""
    backend = get_backend(backend_for(puzzle, backend_name))
    backend.require("sat" if puzzle.formula_kind(kind) == "cnf" else "smt")
    if unique:
        backend.require("enumerate")
    deadline = Deadline(timeout)
    with watch.phase("encode"):
        encoding = puzzle.encode(instance, kind, **options)
    report = Report(puzzle.name, getattr(instance, "source", ""), backend.name, kind, "UNKNOWN",
                    size=encoding.size(), times=watch.times)
    with watch.phase("solve"):
        session = backend.open(encoding)
    with session, closing(session.models(deadline.left())) as results:  # a second model disproves uniqueness
        with watch.phase("solve"):
            first = next(results)
        report.status = first.status.value
        report.solved_by.append(first.backend)
        if first.status != Status.SAT:
            return report
        report.solution = checked_solution(puzzle, instance, encoding, first.model, backend.name, watch)
        report.checked = True
        report.answers = dict(report.solution.answers())
        if unique:
            with watch.phase("solve"):
                second = next(results)
            report.solved_by.append(second.backend)
            if second.status == Status.SAT:
                checked_solution(puzzle, instance, encoding, second.model, backend.name, watch)
            report.answers["unique"] = {Status.UNSAT: True, Status.SAT: False}.get(second.status)
    return report


def solve_optimum(puzzle: Puzzle[Any, Any], instance: Any, backend_name: str, kind: str, method: str,
                  timeout: float | None, watch: Stopwatch, **options: Any) -> Report:
    """Optimise with one method; the checker replays the decoded plan and must find the proven cost."""
    from .optimize import METHODS, optimize

    if method not in METHODS:
        raise PuzzlesatError(f"unknown method '{method}' (known: {', '.join(METHODS)})")
    with watch.phase("encode"):
        encoding = puzzle.encode(instance, kind, **options)
    shown_backend = "z3" if method == "z3" else get_backend(backend_name).name
    report = Report(puzzle.name, getattr(instance, "source", ""), f"{shown_backend} ({method})", kind, "UNKNOWN",
                    size=encoding.size(), times=watch.times)
    with watch.phase("solve"):
        optimum = optimize(encoding, method, backend_name, timeout)
    report.status = optimum.status.value
    report.solved_by.append(optimum.solved_by or shown_backend)
    if optimum.status != Status.SAT:
        return report
    report.solution = checked_solution(puzzle, instance, encoding, optimum.model, report.backend, watch)
    total = sum(report.solution.answers().values())
    if total != optimum.cost:
        raise CheckFailed(f"{report.backend}: the decoded plans cost {total}, the solver claimed {optimum.cost}")
    report.checked = True
    report.answers = dict(report.solution.answers())
    report.answers["optimal"] = True
    return report


def _record(report: Report | None, encoding: Encoding, answered_by: str | None = None) -> None:
    """Note a counted formula's size (the first one only) and a backend that answered, once each."""
    if report is None:
        return
    report.size = report.size or encoding.size()
    if answered_by and answered_by not in report.solved_by:
        report.solved_by.append(answered_by)


def _counting_backend(puzzle: Puzzle, backend_name: str | None, kind: str, listing: bool) -> tuple[Backend, bool]:
    """The backend a count uses and whether it counts exactly (capability ``count``) rather than by
    enumeration; refuses what cannot work, before anything is encoded."""
    backend = get_backend(backend_for(puzzle, backend_name))
    exact = "count" in backend.capabilities
    if exact and listing:
        raise PuzzlesatError(f"{backend.name} counts without listing solutions: choose an enumerating backend")
    if not exact:
        backend.require("sat" if puzzle.formula_kind(kind) == "cnf" else "smt")
        backend.require("enumerate")
    return backend, exact


def count(puzzle: Puzzle, instance: Any, backend_name: str | None, timeout: float | None = None,
          watch: Stopwatch | None = None, on_solution: Callable[[Solution], None] | None = None,
          kind: str | None = None, limit: int | None = None, report: Report | None = None,
          built: Encoding | None = None, **options: Any) -> int:
    """Count solutions projected on the encoding's ``show`` set: with an exact counter (capability
    ``count``, e.g. ganak) in one call; otherwise by enumeration: solve, check, block, repeat until UNSAT. Every counted
    solution has passed the checker; the final UNSAT is what makes the count exact.
    With ``limit``, stop once that many are found (the result then means "at least ``limit``").
    ``report``, when given, receives the size of the first formula counted into it and every backend
    that answered (a portfolio's winners), so ``count --json`` says what was solved and by whom.
    ``built`` is the encoding when the caller has made it already (see :func:`count_every_variant`)."""
    watch = watch or Stopwatch()
    kind = encoding_for(puzzle, kind)
    backend, exact = _counting_backend(puzzle, backend_name, kind, on_solution is not None or limit is not None)
    deadline = Deadline(timeout)
    with watch.phase("encode"):
        encoding = built if built is not None else puzzle.encode(instance, kind, **options)
    _record(report, encoding, backend.name if exact else None)
    if exact:
        with watch.phase("solve"):
            return backend.count(encoding, timeout)
    found = 0
    with watch.phase("solve"):
        session = backend.open(encoding)
    with session, closing(session.models(deadline.left())) as results:
        while True:
            with watch.phase("solve"):
                result = next(results)
            _record(report, encoding, result.backend)
            if result.status == Status.UNSAT:
                return found
            if result.status != Status.SAT:
                raise CheckFailed(f"{backend.name} gave no answer ({result.status.value}) after {found} solutions")
            solution = checked_solution(puzzle, instance, encoding, result.model, backend.name, watch)
            found += 1
            if on_solution is not None:
                on_solution(solution)
            if found == limit:
                return found


def count_every_variant(puzzle: Puzzle, instance: Any, backend_name: str, timeout: float | None,
                        watch: Stopwatch, report: Report, list_first: bool = False,
                        **options: Any) -> tuple[dict[str, int], list[Solution]]:
    """Every count of ``puzzle.count_variants()`` (a tiling's solutions and its classes up to symmetry;
    dice's two players) under one time limit. The formulas are built here, one after the other, because
    their encodes share per-instance work (a tiling's pruning and corner anchoring: generated 50x50
    jigsaw, 10 s of CPU once instead of 17 s twice). The searches are independent, so each then runs in
    its own forked child at the same time, and the wall time is the slower one's rather than the sum
    (zhurgut_9x9, both counts with glucose4: 24-31 s against 45-48 s one after the other).

    Returns the counts by label and, with ``list_first``, the solutions of the first count. The
    children's phase times merge phase by phase as the longest, the wall time of that phase; the
    formula size is the first count's and ``solved_by`` lists every answering backend once."""
    deadline = Deadline(timeout)
    variants = puzzle.count_variants()
    kind = encoding_for(puzzle, None)
    _counting_backend(puzzle, backend_name, kind, list_first)  # refuse before the encodes, not after
    with watch.phase("encode"):
        built = [puzzle.encode(instance, kind, **variant, **options) for _, variant in variants]

    def one(number: int) -> tuple[int, list[Solution], dict[str, float], Report]:
        child_watch, child_report, listed = Stopwatch(), Report(report.puzzle, report.source, report.backend,
                                                                report.encoding, report.status), []
        found = count(puzzle, instance, backend_name, None, child_watch,
                      listed.append if list_first and number == 0 else None, report=child_report,
                      built=built[number])
        return found, listed, child_watch.times, child_report

    try:
        results = run_forked([partial(one, number) for number in range(len(variants))], deadline.left(),
                             backend_name)
    except SolverTimeout:  # name the limit the user gave, not what the encodes left of it
        raise SolverTimeout(backend_name, timeout or 0.0) from None
    for _, _, times, child_report in results:
        for phase, seconds in times.items():
            watch.times[phase] = max(watch.times.get(phase, 0.0), seconds)
        report.size = report.size or child_report.size
        report.solved_by.extend(name for name in child_report.solved_by if name not in report.solved_by)
    counts = {label: found for (label, _), (found, _, _, _) in zip(variants, results)}
    return counts, results[0][1]
