"""Ganak (pyganak): exact projected model counting. It counts, it does not solve, so it has only the
``count`` capability; the projection is the encoding's ``show`` set.

pyganak pitfalls met: ``new_vars(n)`` adds n variables on top of the current maximum (declaring the
universe twice multiplies counts by powers of two), so only clauses and the sampling set are given;
``count()`` may run once per Counter; ``WeightedCounter`` returns floats, so it is not used; its
preprocessing (Arjun) can stall for minutes on small unsatisfiable formulas (a 12-variable pigeonhole
formula: 289 s), so a SAT call comes first, and an unsatisfiable formula counts 0 without Ganak."""
from __future__ import annotations

from ..core.encoding import Encoding
from .counter import CounterBackend

#: the SAT solver asked before Ganak whether there is anything to count
SAT_FIRST = "cadical195"


class GanakBackend(CounterBackend):
    name = "ganak"
    description = ("Ganak projected model counter (pyganak), Arjun preprocessing included; probabilistically "
                   "exact: its component cache is keyed by random hashes, which the binding cannot turn off")
    module = package = "pyganak"
    #: pyganak runs Ganak with its default probabilistic component hashing (the ``ganak`` command line
    #: turns it off with ``--prob 0``; the binding, 2.8, takes only ``verbose`` and ``seed``): a count
    #: is right with high probability, not certainly, and no report calls it exact
    counting = "probabilistically exact counter"
    weighs_not = "pyganak's weighted counter takes and returns floating-point numbers"

    def _count(self, encoding: Encoding) -> int:
        from pyganak import Counter
        from pysat.solvers import Solver

        with Solver(name=SAT_FIRST, bootstrap_with=encoding.pysat_clauses()) as sat:
            if not sat.solve():
                return 0

        counter = Counter()
        counter.add_clauses(encoding.clauses)
        counter.set_sampling_set(list(encoding.show))
        return int(counter.count())

