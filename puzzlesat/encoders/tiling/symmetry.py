"""Symmetry breaking for tilings: exactly one assembly of every orbit of the grid's symmetry group.

The group G of whole-grid symmetries (a square jig: 4 turns; a non-square jig: the half turn; a jigsaw:
8 or 4 with mirrors) acts on assemblies and on *placements* (cell, variant): g moves the cell and turns
the piece with it. Pick a piece p. Across the orbit of an assembly A, p's placements form the G-orbit
of p's placement in A. Keep one placement per G-orbit (a *transversal* T); then

- if the kept placement r has a trivial stabiliser (no g other than the identity fixes both its cell and
  its look), exactly one member of A's orbit puts p at r: the members g·A with g·(p in A) = r are one
  coset of the stabiliser, here a single g;
- otherwise the members that put p at r are the orbit of one of them under the stabiliser H of r, and
  the same argument repeats inside H with another piece q: "p at r implies q in a transversal of its
  placements under H" (a clause), and so on while stabilisers stay non-trivial.

The chain ends when the stabiliser is trivial, or when every piece has been used: then every remaining
member of H fixes every piece's placement, so they are all one assembly, counted once. This is sound for
any grid shape, flat internal edges and pieces that look the same after a turn (whose stabilisers are
exactly what this handles); each level takes the piece with the fewest fixed placements, so on ordinary
inputs (an asymmetric piece exists) the first level is all there is. ``tests/test_brute_force.py``
compares it with brute force on every grid shape up to six cells, square and not.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ...core.errors import PuzzlesatError
from .problem import Placement, TilingProblem

#: the most clauses of the chain. Pieces that all look alike and are fixed by the same symmetries (16
#: blank jigsaw tiles) keep the stabiliser from shrinking, and the chain branches at every level
#: (4 ** 16 clauses); such inputs are refused at once rather than left to exhaust the memory.
MAX_CLAUSES = 20_000

#: "if all these placements hold, one of those must": the deeper levels of the chain
BreakingClause = tuple[tuple[Placement, ...], tuple[Placement, ...]]


@dataclass(frozen=True)
class SymmetryBreaking:
    """Piece ``piece`` may stand only at ``first`` (a transversal of its placements under G); the
    ``clauses`` break what the stabilisers of those placements leave."""

    piece: int
    first: tuple[Placement, ...]
    clauses: tuple[BreakingClause, ...]


def breaking(problem: TilingProblem, piece: int, placements: Iterable[Placement],
             rank: Callable[[Placement], tuple[int, int]] = lambda placement: placement) -> SymmetryBreaking:
    """Break G with ``piece`` first. ``placements`` must contain every placement of ``piece`` that any
    assembly uses (it may contain more); of each orbit the one of least ``rank`` is kept."""
    maps = problem.placement_maps
    group = list(range(len(maps)))
    kept = _transversal(maps, group, placements, rank)
    clauses: list[BreakingClause] = []
    for placement, stabiliser in kept:
        if len(stabiliser) > 1:
            _deeper(problem, maps, stabiliser, (placement,), {piece}, clauses)
    return SymmetryBreaking(piece, tuple(placement for placement, _ in kept), tuple(clauses))


def freest_piece(problem: TilingProblem, group: list[int] | None = None, among: Iterable[int] | None = None) -> int | None:
    """The piece with the fewest placements fixed by a symmetry other than the identity (ties: the
    least index): the cheapest piece to break ``group`` with."""
    maps = problem.placement_maps
    group = group if group is not None else list(range(len(maps)))
    candidates = list(among if among is not None else range(problem.num_pieces))
    if not candidates:
        return None
    return min(candidates, key=lambda piece: (_fixed_placements(problem, maps, group, piece), piece))


def _fixed_placements(problem: TilingProblem, maps: list[tuple[list[int], list[int]]], group: list[int],
                      piece: int) -> int:
    fixed = 0
    for variant in problem.variants_of(piece):
        for g in group:
            cells, variants = maps[g]
            if g != 0 and variants[variant] == variant:  # symmetry 0 is the identity
                fixed += sum(cells[cell] == cell for cell in range(problem.cells))
    return fixed


def _orbit(maps: list[tuple[list[int], list[int]]], group: list[int], placement: Placement) -> list[tuple[int, Placement]]:
    cell, variant = placement
    return [(g, (maps[g][0][cell], maps[g][1][variant])) for g in group]


def _transversal(maps: list[tuple[list[int], list[int]]], group: list[int], placements: Iterable[Placement],
                 rank: Callable[[Placement], tuple[int, int]]) -> list[tuple[Placement, list[int]]]:
    """One placement per orbit under ``group`` (the least ranked of the given ones), with its stabiliser."""
    given = sorted(set(placements), key=rank)
    covered: set[Placement] = set()
    kept = []
    for placement in given:
        if placement in covered:
            continue
        orbit = _orbit(maps, group, placement)
        covered.update(image for _, image in orbit)
        kept.append((placement, [g for g, image in orbit if image == placement]))
    return kept


def _deeper(problem: TilingProblem, maps: list[tuple[list[int], list[int]]], group: list[int],
            condition: tuple[Placement, ...], used: set[int], clauses: list[BreakingClause]) -> None:
    """Break the stabiliser ``group`` of the placements in ``condition`` with the next piece."""
    if len(clauses) >= MAX_CLAUSES:
        raise PuzzlesatError(f"symmetry breaking needs more than {MAX_CLAUSES:,} clauses: too many pieces look "
                             "alike under the grid's symmetries (this toolkit's limit)")
    piece = freest_piece(problem, group, (p for p in range(problem.num_pieces) if p not in used))
    if piece is None:
        return  # every piece is fixed by the whole group: its members leave the assembly as it is
    placements = [(cell, variant) for cell in range(problem.cells) for variant in problem.variants_of(piece)]
    kept = _transversal(maps, group, placements, lambda placement: placement)
    clauses.append((condition, tuple(placement for placement, _ in kept)))
    for placement, stabiliser in kept:
        if len(stabiliser) > 1:
            _deeper(problem, maps, stabiliser, condition + (placement,), used | {piece}, clauses)
