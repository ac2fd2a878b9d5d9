"""What a puzzle asks for, as a strategy object the puzzle holds: its *task*, the one implementation of
``solve``, ``count``, the cross-check's methods and the reference's answers for that kind of question.

Every surface (the command line, the Python API, ``crosscheck``, ``bench``, ``count --cubes``, the
executors) calls the task and decides nothing again. Two tasks are general and live here:

- :class:`Satisfy`: find a checked solution and, where the puzzle promises one solution, prove it
  unique (a second search that must be UNSAT); count by enumeration or an exact counter;
- :class:`Optimize`: a proven optimum by one of :data:`~.optimize.METHODS`; counting is refused.

A puzzle with a mode of its own brings its task in its own package (dice: ``encoders/dice/task.py``).
:func:`solve` and :func:`count` at the bottom are what the surfaces call.
"""
from __future__ import annotations

import os
import shutil
import time
from abc import ABC, abstractmethod
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from ..backends import DEFAULT_BACKEND, Backend, available_backends, get_backend
from ..backends.base import Capability, report_statistics
from ..backends.counter import CounterBackend
from ..backends.forking import HAND_BACK, first_forked, run_forked
from ..core.errors import BackendError, CheckFailed, NotApplicable, PuzzlesatError, SolverTimeout
from ..core.options import EncoderOptions
from ..core.puzzle import Puzzle, Searched, Solution
from ..core.reporting import progress_slot, report_phase
from ..core.result import Status
from ..core.timing import Deadline, Stopwatch, since_start
from ..core.weights import weighted_label
from .report import NO_BACKEND, Claims, Report, answered
from .request import Request, encoding_for
from .satisfy import solve_satisfying
from .steps import Tally, checked_solution, count_formula, cue_at, refuse_uncountable
from .stop import STOPPING, Stop

if TYPE_CHECKING:
    from collections.abc import Callable

    from .crosscheck import Method, Outcome, Row
    from .executors import Executor

# the cross-check's modules (.crosscheck, .plans) and the optimisation methods (.optimize) are imported
# where they are used: a plain solve or count does not pay for them (tests/test_startup.py)


class Cubing(NamedTuple):
    """``count --cubes``: split each count into cubes ``depth`` splits deep (None: automatic) and count
    them on ``executor``, each cube under the request's time limit."""

    depth: int | None
    executor: Executor


#: the outside SAT solvers a formula file's cross-check runs when they are on the PATH (Debian packages
#: them all): each reads the file with its own reader
OUTSIDE_SAT_SOLVERS = ("kissat", "cadical", "picosat", "minisat", "cryptominisat5")


