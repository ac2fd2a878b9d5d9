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

from collections.abc import Collection, Sequence
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...core.encoding import Encoding
from ...core.model import CnfModel
from ...deduction import Fact, Facts
from .domains import cell_domains, symmetry_breaking
from .problem import OPPOSITE, TilingProblem


def encode_tiling(problem: TilingProblem, break_symmetry: bool, cardinality: str, pool: IDPool | None = None) -> Encoding:
    pool = pool if pool is not None else IDPool()
    facts = tiling_facts(problem, break_symmetry, cardinality, pool)
    clauses = [list(clause) for fact in facts.facts for clause in fact.clauses]
    if any(not clause for clause in clauses):
        # no placement for some cell or piece: keep the formula valid DIMACS (no empty clause) yet UNSAT
        contradiction = pool.id(("no_placement",))
        clauses = [clause for clause in clauses if clause] + [[contradiction], [-contradiction]]
    return Encoding("cnf", pool=pool, clauses=clauses, show=list(facts.cells),
                    info={"break_symmetry": break_symmetry, "at_most_one": cardinality})


def tiling_facts(problem: TilingProblem, break_symmetry: bool, cardinality: str, pool: IDPool,
                 piece_names: Sequence[object] | None = None, marked: Collection[tuple[int, int]] = ()) -> Facts:
    """The encoding as the puzzle's facts (the encoding is their clauses, in this order): every cell
    holds one placement, every piece is placed once, every pair of neighbouring cells fits, and the
    symmetry breaking; a cell or piece with no placement left holds an empty clause.

    ``marked``: (cell, variant) placements a player marked (``explain --from``), kept in their cells'
    domains even where the pruning removed them, so that facts refute them: the fit with the neighbours
    (its clauses list the marked placements too), and for a side on the grid's border that may not be
    there, a fact of its own (the pruning's border rule is not a clause)."""
    amo = getattr(EncType, cardinality)
    variants = problem.variants
    domains = [list(domain) for domain in cell_domains(problem, break_symmetry)]
    for cell, kept in marked:
        if kept not in domains[cell]:
            domains[cell].append(kept)
    names = list(piece_names) if piece_names is not None else list(range(problem.num_pieces))
    cells = problem.rows * problem.cols
    var = [{i: pool.id(("place", cell // problem.cols, cell % problem.cols, variants[i].piece,
                        variants[i].orientation)) for i in domain} for cell, domain in enumerate(domains)]
    facts: list[Fact] = []
    by_piece: list[list[int]] = [[] for _ in range(problem.num_pieces)]
    for cell in range(cells):
        lits = list(var[cell].values())
        clauses = [lits]  # empty when no placement fits: the formula is then unsatisfiable
        if len(lits) > 1:
            clauses.extend(CardEnc.atmost(lits, bound=1, vpool=pool, encoding=amo).clauses)
        facts.append(Fact(f"{_cell_name(problem, cell)} holds one piece", clauses, _cell_name(problem, cell)))
        for i, v in var[cell].items():
            by_piece[variants[i].piece].append(v)
    for piece, lits in enumerate(by_piece):
        clauses = [lits]
        if len(lits) > 1:
            clauses.extend(CardEnc.atmost(lits, bound=1, vpool=pool, encoding=amo).clauses)
        facts.append(Fact(f"piece {names[piece]} is used once", clauses, f"piece {names[piece]}"))
    # key index: cell -> side -> key -> [(var, piece)]
    index: list[list[dict[Any, Any]]] = [[{} for _ in range(4)] for _ in range(cells)]
    for cell in range(cells):
        for i, v in var[cell].items():
            variant = variants[i]
            for side in range(4):
                index[cell][side].setdefault(variant.keys[side], []).append((v, variant.piece))
    edges: dict[tuple[int, int], list[list[int]]] = {}
    for cell in range(cells):
        for side, other in problem.neighbours(cell):
            facing = index[other][OPPOSITE[side]]
            edge = edges.setdefault((min(cell, other), max(cell, other)), [])
            for i, v in var[cell].items():
                variant = variants[i]
                edge.append([-v] + [w for w, piece in facing.get(variant.keys[side], ()) if piece != variant.piece])
    facts += [Fact(f"{_cell_name(problem, a)} and {_cell_name(problem, b)} fit", clauses,
                   f"{_cell_name(problem, a)}|{_cell_name(problem, b)}") for (a, b), clauses in edges.items()]
    facts += _border_facts(problem, var, marked)
    if break_symmetry:
        facts.append(Fact("symmetry: one solution of each class under the grid's turns", _breaking_clauses(problem, var),
                          "symmetry"))
    placed = {v: (cell // problem.cols, cell % problem.cols, names[variants[i].piece], variants[i].orientation)
              for cell, cell_vars in enumerate(var) for i, v in cell_vars.items()}
    return Facts(facts, {v: (where,) for v, where in placed.items()},
                 {v: f"piece {p} at r{r + 1}c{c + 1} in orientation {o}" for v, (r, c, p, o) in placed.items()},
                 ("ruled out", "placed"), listed=(True,))


#: a side's name, by its index (TOP, RIGHT, BOTTOM, LEFT)
SIDE_NAMES = ("top", "right", "bottom", "left")


def _border_facts(problem: TilingProblem, var: list[dict[int, int]], marked: Collection[tuple[int, int]]) -> list[Fact]:
    """For each marked placement with a side on the grid's border that the border does not allow (a
    jig's tab where the edge is flat), the fact that rules it out."""
    facts = []
    for cell, variant in sorted(set(marked)):
        inside = {side for side, _ in problem.neighbours(cell)}
        for side in range(4):
            if side not in inside and not problem.variants[variant].outer_ok[side]:
                name = _cell_name(problem, cell)
                facts.append(Fact(f"{name}'s {SIDE_NAMES[side]} side is the grid's edge", [[-var[cell][variant]]],
                                  f"{name} {SIDE_NAMES[side]} edge"))
    return facts


def _cell_name(problem: TilingProblem, cell: int) -> str:
    return f"r{cell // problem.cols + 1}c{cell % problem.cols + 1}"


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
