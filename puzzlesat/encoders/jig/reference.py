"""The solver-free reference for jig: a plain search written from the rules of docs/puzzles.md, section 2.

It shares nothing with the encoders (no side keys, domains, anchoring or symmetry breaking): cells are
filled one at a time, each with an unused piece in one of its distinct looks, kept when its sides on
the border are flat and its left and top sides sum to zero with the neighbours' (a tab +k meets a
blank -k; a flat side meets a flat side). Cells go line by line along the grid's shorter side, so the
border closes a line soon; candidates are looked up by the (left, top) sides a cell needs, which is the
rule itself, indexed. One count prunes: every border side is flat, so at most (flat sides - border
sides) flat sides can face inner edges; a look that would exceed that is not tried (with exactly as
many flat sides as the border has, no flat side goes inside). Classes up to rotation are counted by turning each layout
and keeping the least
form, not by breaking symmetry in the search.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
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
    sides a cell needs; and how many flat sides may face inner edges at most."""

    rows: int
    cols: int
    order: tuple[int, ...]
    kind_of: tuple[int, ...]
    candidates: tuple[dict[tuple[int, int], list[Candidate]], ...]
    spare_flats: int


def search_plan(instance: JigInstance) -> SearchPlan:
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
    return SearchPlan(rows, cols, tuple(order), tuple(kind_of), tuple(candidates), spare_flats)


def layouts(instance: JigInstance) -> Iterator[Layout]:
    """Every layout, each once (a piece's turns that look alike are one layout)."""
    plan = search_plan(instance)
    rows, cols, order, spare_flats = plan.rows, plan.cols, plan.order, plan.spare_flats
    cells = rows * cols
    placed: list[tuple[int, int, Sides]] = [(-1, 0, (0, 0, 0, 0))] * cells
    used = [False] * len(instance.pieces)
    inner_flats = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), cells + 200))

    def fill(step: int) -> Iterator[Layout]:
        if step == cells:
            yield [(piece, turns) for piece, turns, _ in placed]
            return
        cell = order[step]
        r, c = divmod(cell, cols)
        left = -placed[cell - 1][2][1] if c else 0  # sums to zero with the left neighbour's right side
        top = -placed[cell - cols][2][2] if r else 0
        for piece, turns, look, flats_inside in plan.candidates[plan.kind_of[cell]].get((left, top), ()):
            if used[piece] or inner_flats[0] + flats_inside > spare_flats:
                continue
            used[piece] = True
            inner_flats[0] += flats_inside
            placed[cell] = (piece, turns, look)
            yield from fill(step + 1)
            inner_flats[0] -= flats_inside
            used[piece] = False

    yield from fill(0)


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
