"""Native SMT encoding of a tiling for Z3: one integer per cell naming its variant.

The variant's piece and side keys are uninterpreted functions pinned by a table, so "each piece once"
is a single ``Distinct`` over the cells' pieces and "touching sides fit" an equality of keys, instead of
the CNF's one Boolean per placement. Cells range over the same arc-consistent domains as the CNF, with the same symmetry breaking.
"""
from __future__ import annotations

from typing import Any

from ...core.encoding import Encoding
from ...core.model import SmtModel
from .domains import cell_domains, symmetry_breaking
from .problem import OPPOSITE, TilingProblem


def encode_tiling_smt(problem: TilingProblem, break_symmetry: bool = True) -> Encoding:
    import z3

    variants = problem.variants
    domains = cell_domains(problem, break_symmetry)
    key_ids: dict[Any, Any] = {}
    piece_of = z3.Function("piece", z3.IntSort(), z3.IntSort())
    key_of = [z3.Function(f"key_{name}", z3.IntSort(), z3.IntSort()) for name in ("top", "right", "bottom", "left")]
    used = sorted({i for d in domains for i in d})
    assertions = []
    for i in used:
        assertions.append(piece_of(i) == variants[i].piece)
        for side in range(4):
            assertions.append(key_of[side](i) == key_ids.setdefault(variants[i].keys[side], len(key_ids)))
    cells = [z3.Int(f"cell_{c // problem.cols}_{c % problem.cols}") for c in range(problem.rows * problem.cols)]
    for cell, domain in zip(cells, domains):
        assertions.append(z3.Or([cell == i for i in domain]) if domain else z3.BoolVal(False))
    assertions.append(z3.Distinct([piece_of(cell) for cell in cells]))
    for c, cell in enumerate(cells):
        for side, other in problem.neighbours(c):
            if side in (1, 2):  # right and bottom: each internal edge once
                assertions.append(key_of[side](cell) == key_of[OPPOSITE[side]](cells[other]))
    if break_symmetry:
        for condition, options in symmetry_breaking(problem).clauses:
            assertions.append(z3.Implies(z3.And([cells[cell] == variant for cell, variant in condition]),
                                         z3.Or([cells[cell] == variant for cell, variant in options])))
    return Encoding("smt", assertions=assertions, terms={("cell", c): cell for c, cell in enumerate(cells)},
                    show_terms=cells, info={"break_symmetry": break_symmetry})


def decode_tiling_smt(problem: TilingProblem, encoding: Encoding, model: SmtModel) -> list[tuple[int, int]]:
    placed = []
    for c in range(problem.rows * problem.cols):
        v = problem.variants[model.value(encoding.terms[("cell", c)])]
        placed.append((v.piece, v.orientation))
    return placed
