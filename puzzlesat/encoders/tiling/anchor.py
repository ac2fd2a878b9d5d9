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
from functools import lru_cache
from itertools import chain
from operator import itemgetter

from .problem import BOTTOM, LEFT, OPPOSITE, RIGHT, TOP, TilingProblem

#: patches of this side are built (when the grid allows): 4x4 leaves almost no false pairs on generated
#: 50x50 jigsaws, where 2x2 and 3x3 patches leave too many to prove any corner
PATCH = 4

Patch = tuple[int, ...]  # k x k variants, row-major


def anchored_domains(problem: TilingProblem, every_image: bool = False) -> list[list[int]] | None:
    """Per cell, the variants that may stand there in the assemblies that have the proven corner piece
    of least index at the top-left (one per class of grid symmetries); with ``every_image``, in every
    assembly (the union of those domains moved by each grid symmetry). None when no corner is proven
    or the grid has a single row or column."""
    domains = _anchored(problem)
    if domains is None:
        return None
    return _every_image(problem, domains) if every_image else [list(domain) for domain in domains]


@lru_cache(maxsize=2)  # `count` encodes one instance twice (with and without symmetry breaking)
def _anchored(problem: TilingProblem) -> tuple[tuple[int, ...], ...] | None:
    """The domains grown from the anchor. Filters get stronger (and dearer) level by level, and the first
    that proves a corner is used: a jig's flat sides prove its corners with plain fitting pairs, while
    patches of pieces whose keys repeat a lot would be far too many to build."""
    size = min(problem.rows, problem.cols, PATCH)
    if size < 2:
        return None
    piece = [v.piece for v in problem.variants]
    right_of, below = _fitting_pairs(problem, piece)
    anchors = _corner_anchors(problem, set(chain.from_iterable(right_of.values())),
                              set(chain.from_iterable(below.values())))
    k = 1
    patches: list[Patch] = []
    while not anchors and k < size:
        k += 1
        patches = _quads(problem, below, piece) if k == 2 else _larger(patches, k - 1, piece)
        anchors = _corner_anchors(problem, *_inner_sides(patches, k))
    if not anchors:
        return None
    domains = _grow(problem, anchors, *(_pairs(patches, k) if k > 1 else (right_of, below)))
    return tuple(tuple(domain) for domain in domains)


