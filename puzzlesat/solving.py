"""The pipeline, written once for every puzzle: parse -> encode -> solve -> decode -> check.

A solution is reported only after the independent checker accepted it; uniqueness is claimed only when
the solver answered UNSAT with the first solution blocked.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from .backends.forking import run_forked
from .core.encoding import Encoding
from .core.errors import CheckFailed, PuzzlesatError, SolverTimeout
from .core.files import read_text
from .core.model import CnfModel, SmtModel
from .core.puzzle import Puzzle, Solution
from .core.result import Status
from .core.timing import Deadline, Stopwatch
from .proofs.certificate import Certificate
from .request import Request

if TYPE_CHECKING:
    from .formats.picture import Picture


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
    #: cube and conquer: per count label, the cubes' number, the refuted ones and the slowest cube times
    cubes: dict[str, Any] = field(default_factory=dict)
    #: under ``--certify``, per claim resting on an UNSAT answer (``unique``, ``optimal``, ``unsat``, a
    #: count's label), its checked proof, or None where the backend could not prove (best-effort)
    certificates: dict[str, Certificate | None] = field(default_factory=dict)
    #: draws a solution of this instance (the puzzle's ``picture``), so that a report shows itself in Jupyter
    draw: Callable[[Any], Picture] | None = field(default=None, repr=False, compare=False)

    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: the solution as the SVG picture ``--svg`` writes."""
        if self.solution is None or self.draw is None:
            return None
        from .formats.picture import to_svg

        return to_svg(self.draw(self.solution))

    def to_json(self) -> dict[str, Any]:
        return {"puzzle": self.puzzle, "source": self.source, "backend": self.backend,
                "encoding": self.encoding, "status": self.status, "answers": self.answers,
                "checked": self.checked, "solved_by": self.solved_by, "size": self.size,
                "times": {k: round(v, 6) for k, v in self.times.items()}} | ({"cubes": self.cubes} if self.cubes else {}) \
            | ({"certified": self.certified(),
                "certificates": {claim: cert.to_json() for claim, cert in self.certificates.items() if cert}}
               if self.certificates else {})

    def certified(self) -> dict[str, bool]:
        """Per claim under ``--certify``, whether its proof was checked (empty without --certify)."""
        return {claim: cert is not None for claim, cert in self.certificates.items()}

    def claim(self, request: Request, claim: str, certificate: Certificate | None) -> None:
        """Record what backs ``claim`` (an UNSAT answer) under ``--certify``; the proof's checking time
        moves from the ``solve`` phase, where the session spent it, to a ``certify`` phase of its own."""
        if request.certify is None:
            return
        if certificate is None and request.proving:
            raise CheckFailed(f"{request.backend.name}: an UNSAT answer came without its proof")
        self.certificates[claim] = certificate
        if certificate is not None:
            self.times["certify"] = self.times.get("certify", 0.0) + certificate.seconds
            self.times["solve"] = max(0.0, self.times.get("solve", 0.0) - certificate.seconds)


def load(puzzle: Puzzle[Any, Any, Any], path: str, watch: Stopwatch | None = None, text: str | None = None,
         **reading: Any) -> Any:
    """Read and parse one instance file (``-`` = stdin), or ``text`` already read from it (export and
    decode hash what they parse). ``reading`` holds the options that say how to read it (a rectangular
    jigsaw's rows and cols, amphipod's unfold); each puzzle accepts its own."""
    watch = watch or Stopwatch()
    for option in reading:
        if option not in puzzle.reading_options:
            flag = "--no-unfold" if option == "unfold" else f"--{option.replace('_', '-')}"
            raise PuzzlesatError(f"{flag} does not apply to {puzzle.name}")
    with watch.phase("parse"):
        return puzzle.parse(read_text(path) if text is None else text, path, **reading)


def checked_solution(puzzle: Puzzle[Any, Any, Any], instance: Any, encoding: Encoding, model: CnfModel | SmtModel,
                     backend: str, watch: Stopwatch) -> Solution:
    """Decode a model and run the independent checker; a violation means a wrong backend or encoding."""
    with watch.phase("decode"):
        solution: Solution = puzzle.decode(instance, encoding, model)
    with watch.phase("check"):
        problems = puzzle.check(instance, solution)
    if problems:
        raise CheckFailed(f"{backend} returned a solution that breaks the rules: {problems[0]}")
    return solution


