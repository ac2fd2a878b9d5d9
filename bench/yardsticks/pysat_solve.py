"""Yardstick for `puzzlesat solve cnf`: the six-line PySAT script a practitioner writes (PySAT's own
reader, CaDiCaL 1.9.5 or the solver named, the answer).

    python bench/yardsticks/pysat_solve.py FILE.cnf [SOLVER]"""
import sys

from pysat.formula import CNF
from pysat.solvers import Solver

with Solver(name=sys.argv[2] if len(sys.argv) > 2 else "cadical195", bootstrap_with=CNF(from_file=sys.argv[1]).clauses) as solver:
    print("s SATISFIABLE" if solver.solve() else "s UNSATISFIABLE")