def _every_image(problem: TilingProblem, domains: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """Every assembly is the image, under some grid symmetry, of one with the anchor at the top-left."""
    index = {(v.piece, v.orientation): i for i, v in enumerate(problem.variants)}
    images: list[set[int]] = [set() for _ in domains]
    for orientations, transform in zip(problem.grid_symmetries, problem.grid_transforms):
        for cell, image in enumerate(problem.cell_map(transform)):
            variants = (problem.variants[i] for i in domains[cell])
            images[image].update(index[v.piece, orientations[v.orientation]] for v in variants)
    return [sorted(domain) for domain in images]


def _fitting_pairs(problem: TilingProblem, piece: list[int]) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Who may stand right of, and below, each variant: another piece with the fitting key."""
    variants = problem.variants
    by_key: list[dict] = [defaultdict(list) for _ in range(4)]
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


def _quads(problem: TilingProblem, below: dict[int, set[int]], piece: list[int]) -> list[Patch]:
    """2x2 patches, joined from fitting vertical pairs: a pair (u above w) meets the pairs (v above x)
    whose left keys are u's and w's right keys, one dictionary lookup per pair."""
    keys = [v.keys for v in problem.variants]
    pairs = [(u, w) for u, under in below.items() for w in under]
    by_left_keys: dict = defaultdict(list)
    for u, w in pairs:
        if keys[u][LEFT] is not None and keys[w][LEFT] is not None:
            by_left_keys[keys[u][LEFT], keys[w][LEFT]].append((u, w))
    quads = []
    for u, w in pairs:
        for v, x in by_left_keys.get((keys[u][RIGHT], keys[w][RIGHT]), ()):
            if len({piece[u], piece[w], piece[v], piece[x]}) == 4:
                quads.append((u, v, w, x))
    return quads


def _larger(patches: list[Patch], k: int, piece: list[int]) -> list[Patch]:
    """(k+1) x (k+1) patches from k x k ones: a patch, the one overlapping it shifted one column right,
    the one shifted one row down, and the diagonal one, which those three fix except its last cell.
    Cells are picked by precomputed ``itemgetter``s (this loop sees 400k quads at N = 50)."""
    n = k * k
    without_last_column = _columns(k, range(k - 1))
    without_first_column = _columns(k, range(1, k))
    # over p + right + down (+ last): the diagonal patch less its last cell, and the whole larger patch
    diagonal_key = itemgetter(*[i for r in range(1, k) for i in [r * k + c for c in range(1, k)] + [n + r * k + k - 1]]
                              + [2 * n + (k - 1) * k + c for c in range(1, k)])
    whole = itemgetter(*[i for r in range(k) for i in [r * k + c for c in range(k)] + [n + r * k + k - 1]]
                       + [2 * n + (k - 1) * k + c for c in range(k)] + [4 * n - 1])
    by_left_part: dict = defaultdict(list)
    by_top_part: dict = defaultdict(list)
    by_all_but_last: dict = defaultdict(list)
    for p in patches:
        by_left_part[without_last_column(p)].append(p)
        by_top_part[p[:n - k]].append(p)
        by_all_but_last[p[:-1]].append(p)
    larger = []
    size = (k + 1) * (k + 1)
    for p in patches:
        for right in by_left_part.get(without_first_column(p), ()):
            for down in by_top_part.get(p[k:], ()):
                three = p + right + down
                for last in by_all_but_last.get(diagonal_key(three), ()):
                    grid = whole(three + last)
                    if len(set(map(piece.__getitem__, grid))) == size:
                        larger.append(grid)
    return larger


def _columns(k: int, columns: range) -> itemgetter:
    """Picks the cells of the given columns out of a k x k patch, row by row."""
    return itemgetter(*[r * k + c for r in range(k) for c in columns])


def _inner_sides(patches: list[Patch], k: int) -> tuple[set[int], set[int]]:
    """The variants whose left side, and whose top side, is inside some patch."""
    return (set(chain.from_iterable(map(_columns(k, range(1, k)), patches))),
            set(chain.from_iterable(patch[k:] for patch in patches)))


def _corner_anchors(problem: TilingProblem, has_left: set[int], has_top: set[int]) -> list[int]:
    """The variants of the least proven corner piece with their two outer sides at the top and left,
    one per orbit of the grid symmetries (for a square grid, a corner and its transpose are one);
    ``has_left``/``has_top``: the variants whose left/top side may face another piece."""
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
    variants = problem.variants
    corner = variants[anchors[0]].piece
    partners = {RIGHT: right_of, BOTTOM: below, LEFT: _reversed(right_of), TOP: _reversed(below)}
    domains: dict[int, set[int]] = {0: set(anchors)}
    for cell in _shells(problem.rows, problem.cols):
        inside = problem.neighbours(cell)
        candidates = set.intersection(*({v for u in domains[other] for v in partners[OPPOSITE[side]].get(u, ())}
                                        for side, other in inside if other in domains))
        outer = set(range(4)) - {side for side, _ in inside}
        domains[cell] = {i for i in candidates if variants[i].piece != corner
                         and all(variants[i].outer_ok[side] for side in outer)}
        _revise_from(problem, domains, cell, partners)
    return [sorted(domains[cell]) for cell in range(problem.rows * problem.cols)]


def _shells(rows: int, cols: int) -> list[int]:
    """Cells other than the top-left, in an order where each has its upper or left neighbour before it."""
    order = []
    for k in range(1, max(rows, cols)):
        if k < rows:
            order += [k * cols + c for c in range(min(k, cols))]
        if k < cols:
            order += [r * cols + k for r in range(min(k + 1, rows))]
    return order


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
