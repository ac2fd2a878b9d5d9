"""Ganak (pyganak): exact projected model counting. It counts, it does not solve, so it has only the
``count`` capability; the projection is the encoding's ``show`` set.

pyganak pitfalls met: ``new_vars(n)`` adds n variables on top of the current maximum (declaring the
universe twice multiplies counts by powers of two), so only clauses and the sampling set are given;
``count()`` may run once per Counter; ``WeightedCounter`` returns floats, so it is not used."""
from __future__ import annotations

from ..core.encoding import Encoding
from .counter import CounterBackend


class GanakBackend(CounterBackend):
    name = "ganak"
    description = "Ganak exact projected model counter (pyganak), Arjun preprocessing included"
    module = package = "pyganak"

    def _count(self, encoding: Encoding) -> int:
        from pyganak import Counter

        counter = Counter()
        counter.add_clauses(encoding.clauses)
        counter.set_sampling_set(encoding.show)
        return int(counter.count())

