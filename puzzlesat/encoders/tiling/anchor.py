"""Anchoring a tiling at a piece that is proven to be a corner, by patch support.

Arc consistency on cells needs an anchor to prune from: pinning piece 0's orientation says nothing about
where it stands. When borders repeat (generated jigsaws from N ~ 20 on: 10-character borders fall into
only 528 classes, so a side has 8 look-alikes at N = 30 and 20 at N = 50), no side is recognisably
outer, no corner is known, and the pruning does nothing.

In an R x C assembly every pair of neighbours lies inside some k x k patch for any k <= min(R, C): k x k
variants of distinct pieces whose inner sides all fit. Patches are built level by level (2x2 from
fitting pairs, then (k+1)x(k+1) from four overlapping k x k ones) up to :data:`PATCH`; a fitting pair
in no patch is impossible in every assembly. A side in no surviving pair therefore faces the border,
and a piece with two such sides is a corner. Keeping that piece at one corner placement per orbit of
the grid's symmetries is a symmetry breaking (:mod:`.symmetry` argues it; a square grid keeps one
corner, a non-square jig two), and the domains grow from each kept corner along the surviving pairs. On generated
jigsaws of 10x10 tiles, 50x50: 378k quads (19k true), 38k 3x3 patches,
21k 4x4 patches (17.7k true); every cell then keeps exactly one placement.
"""
from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import Any

from .problem import BOTTOM, LEFT, OPPOSITE, RIGHT, TOP, Placement, TilingProblem
from .symmetry import SymmetryBreaking, breaking, freest_piece

#: patches of this side are built (when the grid allows): 4x4 leaves almost no false pairs on generated
#: 50x50 jigsaws, where 2x2 and 3x3 patches leave too many to prove any corner
PATCH = 4
#: the candidate patches examined at one size (joins tried, kept or not) per variant of the problem:
#: past that many, anchoring is given up before the patches are built, since it only prunes (sound
#: either way). A budget in proportion to the problem, so that a small one gives up in milliseconds:
#: measured, a generated 50x50 jigsaw (20,000 variants), which anchoring is what solves, needs between
#: 25 and 50 a variant, and a 60x60 one (the generator's largest; seed 0) between 160 and 200: at 100
#: it gave up, and its unpruned formula ran out of 10 GB. A 4x4 jig of two tab types and flat inner
#: edges examined 60 M joins (940k a variant) and built a million patches in 4.5-5.8 s to prove nothing
EXAMINED_PER_VARIANT = 400

Patch = tuple[int, ...]  # k x k variants, row-major
Sides = tuple[set[int], set[int], set[int], set[int]]  # per side (top, right, bottom, left): variants


@dataclass(frozen=True)
class Anchoring:
    """Domains grown from the kept placements of a proven corner piece, and the symmetry breaking that
    keeps them (see :mod:`.symmetry`)."""

    domains: tuple[tuple[int, ...], ...]
    breaking: SymmetryBreaking


def anchored_domains(problem: TilingProblem, every_image: bool = False) -> list[list[int]] | None:
    """Per cell, the variants that may stand there in the assemblies that keep the proven corner piece
    at one placement per orbit of the grid symmetries (:func:`anchoring`); with ``every_image``, in
    every assembly (the union of those domains moved by each grid symmetry). None when no corner is
    proven or the grid has a single row or column."""
    anchored = anchoring(problem)
    if anchored is None:
        return None
    return _every_image(problem, anchored.domains) if every_image else [list(d) for d in anchored.domains]


