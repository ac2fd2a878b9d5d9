"""Counting a jig's layouts without listing them: a search that remembers, for the pieces left, how many
ways there are to finish.

A jig of few tab types has many pieces alike, and layouts multiply with them: a 1x12 line of one tab
type has 7,257,600, which no enumeration lists in time. This count is written from the rules of
docs/puzzles.md, section 2, and shares no code with the search of :mod:`.reference` or the exact cover.

**Kinds.** Two pieces are alike when one's sides, turned, are the other's: they have the same *looks*
(the distinct sides a piece shows in its four turns; turns that look alike are one look, as a layout
counts them). Map each layout to its *kind layout*, the (kind, look) of every cell. Whether a layout
obeys the rules depends on the looks alone, so every layout over a valid kind layout is valid, and a
kind layout that uses kind ``k`` ``n_k`` times (every piece once) is the image of exactly ``prod n_k!``
layouts: which of the ``n_k`` alike pieces stands in each of kind ``k``'s cells. The count fills the
cells in order with kinds and looks; taking kind ``k`` while ``r_k`` of its pieces are left multiplies
by ``r_k``, and along one kind layout these factors make ``prod n_k!``.

**Memo.** What can follow a partial layout depends on three things only: the next cell, the sides the
unfilled cells must match (each column's lowest filled side facing down, each row's rightmost filled
side facing right: the top and left neighbours of every cell still to fill, whichever order fills
lines), and how many pieces of each kind are left. The number of ways to finish is kept under that
key, so partial layouts that differ only in where alike pieces went are finished once. Where pieces
are all different the key rarely repeats; past :data:`MAX_STATES` keys the count gives up (None), and
the search counts instead.

**Border and classes.** A cell takes only looks whose sides on the border are flat; two touching sides
must sum to zero (a flat side meets a flat side). Every class up to the grid's turns has exactly as
many layouts as the grid has turns (the argument of :mod:`.reference`), so the classes are the
layouts divided by them.
"""
from __future__ import annotations

import sys
from functools import lru_cache

from ...core.errors import NotApplicable
from .instance import JigInstance, Sides

#: how the reports and the cross-check name this count
METHOD = "count over the pieces left"
#: the most (cell, sides to match, pieces left) keys a count remembers before it gives up: about
#: 100 MB, reached in a few seconds where the pieces are all different
MAX_STATES = 400_000
#: about how many keys a count makes in a second (pure Python, this machine): a count given seconds
#: gives up past as many keys
STATES_A_SECOND = 100_000


class TooManyStates(Exception):
    """The memo passed :data:`MAX_STATES`: the pieces are too unlike for this count."""


def _looks(sides: Sides) -> list[Sides]:
    """The distinct sides of a piece in its four turns (a quarter turn clockwise takes (T, R, B, L) to
    (L, T, R, B))."""
    found: list[Sides] = []
    turned = sides
    for _ in range(4):
        if turned not in found:
            found.append(turned)
        turned = (turned[3], turned[0], turned[1], turned[2])
    return found


def kind(sides: Sides) -> tuple[Sides, ...]:
    """What alike pieces share: their looks (pieces are alike when one's sides, turned, are the other's)."""
    return tuple(sorted(_looks(sides)))


def has_alike_pieces(instance: JigInstance) -> bool:
    """Whether two pieces of ``instance`` are alike: the only jigs where remembering pays."""
    return len({kind(sides) for sides in instance.pieces}) < len(instance.pieces)


def count_over_pieces_left(instance: JigInstance, up_to_rotation: bool = False) -> int:
    """The layouts (or the classes up to the grid's turns) by :func:`memo_counts`, both kept for the
    other's call; :class:`NotApplicable` where the memo gives up."""
    counted = _both(instance)
    return counted[1] if up_to_rotation else counted[0]


@lru_cache(maxsize=4)
def _both(instance: JigInstance) -> tuple[int, int]:
    counted = memo_counts(instance)
    if counted is None:
        raise NotApplicable(f"the {METHOD} would remember more than {MAX_STATES:,} partial layouts (its pieces are "
                            "too unlike): the searches count this jig")
    return counted


def memo_counts(instance: JigInstance, max_states: int | None = None) -> tuple[int, int] | None:
    """(layouts, classes up to the grid's turns) of ``instance``; None when the memo would pass
    ``max_states`` keys (default :data:`MAX_STATES`; the pieces too unlike: the search counts such jigs
    faster)."""
    bound = MAX_STATES if max_states is None else max_states
    rows, cols = instance.rows, instance.cols
    kinds: dict[tuple[Sides, ...], int] = {}
    for sides in instance.pieces:
        kinds[kind(sides)] = kinds.get(kind(sides), 0) + 1
    looks_of = list(kinds)
    # per cell: (left, top) it needs -> the (kind, look) that fit there, flat toward the border
    fitting: dict[tuple[bool, ...], dict[tuple[int, int], list[tuple[int, Sides]]]] = {}
    by_cell = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        inward = (r > 0, c < cols - 1, r < rows - 1, c > 0)
        if inward not in fitting:
            table: dict[tuple[int, int], list[tuple[int, Sides]]] = {}
            for number, looks in enumerate(looks_of):
                for look in looks:
                    if all(inner or side == 0 for inner, side in zip(inward, look)):
                        table.setdefault((look[3], look[0]), []).append((number, look))
            fitting[inward] = table
        by_cell.append(fitting[inward])
    # lines along the shorter side: the sides to match are fewest
    order = [r * cols + c for r in range(rows) for c in range(cols)] if cols <= rows else \
        [r * cols + c for c in range(cols) for r in range(rows)]
    need_top = [0] * cols  # what the next cell of each column needs on its top (the side above, negated)
    need_left = [0] * rows  # what the next cell of each row needs on its left
    memo: dict[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], int] = {}
    cells = len(order)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), cells + 200))

    def finish(step: int, left: tuple[int, ...]) -> int:
        if step == cells:
            return 1
        key = (step, tuple(need_top), tuple(need_left), left)
        known = memo.get(key)
        if known is not None:
            return known
        if len(memo) >= bound:
            raise TooManyStates
        cell = order[step]
        r, c = divmod(cell, cols)
        above, before = need_top[c], need_left[r]
        total = 0
        for number, look in by_cell[cell].get((before, above), ()):
            alike = left[number]
            if alike:
                need_top[c], need_left[r] = -look[2], -look[1]
                total += alike * finish(step + 1, left[:number] + (alike - 1,) + left[number + 1:])
        need_top[c], need_left[r] = above, before
        memo[key] = total
        return total

    try:
        layouts = finish(0, tuple(kinds.values()))
    except TooManyStates:
        return None
    turns = 1 if cells == 1 else 4 if rows == cols else 2
    return layouts, layouts // turns
