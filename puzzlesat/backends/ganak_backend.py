"""Ganak (pyganak): exact projected model counting. It counts, it does not solve, so it has only the
``count`` capability; the projection is the encoding's ``show`` set.

pyganak pitfalls met: ``new_vars(n)`` adds n variables on top of the current maximum (declaring the
universe twice multiplies counts by powers of two), so only clauses and the sampling set are given;
``count()`` may run once per Counter; ``WeightedCounter`` returns floats, so it is not used."""
from __future__ import annotations

from ..core.encoding import Encoding
from ..core.errors import BackendError
from .base import Backend, Session, call_with_timeout, quiet_stdout, register


class GanakBackend(Backend):
    name = "ganak"
    capabilities = frozenset({"count"})
    description = "Ganak exact projected model counter (pyganak), Arjun preprocessing included"

    def unavailable_reason(self) -> str | None:
        try:
            import pyganak  # noqa: F401
        except ImportError:
            return "pyganak is not installed (pip install pyganak)"
        return None

    def _open(self, encoding: Encoding) -> Session:
        raise BackendError("ganak counts models; it does not solve")

    def count(self, encoding: Encoding, timeout: float | None = None) -> int:
        self.require("count")
        if encoding.kind != "cnf":
            raise BackendError("ganak counts CNF encodings only")

        def run() -> int:
            from pyganak import Counter

            counter = Counter()
            counter.add_clauses(encoding.clauses)
            counter.set_sampling_set(encoding.show)
            with quiet_stdout():
                return counter.count()

        # Ganak cannot be interrupted from Python: a limit runs it in a child process
        return call_with_timeout(run, timeout, self.name)


register("ganak", GanakBackend)
