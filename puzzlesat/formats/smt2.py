"""SMT-LIB2 export of an SMT encoding: standard SMT-LIB that cvc5, Z3 and other solvers read.

The file asks for models (``produce-models`` before ``set-logic``), states its logic (QF_LIA: integer
and Boolean constants, linear arithmetic, ``ite``; QF_UFLIA when it declares functions, as a tiling's
piece and key tables), and ends with ``(check-sat)`` and ``(get-model)``. An optimisation encoding
also carries its objective as ``(minimize ...)`` on one line, which Z3 and OptiMathSAT read (drop
that line and a plain SMT solver answers the hard part). Declarations and assertions are printed by
Z3, whose ``set-info`` line is left out.
"""
from __future__ import annotations

import re

from ..core.encoding import Encoding


def to_smt2(encoding: Encoding, title: str = "") -> str:
    import z3

    solver = z3.Solver()
    solver.add(*encoding.assertions)
    body = [line for line in solver.to_smt2().splitlines()
            if not line.startswith(("(set-info", "; benchmark generated")) and line != "(check-sat)"]
    lines = [f"; {title}"] if title else []
    lines.append("; solution terms: " + " ".join(str(t) for t in encoding.show_terms))
    if encoding.objective is not None and encoding.cost_offset:
        lines.append(f"; cost offset {encoding.cost_offset} (add it to the minimum)")
    functions = any(re.match(r"\(declare-fun \S+ \((?!\))", line) for line in body)
    logic = "QF_UFLIA" if functions else "QF_LIA"
    lines += ["(set-option :produce-models true)", f"(set-logic {logic})", *body]
    if encoding.objective is not None:
        lines.append(f"(minimize {' '.join(encoding.objective.sexpr().split())})")  # one line: easy to drop
    lines += ["(check-sat)", "(get-model)"]
    return "\n".join(lines) + "\n"
