"""The exact cover of :mod:`.exact_cover`, searched by Knuth's Algorithm C (dancing links with colours,
TAOCP 7.2.2.1) over arrays and compiled by numba.

The same items and options as :func:`.exact_cover.jig_options` (cells and pieces primary, inner edges
secondary and coloured by the sides that meet there), so it counts what the pure-Python exact cover
counts, and nothing of the reference search is shared: it stays the second family of jig counts. The
pure-Python Algorithm X keeps its items in dicts of sets; here they are Knuth's doubly linked lists, whose
cover and uncover cost a few nanoseconds a link.

Classes up to rotation are counted in the same pass, by Burnside's lemma: each layout adds the number of
grid turns that map it onto itself, and the sum divided by the number of turns is the number of classes
(as :func:`.exact_cover.plain_counts` does). A turn maps a layout onto itself when every option chosen
has its turned option chosen too; ``turned[t, o]`` is option ``o`` turned ``t`` times (-1 where that
look may not stand in that cell).

``part`` and ``parts`` split one search among processes: the options tried at level ``split`` are dealt
round-robin, and a layout found above that level (a grid of at most ``split`` cells) is counted by part 0
only, so the parts' counts add up to the whole.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import partial
from typing import Any

import numpy as np

from ...core.errors import PuzzlesatError
from ...processes.kernels import Kernel
from ...processes.runner import run_each
from .exact_cover import Option, jig_options
from .exact_cover import turned as turned_look
from .instance import JigInstance

#: the level at which a search is dealt among parts
SPLIT_LEVEL = 3
#: parts of a search per core: more parts than cores even out the parts' unequal sizes
PARTS_PER_CORE = 4

def _kernel() -> Any:
    """The compiled search, built on first use or loaded from numba's cache (numba is imported only
    then, and only when counting)."""
    return KERNEL.entry()


def _warm() -> None:
    """Compile the kernel for the types every search passes: a whole count of a small bundled jig."""
    from ...core.bundled import ROOT
    from .instance import parse

    counts(parse((ROOT / "jig" / "matt5x5.jig").read_text(), "matt5x5.jig"), 1)


#: the exact-cover search's kernel (:class:`~puzzlesat.processes.kernels.Kernel`)
KERNEL = Kernel(globals(), ("_hide", "_unhide", "_cover", "_uncover", "_purify", "_unpurify", "_commit", "_uncommit",
                            "_search"), "the exact-cover search (Algorithm X)", _warm)


class Links:
    """An exact cover with colours as Knuth's linked arrays, with what a count needs to find classes."""

    def __init__(self, items: Sequence[Hashable], options: Sequence[Option], turned: Sequence[Sequence[int]]) -> None:
        primary = {item: number for number, item in enumerate(items, 1)}
        secondary = {edge: number for number, edge in enumerate(dict.fromkeys(
            edge for _, colours in options for edge, _ in colours), len(primary) + 1)}
        colours = {value: number for number, value in enumerate(sorted({c for _, cs in options for _, c in cs}), 1)}
        size = len(primary) + len(secondary)
        nodes = size + 2 + sum(len(own) + len(painted) + 1 for own, painted in options)
        self.top, self.up, self.down = (np.zeros(nodes, dtype=np.int64) for _ in range(3))
        self.colour, self.option_of = np.zeros(nodes, dtype=np.int64), np.zeros(nodes, dtype=np.int64)
        self.up[:size + 1] = self.down[:size + 1] = np.arange(size + 1)
        # the primary items in a ring headed by 0, the secondary ones in a ring headed by size + 1
        ring = [0, *range(1, len(primary) + 1)]
        self.left, self.right = np.zeros(size + 2, dtype=np.int64), np.zeros(size + 2, dtype=np.int64)
        for members in (ring, [size + 1, *range(len(primary) + 1, size + 1)]):
            for k, member in enumerate(members):
                self.right[member], self.left[member] = members[(k + 1) % len(members)], members[k - 1]
        spacer = size + 1
        for number, (own, painted) in enumerate(options):
            placed = [(primary[item], 0) for item in own] + [(secondary[edge], colours[c]) for edge, c in painted]
            for k, (item, paint) in enumerate(placed, 1):
                node = spacer + k
                self.top[node], self.colour[node], self.option_of[node] = item, paint, number
                self.top[item] += 1
                last = self.up[item]
                self.up[node], self.down[last], self.down[node], self.up[item] = last, node, item, node
            self.down[spacer] = spacer + len(placed)  # a spacer links the options on either side of it
            spacer += len(placed) + 1
            self.top[spacer], self.up[spacer] = -(number + 1), spacer - len(placed)
        self.levels = len(primary)
        self.turned = np.array(turned, dtype=np.int64).reshape(len(turned), len(options))

    def prepare(self) -> None:
        """Compile the search now (or load it from numba's cache) by a call that deals every option of
        the first level to other parts: processes forked afterwards inherit the compiled code."""
        self.count(1, 1 << 62, split=0)

    def count(self, part: int = 0, parts: int = 1, split: int = SPLIT_LEVEL) -> tuple[int, int]:
        """(covers, their sum of fixing turns) of this part of the search (one part: the whole)."""
        out = np.zeros(2, dtype=np.int64)
        arrays = (self.top.copy(), self.up.copy(), self.down.copy(), self.colour.copy(), self.left.copy(),
                  self.right.copy())
        split = split if parts > 1 else -1
        _kernel()(*arrays, self.option_of, self.turned, self.levels, part, parts, split, out)
        return int(out[0]), int(out[1])


