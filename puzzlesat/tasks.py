"""What a puzzle asks for, as a strategy object the puzzle holds: its *task*.

The pipeline (:mod:`puzzlesat.solving`), ``count`` and ``crosscheck`` call only the :class:`Task`
interface; they name no puzzle and branch on no mode. Two tasks are general and live here:

- :class:`Satisfy`: find a checked solution and, where the puzzle promises one solution, prove it
  unique (a second search that must be UNSAT); count by enumeration or an exact counter;
- :class:`Optimize`: a proven optimum with one of ``core.choices.METHODS``; counting is refused.

A puzzle with a mode of its own brings its task in its own package (dice: ``encoders/dice/task.py``).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from .backends import DEFAULT_BACKEND, all_backends
from .core.errors import PuzzlesatError
from .core.puzzle import Puzzle, Solution
from .core.timing import Stopwatch
from .solving import Report, backend_for, count_every_variant, encoding_for, solve_optimum, solve_satisfying

if TYPE_CHECKING:
    from .crosscheck import Method


class Task(ABC):
    """One mode of solving: how ``solve`` answers, what ``count`` counts, which methods ``crosscheck``
    compares and on which backends."""

    #: command-line options that apply to this task (``method``, ``steps``, ``player``); others are refused
    options: frozenset[str] = frozenset()
    #: solutions asked of the reference: 2 where uniqueness is part of the answer
    reference_limit: int = 1

    def refuse_options(self, puzzle: Puzzle[Any, Any], **given: Any) -> None:
        """A one-line error for an option set on the command line that this task does not take."""
        for name, value in given.items():
            if value and name not in self.options:
                raise PuzzlesatError(f"--{name} does not apply to {puzzle.name}")

    @abstractmethod
    def solve(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str | None, kind: str | None,
              timeout: float | None, watch: Stopwatch, method: str | None, **options: Any) -> Report:
        """The checked answers of one instance (see the subclasses for what is proven)."""

    def count(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str, timeout: float | None,
              watch: Stopwatch, report: Report, list_first: bool,
              **options: Any) -> tuple[dict[str, int], list[Solution]]:
        """Every count of ``puzzle.count_variants()``, and with ``list_first`` the first count's solutions."""
        return count_every_variant(puzzle, instance, backend_name, timeout, watch, report, list_first, **options)

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any]) -> list[str]:
        """The backends a cross-check runs when none are named: every available one that can take one
        of the puzzle's encodings."""
        wanted = {"sat" if puzzle.formula_kind(kind) == "cnf" else "smt" for kind in puzzle.encodings}
        return [b.name for b in all_backends() if b.capabilities & wanted and b.unavailable_reason() is None]

    @abstractmethod
    def plan_crosscheck(self, puzzle: Puzzle[Any, Any], instance: Any, backends: list[str],
                        options: dict[str, Any]) -> list[Method]:
        """The methods of a cross-check of the answers, the reference first."""


class Satisfy(Task):
    """A checked solution; with ``unique``, also the proof that there is no other one."""

    def __init__(self, unique: bool = False) -> None:
        self.unique = unique
        self.reference_limit = 2 if unique else 1

    def solve(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str | None, kind: str | None,
              timeout: float | None, watch: Stopwatch, method: str | None, **options: Any) -> Report:
        self.refuse_options(puzzle, method=method)
        return solve_satisfying(puzzle, instance, backend_name, encoding_for(puzzle, kind), self.unique, timeout,
                                watch, **options)

    def plan_crosscheck(self, puzzle: Puzzle[Any, Any], instance: Any, backends: list[str],
                        options: dict[str, Any]) -> list[Method]:
        from .crosscheck import plan_solutions

        return plan_solutions(puzzle, instance, backends, options, self.unique)


class Optimize(Task):
    """A proven optimum. ``method`` is the default optimisation method on CNF encodings (SMT ones use
    Z3 Optimize); ``tuned`` names, per encoding, the method and backend measured fastest on it, used
    when the command line chooses neither."""

    options = frozenset({"method", "steps"})

    def __init__(self, method: str, tuned: dict[str, tuple[str, str]] | None = None) -> None:
        self.method = method
        self.tuned = tuned or {}

    def solve(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str | None, kind: str | None,
              timeout: float | None, watch: Stopwatch, method: str | None, **options: Any) -> Report:
        kind = encoding_for(puzzle, kind)
        tuned_method, tuned_backend = self.tuned.get(kind, (None, None))
        method = method or tuned_method or (self.method if puzzle.formula_kind(kind) == "cnf" else "z3")
        backend = backend_for(puzzle, backend_name or tuned_backend)
        return solve_optimum(puzzle, instance, backend, kind, method, timeout, watch, **options)

    def count(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str, timeout: float | None,
              watch: Stopwatch, report: Report, list_first: bool,
              **options: Any) -> tuple[dict[str, int], list[Solution]]:
        raise PuzzlesatError(f"{puzzle.name} is an optimisation puzzle: its legal plans are too many to count "
                             "and not what is asked; 'solve' proves the optimum")

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any]) -> list[str]:
        """The puzzle's default backend: the methods are the variety."""
        return [puzzle.default_backend or DEFAULT_BACKEND]

    def plan_crosscheck(self, puzzle: Puzzle[Any, Any], instance: Any, backends: list[str],
                        options: dict[str, Any]) -> list[Method]:
        from .crosscheck import plan_optima

        return plan_optima(puzzle, instance, backends, options)
