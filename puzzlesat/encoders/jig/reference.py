"""The solver-free reference for jig: a plain search written from the rules of docs/puzzles.md, section 2.

It shares nothing with the encoders (no side keys, domains, anchoring or symmetry breaking): cells are
filled one at a time, each with an unused piece in one of its distinct looks, kept when its sides on
the border are flat and its left and top sides sum to zero with the neighbours' (a tab +k meets a
blank -k; a flat side meets a flat side). Cells go line by line along the grid's shorter side, so the
border closes a line soon; candidates are looked up by the (left, top) sides a cell needs, which is the
rule itself, indexed. One count prunes: every border side is flat, so at most (flat sides - border
sides) flat sides can face inner edges; a look that would exceed that is not tried (with exactly as
many flat sides as the border has, no flat side goes inside).

The search walks one layout of each class up to rotation, its *representative*, and hands out each
representative with its turns (:func:`turning`). The grid's turns G (the four quarter turns of a square
grid, the half turn of any other) map layouts to layouts, and no turn but the identity maps a layout of
two or more cells onto itself (it moves some piece to another cell, and a piece stands in one cell
only), so each class has exactly |G| layouts, which the turns of any one of them give. The
representative is the layout whose least corner piece stands on an *anchor* corner: the top left corner
of a square grid; of any other, the top left corner and the other end of the first line the search
fills. Pieces are compared in the plan's *piece order*, the file's or the file's with one piece put
first: the argument below holds for any fixed order, and which piece comes first changes how large the
tree is (on zhurgut_10x10, 2.5-fold between its corner pieces), not what it counts. A turn in G moves
each corner along its orbit (the four corners of a square are one orbit; of a rectangle, the two pairs
of opposite corners are two), the anchors are one corner of each orbit, and the least corner piece is
the same piece in every layout of a class, so exactly one layout of each class has it on an anchor. (A
one-line grid's two end cells are its corners, one orbit, and the first cell its anchor.) The search
prunes by it twice: a *guard* corner (the others) takes only pieces above the least on the anchors; and
once the anchors are filled, at least as many unused pieces above that least must still fit the guards'
corners as there are guards (on a square whose four corner pieces are known, only the least corner piece
is tried on the top left).
Classes up to rotation are counted by turning each layout and keeping the least form
(:func:`rotation_class`), not by this search (tests/test_jig_search.py holds the search to brute force
on every shape).
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from .instance import JigInstance, Sides

Layout = list[tuple[int, int]]  # (piece index, quarter turns clockwise) per cell, row-major


def _turned(sides: Sides, turns: int) -> Sides:
    """The sides (top, right, bottom, left) after ``turns`` clockwise quarter turns."""
    out = list(sides)
    for _ in range(turns % 4):
        out = [out[3], out[0], out[1], out[2]]
    return (out[0], out[1], out[2], out[3])


def looks(sides: Sides) -> list[tuple[int, Sides]]:
    """(turns, sides) for each turn that looks different from the earlier ones."""
    seen: dict[Sides, int] = {}
    for turns in range(4):
        seen.setdefault(_turned(sides, turns), turns)
    return [(turns, look) for look, turns in seen.items()]


#: one way to fill a cell: (piece, quarter turns, its sides so turned, its flat sides facing inner edges)
Candidate = tuple[int, int, Sides, int]


@dataclass(frozen=True)
class SearchPlan:
    """What the search needs, read off the rules once: the cells in the order they are filled (line by
    line along the grid's shorter side, so the border closes a line soon), each cell's kind (which of
    its sides face inner edges), and per kind the looks that obey the border there, by the (left, top)
    sides a cell needs; how many flat sides may face inner edges at most; and the representative's
    corners (see the module docstring): the anchors, the guards, the step at which the last anchor is
    filled (-1: one cell, nothing to choose), the pieces that fit some guard's corner, and each piece's
    rank in the piece order (0 first)."""

    rows: int
    cols: int
    order: tuple[int, ...]
    kind_of: tuple[int, ...]
    candidates: tuple[dict[tuple[int, int], list[Candidate]], ...]
    spare_flats: int
    anchors: tuple[int, ...]
    guards: tuple[int, ...]
    anchor_step: int
    guard_pieces: tuple[int, ...]
    rank: tuple[int, ...]

    @property
    def turns(self) -> int:
        """|G|: the grid's turns, the identity included (each class has this many layouts)."""
        return 1 if self.rows * self.cols == 1 else 4 if self.rows == self.cols else 2


def search_plan(instance: JigInstance) -> SearchPlan:
    """The plan of ``instance``'s search, the pieces in the file's order (:func:`put_first` puts another
    piece first)."""
    rows, cols = instance.rows, instance.cols
    spare_flats = sum(side == 0 for sides in instance.pieces for side in sides) - 2 * (rows + cols)
    all_looks = [(piece, turns, look) for piece, sides in enumerate(instance.pieces) for turns, look in looks(sides)]
    kinds: dict[tuple[bool, ...], int] = {}
    candidates: list[dict[tuple[int, int], list[Candidate]]] = []
    kind_of = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        inward = (r > 0, c < cols - 1, r < rows - 1, c > 0)
        if inward not in kinds:
            kinds[inward] = len(candidates)
            table: dict[tuple[int, int], list[Candidate]] = {}
            for piece, turns, look in all_looks:
                flats_inside = sum(inner and side == 0 for inner, side in zip(inward, look))
                if all(inner or side == 0 for inner, side in zip(inward, look)) and flats_inside <= spare_flats:
                    table.setdefault((look[3], look[0]), []).append((piece, turns, look, flats_inside))
            candidates.append(table)
        kind_of.append(kinds[inward])
    order = [r * cols + c for r in range(rows) for c in range(cols)] if cols <= rows else \
        [r * cols + c for c in range(cols) for r in range(rows)]
    anchors, guards = _corners(rows, cols)
    fitting = {piece for cell in guards for table in [candidates[kind_of[cell]]]
               for found in table.values() for piece, _, _, _ in found}
    anchor_step = max(order.index(cell) for cell in anchors) if guards else -1
    return SearchPlan(rows, cols, tuple(order), tuple(kind_of), tuple(candidates), spare_flats, anchors, guards,
                      anchor_step, tuple(sorted(fitting)), tuple(range(len(instance.pieces))))


def put_first(plan: SearchPlan, first: int) -> SearchPlan:
    """``plan`` with piece ``first`` (its number in the file, from 0) first in the piece order, the
    others after it in the file's order."""
    rank = tuple(0 if piece == first else piece + (piece < first) for piece in range(len(plan.rank)))
    return replace(plan, rank=rank)


#: the most pieces :func:`first_pieces` offers (a jig's four corner pieces, unless flat sides face
#: inner edges and more pieces fit a corner)
FIRST_PIECES = 4


def first_pieces(plan: SearchPlan) -> tuple[int, ...]:
    """The pieces worth putting first in the piece order: those that fit an anchor's corner, the
    :data:`FIRST_PIECES` lowest numbered (a piece that fits no corner, put first, leaves the least
    corner piece what it was). Empty where there is nothing to choose (one cell)."""
    if not plan.guards:
        return ()
    fitting = sorted({piece for cell in plan.anchors for found in plan.candidates[plan.kind_of[cell]].values()
                      for piece, _, _, _ in found})
    return tuple(fitting[:FIRST_PIECES])


def _corners(rows: int, cols: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The anchor corners and the guard corners (module docstring): the top left corner of a square
    grid and, of any other, the far end of the first line filled too (the top right corner where lines
    are rows, the bottom left where they are columns)."""
    top_right, bottom_left, bottom_right = cols - 1, (rows - 1) * cols, rows * cols - 1
    corners = sorted({0, top_right, bottom_left, bottom_right})
    if len(corners) == 1:
        return (0,), ()
    anchors = {0} if rows == cols else {0, top_right if cols <= rows else bottom_left}
    return tuple(sorted(anchors)), tuple(cell for cell in corners if cell not in anchors)


def layouts(instance: JigInstance, plan: SearchPlan | None = None) -> Iterator[Layout]:
    """Every layout, each once (a piece's turns that look alike are one layout): each representative
    the search finds by ``plan`` (default: the file's piece order), then its turns."""
    turned = turning(instance)
    for layout in representatives(instance, plan):
        yield from turned(layout)


def representatives(instance: JigInstance, plan: SearchPlan | None = None) -> Iterator[Layout]:
    """One layout of each class up to rotation: the one whose least corner piece stands on an anchor
    (module docstring), by ``plan`` (default: the file's piece order)."""
    plan = plan or search_plan(instance)
    rank = plan.rank
    rows, cols, order, spare_flats = plan.rows, plan.cols, plan.order, plan.spare_flats
    cells = rows * cols
    placed: list[tuple[int, int, Sides]] = [(-1, 0, (0, 0, 0, 0))] * cells
    used = [False] * len(instance.pieces)
    inner_flats = [0]
    guard = [cell in plan.guards for cell in range(cells)]
    least_anchor = [-1]  # the least piece's rank on the anchors, once they are filled
    sys.setrecursionlimit(max(sys.getrecursionlimit(), cells + 200))

    def guards_can_be_filled(piece: int, cell: int) -> bool:
        """With ``piece`` on the last anchor ``cell``: enough unused pieces above the anchors' least fit
        the guards' corners (each guard takes a distinct one)."""
        least = min([rank[piece]] + [rank[placed[anchor][0]] for anchor in plan.anchors if anchor != cell])
        above = sum(1 for other in plan.guard_pieces if rank[other] > least and not used[other] and other != piece)
        least_anchor[0] = least
        return above >= len(plan.guards)

    def fill(step: int) -> Iterator[Layout]:
        if step == cells:
            yield [(piece, turns) for piece, turns, _ in placed]
            return
        cell = order[step]
        r, c = divmod(cell, cols)
        left = -placed[cell - 1][2][1] if c else 0  # sums to zero with the left neighbour's right side
        top = -placed[cell - cols][2][2] if r else 0
        for piece, turns, look, flats_inside in plan.candidates[plan.kind_of[cell]].get((left, top), ()):
            if used[piece] or inner_flats[0] + flats_inside > spare_flats or (guard[cell] and rank[piece] < least_anchor[0]):
                continue
            if step == plan.anchor_step and not guards_can_be_filled(piece, cell):
                continue
            used[piece] = True
            inner_flats[0] += flats_inside
            placed[cell] = (piece, turns, look)
            yield from fill(step + 1)
            inner_flats[0] -= flats_inside
            used[piece] = False

    yield from fill(0)


def turning(instance: JigInstance) -> Callable[[Layout], list[Layout]]:
    """A function from a layout to its class: the layout, then its images under the grid's other turns
    (a quarter turn clockwise, repeated, on a square grid; the half turn on any other), each piece's
    turns written as the least that give its look, as :func:`looks` does."""
    rows, cols = instance.rows, instance.cols
    if rows * cols == 1:
        return lambda layout: [layout]
    least_turns: list[dict[Sides, int]] = [{} for _ in instance.pieces]
    for piece, sides in enumerate(instance.pieces):
        for turns, look in looks(sides):
            least_turns[piece][look] = turns

    def turned(layout: Layout, quarter: int) -> Layout:
        """``layout`` turned clockwise ``quarter`` quarter turns (1 on a square grid, 2 on any)."""
        out: Layout = [(-1, 0)] * (rows * cols)
        for cell, (piece, turns) in enumerate(layout):
            r, c = divmod(cell, cols)
            moved = c * cols + (cols - 1 - r) if quarter == 1 else (rows - 1 - r) * cols + (cols - 1 - c)
            out[moved] = (piece, least_turns[piece][_turned(instance.pieces[piece], turns + quarter)])
        return out

    def whole_class(layout: Layout) -> list[Layout]:
        if rows != cols:
            return [layout, turned(layout, 2)]
        out = [layout]
        for _ in range(3):
            out.append(turned(out[-1], 1))
        return out
    return whole_class


def rotation_class(instance: JigInstance, layout: Layout) -> tuple[Any, ...]:
    """The least form of ``layout`` over the whole-grid rotations that map the grid onto itself (all
    four turns of a square grid, the half turn of any other): equal for layouts of one class."""
    rows, cols = instance.rows, instance.cols
    grid = [[(piece, _turned(instance.pieces[piece], turns)) for piece, turns in layout[r * cols:(r + 1) * cols]]
            for r in range(rows)]
    forms = []
    for turns in range(4):
        if turns % 2 == 0 or rows == cols:
            forms.append(tuple(cell for row in grid for cell in row))
        # one clockwise quarter turn of the whole grid: rows become columns, every piece turns once
        grid = [[(piece, _turned(sides, 1)) for piece, sides in column] for column in
                ([grid[len(grid) - 1 - i][c] for i in range(len(grid))] for c in range(len(grid[0])))]
    return min(forms)