def _search(top: Any, up: Any, down: Any, colour: Any, left: Any, right: Any, option_of: Any, turned: Any,
            levels: int, part: int, parts: int, split: int, out: Any) -> None:
    """Algorithm C, every solution counted: ``out`` gets the layouts and the sum over them of the turns
    that fix each. ``top``/``up``/``down``/``colour``: Knuth's node fields (a header's ``top`` is its
    item's length; a spacer's is -option); ``left``/``right``: the item lists, 0 heading the primary
    items (the secondary ones head their own list, never chosen)."""
    x = np.zeros(levels + 1, dtype=np.int64)
    chosen = np.zeros(turned.shape[1], dtype=np.uint8)
    count, fixed, dealt = 0, 0, 0
    level, item = 0, 0
    state = 2
    while True:
        if state == 2:  # C2: enter a level
            if right[0] == 0:
                if level > split or part == 0:
                    count += 1
                    for k in range(level):
                        chosen[option_of[x[k]]] = 1
                    for t in range(turned.shape[0]):
                        fits = True
                        for k in range(level):
                            image = turned[t, option_of[x[k]]]
                            if image < 0 or chosen[image] == 0:
                                fits = False
                                break
                        if fits:
                            fixed += 1
                    for k in range(level):
                        chosen[option_of[x[k]]] = 0
                state = 8
                continue
            # C3: the primary item with the fewest options left
            best, p = -1, right[0]
            while p != 0:
                if best < 0 or top[p] < top[best]:
                    best = p
                    if top[p] == 0:
                        break
                p = right[p]
            item = best
            _cover(top, up, down, colour, left, right, item)  # C4
            x[level] = down[item]
            state = 5
        elif state == 5:  # C5: try x[level]
            if x[level] == item:
                _uncover(top, up, down, colour, left, right, item)  # C7: backtrack
                state = 8
                continue
            if level == split:
                dealt += 1
                if (dealt - 1) % parts != part:
                    x[level] = down[x[level]]
                    continue
            p = x[level] + 1
            while p != x[level]:
                j = top[p]
                if j <= 0:
                    p = up[p]
                else:
                    _commit(top, up, down, colour, left, right, p, j)
                    p += 1
            level += 1
            state = 2
        elif state == 6:  # C6: try again
            p = x[level] - 1
            while p != x[level]:
                j = top[p]
                if j <= 0:
                    p = down[p]
                else:
                    _uncommit(top, up, down, colour, left, right, p, j)
                    p -= 1
            item = top[x[level]]
            x[level] = down[x[level]]
            state = 5
        else:  # C8: leave a level
            if level == 0:
                out[0], out[1] = count, fixed
                return
            level -= 1
            state = 6