@lru_cache(maxsize=2)  # `count` encodes one instance twice (with and without symmetry breaking)
def anchoring(problem: TilingProblem) -> Anchoring | None:
    """The domains grown from the anchor. Filters get stronger (and dearer) level by level, and the first
    that proves a corner is used: a jig's flat sides prove its corners with plain fitting pairs, while
    patches of pieces whose keys repeat a lot would be far too many to build.

    The corner piece stands in one of the four corners of every assembly. A square grid's group maps
    any corner to any other, so one corner placement is kept; a non-square jig's group (the half turn)
    has two orbits of corners, {top-left, bottom-right} and {top-right, bottom-left}, so a placement
    at the top-left and one at the top-right are kept, and the domains are the union of both growths."""
    size = min(problem.rows, problem.cols, PATCH)
    if size < 2:
        return None
    piece = [v.piece for v in problem.variants]
    right_of, below = _fitting_pairs(problem, piece)
    sides = _sides_with_partner(right_of, below)
    corners = _proven_corners(problem, sides)
    k = 1
    patches: list[Patch] = []
    while not corners and k < size:
        k += 1
        budget = EXAMINED_PER_VARIANT * len(problem.variants)
        grown = _quads(problem, below, piece, budget) if k == 2 else _larger(patches, k - 1, piece, budget)
        if grown is None:  # too many patches to be a filter worth its memory: no anchoring (sound)
            return None
        patches = grown
        sides = _inner_sides(patches, k)
        corners = _proven_corners(problem, sides)
    if not corners:
        return None
    corner = freest_piece(problem, among=corners)
    assert corner is not None
    kept = breaking(problem, corner, _corner_placements(problem, corner, sides))
    if k > 1:
        right_of, below = _pairs(patches, k)
    domains: list[set[int]] = [set() for _ in range(problem.cells)]
    for cell in sorted({cell for cell, _ in kept.first}):
        anchors = {variant for at, variant in kept.first if at == cell}
        for other, reached in enumerate(_grow(problem, cell, anchors, right_of, below)):
            domains[other].update(reached)
    return Anchoring(tuple(tuple(sorted(domain)) for domain in domains), kept)


