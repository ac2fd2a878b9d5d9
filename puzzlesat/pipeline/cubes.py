"""Cube and conquer for counts: the formula split into disjoint cubes, each counted on its own.

A cube is a conjunction of literals on *shown* variables. The cubes are the leaves of a binary tree:
each inner node splits on one shown variable that unit propagation has not yet fixed under the node's
literals, into "true" and "false". So, by construction:

- the cubes are pairwise disjoint (two leaves differ on the variable where their paths part), and
- they cover every assignment (an assignment follows exactly one path down the tree),

hence every projected solution lies in exactly one cube, and the count is the sum of the cubes' counts.
Splitting only on shown variables is what makes this hold for *projected* counts: a cube that fixed an
auxiliary variable could hold one projected solution twice (extended both ways across a split). A leaf
whose literals unit propagation refutes is kept as a *refuted* cube (no model, count 0) rather than
dropped, so that the cover can still be checked whole. tests/test_cubes.py checks the three facts by
brute force on random formulas.

Each open cube is counted like the whole formula (enumeration with the checker, or an exact counter)
under its literals. A backend that solves under assumptions (PySAT's incremental solvers) counts all of
a worker's cubes in one kept session, each cube's literals assumed
(:meth:`~puzzlesat.backends.base.Session.models` argues why the counts stay exact): the formula is
loaded once a worker, not once a cube, and what the solver learnt in one cube prunes the next. Any
other backend counts each cube afresh, its literals added as unit clauses.

A split to a given depth is made in parts on the same workers (:func:`split_across`), and gives the
cubes one process would (:class:`Splitter` argues why).
"""
from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from pysat.solvers import Solver

from ..core.encoding import Encoding
from ..core.errors import OutOfMemory, PuzzlesatError, SolverTimeout
from ..core.reporting import pace, progress_slot, report_progress
from ..core.timing import UNLIMITED, Stopwatch, since_start
from ..formats.varmap import formula_digest
from .report import Claims
from .request import Request
from .steps import count_formula
from .stop import STOPPING, Stop

if TYPE_CHECKING:
    from ..backends.base import Backend, Session
    from ..core.puzzle import Puzzle
    from ..processes.runner import Outcome
    from .executors import Executor

T = TypeVar("T")


@dataclass(frozen=True)
class Cubes:
    """The leaves of the split: ``open`` cubes to count, and ``refuted`` ones (no model: propagation
    found a conflict), each a tuple of literals."""

    open: list[tuple[int, ...]]
    refuted: list[tuple[int, ...]]


#: the PySAT solver whose unit propagation splits (any that has ``propagate`` gives the same cubes)
PROPAGATOR = "glucose4"


class Splitter:
    """Unit propagation on one formula, and the split of any cube of it (:meth:`cubes`), the formula
    loaded once for any number of splits.

    Its solver only propagates (PySAT's ``propagate``: no search, nothing learnt), so what it says of a
    cube depends on the cube alone: whether propagation refutes it, and which variables it fixes (unit
    propagation reaches one fixpoint, or a conflict, in whatever order it goes). A node's children are
    therefore fixed by the node alone, whatever was split before: so the leaves below each leaf of a
    shallower split are exactly the leaves of the whole split below it, which is what lets
    :func:`split_across` deal a split out in parts."""

    def __init__(self, encoding: Encoding) -> None:
        shown = set(encoding.show)
        self.order = [v for v in encoding.order if v in shown] or list(dict.fromkeys(encoding.show))
        self._oracle = Solver(name=PROPAGATOR, bootstrap_with=encoding.pysat_clauses())

    def cubes(self, depth: int, under: tuple[int, ...] = ()) -> Cubes:
        """The cubes below ``under`` (every cube, by default) down to ``depth`` literals in all (fewer
        where propagation fixes every shown variable first), splitting on the shown variables in the
        encoding's order (``Encoding.order`` when it has one, else ``show``): for a tiling, the
        placements of the first cells, as a person would."""
        open_cubes: list[tuple[int, ...]] = []
        refuted: list[tuple[int, ...]] = []
        pending = [under]
        while pending:
            cube = pending.pop()
            consistent, implied = self._oracle.propagate(assumptions=list(cube))
            if not consistent:
                refuted.append(cube)
                continue
            fixed = {abs(lit) for lit in implied} | {abs(lit) for lit in cube}
            free = next((v for v in self.order if v not in fixed), None)
            if len(cube) >= depth or free is None:
                open_cubes.append(cube)
                continue
            pending.append(cube + (-free,))
            pending.append(cube + (free,))
        return Cubes(sorted(open_cubes, key=_in_order), sorted(refuted, key=_in_order))

    def close(self) -> None:
        self._oracle.delete()


