"""Anchoring a tiling at a piece that is proven to be a corner, by patch support.

Arc consistency on cells needs an anchor to prune from: pinning piece 0's orientation says nothing about
where it stands. When borders repeat (generated jigsaws from N ~ 20 on: 10-character borders fall into
only 528 classes, so a side has 8 look-alikes at N = 30 and 20 at N = 50), no side is recognisably
outer, no corner is known, and the pruning does nothing.

In an R x C assembly every pair of neighbours lies inside some k x k patch for any k <= min(R, C): k x k
variants of distinct pieces whose inner sides all fit. Patches are built level by level (2x2 from
fitting pairs, then (k+1)x(k+1) from four overlapping k x k ones) up to :data:`PATCH`; a fitting pair
in no patch is impossible in every assembly. A side in no surviving pair therefore faces the border,
and a piece with two such sides is a corner. Putting the least such corner at the top-left (one
orientation per symmetry class) is a symmetry breaking, and the domains grow from it along the
surviving pairs. On generated jigsaws of 10x10 tiles, 50x50: 378k quads (19k true), 38k 3x3 patches,
21k 4x4 patches (17.7k true); every cell then keeps exactly one placement.
"""
from __future__ import annotations

from collections import defaultdict, deque

from .problem import BOTTOM, LEFT, RIGHT, TOP, TilingProblem

#: patches of this side are built (when the grid allows): 4x4 leaves almost no false pairs on generated
#: 50x50 jigsaws, where 2x2 and 3x3 patches leave too many to prove any corner
PATCH = 4

Patch = tuple[int, ...]  # k x k variants, row-major


def anchored_domains(problem: TilingProblem) -> list[list[int]] | None:
    """Per cell, the variants that may stand there in the assemblies that have the proven corner piece
    of least index at the top-left (one per class of grid symmetries); None when no corner is proven
    or the grid has a single row or column."""
    size = min(problem.rows, problem.cols, PATCH)
    if size < 2:
        return None
    right_of: dict[int, set[int]] = defaultdict(set)
    below: dict[int, set[int]] = defaultdict(set)
    for patch in _patches(problem, size):
        for r in range(size):
            for c in range(size):
                here = patch[r * size + c]
                if c + 1 < size:
                    right_of[here].add(patch[r * size + c + 1])
                if r + 1 < size:
                    below[here].add(patch[(r + 1) * size + c])
    anchors = _corner_anchors(problem, right_of, below)
    if not anchors:
        return None
    return _grow(problem, anchors, right_of, below)


def _patches(problem: TilingProblem, size: int) -> list[Patch]:
    """Every size x size patch of variants of distinct pieces whose inner sides all fit."""
    piece = [v.piece for v in problem.variants]
    patches = _quads(problem, piece)
    for k in range(2, size):
        patches = _larger(patches, k, piece)
    return patches


def _quads(problem: TilingProblem, piece: list[int]) -> list[Patch]:
    """2x2 patches, joined from fitting vertical pairs: a pair (u above w) meets the pairs (v above x)
    whose left keys are u's and w's right keys, one dictionary lookup per pair."""
    variants = problem.variants
    by_top: dict = defaultdict(list)
    for i, v in enumerate(variants):
        if v.keys[TOP] is not None:
            by_top[v.keys[TOP]].append(i)
    pairs = [(u, w) for u, vu in enumerate(variants) if vu.keys[BOTTOM] is not None
             for w in by_top.get(vu.keys[BOTTOM], ()) if piece[w] != piece[u]]
    by_left_keys: dict = defaultdict(list)
    for u, w in pairs:
        keys = (variants[u].keys[LEFT], variants[w].keys[LEFT])
        if None not in keys:
            by_left_keys[keys].append((u, w))
    quads = []
    for u, w in pairs:
        for v, x in by_left_keys.get((variants[u].keys[RIGHT], variants[w].keys[RIGHT]), ()):
            if len({piece[u], piece[w], piece[v], piece[x]}) == 4:
                quads.append((u, v, w, x))
    return quads


def _larger(patches: list[Patch], k: int, piece: list[int]) -> list[Patch]:
    """(k+1) x (k+1) patches from k x k ones: a patch, the one overlapping it shifted one column right,
    the one shifted one row down, and the diagonal one, which those three fix except its last cell."""
    without_last_column: dict = defaultdict(list)
    without_last_row: dict = defaultdict(list)
    without_last_cell: dict = defaultdict(list)
    for p in patches:
        without_last_column[tuple(p[r * k + c] for r in range(k) for c in range(k - 1))].append(p)
        without_last_row[p[:k * (k - 1)]].append(p)
        without_last_cell[p[:-1]].append(p)
    larger = []
    for p in patches:
        for right in without_last_column.get(tuple(p[r * k + c] for r in range(k) for c in range(1, k)), ()):
            top = [p[r * k:(r + 1) * k] + (right[r * k + k - 1],) for r in range(k)]  # rows 0..k-1
            for down in without_last_row.get(p[k:], ()):
                bottom = down[(k - 1) * k:]  # row k, columns 0..k-1
                diagonal = tuple(x for row in top[1:] for x in row[1:]) + bottom[1:]
                for last in without_last_cell.get(diagonal, ()):
                    grid = tuple(x for row in top for x in row) + bottom + (last[-1],)
                    if len({piece[i] for i in grid}) == len(grid):
                        larger.append(grid)
    return larger


