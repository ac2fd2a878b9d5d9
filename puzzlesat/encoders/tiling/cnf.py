"""Exact-one cover CNF of a tiling.

``place(cell, piece, orientation)`` for every placement that survives :func:`cell_domains`. Each cell
has at least one placement and each piece exactly one (at-least-one clause plus a ``pysat.card``
at-most-one); with as many cells as pieces that forces exactly one per cell too, and a per-cell
at-most-one is added anyway because it propagates. Fitting neighbours are *support* clauses written only
from compatible pairs: "this placement implies one of the placements next door whose side key fits",
found through a key index, so no clause is ever written per incompatible pair. With symmetry breaking,
the pruning keeps the breaking piece's first-level placements and clauses add the deeper levels.
"""
from __future__ import annotations

from typing import Any

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...core.encoding import Encoding
from ...core.model import CnfModel
from .domains import cell_domains, symmetry_breaking
from .problem import OPPOSITE, TilingProblem


def encode_tiling(problem: TilingProblem, break_symmetry: bool, cardinality: str, pool: IDPool | None = None) -> Encoding:
    amo = getattr(EncType, cardinality)
    variants = problem.variants
    domains = cell_domains(problem, break_symmetry)
    pool = pool if pool is not None else IDPool()
    cells = problem.rows * problem.cols
    var = [{i: pool.id(("place", cell // problem.cols, cell % problem.cols, variants[i].piece,
                        variants[i].orientation)) for i in domain} for cell, domain in enumerate(domains)]
    clauses: list[list[int]] = []
    by_piece: list[list[int]] = [[] for _ in range(problem.num_pieces)]
    for cell in range(cells):
        lits = list(var[cell].values())
        clauses.append(lits)  # empty when no placement fits: the formula is then unsatisfiable
        if len(lits) > 1:
            clauses.extend(CardEnc.atmost(lits, bound=1, vpool=pool, encoding=amo).clauses)
        for i, v in var[cell].items():
            by_piece[variants[i].piece].append(v)
    for lits in by_piece:
        clauses.append(lits)
        if len(lits) > 1:
            clauses.extend(CardEnc.atmost(lits, bound=1, vpool=pool, encoding=amo).clauses)
    # key index: cell -> side -> key -> [(var, piece)]
    index: list[list[dict[Any, Any]]] = [[{} for _ in range(4)] for _ in range(cells)]
    for cell in range(cells):
        for i, v in var[cell].items():
            variant = variants[i]
            for side in range(4):
                index[cell][side].setdefault(variant.keys[side], []).append((v, variant.piece))
    for cell in range(cells):
        for side, other in problem.neighbours(cell):
            facing = index[other][OPPOSITE[side]]
            for i, v in var[cell].items():
                variant = variants[i]
                clauses.append([-v] + [w for w, piece in facing.get(variant.keys[side], ()) if piece != variant.piece])
    if break_symmetry:
        clauses.extend(_breaking_clauses(problem, var))
    if any(not clause for clause in clauses):
        # no placement for some cell or piece: keep the formula valid DIMACS (no empty clause) yet UNSAT
        contradiction = pool.id(("no_placement",))
        clauses = [clause for clause in clauses if clause] + [[contradiction], [-contradiction]]
    show = [v for cell_vars in var for v in cell_vars.values()]
    return Encoding("cnf", pool=pool, clauses=clauses, show=show,
                    info={"break_symmetry": break_symmetry, "at_most_one": cardinality})


def _breaking_clauses(problem: TilingProblem, var: list[dict[int, int]]) -> list[list[int]]:
    """The deeper levels of the symmetry breaking (:mod:`.symmetry`), over the placements that survived
    the pruning: a pruned condition makes its clause hold already, a pruned option is false."""
    out = []
    for condition, options in symmetry_breaking(problem).clauses:
        if all(variant in var[cell] for cell, variant in condition):
            out.append([-var[cell][variant] for cell, variant in condition]
                       + [var[cell][variant] for cell, variant in options if variant in var[cell]])
    return out


def decode_tiling(rows: int, cols: int, encoding: Encoding, model: CnfModel) -> list[tuple[int, int]]:
    """(piece, orientation) of every cell, row-major; (-1, -1) where no placement is true (the checker
    then rejects the solution)."""
    placed: list[tuple[int, int] | None] = [None] * (rows * cols)
    for v in encoding.show:
        if model.value(v):
            _, r, c, piece, orientation = encoding.variables.obj(v)
            placed[r * cols + c] = (piece, orientation)
    return [p if p is not None else (-1, -1) for p in placed]
