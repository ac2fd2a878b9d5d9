"""SMT-LIB2 export of an SMT encoding, through Z3's own printer."""
from __future__ import annotations

from ..core.encoding import Encoding


def to_smt2(encoding: Encoding, title: str = "") -> str:
    """A complete benchmark (declarations, assertions, ``(check-sat)``) any SMT-LIB2 solver reads."""
    import z3

    solver = z3.Solver()
    solver.add(*encoding.assertions)
    header = f"; {title}\n" if title else ""
    shown = " ".join(str(t) for t in encoding.show_terms)
    return f"{header}; solution terms: {shown}\n{solver.to_smt2()}(get-model)\n"