def _corner_anchors(problem: TilingProblem, right_of: dict[int, set[int]], below: dict[int, set[int]]) -> list[int]:
    """The variants of the least proven corner piece with their two outer sides at the top and left,
    one per orbit of the grid symmetries (for a square grid, a corner and its transpose are one)."""
    has_left = {v for partners in right_of.values() for v in partners}
    has_top = {w for partners in below.values() for w in partners}
    variants = problem.variants
    corners = [i for i, v in enumerate(variants)
               if i not in has_left and i not in has_top and v.outer_ok[TOP] and v.outer_ok[LEFT]]
    if not corners:
        return []
    corner = min(variants[i].piece for i in corners)
    anchors: list[int] = []
    covered: set[int] = set()
    for i in corners:
        orientation = variants[i].orientation
        if variants[i].piece == corner and orientation not in covered:
            anchors.append(i)
            covered.update(symmetry[orientation] for symmetry in problem.grid_symmetries)
    return anchors


def _grow(problem: TilingProblem, anchors: list[int], right_of: dict[int, set[int]],
          below: dict[int, set[int]]) -> list[list[int]]:
    """Shell by shell from the anchor (row k, then column k): a cell may hold what forms a surviving
    pair with some variant of each neighbour already grown. A cell grown from one neighbour only (the
    first of a row or column) starts with every look-alike; the cells grown next to it cut those down at
    once (arc consistency among grown cells), before false leads can spread along the border."""
    variants, rows, cols = problem.variants, problem.rows, problem.cols
    corner = variants[anchors[0]].piece
    partners = {RIGHT: right_of, BOTTOM: below, LEFT: _reversed(right_of), TOP: _reversed(below)}
    domains: dict[tuple[int, int], set[int]] = {(0, 0): set(anchors)}
    for r, c in _shells(rows, cols):
        grown = [(side, cell) for side, cell in _neighbour_cells(r, c, rows, cols) if cell in domains]
        candidates = set.intersection(*({v for u in domains[cell] for v in partners[_OPPOSITE[side]].get(u, ())}
                                        for side, cell in grown))
        outer = [side for side, (rr, cc) in _neighbour_cells(r, c, rows, cols, inside=False) if not _within(rr, cc, rows, cols)]
        domains[r, c] = {i for i in candidates if variants[i].piece != corner
                         and all(variants[i].outer_ok[side] for side in outer)}
        _revise_from(domains, (r, c), partners, rows, cols)
    return [sorted(domains[divmod(cell, cols)]) for cell in range(rows * cols)]


_OPPOSITE = {TOP: BOTTOM, BOTTOM: TOP, LEFT: RIGHT, RIGHT: LEFT}
_STEP = {TOP: (-1, 0), RIGHT: (0, 1), BOTTOM: (1, 0), LEFT: (0, -1)}


def _shells(rows: int, cols: int) -> list[tuple[int, int]]:
    """Cells other than (0, 0) in an order where each has its upper or left neighbour before it."""
    order = []
    for k in range(1, max(rows, cols)):
        if k < rows:
            order += [(k, c) for c in range(min(k, cols))]
        if k < cols:
            order += [(r, k) for r in range(min(k + 1, rows))]
    return order


def _within(r: int, c: int, rows: int, cols: int) -> bool:
    return 0 <= r < rows and 0 <= c < cols


def _neighbour_cells(r: int, c: int, rows: int, cols: int, inside: bool = True) -> list[tuple[int, tuple[int, int]]]:
    """(side, neighbouring cell) of (r, c); with ``inside=False`` also the positions off the grid."""
    cells = [(side, (r + dr, c + dc)) for side, (dr, dc) in _STEP.items()]
    return [(side, cell) for side, cell in cells if not inside or _within(*cell, rows, cols)]


def _revise_from(domains: dict[tuple[int, int], set[int]], start: tuple[int, int],
                 partners: dict[int, dict[int, set[int]]], rows: int, cols: int) -> None:
    """Arc consistency among the grown cells, starting from the neighbours of ``start``."""
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for side, other in _neighbour_cells(*cell, rows, cols):
            if other not in domains:
                continue
            facing = partners[_OPPOSITE[side]]
            keep = {u for u in domains[other] if facing.get(u, set()) & domains[cell]}
            if len(keep) < len(domains[other]):
                domains[other] = keep
                queue.append(other)


def _reversed(relation: dict[int, set[int]]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = defaultdict(set)
    for u, partners in relation.items():
        for v in partners:
            out[v].add(u)
    return out
