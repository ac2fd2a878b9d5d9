"""What every model-counting backend shares: capability ``count`` only, the native library imported on
first use, CNF only, its progress output kept off stdout, and a hard time limit by fork (native counters
cannot be interrupted from Python). A counter supplies ``_count`` and, when it cannot take every
encoding, ``accept``; a compiling counter also ``_count_each`` (many conditional counts, one compilation);
a counter that counts weights exactly sets :attr:`CounterBackend.weighs` and supplies ``_weighted_count``."""
from __future__ import annotations

import importlib
from abc import abstractmethod
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

from ..core.encoding import Encoding
from ..core.errors import BackendError, CounterRefuses
from ..core.timing import UNLIMITED, Deadline
from .base import Backend, Capability, Session
from .forking import call_with_timeout, quiet_stdout

T = TypeVar("T")


class CounterBackend(Backend):
    capabilities = frozenset({Capability.COUNT})
    #: the Python module of the native counter, and the package that provides it
    module: str
    package: str
    #: counts a weighted formula's weights exactly (:meth:`weighted_count`); every other counter refuses a
    #: weighted formula, rather than give it an unweighted count or a rounded one
    weighs: bool = False
    #: why it does not, for the refusal
    weighs_not: str = "it counts models without weights"

    def unavailable_reason(self) -> str | None:
        try:
            importlib.import_module(self.module)
        except ImportError:
            return f"{self.package} is not installed: pip install 'puzzlesat[count]' (wheels for Linux and macOS)"
        return None

    def _open(self, encoding: Encoding) -> Session:
        raise BackendError(f"{self.name} counts models; it does not solve")

    def count(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> int:
        return self._run(encoding, lambda: self._count(encoding), deadline)

    def count_each(self, encoding: Encoding, queries: list[list[int]], deadline: Deadline = UNLIMITED) -> list[int]:
        return self._run(encoding, lambda: self._count_each(encoding, queries), deadline)

    def weighted_count(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> Fraction:
        return self._run(encoding, lambda: self._weighted_count(encoding), deadline)

    def _run(self, encoding: Encoding, counting: Callable[[], T], deadline: Deadline) -> T:
        """``counting()`` after the checks, quiet, and in a killable child when there is a time limit."""
        self.require(Capability.COUNT)
        if encoding.kind != "cnf":
            raise BackendError(f"{self.name} counts CNF encodings only")
        if encoding.weights is not None and not self.weighs:
            raise CounterRefuses(f"{self.name} does not count weights exactly ({self.weighs_not}); a weighted count "
                               "is made by enumeration, or by the frontier counter where every variable is shown")
        self.accept(encoding)

        def run() -> T:
            with quiet_stdout():
                return counting()

        return call_with_timeout(run, deadline, self.name)

    def _count_each(self, encoding: Encoding, queries: list[list[int]]) -> list[int]:
        """One count per query, each on the formula with the query's literals added as unit clauses."""
        return [self._count(encoding.with_units(query))
                for query in queries]

    def accept(self, encoding: Encoding) -> None:
        """Raise ``BackendError`` for an encoding this counter would count wrongly (default: none)."""

    def _weighted_count(self, encoding: Encoding) -> Fraction:
        """The exact sum of the weights of ``encoding``'s models, in this process (counters that
        :attr:`weighs`)."""
        raise BackendError(f"{self.name} does not count weights")

    @abstractmethod
    def _count(self, encoding: Encoding) -> int:
        """The exact number of models projected on ``encoding.show``, in this process."""


def require_determined(name: str, encoding: Encoding) -> None:
    """Refuse an encoding that a counter without projection would over-count: one whose auxiliary
    variables the shown ones do not determine (``Encoding.show_determines_all``), or with a variable in
    no clause that is not shown (free in every model, so that claim is wrong). A shown variable in no
    clause is free in the projected count too, and such a counter counts it free: a formula file's
    unused variables are counted right."""
    if not encoding.show_determines_all:
        other = "by enumeration (no --backend)" if encoding.weights is not None else "with ganak"
        raise CounterRefuses(f"{name} counts all models, and this encoding has auxiliary variables that the "
                           f"{len(encoding.show)} shown ones do not determine: count it {other}")
    used = {abs(lit) for clause in encoding.clauses for lit in clause}
    unused = encoding.num_vars - len(used | set(encoding.show))
    if unused:
        raise CounterRefuses(f"{name}: {unused} variables occur in no clause and are not shown, so they are not "
                           "determined by the shown ones; the encoding's show_determines_all is wrong")