def _every_image(problem: TilingProblem, domains: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """Every assembly is the image, under some grid symmetry, of one with the anchor kept."""
    images: list[set[int]] = [set() for _ in domains]
    for cells, variants in problem.placement_maps:
        for cell, image in enumerate(cells):
            images[image].update(variants[i] for i in domains[cell])
    return [sorted(domain) for domain in images]


def _fitting_pairs(problem: TilingProblem, piece: list[int]) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Who may stand right of, and below, each variant: another piece with the fitting key."""
    variants = problem.variants
    by_key: list[dict[Any, Any]] = [defaultdict(list) for _ in range(4)]
    for i, v in enumerate(variants):
        for side in (TOP, LEFT):
            if v.keys[side] is not None:
                by_key[side][v.keys[side]].append(i)
    right_of: dict[int, set[int]] = defaultdict(set)
    below: dict[int, set[int]] = defaultdict(set)
    for u, v in enumerate(variants):
        for side, facing, relation in ((RIGHT, LEFT, right_of), (BOTTOM, TOP, below)):
            if v.keys[side] is not None:
                partners = {w for w in by_key[facing].get(v.keys[side], ()) if piece[w] != piece[u]}
                if partners:
                    relation[u] = partners
    return right_of, below


def _pairs(patches: list[Patch], k: int) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """The fitting pairs inside k x k patches: who may stand right of, and below, each variant."""
    right_of: dict[int, set[int]] = defaultdict(set)
    below: dict[int, set[int]] = defaultdict(set)
    for patch in patches:
        for r in range(k):
            for c in range(k):
                here = patch[r * k + c]
                if c + 1 < k:
                    right_of[here].add(patch[r * k + c + 1])
                if r + 1 < k:
                    below[here].add(patch[(r + 1) * k + c])
    return right_of, below


def _quads(problem: TilingProblem, below: dict[int, set[int]], piece: list[int], budget: int) -> list[Patch] | None:
    """2x2 patches, joined from fitting vertical pairs: a pair (u above w) meets the pairs (v above x)
    whose left keys are u's and w's right keys, one dictionary lookup per pair; None past ``budget``
    joins tried."""
    keys = [v.keys for v in problem.variants]
    pairs = [(u, w) for u, under in below.items() for w in under]
    by_left_keys: dict[Any, Any] = defaultdict(list)
    for u, w in pairs:
        if keys[u][LEFT] is not None and keys[w][LEFT] is not None:
            by_left_keys[keys[u][LEFT], keys[w][LEFT]].append((u, w))
    quads: list[Patch] = []
    examined = 0
    for u, w in pairs:
        joined = by_left_keys.get((keys[u][RIGHT], keys[w][RIGHT]), ())
        examined += len(joined)
        if examined > budget:
            return None
        for v, x in joined:
            if len({piece[u], piece[w], piece[v], piece[x]}) == 4:
                quads.append((u, v, w, x))
    return quads


def _larger(patches: list[Patch], k: int, piece: list[int], budget: int) -> list[Patch] | None:
    """(k+1) x (k+1) patches from k x k ones: a patch, the one overlapping it shifted one column right,
    the one shifted one row down, and the diagonal one, which those three fix except its last cell.
    Cells are picked by precomputed ``itemgetter``s (this loop sees 400k quads at N = 50). ``None``
    once ``budget`` joins have been tried (:data:`EXAMINED_PER_VARIANT`): pieces that all fit each
    other (16 blank jigsaw tiles) make patches by the billion, a filter that proves nothing and would exhaust the memory, and
    the count of joins tried bounds the time before any of them is built."""
    n = k * k
    without_last_column = _columns(k, range(k - 1))
    without_first_column = _columns(k, range(1, k))
    # over p + right + down (+ last): the diagonal patch less its last cell, and the whole larger patch
    diagonal_key = itemgetter(*[i for r in range(1, k) for i in [r * k + c for c in range(1, k)] + [n + r * k + k - 1]]
                              + [2 * n + (k - 1) * k + c for c in range(1, k)])
    whole = itemgetter(*[i for r in range(k) for i in [r * k + c for c in range(k)] + [n + r * k + k - 1]]
                       + [2 * n + (k - 1) * k + c for c in range(k)] + [4 * n - 1])
    by_left_part: dict[Any, Any] = defaultdict(list)
    by_top_part: dict[Any, Any] = defaultdict(list)
    by_all_but_last: dict[Any, Any] = defaultdict(list)
    for p in patches:
        by_left_part[without_last_column(p)].append(p)
        by_top_part[p[:n - k]].append(p)
        by_all_but_last[p[:-1]].append(p)
    larger = []
    size = (k + 1) * (k + 1)
    examined = 0
    for p in patches:
        rights = by_left_part.get(without_first_column(p), ())
        downs = by_top_part.get(p[k:], ())
        examined += len(rights) * len(downs)
        if examined > budget:
            return None
        for right in rights:
            for down in downs:
                three = p + right + down
                lasts = by_all_but_last.get(diagonal_key(three), ())
                examined += len(lasts)
                if examined > budget:
                    return None
                for last in lasts:
                    grid = whole(three + last)
                    if len(set(map(piece.__getitem__, grid))) == size:
                        larger.append(grid)
    return larger


def _columns(k: int, columns: range) -> itemgetter[Any]:
    """Picks the cells of the given columns out of a k x k patch, row by row."""
    return itemgetter(*[r * k + c for r in range(k) for c in columns])


def _inner_sides(patches: list[Patch], k: int) -> Sides:
    """Per side (top, right, bottom, left), the variants whose side on it lies inside some patch."""
    return (set(chain.from_iterable(patch[k:] for patch in patches)),
            set(chain.from_iterable(map(_columns(k, range(k - 1)), patches))),
            set(chain.from_iterable(patch[:-k] for patch in patches)),
            set(chain.from_iterable(map(_columns(k, range(1, k)), patches))))


def _sides_with_partner(right_of: dict[int, set[int]], below: dict[int, set[int]]) -> Sides:
    """Per side, the variants with a fitting partner of another piece on that side."""
    return (set(chain.from_iterable(below.values())), {u for u, partners in right_of.items() if partners},
            {u for u, partners in below.items() if partners}, set(chain.from_iterable(right_of.values())))


def _proven_corners(problem: TilingProblem, sides: Sides) -> list[int]:
    """The pieces with a variant whose top and left sides have no partner and may face the border.
    Having a partner is a property of a physical side (every turn of every other piece is a variant,
    and patches turn with the grid), so such a piece has two neighbouring partnerless sides in every
    orientation; both must face the border, and in a grid of at least 2 x 2 only a corner cell has
    two border sides."""
    return sorted({v.piece for i, v in enumerate(problem.variants)
                   if i not in sides[TOP] and i not in sides[LEFT] and v.outer_ok[TOP] and v.outer_ok[LEFT]})


def _corner_placements(problem: TilingProblem, piece: int, sides: Sides) -> list[Placement]:
    """Every (corner cell, variant) of ``piece`` whose outward sides may face the border and whose
    inward sides have partners: a superset of where the corner piece stands in any assembly."""
    last_row, last_col = problem.rows - 1, problem.cols - 1
    corners = {0: (TOP, LEFT), last_col: (TOP, RIGHT), last_row * problem.cols: (BOTTOM, LEFT),
               problem.cells - 1: (BOTTOM, RIGHT)}
    placements = []
    for cell, outward in corners.items():
        for i in problem.variants_of(piece):
            v = problem.variants[i]
            if all(v.outer_ok[side] if side in outward else i in sides[side] for side in range(4)):
                placements.append((cell, i))
    return placements


def _grow(problem: TilingProblem, corner: int, anchors: set[int], right_of: dict[int, set[int]],
          below: dict[int, set[int]]) -> list[set[int]]:
    """Shell by shell from the anchor's corner cell: a cell may hold what forms a surviving pair with
    some variant of each neighbour already grown. A cell grown from one neighbour only (the first of a
    row or column) starts with every look-alike; the cells grown next to it cut those down at once (arc
    consistency among grown cells), before false leads can spread along the border. The anchor piece
    stands nowhere else."""
    variants = problem.variants
    piece = variants[next(iter(anchors))].piece
    partners = {RIGHT: right_of, BOTTOM: below, LEFT: _reversed(right_of), TOP: _reversed(below)}
    domains: dict[int, set[int]] = {corner: set(anchors)}
    for cell in _shells(problem.rows, problem.cols, corner):
        inside = problem.neighbours(cell)
        candidates = set.intersection(*({v for u in domains[other] for v in partners[OPPOSITE[side]].get(u, ())}
                                        for side, other in inside if other in domains))
        outer = set(range(4)) - {side for side, _ in inside}
        domains[cell] = {i for i in candidates if variants[i].piece != piece
                         and all(variants[i].outer_ok[side] for side in outer)}
        _revise_from(problem, domains, cell, partners)
    return [domains[cell] for cell in range(problem.cells)]


def _shells(rows: int, cols: int, corner: int) -> list[int]:
    """Cells other than ``corner``, shell by shell around it, each after a neighbour nearer the corner."""
    flip_rows, flip_cols = corner >= cols, corner % cols != 0
    order = []
    for k in range(1, max(rows, cols)):
        if k < rows:
            order += [(k, c) for c in range(min(k, cols))]
        if k < cols:
            order += [(r, k) for r in range(min(k + 1, rows))]
    return [(rows - 1 - r if flip_rows else r) * cols + (cols - 1 - c if flip_cols else c) for r, c in order]


def _revise_from(problem: TilingProblem, domains: dict[int, set[int]], start: int,
                 partners: dict[int, dict[int, set[int]]]) -> None:
    """Arc consistency among the grown cells, starting from the neighbours of ``start``."""
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for side, other in problem.neighbours(cell):
            if other not in domains:
                continue
            facing = partners[OPPOSITE[side]]
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
