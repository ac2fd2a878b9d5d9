"""D4 (d4solver, module ``py_d4``): exact model counting by top-down compilation (decision-DNNF search
with component caching, guided by a tree decomposition).

D4 counts *all* models; it has no projection. So it takes only encodings that declare every variable a
function of the ``show`` variables (``Encoding.show_determines_all``), where the plain count equals the
projected count (dice's universes). For any other encoding it refuses, rather than over-count; Ganak
counts those.

Measured on the Dirac dice count for target 21 (1,002 variables, 9.7k clauses): 1.9-2.5 s per player,
about 1 s of it the flow-cutter tree decomposition; Ganak needs 29 s on the same CNF. D4 also compiles
(decision-DNNF) and counts the circuit under assumed literals, which ``count_each`` uses: dice's split
gets its 2K+1 conditional counts per player from one compilation (0.8-1.0 s at target 21), where one
call per count would cost at least 40 ms each (a 64 MB cache table is zeroed) plus a decomposition.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.encoding import Encoding
from .counter import CounterBackend, require_determined

#: D4 reserves a first cache page of 4 GB of address space by default; small pages cost nothing on these
#: formulas (~0.2 s less set-up) and do not fail on machines that limit overcommit
CACHE_PAGE = 1 << 22


class D4Backend(CounterBackend):
    name = "d4"
    description = "D4 exact model counter (d4solver); counts encodings whose show set determines the rest"
    module, package = "py_d4", "d4solver"
    compiles = True
    #: measured with d4solver 1.0.0: ``Solver.setWeights`` left the count of ``1 2 3 0``, ``-1 2 0`` at its
    #: 5 models, with integer and with float weights
    weighs_not = "its binding's weights did not change its counts here"

    def accept(self, encoding: Encoding) -> None:
        require_determined(self.name, encoding)

    def _count(self, encoding: Encoding) -> int:
        return int(self._solver(encoding).count().getIntResult())

    def _count_each(self, encoding: Encoding, queries: list[list[int]]) -> list[int]:
        """Compile once to a d-DNNF, then count it under each query: linear in the circuit per query."""
        circuit = self._solver(encoding).compile()
        return [int(circuit.count(query)) for query in queries]

    @staticmethod
    def _solver(encoding: Encoding) -> Any:
        import py_d4

        options = py_d4.dump_options_to_dict(py_d4.Solver([[1]], 1).getOptions())
        options["cache"]["bucket"]["sizeFirstPage"] = str(CACHE_PAGE)
        options["cache"]["bucket"]["sizeAdditionalPage"] = str(CACHE_PAGE)
        return py_d4.Solver(*normalised(encoding), py_d4.load_options_from_dict(options))


def normalised(encoding: Encoding) -> tuple[Sequence[Sequence[int]], int]:
    """The clauses and variable count given to D4, in the shape it is known to take: each literal once
    in its clause (a clause ``1 -3 1 -3`` crashed it with SIGSEGV), and at least one variable (a formula
    of none, ``p cnf 4 0`` with its variables free, crashed it with SIGFPE: it then gets the fresh
    variable 1 and the unit clause ``1``, which has one model). Neither changes the count."""
    clauses: Sequence[Sequence[int]] = encoding.clauses
    if any(len(set(clause)) != len(clause) for clause in clauses):
        clauses = [tuple(dict.fromkeys(clause)) for clause in clauses]
    if encoding.num_vars == 0:
        return [*clauses, (1,)], 1
    return clauses, encoding.num_vars

