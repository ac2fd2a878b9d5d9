"""The reference's counts of a jig: every layout, and the classes up to rotation, by the search of
:mod:`.reference`, at the pace the machine allows.

The search starts in pure Python, which answers most jigs in milliseconds. One still searching after
:data:`~puzzlesat.core.compiled.PLAIN_SECONDS` goes on compiled (:mod:`.compiled`, where numba is installed), its nodes dealt
among the cores; without numba it goes on in Python. The compiled search first picks the piece order
whose tree is narrowest (:func:`.compiled.narrowest_tables`: milliseconds to a second compiled; in
Python as long as the small searches it answers, so the plain search keeps the file's order); walking one plan, both
find the same layouts in the same order (tests/test_jig_search.py holds them to it on random jigs),
and any plan finds every layout once.

Classes are counted by orbits, not by comparing layouts: every layout of two or more cells has exactly
|G| images under the grid's turns G (four for a square grid, the half turn for any other), because a
turn other than the identity moves some piece to another cell, and a piece stands in one cell only, so
no such turn maps a layout onto itself. The classes are therefore the layouts divided by |G|; a single
cell's one layout is its own class. (The exact cover counts classes through stabilisers on its own.)
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass

from ...core.compiled import PLAIN_SECONDS, CompiledUnusable, TimeIsUp, compiled_available, interrupted_after
from ...core.errors import PuzzlesatError
from ...core.reporting import pace, report_progress
from ...core.timing import UNLIMITED, Deadline
from ...pipeline.executors import Executor, LocalExecutor
from .compiled import KERNEL, fits
from .instance import JigInstance
from .reference import Layout, layouts

#: parts of a compiled search per core: more parts than cores even out the parts' unequal sizes. Each
#: part walks the levels above the split again (milliseconds) and is one handover to a worker (a pipe,
#: or a Dask task of 2 KB). Measured on zhurgut_10x10, parts timed alone and taken by 16 workers: 64
#: parts end 2.86 s after the start, 256 parts 2.63 s, the work shared out evenly 2.53 s (design notes)
PARTS_PER_CORE = 16


@dataclass(frozen=True)
class Counted:
    """The counts, how they were made, and the layouts found (all of them when ``complete``)."""

    layouts: int
    classes: int
    method: str
    found: tuple[Layout, ...]

    @property
    def complete(self) -> bool:
        return len(self.found) == self.layouts


def reference_counts(instance: JigInstance, keep: int = 10_000, workers: int | None = None,
                     plain_seconds: float = PLAIN_SECONDS, executor: Executor | None = None,
                     until: Deadline = UNLIMITED) -> Counted:
    """Both counts of ``instance`` and up to ``keep`` of its layouts (the search's first ones), the plain
    search giving way to the compiled one after ``plain_seconds`` (0: compiled from the start), its
    parts run by ``executor`` (default: forked processes on ``workers`` cores, all by default) until the
    deadline ``until``. An executor given is used from the start: it was asked for, and only the
    compiled search is dealt out in parts."""
    compiled = compiled_available() and fits(instance)
    engine = executor or LocalExecutor(workers or os.cpu_count() or 1)
    try:
        if compiled and (plain_seconds <= 0 or executor is not None):
            return _compiled_counts(instance, keep, engine, until)
        try:
            with interrupted_after(plain_seconds if compiled else None, unless=lambda: not KERNEL.ready_soon()):
                total, found = _every_layout_counted(instance, keep)
        except TimeIsUp:
            return _compiled_counts(instance, keep, engine, until)
    except CompiledUnusable:  # numba cannot start here: the plain search to the end
        return reference_counts(instance, keep, workers, plain_seconds)
    return _counted(instance, total, "plain search", found)


def _every_layout_counted(instance: JigInstance, keep: int) -> tuple[int, list[Layout]]:
    """How many layouts the plain search finds, and the first ``keep`` of them. A frame of its own for
    the loop, not the caller's, which catches :class:`TimeIsUp` (see
    :func:`~puzzlesat.core.compiled.interrupted_after`): with the loop there, the signal's exception
    skipped that ``except`` on CPython 3.13.0 in 189 of 200 runs of a loop over a trivial generator,
    and the race's search failed with "TimeIsUp" instead of going compiled."""
    found: list[Layout] = []
    total = 0
    for layout in layouts(instance):
        total += 1
        if len(found) < keep:
            found.append(layout)
    return total, found


