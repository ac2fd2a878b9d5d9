"""UNSAT claims checked rather than believed: DRAT proofs read (:mod:`.reading`), checked by a checker
of our own (:mod:`.checker`), and the certificate a checked proof gives a claim (:mod:`.certificate`)."""