def _hide(top: Any, up: Any, down: Any, colour: Any, p: int) -> None:
    q = p + 1
    while q != p:
        x, u, d = top[q], up[q], down[q]
        if x <= 0:
            q = u  # a spacer: back to the option's first node
        elif colour[q] < 0:
            q += 1  # purified: it stays
        else:
            down[u], up[d] = d, u
            top[x] -= 1
            q += 1


def _unhide(top: Any, up: Any, down: Any, colour: Any, p: int) -> None:
    q = p - 1
    while q != p:
        x, u, d = top[q], up[q], down[q]
        if x <= 0:
            q = d  # a spacer: on to the option's last node
        elif colour[q] < 0:
            q -= 1
        else:
            down[u], up[d] = q, q
            top[x] += 1
            q -= 1


def _cover(top: Any, up: Any, down: Any, colour: Any, left: Any, right: Any, i: int) -> None:
    p = down[i]
    while p != i:
        _hide(top, up, down, colour, p)
        p = down[p]
    lft, rgt = left[i], right[i]
    right[lft], left[rgt] = rgt, lft


def _uncover(top: Any, up: Any, down: Any, colour: Any, left: Any, right: Any, i: int) -> None:
    lft, rgt = left[i], right[i]
    right[lft], left[rgt] = i, i
    p = up[i]
    while p != i:
        _unhide(top, up, down, colour, p)
        p = up[p]


def _purify(top: Any, up: Any, down: Any, colour: Any, p: int) -> None:
    """Keep the options that paint ``p``'s item with ``p``'s colour (marked -1), hide the others."""
    c, i = colour[p], top[p]
    q = down[i]
    while q != i:
        if colour[q] == c:
            colour[q] = -1
        else:
            _hide(top, up, down, colour, q)
        q = down[q]


def _unpurify(top: Any, up: Any, down: Any, colour: Any, p: int) -> None:
    c, i = colour[p], top[p]
    q = up[i]
    while q != i:
        if colour[q] < 0:
            colour[q] = c
        else:
            _unhide(top, up, down, colour, q)
        q = up[q]


def _commit(top: Any, up: Any, down: Any, colour: Any, left: Any, right: Any, p: int, j: int) -> None:
    if colour[p] == 0:
        _cover(top, up, down, colour, left, right, j)
    elif colour[p] > 0:
        _purify(top, up, down, colour, p)


def _uncommit(top: Any, up: Any, down: Any, colour: Any, left: Any, right: Any, p: int, j: int) -> None:
    if colour[p] == 0:
        _uncover(top, up, down, colour, left, right, j)
    elif colour[p] > 0:
        _unpurify(top, up, down, colour, p)


def jig_links(instance: JigInstance) -> Links:
    """The jig's exact cover (:func:`.exact_cover.jig_options`) as links, with each option's images under
    the grid's turns (a quarter turn for a square grid, the half turn for any other)."""
    items, options, meaning = jig_options(instance)
    rows, cols = instance.rows, instance.cols
    index = {(cell, piece, look): number for number, (cell, piece, look) in enumerate(meaning)}
    turned = []
    for turns in ((0, 1, 2, 3) if rows == cols else (0, 2)):
        images = []
        for cell, piece, look in meaning:
            r, c = divmod(cell, cols)
            height, width = rows, cols
            for _ in range(turns):
                r, c, height, width = c, height - 1 - r, width, height
            images.append(index.get((r * width + c, piece, turned_look(look, turns)), -1))
        turned.append(images)
    return Links(items, options, turned)


def counts(instance: JigInstance, workers: int) -> tuple[int, int]:
    """(layouts, classes up to rotation) of ``instance``, the search dealt among ``workers`` cores."""
    links = jig_links(instance)
    links.prepare()
    parts = workers * PARTS_PER_CORE if workers > 1 else 1
    layouts = fixing = 0
    for _, outcome in run_each([partial(links.count, part, parts) for part in range(parts)], workers, None):
        if outcome.status != "OK" or outcome.value is None:
            raise PuzzlesatError(f"compiled exact cover: a part ended {outcome.status} {outcome.error}".strip())
        layouts += outcome.value[0]
        fixing += outcome.value[1]
    turns = links.turned.shape[0]
    if fixing % turns:
        raise ArithmeticError(f"class count {fixing}/{turns} is not whole: the stabilisers are wrong")
    return layouts, fixing // turns
