"""The reference search of :mod:`.reference`, compiled by numba.

The same plan (:func:`.reference.search_plan`: the cells' order, the looks each kind of cell takes by the
(left, top) sides it needs, the flat-side budget) as arrays, and the same depth-first search as a loop
over an explicit stack instead of a recursive generator: 35 times the pure-Python search's pace on
zhurgut_9x9 (0.30 s against 10.6 s). It counts every layout and hands them over in batches, or keeps the
first ones, so that the caller can check them; nothing else of the toolkit is shared, so it stays a
reference (tests/test_jig_search.py holds it to the pure-Python search, layout for layout).

Side values are renumbered densely (a value and its negation keep being each other's negation), so the
(left, top) table is indexed directly; a table past :data:`MAX_TABLE` entries (thousands of distinct tab
types) is not built and the caller searches in pure Python instead.

``part`` and ``parts`` split one search among processes: the nodes at one depth (the split) are dealt
round-robin, the ``part``-th of every ``parts`` explored here; the levels above are searched by every
part. The parts' counts add up to the whole: every layout passes through exactly one node at that
depth, whichever it is. :meth:`Tables.split_depth` picks the shallowest depth with at least
:data:`NODES_PER_PART` nodes a part, found by walking the levels above it (milliseconds): dealt at a
fixed depth 3, zhurgut_10x10's 329 nodes made 64 parts of 5 each, the largest part 7.6 s of 226 s, and
16 cores could not have been more than 12 times one (measured part by part; at depth 5 its 4,702
nodes make 73 a part).
"""
from __future__ import annotations

import copy
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...processes.kernels import Kernel
from .instance import JigInstance
from .reference import Layout, SearchPlan, first_pieces, put_first, search_plan, turning

#: the most (kind, left, top) entries the dense table may have (each 2 x 4 bytes)
MAX_TABLE = 4_000_000
#: nodes a part is dealt at the split depth at least (where the tree is that wide): many nodes a part
#: even out the subtrees' unequal sizes, so that parts take about the same time
NODES_PER_PART = 64

def kernel() -> Any:
    """The compiled search, built on first use (numba is imported only here, and only when counting);
    :class:`~puzzlesat.core.compiled.CompiledUnusable` where numba cannot start."""
    return KERNEL.entry()


def _warm() -> None:
    """Compile the kernel for the types every search passes: a whole count of a small bundled jig (the
    count a part of a search makes, the same call)."""
    from ...core.bundled import ROOT
    from .instance import parse

    narrowest_tables(parse((ROOT / "jig" / "matt5x5.jig").read_text(), "matt5x5.jig")).count(keep=1)


#: the jig search's kernel (:class:`~puzzlesat.processes.kernels.Kernel`)
KERNEL = Kernel(globals(), ("_search",), "the jig's search", _warm)


#: the scalars a search keeps between calls, in one array: its step, the flat sides facing inner edges,
#: the nodes dealt at the split depth, the layouts (representatives) counted, and the least piece on
#: the anchors once they are filled
STEP, INNER_FLATS, DEALT, COUNT, LEAST_ANCHOR = range(5)


