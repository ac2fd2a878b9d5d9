"""Sudoku as CNF (one Boolean per cell and digit, "exactly one" by ``pysat.card``) and as SMT (one
integer per cell, ``Distinct`` per row, column and box)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from puzzlesat.core.encoding import Encoding
from puzzlesat.core.model import CnfModel, SmtModel

from .instance import SudokuInstance

if TYPE_CHECKING:
    from pysat.formula import IDPool


def groups(instance: SudokuInstance) -> list[list[tuple[int, int]]]:
    """The cells of every row, column and box."""
    n = instance.n
    boxes: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            boxes[instance.box(r, c)].append((r, c))
    return [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)] + boxes


def encode_cnf(instance: SudokuInstance, cardinality: str, pool: IDPool) -> Encoding:
    from pysat.card import CardEnc, EncType

    n = instance.n
    encoding = getattr(EncType, cardinality)
    digit = {(r, c, d): pool.id(("digit", r + 1, c + 1, d)) for r in range(n) for c in range(n)
             for d in range(1, n + 1)}
    clauses: list[list[int]] = []
    for r in range(n):
        for c in range(n):  # one digit per cell
            lits = [digit[r, c, d] for d in range(1, n + 1)]
            clauses.extend(CardEnc.equals(lits, bound=1, vpool=pool, encoding=encoding).clauses)
            if instance.givens[r][c]:
                clauses.append([digit[r, c, instance.givens[r][c]]])
    for cells in groups(instance):  # each digit once per row, column and box
        for d in range(1, n + 1):
            lits = [digit[r, c, d] for r, c in cells]
            clauses.extend(CardEnc.equals(lits, bound=1, vpool=pool, encoding=encoding).clauses)
    return Encoding("cnf", pool=pool, clauses=clauses, show=list(digit.values()), info={"cardinality": cardinality})


def encode_smt(instance: SudokuInstance) -> Encoding:
    import z3

    n = instance.n
    cells = {(r, c): z3.Int(f"cell_{r + 1}_{c + 1}") for r in range(n) for c in range(n)}
    assertions: list[Any] = [z3.And(1 <= cell, cell <= n) for cell in cells.values()]
    assertions += [cells[r, c] == instance.givens[r][c] for r, c in cells if instance.givens[r][c]]
    assertions += [z3.Distinct([cells[cell] for cell in group]) for group in groups(instance)]
    return Encoding("smt", assertions=assertions, terms=dict(cells), show_terms=list(cells.values()))


def decode(instance: SudokuInstance, encoding: Encoding, model: CnfModel | SmtModel) -> tuple[tuple[int, ...], ...]:
    """The digit of every cell (0 where a CNF model sets none: the checker then rejects it)."""
    n = instance.n
    if isinstance(model, SmtModel):
        return tuple(tuple(int(model.value(encoding.terms[r, c])) for c in range(n)) for r in range(n))
    ids = encoding.variables.obj2id
    return tuple(tuple(next((d for d in range(1, n + 1) if model.value(ids["digit", r + 1, c + 1, d])), 0)
                       for c in range(n)) for r in range(n))
