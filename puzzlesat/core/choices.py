"""Names the command line offers, each list written once. The modules that implement them and the
click options both read them from here; it imports nothing, so ``--help`` stays light."""
from __future__ import annotations

#: ``pysat.card`` encodings of the CNF's cardinality constraints, by their PySAT names
CARDINALITY_ENCODINGS = ("seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer")

#: ``pysat.pb`` encodings of the CNF's weighted (pseudo-Boolean) constraints, by their PySAT names
PB_ENCODINGS = ("bdd", "binmerge", "seqcounter", "sortnetwrk", "totalizer", "adder", "best")
