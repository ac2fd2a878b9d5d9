"""Which variants can stand in which cell: border rules plus arc consistency on side keys.

A variant survives in a cell only if each inside side has, in the neighbouring cell, a surviving
variant of another piece with the fitting key. This is enforced with a work queue (AC-3): each cell
keeps, per side, which pieces offer each key, rebuilt when its domain shrinks, and a cell is revised
only when a neighbour lost something. It removes most placements (edge and corner
cells, impossible keys, then inwards) before any clause is written, for both encoders (the references
search from the rules and share none of it).

Why a removed placement is in no solution: in every solution each inside side of a cell touches the
side of the neighbouring cell's piece, another piece, and the two keys are equal; so a variant with no
such partner left in the neighbour's domain cannot stand there. Removing it from a domain never removes
a solution, and a solution's placements therefore stay in every domain as others are removed.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

from .anchor import anchored_domains, anchoring
from .problem import OPPOSITE, TilingProblem, Variant
from .symmetry import SymmetryBreaking, breaking, freest_piece


def _initial(problem: TilingProblem) -> list[list[int]]:
    """Border rules (a side on the border must be allowed there), and every inside side must fit the
    side of some other piece's variant anywhere (a global first cut of the argument above)."""
    variants = problem.variants
    offered: list[dict[Any, Any]] = [{} for _ in range(4)]  # side -> key -> pieces offering it on that side
    for v in variants:
        for side in range(4):
            offered[side].setdefault(v.keys[side], set()).add(v.piece)

    def fits(v: Variant, side: int) -> bool:
        partners = offered[OPPOSITE[side]].get(v.keys[side])
        return v.keys[side] is not None and bool(partners) and partners != {v.piece}

    by_inside: dict[frozenset[int | None], list[int]] = {}
    domains = []
    for cell in range(problem.rows * problem.cols):
        inside = frozenset(side for side, _ in problem.neighbours(cell))
        if inside not in by_inside:
            by_inside[inside] = [i for i, v in enumerate(variants)
                                 if all(v.outer_ok[s] or s in inside for s in range(4))
                                 and all(fits(v, s) for s in inside)]
        domains.append(list(by_inside[inside]))
    return domains


#: in an offer map, a key offered by two or more pieces (any variant of another piece then fits)
SEVERAL = -1


def _offers(problem: TilingProblem, domain: list[int]) -> list[dict[Any, Any]]:
    """side -> key -> the one piece offering that key on that side over ``domain``, or SEVERAL.
    That is all a support check needs ("is there a fitting variant of *another* piece?") and it is
    cheaper to build than sets of pieces."""
    per_side: list[dict[Any, Any]] = [{} for _ in range(4)]
    for i in domain:
        v = problem.variants[i]
        piece = v.piece
        for side, key in enumerate(v.keys):
            offered = per_side[side]
            seen = offered.get(key)
            if seen is None:
                offered[key] = piece
            elif seen != piece:
                offered[key] = SEVERAL
    return per_side


def clear_caches() -> None:
    """Forget the per-problem anchoring and symmetry breaking (benchmarks time them cold)."""
    anchoring.cache_clear()
    _unanchored_breaking.cache_clear()


def symmetry_breaking(problem: TilingProblem) -> SymmetryBreaking:
    """What keeps one assembly per symmetry class: the corner anchoring's when a corner is proven, else
    the piece with the fewest fixed placements kept at one placement per orbit (:mod:`.symmetry`)."""
    anchored = anchoring(problem)
    return anchored.breaking if anchored is not None else _unanchored_breaking(problem)


@lru_cache(maxsize=2)
def _unanchored_breaking(problem: TilingProblem) -> SymmetryBreaking:
    """Ranked by variant first, so a piece that no symmetry fixes keeps one orientation per orbit in
    every cell (the usual "fix piece 0's orientation")."""
    piece = freest_piece(problem)
    assert piece is not None
    placements = [(cell, i) for i in problem.variants_of(piece) for cell in range(problem.cells)]
    return breaking(problem, piece, placements, rank=lambda placement: (placement[1], placement[0]))


def cell_domains(problem: TilingProblem, break_symmetry: bool = False) -> list[list[int]]:
    """For every cell, the indices of the variants that may stand there. When a corner piece is proven
    (see :mod:`.anchor`), the domains grow from its kept corner placements: with ``break_symmetry``
    that keeps the assemblies of :func:`symmetry_breaking`'s first level, without it every image of
    those is allowed. Otherwise, with ``break_symmetry``, the breaking piece keeps only its first-level
    placements. Either way the deeper breaking clauses, if any, are the encoders' to add."""
    variants = problem.variants
    anchored = anchored_domains(problem, every_image=not break_symmetry)
    if anchored is not None:
        domains = anchored
    else:
        domains = _initial(problem)
        if break_symmetry:
            kept = symmetry_breaking(problem)
            allowed = set(kept.first)
            domains = [[i for i in d if variants[i].piece != kept.piece or (cell, i) in allowed]
                       for cell, d in enumerate(domains)]
    cells = len(domains)
    neighbours = [problem.neighbours(cell) for cell in range(cells)]
    # cells of one kind (corner, edge, interior) start with equal domains: build their offers once
    shared: dict[tuple[int, ...], list[dict[Any, Any]]] = {}
    offers = []
    for domain in domains:
        kind = tuple(domain)
        if kind not in shared:
            shared[kind] = _offers(problem, domain)
        offers.append(shared[kind])
    # revise the most constrained cells (fewest inside sides) first: pruning spreads inwards from there
    queue = deque(sorted(range(cells), key=lambda cell: len(neighbours[cell])))
    queued = [True] * cells
    while queue:
        cell = queue.popleft()
        queued[cell] = False
        keep = []
        for i in domains[cell]:
            v = variants[i]
            for side, other in neighbours[cell]:
                offered = offers[other][OPPOSITE[side]].get(v.keys[side])
                if offered is None or offered == v.piece:
                    break
            else:
                keep.append(i)
        if len(keep) == len(domains[cell]):
            continue
        # domains shrink sharply (hundreds of variants to a few), so rebuilding beats decrementing
        domains[cell] = keep
        offers[cell] = _offers(problem, keep)
        for _, other in neighbours[cell]:
            if not queued[other]:
                queued[other] = True
                queue.append(other)
    return domains