def _search(order: Any, kind_of: Any, start: Any, stop: Any, piece: Any, need_right: Any, need_below: Any,
            flats: Any, zero: int, cols: int, spare: int, anchors: Any, guard: Any, guard_piece: Any,
            anchor_step: int, part: int, parts: int, split: int, state: Any, at: Any, end: Any, entry: Any,
            used: Any, out: Any, pause: bool) -> int:
    """Depth-first search for representatives, resumable: ``state``, ``at`` (per step, the next entry
    to try), ``end``, ``entry`` (per cell, the entry standing there) and ``used`` (per piece) are the
    search's whole memory, kept by the caller between calls. Each one found is counted and, while
    ``out`` has room, written to it (its entries per cell); with ``pause`` the call returns once ``out``
    is full, without it the search runs to the end. Returns the layouts written. ``need_right[e]`` and
    ``need_below[e]``: the side the cell right of / below entry ``e`` needs on its left / top (the
    negation of ``e``'s right / bottom side); ``zero`` is the flat side's number. ``anchors``, ``guard``
    (per cell), ``guard_piece`` (per piece) and ``anchor_step``: the representative's corners, pruned
    as :func:`.reference.representatives` prunes them."""
    cells = order.shape[0]
    step, inner_flats, dealt, count = state[STEP], state[INNER_FLATS], state[DEALT], state[COUNT]
    least_anchor = state[LEAST_ANCHOR]
    guards = 0
    for cell in range(cells):
        guards += guard[cell]
    written = 0
    while step >= 0:
        cell = order[step]
        e = entry[cell]
        if e >= 0:  # take back what stands here before trying the next look
            used[piece[e]] = False
            inner_flats -= flats[e]
            entry[cell] = -1
        e = at[step]
        while e < end[step] and (used[piece[e]] or inner_flats + flats[e] > spare
                                 or (guard[cell] and piece[e] < least_anchor)):
            e += 1
        if e >= end[step]:
            step -= 1
            continue
        at[step] = e + 1
        if step == anchor_step:  # enough unused pieces above the anchors' least must fit the guards
            least = piece[e]
            for anchor in anchors:
                if entry[anchor] >= 0 and piece[entry[anchor]] < least:
                    least = piece[entry[anchor]]
            above = 0
            for other in range(least + 1, used.shape[0]):
                if guard_piece[other] and not used[other] and other != piece[e]:
                    above += 1
            if above < guards:
                continue
            least_anchor = least
        if step == split:
            dealt += 1
            if (dealt - 1) % parts != part:
                continue
        used[piece[e]] = True
        inner_flats += flats[e]
        entry[cell] = e
        if step == cells - 1:
            count += 1
            if written < out.shape[0]:
                out[written, :] = entry
                written += 1
                if pause and written == out.shape[0]:
                    break
            continue
        step += 1
        nxt = order[step]
        left = need_right[entry[nxt - 1]] if nxt % cols > 0 else zero
        top = need_below[entry[nxt - cols]] if nxt >= cols else zero
        at[step] = start[kind_of[nxt], left, top]
        end[step] = stop[kind_of[nxt], left, top]
    state[STEP], state[INNER_FLATS], state[DEALT], state[COUNT] = step, inner_flats, dealt, count
    state[LEAST_ANCHOR] = least_anchor
    return written


def side_values(instance: JigInstance) -> list[int]:
    """Every side value the search meets, a value's negation with it (0, the flat side, too), sorted."""
    return sorted({side for sides in instance.pieces for side in sides} | {0}
                  | {-side for sides in instance.pieces for side in sides})


def fits(instance: JigInstance) -> bool:
    """Whether the kernel's (kind, left, top) table stays within :data:`MAX_TABLE` (at most nine kinds
    of cell: corners, edges, inside); known before anything is built."""
    kinds = len({(r > 0, c > 0, r < instance.rows - 1, c < instance.cols - 1)
                 for r in range(instance.rows) for c in range(instance.cols)})
    return kinds * len(side_values(instance)) ** 2 <= MAX_TABLE


#: below this many nodes in all, summed over the piece orders, the tree after one line is too narrow to
#: tell the orders apart, and the two narrowest are compared a line deeper
NARROW_FIRST_LINE = 1_000_000


def narrowest_tables(instance: JigInstance, threads: int = 1) -> Tables:
    """The tables of the piece order (:func:`.reference.first_pieces`) whose search tree is narrowest
    where the second line starts, after the first line and one cell; where that depth has fewer than
    :data:`NARROW_FIRST_LINE` nodes in all, of the two narrowest there the one narrower where the
    third line starts (ties: the earlier in :func:`.reference.first_pieces`, the file's order first).

    Which corner piece comes first decides the representative, so which pieces the guard corners may
    take, and with them the tree's size (:mod:`.reference`). The width is a forecast, measured against
    whole searches in docs/design-notes: after one line it picked the fastest order of each bundled jig
    from 9x9 up; on generated 8x8s of four tab types, whose first line is a few thousand nodes wide and
    whose tree grows below it, it picked a slow one, and a line deeper the fastest. A depth fixed deeper
    costs as much as the search it chooses for where the tree is widest near the top (two lines of
    zhurgut_12x9 are half its search); shallower, the orders barely differ (before the far corner of the
    first line, only in the first cell).

    The orders are walked side by side on up to ``threads`` threads (the kernel lets go of the GIL):
    zhurgut_12x9's four walks of 1.6-5.7 million nodes each took 1.2 s one after the other on 2 cores,
    and as forked processes a small jig paid 0.1 s of forks for walks of milliseconds."""
    default = Tables(instance)
    default.prepare()  # compiled before any walk, so that the walks' threads and forked parts share it
    line = min(instance.rows, instance.cols)
    orders = [default.put_first(first) for first in first_pieces(default.plan)]
    if len(orders) < 2:
        return default

    def widths(some: list[Tables], depth: int) -> list[int]:
        with ThreadPoolExecutor(max(1, min(threads, len(some)))) as pool:
            return list(pool.map(lambda tables: tables.nodes_at(depth), some))
    first_line = widths(orders, line)
    ranked = sorted(range(len(orders)), key=lambda k: first_line[k])  # stable: ties keep the earlier
    if sum(first_line) >= NARROW_FIRST_LINE or 2 * line >= len(default.order):
        return orders[ranked[0]]
    finalists = [orders[k] for k in ranked[:2]]
    deeper = widths(finalists, 2 * line)
    return finalists[0] if deeper[0] <= deeper[1] else finalists[1]