def split(encoding: Encoding, depth: int) -> Cubes:
    """The cubes of ``encoding`` down to ``depth`` splits, in this process (:meth:`Splitter.cubes`)."""
    splitter = Splitter(encoding)
    try:
        return splitter.cubes(depth)
    finally:
        splitter.close()


def _in_order(cube: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Cubes listed as the tree is read left to right (true before false at each split)."""
    return tuple((abs(lit), 0 if lit > 0 else 1) for lit in cube)


def restricted(encoding: Encoding, cube: Sequence[int]) -> Encoding:
    """The formula of one cube: the encoding with the cube's literals as unit clauses."""
    return encoding.with_units(cube)


@dataclass
class CubeCount:
    """A count made of its cubes' counts, with what each cube cost (seconds, in cube order) and what the
    split cost (wall seconds, made here or on the workers). Stopped
    before its end (``stop``), ``total`` is the sum over the cubes that finished (a lower bound: the
    cubes are disjoint) and ``counts`` holds None for the others; stopped while it was still being split
    (``split_stopped``), it has no cubes and counts nothing."""

    total: int
    cubes: list[tuple[int, ...]]
    refuted: int
    seconds: list[float]
    counts: list[int | None]
    split_seconds: float = 0.0
    stop: Stop | None = None
    split_stopped: bool = False

    def slowest(self, how_many: int = 3) -> list[tuple[float, tuple[int, ...]]]:
        """The cubes that took longest, among those counted (an unfinished cube's 0 s is no time)."""
        finished = [(seconds, cube) for seconds, cube, count in zip(self.seconds, self.cubes, self.counts)
                    if count is not None]
        return sorted(finished, reverse=True)[:how_many]

    def unfinished(self) -> list[tuple[int, ...]]:
        """The cubes not counted (all finished unless the count was stopped)."""
        return [cube for cube, count in zip(self.cubes, self.counts) if count is None]


#: an automatic split aims at this many open cubes per worker, so that a slow cube does not leave the
#: other workers idle at the end (Dask hands each free worker the next cube)
CUBES_PER_WORKER = 8
#: ... and stops deepening here
MAX_AUTO_DEPTH = 20


def auto_split(encoding: Encoding, workers: int) -> Cubes:
    """The shallowest split (depths 2, 4, ...) with at least ``CUBES_PER_WORKER`` open cubes per worker."""
    splitter = Splitter(encoding)
    try:
        depth = 2
        cubes = splitter.cubes(depth)
        while len(cubes.open) < CUBES_PER_WORKER * workers and depth < MAX_AUTO_DEPTH:
            depth += 2
            deeper = splitter.cubes(depth)
            if len(deeper.open) == len(cubes.open) and len(deeper.refuted) == len(cubes.refuted):
                break  # propagation fixes everything shown before this depth: no more cubes to be had
            cubes = deeper
        return cubes
    finally:
        splitter.close()


def split_across(request: Request, instance: Any, encoding: Encoding, digest: str, depth: int,
                 executor: Executor) -> Cubes:
    """The cubes of :func:`split` (the same ones, in the same order), made in parts on ``executor``:
    this process splits down to the depth that gives ``CUBES_PER_WORKER`` parts a worker, and the
    workers split each part the rest of the way (:class:`SplitTask`); :class:`Splitter` argues why the
    parts' leaves are the whole split's. Made here alone, the split of zhurgut_10x10 to depth 14 took
    38-41 s; on two local workers 20-23 s. ``encoding`` must be the formula kept for this
    process's tasks (:func:`_keep`): local workers, forked from here, find its splitter loaded."""
    splitter = _kept_splitter(encoding, digest)
    top = math.ceil(math.log2(CUBES_PER_WORKER * executor.workers))
    if executor.workers == 1 or top >= depth:
        return splitter.cubes(depth)
    first = splitter.cubes(top)
    tasks = [SplitTask(request, instance, digest, part, depth) for part in first.open]
    open_cubes, refuted = [], list(first.refuted)
    started = time.monotonic()
    for done, (number, outcome) in enumerate(executor.run(tasks, None, request.deadline), start=1):
        cubes = _value(outcome, f"part {number + 1} of {len(tasks)} of the split", request, None)
        open_cubes += cubes.open
        refuted += cubes.refuted
        report_progress(pace(done, len(tasks), "parts of the split made", started))
    return Cubes(sorted(open_cubes, key=_in_order), sorted(refuted, key=_in_order))


def count_cubes(request: Request, instance: Any, encoding: Encoding, depth: int | None, executor: Executor,
                limit: float | None = None) -> CubeCount:
    """The count of ``encoding`` (projected on its shown variables) as the sum of its cubes' counts,
    each counted by ``request``'s backend on ``executor`` under ``limit`` seconds (``depth`` None: an
    automatic split for the executor's workers), all of them by the request's deadline. A cube that
    fails makes the whole count fail; the deadline, a signal or a cube's memory stops it with the sum of
    the cubes that finished, a lower bound, and the cubes that did not (:class:`CubeCount`). Stopped
    during the split (made on the workers, under the same deadline), it has counted nothing, and says
    so rather than raising: a tiling's second count is stopped there as often as in its cubes, and the
    whole first count before it must still be reported."""
    digest = formula_digest(encoding)
    # local workers are forked from here: they find the formula built already
    _keep((request.puzzle.name, request.encoding, request.options, instance), encoding, digest)
    splitting = time.monotonic()
    try:
        cubes = auto_split(encoding, executor.workers) if depth is None else \
            split_across(request, instance, encoding, digest, depth, executor)
    except STOPPING as stopped:
        return CubeCount(0, [], 0, [], [], time.monotonic() - splitting, Stop.of(stopped, since_start(splitting)),
                         split_stopped=True)
    split_seconds = time.monotonic() - splitting
    tasks = [CubeTask(request.within(UNLIMITED), instance, digest, cube) for cube in cubes.open]
    counts: list[int | None] = [None] * len(tasks)
    seconds = [0.0] * len(tasks)
    started, stop = time.monotonic(), None
    try:
        for number, outcome in executor.run(tasks, limit, request.deadline):
            counts[number] = _value(outcome, f"cube {number + 1} of {len(tasks)}", request, limit)
            seconds[number] = outcome.seconds
            report_progress(pace(len(tasks) - counts.count(None), len(tasks), "cubes counted", started))
    except STOPPING as stopped:
        stop = Stop.of(stopped, since_start(started))
    return CubeCount(sum(c for c in counts if c is not None), cubes.open, len(cubes.refuted), seconds, counts,
                     split_seconds, stop)


def _value(outcome: Outcome[T], task: str, request: Request, limit: float | None) -> T:
    """What a task gave, or the error that says how it ended (``task`` names it: "cube 3 of 208")."""
    if outcome.status == "TIMEOUT":
        raise SolverTimeout(request.backend.name, request.deadline.seconds or limit or 0.0)
    if outcome.status == "MEMOUT":
        raise OutOfMemory(f"{task}: {outcome.error}")
    if outcome.status != "OK" or outcome.value is None:
        raise PuzzlesatError(f"{task} failed: {outcome.error}")
    return outcome.value


@dataclass(frozen=True)
class SplitTask:
    """One part of a split, as an executor's task: the cubes below ``under`` down to ``depth``, split in
    the worker's kept :class:`Splitter` (loaded once a worker, not once a part)."""

    request: Request
    instance: Any
    digest: str
    under: tuple[int, ...]
    depth: int

    def prepare(self) -> None:
        _built(self.request.puzzle, self.request.encoding, self.request.options, self.instance)

    def __call__(self) -> Cubes:
        encoding = _formula(self.request, self.instance, self.digest)
        return _kept_splitter(encoding, self.digest).cubes(self.depth, self.under)


@dataclass(frozen=True)
class CubeTask:
    """One cube's count, as an executor's task. It carries the request, the instance and the cube, not
    the formula (megabytes at 10x10, once per cube): the worker builds the formula once per process and
    checks that it is the one that was split (encoders are deterministic, and the digest says so).

    :meth:`prepare` builds it in the worker's own process, before the executor forks a child to count
    (:func:`~puzzlesat.pipeline.executors.guarded`): built only in a child forked for each cube, it was
    built again for every cube (0.8 s at 10x10, more than most cubes take)."""

    request: Request
    instance: Any
    digest: str
    cube: tuple[int, ...]

    def prepare(self) -> None:
        _built(self.request.puzzle, self.request.encoding, self.request.options, self.instance)

    def __call__(self) -> int:
        progress_slot(1)  # the cube's own count beside the parent's tally of cubes
        encoding = _formula(self.request, self.instance, self.digest)
        watch, backend = Stopwatch(), self.request.backend
        if backend.assumes and not self.request.exact_count:
            return count_formula(self.request, self.instance, encoding, watch, Claims(self.request, watch),
                                 keep_found=False, session=_kept_session(backend, encoding), under=self.cube).found
        return count_formula(self.request, self.instance, restricted(encoding, self.cube), watch,
                             Claims(self.request, watch), keep_found=False).found


#: the formula a worker process built last and its digest, by (puzzle, encoding, options, instance):
#: the cubes of one count follow one another on a worker, so one kept formula serves them all. The
#: digest is made once with it: made for every cube, it took 0.39 s a cube at 10x10
_BUILT: dict[tuple[Any, ...], tuple[Encoding, str]] = {}


#: the session this process counts its cubes in, by backend name, open on the formula in ``_BUILT``:
#: a fresh solver for each cube took 0.14 s at zhurgut_9x9 to load the formula, for 0.03 s of search
_KEPT: dict[str, Session] = {}


#: the splitter open on the formula in ``_BUILT``, by its digest, once a split needed one in this process
_SPLITTER: dict[str, Splitter] = {}


def _formula(request: Request, instance: Any, digest: str) -> Encoding:
    """The formula this worker keeps for ``request`` on ``instance``, built on first use and checked to be
    the one whose digest the task carries."""
    encoding, built = _built(request.puzzle, request.encoding, request.options, instance)
    if built != digest:
        raise PuzzlesatError("a worker built another formula than the one that was split (different "
                             "versions of puzzlesat on the cluster?)")
    return encoding


def _built(puzzle: Puzzle[Any, Any, Any], kind: str, options: Any, instance: Any) -> tuple[Encoding, str]:
    key = (puzzle.name, kind, options, instance)
    if key not in _BUILT:
        _keep(key, puzzle.encode(instance, kind, options))
    return _BUILT[key]


def _keep(key: tuple[Any, ...], encoding: Encoding, digest: str | None = None) -> None:
    """Keep ``encoding`` as the formula of this process's cubes, in place of the one before (and the
    sessions open on that one)."""
    _BUILT.clear()
    for session in _KEPT.values():
        session.close()
    _KEPT.clear()
    for splitter in _SPLITTER.values():
        splitter.close()
    _SPLITTER.clear()
    _BUILT[key] = encoding, digest or formula_digest(encoding)


def _kept_session(backend: Backend, encoding: Encoding) -> Session:
    """The session open on ``encoding`` (the kept formula) with ``backend``, opened on first use."""
    if backend.name not in _KEPT:
        _KEPT[backend.name] = backend.open(encoding)
    return _KEPT[backend.name]


def _kept_splitter(encoding: Encoding, digest: str) -> Splitter:
    """The splitter open on ``encoding`` (the kept formula, ``digest``), opened on first use."""
    if digest not in _SPLITTER:
        _SPLITTER[digest] = Splitter(encoding)
    return _SPLITTER[digest]


def count_variants_by_cubes(request: Request, instance: Any, depth: int | None, executor: Executor,
                            limit: float | None) -> dict[str, tuple[int, CubeCount]]:
    """Every count of ``puzzle.count_variants()`` (a tiling's solutions and its classes), each split into
    cubes and conquered on ``executor``, each cube under ``limit`` seconds; by label. A stopped count
    is the last one (the counts after it are not started)."""
    puzzle = request.puzzle
    out = {}
    for label, options in puzzle.count_variants(request.options):
        encoding = puzzle.encode(instance, request.encoding, options)
        if encoding.kind != "cnf":
            raise PuzzlesatError(f"{puzzle.name}: the {request.encoding} encoding is not a CNF: --cubes splits CNF "
                                 "counts")
        if encoding.weights is not None:
            raise PuzzlesatError("a weighted model counting file: --cubes adds up counts "
                                 "of models, not their weights; count it without --cubes")
        counted = count_cubes(replace(request, options=options), instance, encoding, depth, executor, limit)
        out[label] = (counted.total, counted)
        if counted.stop is not None:
            break
    return out
