"""Names the command line offers, each list written once. The modules that implement them and the
click options both read them from here; it imports nothing, so ``--help`` stays light."""
from __future__ import annotations

#: optimisation method -> (formula kind it needs, one-line description); see :mod:`puzzlesat.optimize`
METHODS = {
    "rc2": ("cnf", "RC2 MaxSAT with core exhaustion and core minimisation"),
    "rc2-stratified": ("cnf", "RC2 with stratification by weight, core exhaustion and minimisation"),
    "rc2-plain": ("cnf", "RC2 without exhaustion or minimisation (for comparison; slow)"),
    "descent": ("cnf", "SAT descent: solve, then add 'cost <= best - 1' (pysat.pb) until UNSAT"),
    "z3": ("smt", "Z3 Optimize minimising the SMT encoding's cost term"),
    "maxsat": ("cnf", "the backend's own MaxSAT solver (external-maxsat:BINARY) on the weighted CNF"),
}

#: ``pysat.card`` encodings of the CNF's cardinality constraints, by their PySAT names
CARDINALITY_ENCODINGS = ("seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer")

#: ``pysat.pb`` encodings of the CNF's weighted (pseudo-Boolean) constraints, by their PySAT names
PB_ENCODINGS = ("bdd", "binmerge", "seqcounter", "sortnetwrk", "totalizer", "adder", "best")