class Tables:
    """A plan of :func:`.reference.search_plan` (default: the file's piece order) as the kernel's arrays
    (for an instance that :func:`fits`). The kernel numbers pieces by their rank in the plan's piece
    order, so that it compares them by number; layouts come back in the file's numbers."""

    def __init__(self, instance: JigInstance, plan: SearchPlan | None = None) -> None:
        import numpy as np

        plan = plan or search_plan(instance)
        values = side_values(instance)
        number = {value: i for i, value in enumerate(values)}
        self.zero = number[0]
        self.cols = plan.cols
        self.spare = plan.spare_flats
        self.pieces = len(instance.pieces)
        self.order = np.array(plan.order, dtype=np.int64)
        self.kind_of = np.array(plan.kind_of, dtype=np.int64)
        shape = (len(plan.candidates), len(values), len(values))
        self.start = np.zeros(shape, dtype=np.int64)
        self.stop = np.zeros(shape, dtype=np.int64)
        rows: list[tuple[int, int, int, int, int]] = []  # piece, turns, need right, need below, flats inside
        for kind, table in enumerate(plan.candidates):
            for (left, top), found in table.items():
                self.start[kind, number[left], number[top]] = len(rows)
                rows += [(p, t, number[-look[1]], number[-look[2]], f) for p, t, look, f in found]
                self.stop[kind, number[left], number[top]] = len(rows)
        columns = np.array(rows, dtype=np.int64).reshape(-1, 5)
        self.piece, self.turns, self.need_right, self.need_below, self.flats = (columns[:, i].copy() for i in range(5))
        self.anchors = np.array(plan.anchors, dtype=np.int64)
        self.guard = np.zeros(len(plan.order), dtype=np.int64)
        self.guard[list(plan.guards)] = 1
        self.anchor_step = plan.anchor_step
        self.instance = instance
        self.plan = plan
        self._rank(plan)
        self.class_size = plan.turns
        self.whole_class = turning(instance)

    def _rank(self, plan: SearchPlan) -> None:
        """The arrays that depend on the piece order: each entry's piece by rank, and per rank whether
        the piece fits a guard's corner."""
        import numpy as np

        rank = np.array(plan.rank, dtype=np.int64)
        self.ranked_piece = rank[self.piece]
        self.guard_piece = np.zeros(self.pieces, dtype=np.bool_)
        self.guard_piece[rank[list(plan.guard_pieces)]] = True

    def put_first(self, first: int) -> Tables:
        """These tables with piece ``first`` first in the piece order (:func:`.reference.put_first`),
        the arrays that do not depend on it shared."""
        other = copy.copy(self)
        other.plan = put_first(self.plan, first)
        other._rank(other.plan)
        return other

    def prepare(self) -> None:
        """Compile the search now (or load it from numba's cache) by a call that has nothing left to
        search: processes forked afterwards inherit the compiled code instead of each making it."""
        for _ in self._batches(0, 1, 0, pause=False, done=True):
            pass

    def layouts(self, batch: int = 4096) -> Iterator[Layout]:
        """Every layout, in the reference's order (each representative, then its turns), found ``batch``
        representatives at a time (a stream: a count of millions is not held)."""
        for rows, _ in self._batches(0, 1, batch, pause=True):
            for row in rows:
                yield from self.whole_class([(int(self.piece[e]), int(self.turns[e])) for e in row])

    def count(self, part: int = 0, parts: int = 1, keep: int = 0, split: int | None = None) -> tuple[int, list[Layout]]:
        """(layouts counted, the first ``keep`` of them) of this part of the search, in one call; the
        parts are dealt at depth ``split`` (None: :meth:`split_depth`; every part of one search must be
        given the same)."""
        kept: list[Layout] = []
        counted = 0
        for rows, state in self._batches(part, parts, -(-keep // self.class_size), pause=False, split=split):
            for row in rows:
                kept += self.whole_class([(int(self.piece[e]), int(self.turns[e])) for e in row])
            counted = int(state[COUNT]) * self.class_size
        return counted, kept[:keep]

    def split_depth(self, parts: int) -> int:
        """The shallowest depth with at least :data:`NODES_PER_PART` nodes for each of ``parts``, else
        the widest depth above the point where the tree narrows again (-1 for one part: no split; 0,
        the first cell's looks, for a jig of one cell)."""
        cells = len(self.order)
        if parts <= 1:
            return -1
        if cells < 2:  # one cell: its looks are dealt
            return 0
        best, widest = 1, 0
        for depth in range(1, cells):
            nodes = self.nodes_at(depth)
            if nodes >= NODES_PER_PART * parts:
                return depth
            if nodes <= widest:  # the tree narrows (the border closes): no deeper depth is wider
                break
            best, widest = depth, nodes
        return best

    def nodes_at(self, depth: int) -> int:
        """The search tree's nodes at ``depth`` (0: the first cell's), found by a search that is dealt
        none of them, so it walks only the levels above."""
        for _, state in self._batches(2, 2, 0, pause=False, split=depth):
            nodes = int(state[DEALT])  # part number 2 of parts 0 and 1 is dealt no node
        return nodes

    def _batches(self, part: int, parts: int, batch: int, pause: bool, done: bool = False,
                 split: int | None = None) -> Iterator[tuple[Any, Any]]:
        """The layouts found, ``batch`` at a time, each batch with the search's scalars so far (its
        count: ``[COUNT]``; ``done``: a search with nothing left, which makes one call); parts dealt at
        depth ``split`` (None: :meth:`split_depth`)."""
        import numpy as np

        cells = len(self.order)
        split = -1 if parts <= 1 else self.split_depth(parts) if split is None else split
        state = np.zeros(LEAST_ANCHOR + 1, dtype=np.int64)
        at, end = np.zeros(cells, dtype=np.int64), np.zeros(cells, dtype=np.int64)
        first = self.kind_of[self.order[0]]
        at[0], end[0] = self.start[first, self.zero, self.zero], self.stop[first, self.zero, self.zero]
        entry = np.full(cells, -1, dtype=np.int64)
        used = np.zeros(self.pieces, dtype=np.bool_)
        out = np.zeros((batch, cells), dtype=np.int64)
        search = kernel()
        state[STEP] = -1 if done else 0
        while True:
            written = search(self.order, self.kind_of, self.start, self.stop, self.ranked_piece, self.need_right,
                             self.need_below, self.flats, self.zero, self.cols, self.spare, self.anchors, self.guard,
                             self.guard_piece, self.anchor_step, part, parts, split, state,
                             at, end, entry, used, out, pause)
            yield out[:written], state
            if state[STEP] < 0:
                return


@dataclass(frozen=True)
class SearchPart:
    """One part of a search dealt out, as an executor's task: calling it counts the part
    (:meth:`Tables.count`).

    :meth:`prepare` is the compiling a process does once; an executor that runs its tasks in forked
    children (a Dask worker: :func:`~puzzlesat.pipeline.executors.guarded`) runs it in the worker first,
    so that the children inherit the kernel. When a child was forked for each task and the worker never
    compiled, each child loaded the kernel from numba's cache again: 0.5 s a task, as long as a part of
    zhurgut_10x10 dealt to 16 workers.

    Pickled (for a Dask worker), a part is its instance and the piece its order puts first, not the
    tables' arrays (224 KB for zhurgut_10x10, serialised again for every task); a worker builds the
    tables once (:func:`_tables_for`) for all the parts it is given."""

    tables: Tables
    part: int
    parts: int
    keep: int
    split: int

    def __call__(self) -> tuple[int, list[Layout]]:
        return self.tables.count(self.part, self.parts, self.keep, self.split)

    def prepare(self) -> None:
        self.tables.prepare()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        first = self.tables.plan.rank.index(0)
        return _rebuilt_part, (self.tables.instance, first, self.part, self.parts, self.keep, self.split)


def _rebuilt_part(instance: JigInstance, first: int, part: int, parts: int, keep: int, split: int) -> SearchPart:
    return SearchPart(_tables_for(instance, first), part, parts, keep, split)


@lru_cache(maxsize=4)
def _tables_for(instance: JigInstance, first: int) -> Tables:
    """The tables of ``instance`` with piece ``first`` first, built once in a process for every part
    of its search that comes pickled (:class:`SearchPart`)."""
    return Tables(instance).put_first(first)
