"""Anchoring a tiling at a piece that is proven to be a corner, by 2x2 "quad" support.

Arc consistency on cells needs an anchor to prune from: pinning piece 0's orientation says nothing about
where it stands. When borders repeat (generated jigsaws from N ~ 20 on: 10-character borders fall into
only 528 classes), no side is recognisably outer, so no corner is known and the pruning does nothing.

A fitting pair of variants is only possible if it lies in a *quad*: four variants of distinct pieces
in a 2x2 square whose four inner sides fit. With at least 3 rows and 3 columns, every quad of an
assembly also has a neighbouring quad across a column pair and one across a row pair (six distinct
pieces each); quads without such neighbours are removed until none is left to remove. Everything
removed is impossible in every assembly, so a side that fits no surviving quad is proven to face the
border, and a piece with two such sides is proven to be a corner. Putting that corner at the top-left
(one orientation per symmetry class) is then a symmetry breaking, and the domains grow from it along
the surviving pairs. On generated 30x30 jigsaws of 10x10 tiles about half of the 14k quads are false,
the fixpoint leaves about 500 of them, and all four corners are proven.
"""
from __future__ import annotations

from collections import defaultdict, deque

from .problem import BOTTOM, LEFT, RIGHT, TOP, TilingProblem

Quad = tuple[int, int, int, int]  # variants at top-left, top-right, bottom-left, bottom-right


def anchored_domains(problem: TilingProblem) -> list[list[int]] | None:
    """Per cell, the variants that may stand there in the assemblies that have the proven corner piece
    of least index at the top-left (one per class of grid symmetries); None when no corner is proven
    or the grid is narrower than 3 (the quad argument needs 3 rows and 3 columns)."""
    if problem.rows < 3 or problem.cols < 3:
        return None
    quads = _supported_quads(problem)
    right_of: dict[int, set[int]] = defaultdict(set)
    below: dict[int, set[int]] = defaultdict(set)
    for u, v, w, x in quads:
        right_of[u].add(v)
        right_of[w].add(x)
        below[u].add(w)
        below[v].add(x)
    anchors = _corner_anchors(problem, right_of, below)
    if not anchors:
        return None
    return _grow(problem, anchors, right_of, below)


def _supported_quads(problem: TilingProblem) -> list[Quad]:
    variants = problem.variants
    piece = [v.piece for v in variants]
    by_left: dict = defaultdict(list)
    by_top: dict = defaultdict(list)
    by_left_top: dict = defaultdict(list)
    for i, v in enumerate(variants):
        by_left[v.keys[LEFT]].append(i)
        by_top[v.keys[TOP]].append(i)
        by_left_top[v.keys[LEFT], v.keys[TOP]].append(i)
    quads: list[Quad] = []
    for u, vu in enumerate(variants):
        if vu.keys[RIGHT] is None or vu.keys[BOTTOM] is None:
            continue
        below_u = by_top[vu.keys[BOTTOM]]
        for v in by_left[vu.keys[RIGHT]]:
            if piece[v] == piece[u] or variants[v].keys[BOTTOM] is None:
                continue
            bottom_v = variants[v].keys[BOTTOM]
            for w in below_u:
                if piece[w] in (piece[u], piece[v]) or variants[w].keys[RIGHT] is None:
                    continue
                for x in by_left_top.get((variants[w].keys[RIGHT], bottom_v), ()):
                    if piece[x] not in (piece[u], piece[v], piece[w]):
                        quads.append((u, v, w, x))
    return _fixpoint(quads, piece)


def _fixpoint(quads: list[Quad], piece: list[int]) -> list[Quad]:
    """Remove quads without a live neighbour quad across a column pair or without one across a row
    pair, until every remaining quad has both (a work queue: only neighbours of a removed quad are
    looked at again)."""
    left_column: dict = defaultdict(list)
    right_column: dict = defaultdict(list)
    top_row: dict = defaultdict(list)
    bottom_row: dict = defaultdict(list)
    for q, (u, v, w, x) in enumerate(quads):
        left_column[u, w].append(q)
        right_column[v, x].append(q)
        top_row[u, v].append(q)
        bottom_row[w, x].append(q)
    pieces = [frozenset(piece[i] for i in quad) for quad in quads]
    alive = [True] * len(quads)

    def neighbours(q: int) -> tuple[list[int], list[int]]:
        u, v, w, x = quads[q]
        return left_column[v, x] + right_column[u, w], top_row[w, x] + bottom_row[u, v]

    def any_live(q: int, candidates: list[int]) -> bool:
        return any(alive[r] and len(pieces[q] | pieces[r]) == 6 for r in candidates)

    queue = deque(range(len(quads)))
    queued = [True] * len(quads)
    while queue:
        q = queue.popleft()
        queued[q] = False
        if not alive[q]:
            continue
        across_columns, across_rows = neighbours(q)
        if any_live(q, across_columns) and any_live(q, across_rows):
            continue
        alive[q] = False
        for r in across_columns + across_rows:
            if alive[r] and not queued[r]:
                queued[r] = True
                queue.append(r)
    return [quad for quad, live in zip(quads, alive) if live]


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
