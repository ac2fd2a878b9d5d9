"""Outside MaxSAT solvers and model counters as backends, beside ``external:`` for SAT solvers.

- ``external-maxsat:BINARY [ARGS]``: any MaxSAT-evaluation solver (``external-maxsat:rc2.py -vv``). It
  gets the 2022 WCNF; its model must satisfy the hard clauses and break exactly the soft weight its
  ``o`` line claims. Optimality is its word, as an outside SAT solver's UNSAT is.
- ``external-count:BINARY [ARGS]``: any model-counting-competition counter. It gets the ``mcc`` file
  (projection as ``c p show`` and ``c ind``) and must print an exact count (``s mc N`` or
  ``c s exact arb int N``).
"""
from __future__ import annotations

from ..core.encoding import Encoding
from ..core.errors import BackendError, CounterRefuses
from ..core.model import CnfModel
from ..core.result import Result, Status
from ..core.timing import UNLIMITED, Deadline
from ..formats.dimacs import to_mcc, to_wcnf, violated_clause
from .base import Capability, Session
from .external import ExternalBackend, read_tool_answer, run_tool, scratch_file


class ExternalMaxSatBackend(ExternalBackend):
    prefix = "external-maxsat"
    capabilities = frozenset({Capability.OPTIMIZE})
    description = "MaxSAT solver binary on the PATH (WCNF 2022 in, MaxSAT-evaluation output)"

    def _open(self, encoding: Encoding) -> Session:
        raise BackendError(f"{self.name} optimises (the optimisation puzzles); it does not solve plain formulas")

    def maxsat(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> Result:
        self.require(Capability.OPTIMIZE)
        with scratch_file(".wcnf", to_wcnf(encoding)) as path:
            proc, elapsed = run_tool([self.binary, *self.arguments, path], deadline, self.name)
        answer = read_tool_answer(proc, proc.stdout, self.name)
        if answer.status == Status.UNSAT:
            return Result(Status.UNSAT, None, self.name, elapsed)
        if answer.status != Status.OPTIMAL:
            raise BackendError(f"{self.name}: no optimum ({answer.status.value})")
        if answer.cost is None or not answer.literals:
            raise BackendError(f"{self.name}: 'OPTIMUM FOUND' without a cost line and a model "
                               "(rc2.py prints its model with -vv)")
        broken = violated_clause(encoding.clauses, answer.literals)
        if broken is not None:
            raise BackendError(f"{self.name}: its model violates hard clause {broken + 1}")
        model = CnfModel.from_literals(answer.literals, encoding.num_vars)
        weight = encoding.broken_weight(model)
        if weight != answer.cost:
            raise BackendError(f"{self.name}: its cost line says {answer.cost}, its model breaks soft clauses "
                               f"weighing {weight}")
        return Result(Status.SAT, model, self.name, elapsed, cost=weight)


class ExternalCountBackend(ExternalBackend):
    prefix = "external-count"
    capabilities = frozenset({Capability.COUNT})
    description = "model counter binary on the PATH (model-counting-competition files and output)"

    def _open(self, encoding: Encoding) -> Session:
        raise BackendError(f"{self.name} counts; it does not solve")

    def count(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> int:
        self.require(Capability.COUNT)
        if encoding.weights is not None:
            raise CounterRefuses(f"{self.name}: an outside counter's weighted count is not read (its output's "
                               "number format differs from counter to counter); count it without --backend")
        with scratch_file(".cnf", to_mcc(encoding)) as path:
            proc, _ = run_tool([self.binary, *self.arguments, path], deadline, self.name)
        answer = read_tool_answer(proc, proc.stdout, self.name)
        if answer.count is None:
            raise BackendError(f"{self.name}: no exact count in its output ('s mc N' or 'c s exact arb int N')")
        return answer.count

    def count_each(self, encoding: Encoding, queries: list[list[int]], deadline: Deadline = UNLIMITED) -> list[int]:
        """One run per query, the query's literals added as unit clauses."""
        return [self.count(Encoding("cnf", encoding.name, encoding.options, pool=encoding.pool,
                                    clauses=[*encoding.clauses, *([lit] for lit in query)], show=encoding.show,
                                    show_determines_all=encoding.show_determines_all), deadline)
                for query in queries]