def quick_counts(instance: JigInstance, seconds: float) -> Counted | None:
    """The plain search's counts and every layout, if it ends within ``seconds`` (most jigs: a few
    milliseconds); None when it does not, or where no timer can stop it (not the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        with interrupted_after(seconds):
            found = list(layouts(instance))
    except TimeIsUp:
        return None
    return _counted(instance, len(found), "plain search", found)


def first_layout(instance: JigInstance, seconds: float | None = None) -> tuple[Layout | None, str] | None:
    """The search's first layout (None: there is none) and the search that found it: the plain one
    where it answers within ``seconds`` (else None, as where no timer can stop it: not the main
    thread), without ``seconds`` the compiled one where it can be. With many tab types a first layout
    is found fast (a generated 20x20 of 25 types: 1.1 s compiled, where the SAT solver needs 30 s to
    encode and load the formula); with few, neither the search nor a SAT solver finds one soon."""
    if seconds is not None:
        if threading.current_thread() is not threading.main_thread():
            return None
        try:
            with interrupted_after(seconds):
                return next(layouts(instance), None), "plain search"
        except TimeIsUp:
            return None
    found, method = _walk(instance, whole=False)
    return next(found, None), method


def every_layout(instance: JigInstance) -> Iterator[Layout]:
    """Every layout, in the search's order: compiled where it can be, in batches (a count of millions is
    streamed, not held)."""
    return _walk(instance, whole=True)[0]


def _walk(instance: JigInstance, whole: bool) -> tuple[Iterator[Layout], str]:
    """The layouts in the search's order, and which search walks them. A ``whole`` walk takes the
    narrowest piece order (:func:`.compiled.narrowest_tables`); a walk for the first layout keeps the
    file's: choosing walks every order's first line, and a first layout can come sooner (a generated
    20x20 of 25 tab types has 1.6 million nodes after one line; the four walks take longer than finding
    its first layout)."""
    if compiled_available() and fits(instance) and KERNEL.ready_soon():
        from .compiled import Tables, kernel, narrowest_tables

        with suppress(CompiledUnusable):  # numba cannot start here: the plain search
            kernel()
            return (narrowest_tables(instance) if whole else Tables(instance)).layouts(), "compiled search"
    return layouts(instance), "plain search"


def _compiled_counts(instance: JigInstance, keep: int, engine: Executor, until: Deadline) -> Counted:
    """The compiled search in :data:`PARTS_PER_CORE` parts per worker of ``engine``, as its tasks (one
    part, here, on a single local core). A part that does not end OK (its worker lost, its task failed)
    fails the count: no count is made of the parts that remain."""
    from .compiled import SearchPart, narrowest_tables

    workers = engine.workers
    parts = 1 if isinstance(engine, LocalExecutor) and workers == 1 else workers * PARTS_PER_CORE
    tables = narrowest_tables(instance, workers if isinstance(engine, LocalExecutor) else os.cpu_count() or 1)
    if parts == 1:
        total, found = tables.count(keep=keep)
        return _counted(instance, total, "compiled search", found)
    total, found = 0, []
    share = -(-keep // parts)  # each part keeps its share: the layouts come back through a pipe
    split = tables.split_depth(parts)  # the same for every part: together they are the whole search
    outcomes = []
    started = time.monotonic()
    for number, outcome in engine.run([SearchPart(tables, part, parts, share, split) for part in range(parts)],
                                      None, until):
        outcomes.append((number, outcome))
        report_progress("search: " + pace(len(outcomes), parts, "parts done", started))
    for _, outcome in sorted(outcomes):
        if outcome.status != "OK" or outcome.value is None:
            raise PuzzlesatError(f"compiled search: a part ended {outcome.status} {outcome.error}".strip())
        total += outcome.value[0]
        found += outcome.value[1]
    where = f"{workers} cores" if isinstance(engine, LocalExecutor) else f"{engine.name} x{workers}"
    return _counted(instance, total, f"compiled search on {where}", found[:keep])


def _counted(instance: JigInstance, total: int, method: str, found: list[Layout]) -> Counted:
    turns = 4 if instance.rows == instance.cols else 2
    if instance.rows * instance.cols == 1:
        return Counted(total, total, method, tuple(found))
    if total % turns:
        raise PuzzlesatError(f"internal: {total} layouts are not whole orbits of {turns} turns")
    return Counted(total, total // turns, method, tuple(found))