class Task(ABC):
    """One mode of solving: how a request is resolved, how ``solve`` answers, what ``count`` counts,
    which methods ``crosscheck`` compares and on which backends, and what the reference answers."""

    #: command-line options that apply to this task (``method``, ``steps``, ``player``); others are refused
    options: frozenset[str] = frozenset()
    #: solutions asked of the reference: 2 where uniqueness is part of the answer
    reference_limit: int = 1
    #: ``count`` and the reference's ``limit=None`` list solutions, so their numbers can be compared
    counts_solutions: bool = False

    def refuse_options(self, puzzle: Puzzle[Any, Any, Any], **given: Any) -> None:
        """A one-line error for an option set on the command line that this task does not take."""
        for name, value in given.items():
            if value and name not in self.options:
                raise PuzzlesatError(f"--{name} does not apply to {puzzle.name}")

    @staticmethod
    def backend_for(puzzle: Puzzle[Any, Any, Any], backend: str | None) -> Backend:
        """The backend named, else the puzzle's measured fastest, else the toolkit's default."""
        return get_backend(backend or puzzle.default_backend or DEFAULT_BACKEND)

    def request(self, puzzle: Puzzle[Any, Any, Any], backend: str | None, encoding: str | None,
                options: EncoderOptions, deadline: Deadline, method: str | None) -> Request:
        """The request with this task's defaults: :meth:`backend_for` and the puzzle's first encoding."""
        self.refuse_options(puzzle, method=method)
        return Request(puzzle, self.backend_for(puzzle, backend), encoding_for(puzzle, encoding), options, deadline,
                       race_search=backend is None)

    def solve(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        """The checked answers of one instance (see the subclasses for what is proven); an instance of
        independent parts part by part, each part's status in the report (:mod:`.parts`)."""
        parts = request.puzzle.parts(instance)
        if not parts:
            return _with_reading_notes(request, instance, self.solve_whole(request, instance, watch))
        from .parts import solve_by_parts

        return _with_reading_notes(request, instance, solve_by_parts(self.solve_whole, request, instance, parts, watch))

    @abstractmethod
    def solve_whole(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        """:meth:`solve` on an instance that is one whole."""

    def count(self, request: Request, instance: Any, watch: Stopwatch, listing: bool = False,
              limit: int | None = None, on_solution: Callable[[Solution], None] | None = None,
              cubes: Cubing | None = None, executor: Executor | None = None) -> Report:
        """Every count of ``puzzle.count_variants()``, as a report whose answers are the counts by label:
        in one search each (forked side by side), each stopped at ``limit`` when given, the first one's
        solutions kept with ``listing``; with ``on_solution``, only the first count, here, each solution
        passed on as it is found; with ``cubes``, by cube and conquer; with ``executor`` alone, by the
        puzzle's own search, its parts run as the executor's tasks."""
        if cubes is not None:
            return self._count_by_cubes(request, instance, watch, listing or limit is not None, cubes)
        if executor is not None:
            return self._count_by_search_on(request, instance, watch, listing or limit is not None
                                            or on_solution is not None, executor)
        refuse_uncountable(request, listing or limit is not None or on_solution is not None)
        if (request.race_search and not (listing or limit is not None or on_solution or request.certify)
                and request.options == request.puzzle.options()):
            return _count_raced(self, request, instance, watch)
        variants = request.puzzle.count_variants(request.options)[:1 if on_solution else None]
        with watch.phase("encode"):  # one after the other: the encodes share per-instance work
            built = [request.puzzle.encode(instance, request.encoding, options) for _, options in variants]
        claims = Claims(request, watch)
        listed: list[Solution] = []
        if on_solution is not None:
            label = variants[0][0]
            tallies = [count_formula(request, instance, built[0], watch, claims, label, on_solution, limit)]
        else:
            tallies = _count_side_by_side(request, instance, watch, claims, variants, built, listed if listing else None,
                                          limit)
        counts: dict[str, Any] = {label: tally.found for (label, _), tally in zip(variants, tallies)}
        counts |= {weighted_label(label): tally.weight for (label, _), tally in zip(variants, tallies)
                   if tally.weight is not None}
        solved_by = tuple(dict.fromkeys(name for tally in tallies for name in tally.solved_by))
        stop = next((tally.stop for tally in tallies if tally.stop is not None), None)
        if stop is not None:  # side by side, the counts stopped at one deadline may bound one another
            counts = request.puzzle.lower_bounds(instance, counts)
        return _count_report(request, instance, watch, counts, tallies[0].size, solved_by, claims,
                             request.backend.counting if request.exact_count else "enumeration",
                             limit is None or all(found < limit for found in counts.values()), tuple(listed), stop)

    def _count_by_cubes(self, request: Request, instance: Any, watch: Stopwatch, listing: bool,
                        cubes: Cubing) -> Report:
        from .cubes import count_variants_by_cubes

        if request.certify:
            raise PuzzlesatError("--cubes counts cube by cube, each ending in its own UNSAT answer: --certify "
                                 "checks the proof of one search, so count without --cubes")
        if listing:
            raise PuzzlesatError("--cubes counts cube by cube: --list and --limit count in one search")
        refuse_uncountable(request, False)
        with watch.phase("solve"):
            counted = count_variants_by_cubes(request, instance, cubes.depth, cubes.executor, request.deadline.seconds)
        engine = cubes.executor
        shape = {label: {"executor": engine.name, "workers": engine.workers, "cubes": len(cubed.cubes),
                         "refuted": cubed.refuted, "split_seconds": round(cubed.split_seconds, 4),
                         "seconds": [round(t, 4) for t in cubed.seconds],
                         "slowest": [{"seconds": round(t, 4), "cube": list(cube)} for t, cube in cubed.slowest()]}
                 | ({"finished": len(cubed.cubes) - len(cubed.unfinished()),
                     "unfinished": [list(cube) for cube in cubed.unfinished()]} if cubed.stop else {})
                 | ({"split_stopped": True} if cubed.split_stopped else {})
                 for label, (_, cubed) in counted.items()}
        stop = next((cubed.stop for _, cubed in counted.values() if cubed.stop is not None), None)
        report = _count_report(request, instance, watch, {label: total for label, (total, _) in counted.items()},
                               {}, (), Claims(request, watch), "cube and conquer", True, (), stop)
        return replace(report, cubes=shape)

    def _count_by_search_on(self, request: Request, instance: Any, watch: Stopwatch, listing: bool,
                            executor: Executor) -> Report:
        """The puzzle's own search, its parts on ``executor``: the method a cluster speeds up most, so
        it is not raced (a race's other method would hold a core here for nothing)."""
        refuse_search_on_executor(request, listing)
        report_phase("solve")
        with watch.phase("search"):
            searched = request.puzzle.search_count(instance, executor=executor, until=request.deadline)
        assert searched is not None, "a puzzle with its own search answers it without seconds"
        return _searched_report(request, instance, watch, Searched(*searched))

    def reference(self, request: Request, instance: Any) -> Outcome:
        """The solver-free method's answers (a cross-check's yardstick, bench's baseline): its first
        solution, checked, and, where uniqueness is part of the answer, whether it is the only one. A
        reference that refuses the input by design (:class:`NotApplicable`) is SKIPPED, with why. An
        instance of independent parts is answered part by part, as :meth:`solve` answers it."""
        parts = request.puzzle.parts(instance)
        if not parts:
            return self._reference_whole(request, instance)
        from .parts import joined_outcome

        return joined_outcome([(label, self._reference_whole(request, part)) for label, part in parts])

    def _reference_whole(self, request: Request, instance: Any) -> Outcome:
        puzzle, unique = request.puzzle, self.reference_limit > 1
        try:
            solutions = puzzle.reference(instance, self.reference_limit, request.options)
        except NotApplicable as exc:
            return "SKIPPED", None, str(exc)
        if not solutions:
            return "UNSAT", {}, ""
        problems = puzzle.check(instance, solutions[0])
        if problems:
            return "SAT", None, f"checker rejected: {problems[0]}"
        answers = dict(solutions[0].answers())
        if unique:
            answers["unique"] = len(solutions) == 1
        return "SAT", answers, ""

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any, Any]) -> list[str]:
        """The backends a cross-check runs when none are named: every available one that can take one
        of the puzzle's encodings, and on a formula file the outside SAT solvers on the PATH too (given
        the file itself, they read it without puzzlesat's reader)."""
        wanted = {Capability.SAT if puzzle.formula_kind(kind) == "cnf" else Capability.SMT for kind in puzzle.encodings}
        names = [b.name for b in available_backends() if b.capabilities & wanted]
        if puzzle.solvers_independent:
            names += [f"external:{binary}" for binary in OUTSIDE_SAT_SOLVERS if shutil.which(binary)]
        return names

    def plan_crosscheck(self, request: Request, instance: Any, backends: list[str], by_count: bool = False) -> list[Method]:
        """The methods of a cross-check of the answers, the reference first; ``request`` carries the
        encoder options every method shares. With ``by_count`` (or for a puzzle whose solve returns one
        of several solutions), the solution counts are compared."""
        from .plans import plan_counts

        puzzle = request.puzzle
        if by_count or puzzle.crosscheck_by_count:
            if not self.counts_solutions:
                raise PuzzlesatError(f"{puzzle.name} has no solution count to compare")
            return plan_counts(request, instance, backends, partial(_counts_of, self))
        return self.plan_answers(request, instance, backends)

    @abstractmethod
    def plan_answers(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        """The methods of a cross-check of the answers ``solve`` gives."""


def _counts_of(task: Task, request: Request, instance: Any) -> Report:
    return task.count(request, instance, Stopwatch())


#: how much lower the enumeration's priority is than the search's in a race: the search answered 172 of
#: 200 random jigs (bench/jig_family.py), and its compiled parts lost half the cores to the enumeration
#: on the largest (zhurgut_13x9: 27 s raced, 13 s alone); the enumeration still runs on what is left.
#: Against an exact counter, the enumeration gives way once it has found MANY_SOLUTIONS
RACE_NICENESS = 5
#: how long a raced solve runs alone before the puzzle's own search joins (:func:`_solve_raced`): the
#: bundled jigs that the quick search leaves are solved by SAT within it (zhurgut_13x9: 1.3 s in process)
SOLVE_HEAD_START = 1.5
#: how long the puzzle's own search runs alone before the race starts: the family's median jig takes
#: the plain search 12 ms, and a race's forks cost about 25 ms more
QUICK_SEARCH = 0.05
#: how long the enumeration runs alone, at most, before an exact counter joins the race: a count of up to
#: about a thousand solutions ends within it, and pays for no counter; a longer one keeps its work
#: (bench/count_family.py)
QUICK_ENUMERATION = 0.25
#: how many solutions the enumeration finds before an exact counter joins the race at once, its head start
#: cut short: a count that large is seldom done before a counter is (D4 answers CNFgen's formulas in
#: 0.08-0.2 s), and a counter that waited for 100 solutions left the default 1.24-1.39x behind `-b d4`
#: there, where 25 left it 1.16-1.25x (design notes, session 35). Fewer solutions than this are never
#: raced within the head start, so a small count is answered by the enumeration alone, the same way every
#: run (a head start of 0.1 s instead was tried: a count of 90 solutions then raced a counter on a loaded
#: machine)
MANY_SOLUTIONS = 25
#: the exact counters a count may race against the enumeration, the first available that takes the
#: formula. D4 counts every model, so it takes only an encoding whose shown variables determine the rest
#: (a formula file with no projection; it refuses aquarium's); where it does, it was the faster, and it is
#: exact: CNFgen's pigeonhole 7, parity 10-16, matchings and random 3-SAT took it 0.10-25 s, Ganak
#: 0.13-29 s (parity 14: 2.0 s against 21.6 s). Ganak counts projected on the shown variables, so it
#: takes every other encoding
EXACT_COUNTERS = ("d4", "ganak", "frontier")


def has_own_search(puzzle: Puzzle[Any, Any, Any]) -> bool:
    """Whether the puzzle declares a solver-free search of its own (:meth:`Puzzle.search_count`)."""
    return type(puzzle).search_count is not Puzzle.search_count


def refuse_search_on_executor(request: Request, listing: bool) -> None:
    """A one-line error where ``count --executor`` without ``--cubes`` cannot run the puzzle's own
    search: the puzzle has none, or the count asks for what only a formula's count gives."""
    puzzle = request.puzzle
    if not has_own_search(puzzle):
        raise PuzzlesatError(f"--executor runs the cubes of --cubes, or the parts of a puzzle's own search, which "
                             f"{puzzle.name} has not: give --cubes DEPTH too")
    if not request.race_search or request.certify or listing or request.options != puzzle.options():
        raise PuzzlesatError("--executor without --cubes runs the puzzle's own search, which counts with its default "
                             "options and no --backend, --certify, --list or --limit: give --cubes DEPTH to count "
                             "a formula on the executor")


def _count_raced(task: Task, request: Request, instance: Any, watch: Stopwatch) -> Report:
    """A count with no backend named, by the method that fits, found by racing the ones that may: the
    puzzle's own search where it has one (jig; alone for QUICK_SEARCH first) against the enumeration;
    otherwise the enumeration (with a head start of QUICK_ENUMERATION, cut short at MANY_SOLUTIONS:
    few solutions) against an exact counter (many). Each runs in a forked child, and the first to finish
    answers; they share no code, so the answer is the same whichever wins, and the report's
    ``counted_by`` and ``raced`` say which won and what it raced. (A jig's search is its compiled
    counter; a third racer would take a core from it.)"""
    puzzle = request.puzzle
    alone = replace(request, race_search=False)
    if has_own_search(puzzle):
        with watch.phase("search"):  # most searches end in milliseconds: no race (and no fork) for them
            quick = puzzle.search_count(instance, QUICK_SEARCH)
        if quick is not None:
            return _searched_report(request, instance, watch, Searched(*quick))
        return _race(request, instance, watch, [_by_count(task, alone, instance, niced=True),
                                                _by_search(request, instance)], counting=True)
    with watch.phase("encode"):  # a counter is chosen by the encodings it takes
        counter = _exact_counter(request, instance)
    if counter is None:
        return task.count(alone, instance, watch)
    cue, told = os.pipe()  # the enumeration's word that it has found MANY_SOLUTIONS
    try:
        return _race(request, instance, watch, [_by_count(task, alone, instance, cue=told),
                                                _by_count(task, replace(alone, backend=counter), instance)],
                     head_start=QUICK_ENUMERATION, cue=cue, counting=True)
    finally:
        os.close(cue)
        os.close(told)


def _exact_counter(request: Request, instance: Any) -> Backend | None:
    """The first of EXACT_COUNTERS that works here and takes the request's formulas (a weighted formula:
    one that counts weights exactly); None for none."""
    if request.formula_kind != "cnf":
        return None
    built: list[Any] = []
    for name in EXACT_COUNTERS:
        counter = get_backend(name)
        if not isinstance(counter, CounterBackend) or counter.missing() is not None:
            continue
        built = built or [request.puzzle.encode(instance, request.encoding, options)
                          for _, options in request.puzzle.count_variants(request.options)]
        if not counter.weighs and any(encoding.weights is not None for encoding in built):
            continue
        try:
            for encoding in built:
                counter.accept(encoding)
        except BackendError:
            continue
        return counter
    return None


class _Racer(NamedTuple):
    """One method of a raced count: how the report names it, and the count it makes in a forked child."""

    name: str
    run: Callable[[], Report]


def _by_count(task: Task, request: Request, instance: Any, niced: bool = False, cue: int | None = None) -> _Racer:
    """The task's count on the request's backend: an enumeration, or an exact counter's count. An
    enumeration with a ``cue`` writes to it once it has found MANY_SOLUTIONS, and gives way to the
    counter then (RACE_NICENESS)."""
    def run() -> Report:
        if niced:
            os.nice(RACE_NICENESS)
        if cue is not None:
            cue_at(MANY_SOLUTIONS, cue, RACE_NICENESS)
        # stopped, it answers with what it had, in time to hand it back
        report = task.count(request.within(request.deadline.sooner(HAND_BACK)), instance, Stopwatch())
        return replace(report, draw=None)  # drawn by the parent (a function does not cross the pipe)

    return _Racer(f"{'exact count' if request.exact_count else 'enumeration'} on {request.backend.name}", run)


def _by_search(request: Request, instance: Any) -> _Racer:
    """The puzzle's own solver-free search, past QUICK_SEARCH (so it may go compiled)."""
    def run() -> Report:
        progress_slot(2)  # beside the enumeration's two side-by-side counts
        searching = Stopwatch()
        with searching.phase("search"):
            searched = request.puzzle.search_count(instance)
        assert searched is not None, "raced only when the puzzle has a search"
        return replace(_searched_report(request, instance, searching, Searched(*searched)), draw=None)

    return _Racer("the puzzle's own search", run)


def _race(request: Request, instance: Any, watch: Stopwatch, racers: list[_Racer], head_start: float = 0.0,
          cue: int | None = None, counting: bool = False) -> Report:
    """The first racer's report, with the parent's times and picture, and what it raced (the first
    racer alone for ``head_start`` seconds, or until it writes to ``cue``: see
    :func:`~puzzlesat.backends.forking.first_forked`; one that answered alone raced nobody, and its
    report says so). Stopped by the deadline or a signal, the racers answer with what they had, and
    the one that had found the most is the report: it names the method that was making progress. A
    ``counting`` race stopped before any racer found anything is a report too (every count 0, UNKNOWN,
    stopped), as a count on one backend is: the record a stopped count always leaves."""
    report_phase("solve")
    started = time.monotonic()
    try:
        _, report, raced = first_forked([racer.run for racer in racers], request.deadline, request.backend.name,
                                        head_start, [racer.name for racer in racers], found=_lower_bound, cue=cue)
    except STOPPING as stopped:  # no racer had anything to hand back
        stop: PuzzlesatError = stopped
        if isinstance(stop, SolverTimeout):  # named after every racer: the limit message says none answered
            stop = SolverTimeout(" and ".join(racer.name for racer in racers), request.deadline.seconds or 0.0)
        if not counting:
            raise stop from None
        # a count stopped before its first solution: a record all the same, nothing found (UNKNOWN)
        counts = {label: 0 for label, _ in request.puzzle.count_variants(request.options)}
        report = _count_report(request, instance, Stopwatch(), counts, {}, (), Claims(request, watch), "enumeration",
                               False, (), Stop.of(stop, since_start(started)))
        raced = True
    watch.times.update(report.times)
    # the race's own time: the head start a later racer waited, the forks, the answer handed back (a count
    # of 16,488 models ran 5.7 s and said solve 1.85 s, decode 0.22 s, check 0.17 s)
    beyond = time.monotonic() - started - sum(report.times.values())
    if beyond > 0.0005:
        watch.times["race"] = watch.times.get("race", 0.0) + beyond
    return replace(report, times=watch.times, draw=partial(request.puzzle.picture, instance),
                   raced=tuple(racer.name for racer in racers) if raced else ())


def _solve_raced(request: Request, instance: Any, watch: Stopwatch) -> Report:
    """A first solution by the puzzle's own search (alone for QUICK_SEARCH, where most jigs are
    answered), else by whichever finishes first of it and the backend's solve, each in a forked child.
    Neither method is always the faster: a jig of many tab types is a large formula that the search
    walks quickly (a generated 20x20 of 25 types: 30 s by SAT, 1.1 s by the search), and zhurgut_13x9
    is solved by SAT in 1.4 s where the search needs most of its 21 s count. The solve runs alone for
    SOLVE_HEAD_START first: beside the search, its encode took 30% longer."""
    puzzle = request.puzzle
    with watch.phase("search"):
        quick = puzzle.search_solution(instance, QUICK_SEARCH)
    if quick is not None:
        return _found_report(request, instance, watch, *quick)
    alone = replace(request, race_search=False)

    def solving() -> Report:
        report = solve_satisfying(alone.within(alone.deadline.sooner(HAND_BACK)), instance, False, Stopwatch())
        return replace(report, draw=None)  # drawn by the parent (a function does not cross the pipe)

    def searching() -> Report:
        searched = Stopwatch()
        with searched.phase("search"):
            found = puzzle.search_solution(instance)
        assert found is not None, "raced only when the puzzle has a search"
        return replace(_found_report(request, instance, searched, *found), draw=None)

    return _race(request, instance, watch, [_Racer(f"solve on {request.backend.name}", solving),
                                            _Racer("the puzzle's own search", searching)], head_start=SOLVE_HEAD_START)


def _found_report(request: Request, instance: Any, watch: Stopwatch, solution: Solution | None, method: str) -> Report:
    """The report of what the puzzle's own search found: its first solution (checked by the search),
    or none when it ended without one; no formula, no solver (its backend :data:`NO_BACKEND`)."""
    status = Status.SAT if solution is not None else Status.UNSAT
    return Report(request.puzzle.name, getattr(instance, "source", ""), NO_BACKEND, request.encoding, status,
                  solution, dict(solution.answers()) if solution is not None else {}, checked=solution is not None,
                  times=watch.times, solved_by=(method,), draw=partial(request.puzzle.picture, instance))


def _lower_bound(report: Report) -> int | None:
    """A raced count's first number when its racer was stopped before its end (what the race keeps
    the most of), None for a whole answer."""
    return next(iter(report.answers.values()), 0) if report.stopped is not None else None


def _searched_report(request: Request, instance: Any, watch: Stopwatch, searched: Searched) -> Report:
    """The report of counts made by the puzzle's own search: no formula, no solver (its backend
    :data:`NO_BACKEND`), every solution checked, unless the search counted without listing them."""
    report = _count_report(request, instance, watch, searched.counts, {}, (searched.method,), Claims(request, watch),
                           searched.method, True, ())
    return replace(report, backend=NO_BACKEND, checked=searched.checked)


def _count_side_by_side(request: Request, instance: Any, watch: Stopwatch, claims: Claims,
                        variants: tuple[tuple[str, Any], ...], built: list[Any], listed: list[Solution] | None,
                        limit: int | None) -> list[Tally]:
    """Each formula counted in its own forked child at the same time, so the wall time is the slower
    search's rather than the sum (zhurgut_9x9, both counts with glucose4: 24-31 s against 45-48 s one
    after the other). The children's phase times merge phase by phase as the longest, the wall time of
    that phase; ``listed`` receives the first count's solutions. Each child stops by itself at the
    deadline or a signal and hands back what it had found (the parent gives it ``SETTLE`` to)."""
    deadline = request.deadline

    def one(number: int) -> tuple[Tally, list[Solution], dict[str, float], dict[str, Any]]:
        progress_slot(number)
        child_watch, child_listed = Stopwatch(), list[Solution]()
        # stops with what it had found in time to hand it back
        child = replace(request, options=variants[number][1]).within(deadline.sooner(HAND_BACK))
        child_claims = Claims(child, child_watch)
        keep = child_listed.append if listed is not None and number == 0 else None
        tally = count_formula(child, instance, built[number], child_watch, child_claims, variants[number][0], keep,
                              limit)
        return tally, child_listed, child_watch.times, child_claims.certificates

    report_phase("solve")  # the children's phases do not reach the worker; the times are theirs, below
    started, before = time.monotonic(), sum(watch.times.values())
    try:
        results = run_forked([partial(one, number) for number in range(len(variants))], deadline,
                             request.backend.name, settle=True)
    except SolverTimeout:  # name the limit the user gave, not what the encodes left of it
        raise SolverTimeout(request.backend.name, deadline.seconds or 0.0) from None
    for tally, _, times, certificates in results:
        report_statistics(tally.statistics)  # the children, which do not report, counted them
        for phase, seconds in times.items():
            watch.times[phase] = max(watch.times.get(phase, 0.0), seconds)
        claims.merge(certificates)
    # what the children's phases leave of the wall time: the forks, and the counts and solutions handed back
    beyond = time.monotonic() - started - (sum(watch.times.values()) - before)
    if beyond > 0.0005:
        watch.times["forks"] = watch.times.get("forks", 0.0) + beyond
    if listed is not None:
        listed.extend(results[0][1])
    return [tally for tally, _, _, _ in results]


def _count_report(request: Request, instance: Any, watch: Stopwatch, counts: dict[str, int], size: dict[str, int],
                  solved_by: tuple[str, ...], claims: Claims, counted_by: str, complete: bool,
                  listed: tuple[Solution, ...], stop: Stop | None = None) -> Report:
    """A count's report: the counts by label; checked when every counted solution passed the checker.
    A count that was ``stop``-ped before its end is a lower bound (its status UNKNOWN when it had found
    nothing: no solution found is not no solution)."""
    first = next(iter(counts.values()), 0)
    status = Status.UNKNOWN if stop is not None and not first else answered(first)
    return Report(request.puzzle.name, getattr(instance, "source", ""), request.backend.name, request.encoding,
                  status, answers=counts, checked=not request.exact_count, size=size,
                  times=watch.times, solved_by=solved_by, certificates=claims.certificates, counted_by=counted_by,
                  complete=complete and stop is None, solutions=listed, draw=partial(request.puzzle.picture, instance),
                  noticed=request.puzzle.reading_notes(instance), stopped=stop)


def _with_reading_notes(request: Request, instance: Any, report: Report) -> Report:
    """``report`` with what the puzzle's reader noticed in the file first among its warnings, whatever
    the answer (an UNSAT answer too)."""
    notes = request.puzzle.reading_notes(instance)
    return replace(report, noticed=notes + report.noticed) if notes else report


class Satisfy(Task):
    """A checked solution; with ``unique``, also the proof that there is no other one. ``solving`` holds
    encoder options for finding one solution, used where the request leaves them ``None`` (a tiling
    breaks symmetry to solve, though its counts and exports keep every solution); the reference answers
    under the same options. ``up_to`` says what uniqueness is counted up to (a jigsaw: the symmetries
    ``solving`` breaks). With ``assumed``, the puzzle's answers rest on there being one solution, so a
    second one is a warning that names its answers (a jigsaw's corners and monsters belong to one
    assembly)."""

    counts_solutions = True

    def __init__(self, unique: bool = False, solving: dict[str, object] | None = None, up_to: str = "",
                 assumed: bool = False) -> None:
        self.unique = unique
        self.reference_limit = 2 if unique else 1
        self.solving = solving or {}
        self.up_to = up_to
        self.assumed = assumed

    def _solving(self, request: Request) -> Request:
        """The request with :attr:`solving`'s options where it leaves them unset."""
        unset = {name: value for name, value in self.solving.items() if getattr(request.options, name) is None}
        return replace(request, options=replace(request.options, **unset))

    def solve_whole(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        """A solution from the backend; with no backend named, raced against the puzzle's own search
        where it has one (:func:`_solve_raced`), unless the request asks what only the formula
        answers (uniqueness, --forced, --certify) or for other encoder options."""
        solving = self._solving(request)
        puzzle = request.puzzle
        if (request.race_search and not (self.unique or request.forced or request.certify)
                and type(puzzle).search_solution is not Puzzle.search_solution
                and solving.options == puzzle.options(**self.solving)):
            return _solve_raced(solving, instance, watch)
        return solve_satisfying(solving, instance, self.unique, watch, self.up_to if self.assumed else None)

    def _reference_whole(self, request: Request, instance: Any) -> Outcome:
        return super()._reference_whole(self._solving(request), instance)

    def plan_answers(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        from .plans import plan_solutions

        return plan_solutions(request, instance, backends, self.solve, self.reference)


class Optimize(Task):
    """A proven optimum. ``method`` is the default optimisation method on CNF encodings (SMT ones use
    Z3 Optimize); ``tuned`` names, per encoding, the method and backend measured fastest on it, used
    when the command line chooses neither."""

    options = frozenset({"method", "steps"})

    def __init__(self, method: str, tuned: dict[str, tuple[str, str]] | None = None) -> None:
        self.method = method
        self.tuned = tuned or {}

    def request(self, puzzle: Puzzle[Any, Any, Any], backend: str | None, encoding: str | None,
                options: EncoderOptions, deadline: Deadline, method: str | None) -> Request:
        """The method asked for, else the one tuned for the encoding, else the default (Z3 Optimize on
        an SMT encoding); the backend likewise (the method's own, when it has one: z3 for Z3 Optimize).
        A method named without an encoding gets the puzzle's first encoding it takes (``--method z3``:
        the SMT one)."""
        from .optimize import method_named

        kind = encoding_for(puzzle, encoding)
        tuned_method, tuned_backend = self.tuned.get(kind, (None, None))
        chosen = get_backend(backend) if backend else None
        if chosen is not None and Capability.OPTIMIZE in chosen.capabilities:  # a MaxSAT solver of its own
            method = method or "maxsat"
        strategy = method_named(method or tuned_method or (self.method if puzzle.formula_kind(kind) == "cnf" else "z3"))
        if encoding is None and puzzle.formula_kind(kind) != strategy.formula:
            kind = next((k for k in puzzle.encodings if puzzle.formula_kind(k) == strategy.formula), kind)
        if strategy.own_backend is not None:
            chosen = get_backend(strategy.own_backend)
        elif chosen is None:
            chosen = self.backend_for(puzzle, tuned_backend)
        return Request(puzzle, chosen, kind, options, deadline, strategy)

    def solve_whole(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        """Optimise with the request's method; the checker replays the decoded plan and must find the
        proven cost."""
        from .optimize import method_named

        puzzle, method = request.puzzle, request.method or method_named(self.method)
        with watch.phase("encode"):
            encoding = puzzle.encode(instance, request.encoding, request.options)
        backend = f"{request.backend.name} ({method.name})"
        with watch.phase("solve"):
            optimum = method.optimize(encoding, request.backend, request.deadline, certify=request.proving)
        claims = Claims(request, watch)
        if optimum.stop is None:  # a stopped method's best plan claims no optimum
            claims.claim("optimal" if optimum.status == Status.SAT else "unsat", optimum.certificate)
        report = Report(puzzle.name, getattr(instance, "source", ""), backend, request.encoding, optimum.status,
                        size=encoding.size(), times=watch.times, solved_by=(optimum.solved_by or request.backend.name,),
                        certificates=claims.certificates, draw=partial(puzzle.picture, instance), stopped=optimum.stop)
        if optimum.status != Status.SAT or optimum.model is None:
            return report
        solution = checked_solution(puzzle, instance, encoding, optimum.model, backend, watch)
        total = sum(solution.answers().values())
        # a stopped method's best model may pay for more than its plan does (an unrolling's idle or undone
        # moves, which an optimum never has): the plan, checked, is the answer, and costs no more
        if total != optimum.cost and not (optimum.stop is not None and optimum.cost is not None and total < optimum.cost):
            raise CheckFailed(f"{backend}: the decoded plans cost {total}, the solver claimed {optimum.cost}")
        return replace(report, solution=solution, checked=True, times=watch.times,
                       answers=dict(solution.answers()) | {"optimal": optimum.stop is None})

    def count(self, request: Request, instance: Any, watch: Stopwatch, listing: bool = False,
              limit: int | None = None, on_solution: Callable[[Solution], None] | None = None,
              cubes: Cubing | None = None, executor: Executor | None = None) -> Report:
        raise PuzzlesatError(f"{request.puzzle.name} is an optimisation puzzle: its legal plans are too many to "
                             "count and not what is asked; 'solve' proves the optimum")

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any, Any]) -> list[str]:
        """The puzzle's default backend: the methods are the variety."""
        return [puzzle.default_backend or DEFAULT_BACKEND]

    def plan_answers(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        from .plans import plan_optima

        return plan_optima(request, instance, backends, self.solve, self.reference)


def solve(request: Request, instance: Any, watch: Stopwatch | None = None) -> Report:
    """Solve one instance as the puzzle's task asks (a unique solution proven, an optimum proven, the
    universes counted, ...): every reported solution has passed the independent checker."""
    return request.puzzle.task.solve(request, instance, watch or Stopwatch())


def count(request: Request, instance: Any, watch: Stopwatch | None = None, listing: bool = False,
          limit: int | None = None, on_solution: Callable[[Solution], None] | None = None,
          cubes: Cubing | None = None, executor: Executor | None = None) -> Report:
    """Count as the puzzle's task counts (see :meth:`Task.count`)."""
    return request.puzzle.task.count(request, instance, watch or Stopwatch(), listing, limit, on_solution, cubes,
                                     executor)


def crosscheck(request: Request, instance: Any, backends: list[str], by_count: bool = False,
               budget: float | None = None, executor: Executor | None = None) -> list[Row]:
    """Every method's row of the task's cross-check, the reference first; the request's time limit is
    each method's (see :func:`~.crosscheck.run_methods`)."""
    from .crosscheck import run_methods

    methods = request.puzzle.task.plan_crosscheck(request, instance, backends, by_count)
    return list(run_methods(methods, request.deadline.seconds, budget, executor))
