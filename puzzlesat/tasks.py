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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .backends import DEFAULT_BACKEND, Backend, all_backends, get_backend
from .core.choices import METHODS
from .core.errors import PuzzlesatError
from .core.options import EncoderOptions
from .core.puzzle import Puzzle, Solution
from .core.timing import Stopwatch
from .request import Request, encoding_for
from .solving import Report, count_every_variant, solve_optimum, solve_satisfying

if TYPE_CHECKING:
    from .crosscheck import Method


class Task(ABC):
    """One mode of solving: how a request is resolved, how ``solve`` answers, what ``count`` counts,
    which methods ``crosscheck`` compares and on which backends."""

    #: command-line options that apply to this task (``method``, ``steps``, ``player``); others are refused
    options: frozenset[str] = frozenset()
    #: solutions asked of the reference: 2 where uniqueness is part of the answer
    reference_limit: int = 1
    #: ``count`` and the reference's ``limit=None`` list solutions, so their numbers can be compared
    counts_solutions: bool = False

    def refuse_options(self, puzzle: Puzzle[Any, Any, Any], **given: Any) -> None:
        """A one-line error for an option set on the command line that this task does not take."""
        for name, value in given.items():
            if value and name not in self.options:
                raise PuzzlesatError(f"--{name} does not apply to {puzzle.name}")

    @staticmethod
    def backend_for(puzzle: Puzzle[Any, Any, Any], backend: str | None) -> Backend:
        """The backend named, else the puzzle's measured fastest, else the toolkit's default."""
        return get_backend(backend or puzzle.default_backend or DEFAULT_BACKEND)

    def request(self, puzzle: Puzzle[Any, Any, Any], backend: str | None, encoding: str | None,
                options: EncoderOptions, timeout: float | None, method: str | None) -> Request:
        """The request with this task's defaults: :meth:`backend_for` and the puzzle's first encoding."""
        self.refuse_options(puzzle, method=method)
        return Request(puzzle, self.backend_for(puzzle, backend), encoding_for(puzzle, encoding), options, timeout)

    @abstractmethod
    def solve(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        """The checked answers of one instance (see the subclasses for what is proven)."""

    def count(self, request: Request, instance: Any, watch: Stopwatch, report: Report,
              list_first: bool, limit: int | None = None) -> tuple[dict[str, int], list[Solution]]:
        """Every count of ``puzzle.count_variants()`` (each stopped at ``limit`` when given), and with
        ``list_first`` the first count's solutions."""
        return count_every_variant(request, instance, watch, report, list_first, limit)

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any, Any]) -> list[str]:
        """The backends a cross-check runs when none are named: every available one that can take one
        of the puzzle's encodings."""
        wanted = {"sat" if puzzle.formula_kind(kind) == "cnf" else "smt" for kind in puzzle.encodings}
        return [b.name for b in all_backends() if b.capabilities & wanted and b.unavailable_reason() is None]

    @abstractmethod
    def plan_crosscheck(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        """The methods of a cross-check of the answers, the reference first; ``request`` carries the
        encoder options every method shares."""


class Satisfy(Task):
    """A checked solution; with ``unique``, also the proof that there is no other one. ``solving`` holds
    encoder options for finding one solution, used where the request leaves them ``None`` (a tiling
    breaks symmetry to solve, though its counts and exports keep every solution)."""

    counts_solutions = True

    def __init__(self, unique: bool = False, solving: dict[str, object] | None = None) -> None:
        self.unique = unique
        self.reference_limit = 2 if unique else 1
        self.solving = solving or {}

    def solve(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        unset = {name: value for name, value in self.solving.items() if getattr(request.options, name) is None}
        return solve_satisfying(replace(request, options=replace(request.options, **unset)), instance,
                                self.unique, watch)

    def plan_crosscheck(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        from .crosscheck import plan_solutions

        return plan_solutions(request, instance, backends, self.unique)


class Optimize(Task):
    """A proven optimum. ``method`` is the default optimisation method on CNF encodings (SMT ones use
    Z3 Optimize); ``tuned`` names, per encoding, the method and backend measured fastest on it, used
    when the command line chooses neither."""

    options = frozenset({"method", "steps"})

    def __init__(self, method: str, tuned: dict[str, tuple[str, str]] | None = None) -> None:
        self.method = method
        self.tuned = tuned or {}

    def request(self, puzzle: Puzzle[Any, Any, Any], backend: str | None, encoding: str | None,
                options: EncoderOptions, timeout: float | None, method: str | None) -> Request:
        """The method asked for, else the one tuned for the encoding, else the default (Z3 Optimize on
        an SMT encoding); the backend likewise (z3 itself for Z3 Optimize)."""
        kind = encoding_for(puzzle, encoding)
        tuned_method, tuned_backend = self.tuned.get(kind, (None, None))
        chosen = get_backend(backend) if backend else None
        if chosen is not None and "optimize" in chosen.capabilities:  # a MaxSAT solver of its own
            method = method or "maxsat"
        method = method or tuned_method or (self.method if puzzle.formula_kind(kind) == "cnf" else "z3")
        if method not in METHODS:
            raise PuzzlesatError(f"unknown method '{method}' (known: {', '.join(METHODS)})")
        if method == "z3":
            chosen = get_backend("z3")
        elif chosen is None:
            chosen = self.backend_for(puzzle, tuned_backend)
        return Request(puzzle, chosen, kind, options, timeout, method)

    def solve(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        return solve_optimum(request, instance, watch)

    def count(self, request: Request, instance: Any, watch: Stopwatch, report: Report,
              list_first: bool, limit: int | None = None) -> tuple[dict[str, int], list[Solution]]:
        raise PuzzlesatError(f"{request.puzzle.name} is an optimisation puzzle: its legal plans are too many to "
                             "count and not what is asked; 'solve' proves the optimum")

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any, Any]) -> list[str]:
        """The puzzle's default backend: the methods are the variety."""
        return [puzzle.default_backend or DEFAULT_BACKEND]

    def plan_crosscheck(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        from .crosscheck import plan_optima

        return plan_optima(request, instance, backends)