def solve(request: Request, instance: Any, watch: Stopwatch | None = None) -> Report:
    """Solve one instance as the puzzle's task asks (a unique solution proven, an optimum proven, the
    universes counted, ...): every reported solution has passed the independent checker."""
    return request.puzzle.task.solve(request, instance, watch or Stopwatch())


def _report(request: Request, instance: Any, encoding: Encoding, watch: Stopwatch, backend: str = "") -> Report:
    """A report of ``request`` on ``instance``, status still unknown."""
    return Report(request.puzzle.name, getattr(instance, "source", ""), backend or request.backend.name,
                  request.encoding, "UNKNOWN", size=encoding.size(), times=watch.times,
                  draw=partial(request.puzzle.picture, instance))


def solve_satisfying(request: Request, instance: Any, unique: bool, watch: Stopwatch) -> Report:
    """A checked solution; with ``unique``, a second search with the first solution blocked proves it
    unique (UNSAT) or refutes it (a second checked solution)."""
    puzzle, backend = request.puzzle, request.backend
    request.require_solving()
    if unique:
        backend.require("enumerate")
    deadline = Deadline(request.timeout)
    with watch.phase("encode"):
        encoding = puzzle.encode(instance, request.encoding, request.options)
    report = _report(request, instance, encoding, watch)
    with watch.phase("solve"):
        session = backend.open(encoding)
    with session, closing(session.models(deadline.left())) as results:  # a second model disproves uniqueness
        with watch.phase("solve"):
            first = next(results)
        report.status = first.status.value
        report.solved_by.append(first.backend)
        if first.status == Status.UNSAT:
            report.claim(request, "unsat", first.certificate)
        if first.status != Status.SAT or first.model is None:
            return report
        report.solution = checked_solution(puzzle, instance, encoding, first.model, backend.name, watch)
        report.checked = True
        report.answers = dict(report.solution.answers())
        if unique:
            with watch.phase("solve"):
                second = next(results)
            report.solved_by.append(second.backend)
            if second.status == Status.SAT and second.model is not None:
                checked_solution(puzzle, instance, encoding, second.model, backend.name, watch)
            if second.status == Status.UNSAT:
                report.claim(request, "unique", second.certificate)
            report.answers["unique"] = {Status.UNSAT: True, Status.SAT: False}.get(second.status)
    return report


def solve_optimum(request: Request, instance: Any, watch: Stopwatch) -> Report:
    """Optimise with the request's method; the checker replays the decoded plan and must find the proven cost."""
    from .optimize import optimize

    puzzle, method = request.puzzle, request.method or "rc2"
    with watch.phase("encode"):
        encoding = puzzle.encode(instance, request.encoding, request.options)
    report = _report(request, instance, encoding, watch, f"{request.backend.name} ({method})")
    with watch.phase("solve"):
        optimum = optimize(encoding, method, request.backend, request.timeout, certify=request.proving)
    report.status = optimum.status.value
    report.solved_by.append(optimum.solved_by or request.backend.name)
    report.claim(request, "optimal" if optimum.status == Status.SAT else "unsat", optimum.certificate)
    if optimum.status != Status.SAT or optimum.model is None:
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


def _counting_backend(request: Request, listing: bool) -> bool:
    """Whether the request's backend counts exactly (capability ``count``) rather than by enumeration;
    refuses what cannot work, before anything is encoded."""
    backend = request.backend
    exact = "count" in backend.capabilities
    if exact and listing:
        raise PuzzlesatError(f"{backend.name} counts without listing solutions: choose an enumerating backend")
    if not exact:
        request.require_solving()
        backend.require("enumerate")
    return exact


