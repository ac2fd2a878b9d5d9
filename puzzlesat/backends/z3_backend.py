"""Z3 as a backend: solves CNF encodings (as Boolean SMT) and native SMT encodings.

``z3`` is imported only when a Z3 session opens, so that commands that do not use it start fast.
"""
from __future__ import annotations

import time
from collections.abc import Sequence

from ..core.encoding import Encoding
from ..core.errors import SolverTimeout
from ..core.model import CnfModel, SmtModel
from ..core.result import Result, Status
from ..core.timing import UNLIMITED, Deadline
from .base import Backend, Capability, Session


def cnf_to_smtlib(clauses: Sequence[Sequence[int]]) -> str:
    """CNF as SMT-LIB2 assertions over Booleans ``x<id>``; Z3 parses this text in C, far faster than
    building one Python object per literal."""
    used = sorted({abs(lit) for clause in clauses for lit in clause})
    lines = [f"(declare-const x{v} Bool)" for v in used]
    for clause in clauses:
        lits = [f"x{lit}" if lit > 0 else f"(not x{-lit})" for lit in clause]
        # an empty clause is false: "(or)" is no SMT-LIB term
        lines.append(f"(assert (or {' '.join(lits)}))" if len(lits) > 1 else f"(assert {lits[0] if lits else 'false'})")
    return "\n".join(lines)


class Z3Backend(Backend):
    name = "z3"
    capabilities = frozenset({Capability.SAT, Capability.SMT, Capability.ENUMERATE})
    description = "Z3 SMT solver (CNF as Booleans, or the puzzle's native SMT encoding)"

    def unavailable_reason(self) -> str | None:
        try:
            import z3  # noqa: F401
        except ImportError as exc:
            return f"z3-solver is not installed ({exc})"
        return None

    def _open(self, encoding: Encoding) -> Session:
        return Z3Session(self, encoding)


class Z3Session(Session):
    def __init__(self, backend: Z3Backend, encoding: Encoding) -> None:
        super().__init__(backend, encoding)
        import z3

        self.z3 = z3
        self.solver = z3.Solver()
        if encoding.kind == "cnf":
            self.num_vars = encoding.num_vars
            self.solver.from_string(cnf_to_smtlib(encoding.clauses))
        else:
            self.solver.add(*encoding.assertions)

    def add_clause(self, clause: list[int]) -> None:
        z3 = self.z3
        literals = [z3.Bool(f"x{lit}") if lit > 0 else z3.Not(z3.Bool(f"x{-lit}")) for lit in clause]
        self.solver.add(z3.Or(literals) if literals else z3.BoolVal(False))
        # a model reads every variable the solver was given (a descent's bound takes fresh ones)
        self.num_vars = max([self.num_vars, *map(abs, clause)])

    def add_smt_block(self, model: SmtModel) -> None:
        z3 = self.z3
        self.solver.add(z3.Or([term != model.z3_model.eval(term, model_completion=True)
                               for term in self.encoding.show_terms]))

    def solve(self, deadline: Deadline = UNLIMITED) -> Result:
        z3 = self.z3
        left = deadline.left()
        self.solver.set("timeout", max(1, int(left * 1000)) if left is not None else 4294967295)
        start = time.perf_counter()
        answer = self.solver.check()
        elapsed = time.perf_counter() - start
        if answer == z3.unsat:
            return Result(Status.UNSAT, None, self.backend.name, elapsed)
        if answer == z3.unknown:
            reason = self.solver.reason_unknown()
            if left is not None and ("timeout" in reason or "canceled" in reason):
                raise SolverTimeout(self.backend.name, deadline.seconds or 0.0)
            return Result(Status.UNKNOWN, None, self.backend.name, elapsed)
        model = self.solver.model()
        if self.encoding.kind == "smt":
            return Result(Status.SAT, SmtModel(model), self.backend.name, elapsed)
        truth = bytearray(self.num_vars + 1)
        for decl in model.decls():
            if z3.is_true(model[decl]):
                truth[int(decl.name()[1:])] = 1
        return Result(Status.SAT, CnfModel(bytes(truth)), self.backend.name, elapsed)

