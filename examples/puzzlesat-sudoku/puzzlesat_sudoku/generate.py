"""Random Sudokus with one solution: a solved grid (a SAT model of the blank grid whose first row is
a random permutation), then givens taken away in a random order, each removal kept only while the
solver, given the remaining givens as assumptions, finds no second solution."""
from __future__ import annotations

import random

from pysat.formula import IDPool
from pysat.solvers import Solver

from .encode import encode_cnf
from .instance import SudokuInstance


def generate(size: int, seed: int) -> str:
    rng = random.Random(seed)
    pool = IDPool()
    rules = encode_cnf(SudokuInstance(((0,) * size,) * size), "seqcounter", pool)
    digit = {(r, c, d): pool.id(("digit", r + 1, c + 1, d))
             for r in range(size) for c in range(size) for d in range(1, size + 1)}
    with Solver(name="cadical195", bootstrap_with=rules.pysat_clauses()) as solver:
        first = rng.sample(range(1, size + 1), size)
        assert solver.solve(assumptions=[digit[0, c, d] for c, d in enumerate(first)]), "a first row extends"
        model = set(solver.get_model() or ())
        grid = {(r, c): next(d for d in range(1, size + 1) if digit[r, c, d] in model)
                for r in range(size) for c in range(size)}
        solution = [digit[r, c, d] for (r, c), d in grid.items()]
        # a second solution differs from the first somewhere: "not the solution", behind a selector
        # assumed in every call, so that the one solver keeps what it learns from call to call
        other = pool.id("another solution")
        solver.add_clause([-other] + [-literal for literal in solution])
        givens = dict(grid)
        cells = list(grid)
        rng.shuffle(cells)
        for cell in cells:
            kept = givens.pop(cell)
            if solver.solve(assumptions=[other] + [digit[r, c, d] for (r, c), d in givens.items()]):
                givens[cell] = kept
    return "".join("".join(str(givens.get((r, c), ".")) for c in range(size)) + "\n" for r in range(size))