def count(request: Request, instance: Any, watch: Stopwatch | None = None,
          on_solution: Callable[[Solution], None] | None = None, limit: int | None = None,
          report: Report | None = None, built: Encoding | None = None, claim: str = "solutions") -> int:
    """Count solutions projected on the encoding's ``show`` set: with an exact counter (capability
    ``count``, e.g. ganak) in one call; otherwise by enumeration: solve, check, block, repeat until UNSAT.
    Every counted solution has passed the checker; the final UNSAT is what makes the count exact.
    With ``limit``, stop once that many are found (the result then means "at least ``limit``").
    ``report``, when given, receives the size of the first formula counted into it and every backend
    that answered (a portfolio's winners), so ``count --json`` says what was solved and by whom.
    ``built`` is the encoding when the caller has made it already (see :func:`count_every_variant`).
    Under ``--certify`` the report's certificate for ``claim`` is the last search's checked proof: it
    refutes the formula with every blocking clause added, so no solution was left uncounted."""
    watch = watch or Stopwatch()
    puzzle, backend = request.puzzle, request.backend
    exact = _counting_backend(request, on_solution is not None or limit is not None)
    deadline = Deadline(request.timeout)
    with watch.phase("encode"):
        encoding = built if built is not None else puzzle.encode(instance, request.encoding, request.options)
    _record(report, encoding, backend.name if exact else None)
    if exact:
        with watch.phase("solve"):
            total = backend.count(encoding, request.timeout)
        if report is not None:
            report.claim(request, claim, None)
        return total
    found = 0
    with watch.phase("solve"):
        session = backend.open(encoding)
    with session, closing(session.models(deadline.left())) as results:
        while True:
            with watch.phase("solve"):
                result = next(results)
            _record(report, encoding, result.backend)
            if result.status == Status.UNSAT:
                if report is not None:
                    report.claim(request, claim, result.certificate)
                return found
            if result.status != Status.SAT or result.model is None:
                raise CheckFailed(f"{backend.name} gave no answer ({result.status.value}) after {found} solutions")
            solution = checked_solution(puzzle, instance, encoding, result.model, backend.name, watch)
            found += 1
            if on_solution is not None:
                on_solution(solution)
            if found == limit:
                return found


def count_every_variant(request: Request, instance: Any, watch: Stopwatch, report: Report,
                        list_first: bool = False, limit: int | None = None) -> tuple[dict[str, int], list[Solution]]:
    """Every count of ``puzzle.count_variants()`` (a tiling's solutions and its classes up to symmetry;
    dice's two players) under the request's time limit. The formulas are built here, one after the
    other, because their encodes share per-instance work (a tiling's pruning and corner anchoring:
    generated 50x50 jigsaw, 10 s of CPU once instead of 17 s twice). The searches are independent, so
    each then runs in its own forked child at the same time, and the wall time is the slower one's
    rather than the sum (zhurgut_9x9, both counts with glucose4: 24-31 s against 45-48 s one after the
    other).

    Returns the counts by label and, with ``list_first``, the solutions of the first count. The
    children's phase times merge phase by phase as the longest, the wall time of that phase; the
    formula size is the first count's and ``solved_by`` lists every answering backend once."""
    puzzle = request.puzzle
    deadline = Deadline(request.timeout)
    variants = puzzle.count_variants(request.options)
    _counting_backend(request, list_first or limit is not None)  # refuse before the encodes, not after
    with watch.phase("encode"):
        built = [puzzle.encode(instance, request.encoding, options) for _, options in variants]

    def one(number: int) -> tuple[int, list[Solution], dict[str, float], Report]:
        child_watch, listed = Stopwatch(), list[Solution]()
        child_report = Report(report.puzzle, report.source, report.backend, report.encoding, report.status,
                              times=child_watch.times)
        found = count(replace(request, options=variants[number][1], timeout=None), instance, child_watch,
                      listed.append if list_first and number == 0 else None, limit=limit, report=child_report,
                      built=built[number], claim=variants[number][0])
        return found, listed, child_watch.times, child_report

    try:
        results = run_forked([partial(one, number) for number in range(len(variants))], deadline.left(),
                             request.backend.name)
    except SolverTimeout:  # name the limit the user gave, not what the encodes left of it
        raise SolverTimeout(request.backend.name, request.timeout or 0.0) from None
    for _, _, times, child_report in results:
        for phase, seconds in times.items():
            watch.times[phase] = max(watch.times.get(phase, 0.0), seconds)
        report.size = report.size or child_report.size
        report.certificates.update(child_report.certificates)
        report.solved_by.extend(name for name in child_report.solved_by if name not in report.solved_by)
    counts = {label: found for (label, _), (found, _, _, _) in zip(variants, results)}
    return counts, results[0][1]
