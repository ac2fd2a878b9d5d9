"""Cross-checking: the same instance through several backends, encodings and the reference method.

A cross-check is planned first (one :class:`Method` per backend and encoding, the reference first) and
then run one method at a time, each under the per-method limit and all under an overall budget, so
rows can be shown as they finish. Every solution passes the independent checker; the answers
(uniqueness included) must agree exactly.

Agreement is worth something only between methods that share no code. Each method belongs to a
*family*: the reference is one; the runs of an encoding are one (they solve the same formula); and
encodings that share a pre-processing step (a tiling's pruning and anchoring, amphipod's movers,
dice's game rules) are one family named after that step. The summary counts families, not runs.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from .backends import get_backend
from .backends.forking import call_with_timeout
from .core.errors import PuzzlesatError, SolverTimeout
from .core.puzzle import Puzzle
from .solving import count, solve

#: (status, answers or None, error): what running one method gives
Outcome = tuple[str, dict[str, Any] | None, str]

#: the limit of each method, and of the whole cross-check, when the command line sets none: every
#: bundled instance is cross-checked within two minutes (methods past the limit are TIMEOUT rows)
DEFAULT_METHOD_LIMIT = 10.0
DEFAULT_BUDGET = 100.0


@dataclass
class Method:
    label: str
    #: methods of one family share an encoding or a pre-processing step (see the module docstring)
    family: str
    run: Callable[[float | None], Outcome]


@dataclass
class Row:
    method: str
    status: str
    seconds: float
    answers: dict[str, Any] | None
    error: str = ""
    agrees: bool = False
    family: str = ""


def default_backends(puzzle: Puzzle[Any, Any]) -> list[str]:
    """The backends the puzzle's task cross-checks when none are named."""
    return puzzle.task.crosscheck_backends(puzzle)


def family(puzzle: Puzzle[Any, Any], kind: str) -> str:
    return puzzle.shared_steps.get(kind, kind)


def label(puzzle: Puzzle[Any, Any], name: str, kind: str) -> str:
    """``backend [encoding]``, or ``backend [encoding, shared step]`` when the encoding shares one."""
    shared = puzzle.shared_steps.get(kind)
    return f"{name} [{kind}, {shared}]" if shared else f"{name} [{kind}]"


def run_methods(methods: list[Method], limit: float | None, budget: float | None = None) -> Iterator[Row]:
    """Run the methods in order, each under ``limit`` and all within ``budget`` seconds (methods left
    when it is spent are SKIPPED rows), and yield each row as it finishes, already marked: a row agrees
    when it has exactly the yardstick's answers, the yardstick being the first row that answered (the
    reference's, unless it ran out of time or failed)."""
    start = time.perf_counter()
    expected: dict[str, Any] | None = None
    for method in methods:
        left = None if budget is None else budget - (time.perf_counter() - start)
        if left is not None and left <= 0:
            yield Row(method.label, "SKIPPED", 0.0, None, f"not run: the budget of {budget:g} s is spent",
                      family=method.family)
            continue
        this_limit = left if limit is None else limit if left is None else min(limit, left)
        began = time.perf_counter()
        try:
            status, answers, error = method.run(this_limit)
        except SolverTimeout as exc:
            status, answers, error = "TIMEOUT", None, str(exc)
        except PuzzlesatError as exc:
            status, answers, error = "ERROR", None, str(exc)
        row = Row(method.label, status, time.perf_counter() - began, answers, error, family=method.family)
        if answers is not None and not error:
            expected = answers if expected is None else expected
            row.agrees = answers == expected
        yield row


def _reference(answers: Callable[[], Outcome]) -> Method:
    """The solver-free method, killed at the limit like every backend (a jig's search can take long)."""
    return Method("reference", "reference", lambda limit: call_with_timeout(answers, limit, "reference"))


def reference_answers(puzzle: Puzzle[Any, Any], instance: Any, unique: bool = False) -> Outcome:
    """The reference's first solution, checked, and (``unique``) whether it is the only one."""
    solutions = puzzle.reference(instance, 2 if unique else 1)
    if not solutions:
        return "UNSAT", {}, ""
    problems = puzzle.check(instance, solutions[0])
    if problems:
        return "SAT", None, f"checker rejected: {problems[0]}"
    answers = dict(solutions[0].answers())
    if unique:
        answers["unique"] = len(solutions) == 1
    return "SAT", answers, ""


def solved(report_of: Callable[..., Any], proof_key: str | None = None) -> Callable[[float | None], Outcome]:
    """A method from a solve (called with ``timeout=``): its answers without the proof flag
    (``optimal``, ``exact``)."""
    def run(limit: float | None) -> Outcome:
        report = report_of(timeout=limit)
        return report.status, {k: v for k, v in report.answers.items() if k != proof_key}, ""
    return run


def _encodings_of(puzzle: Puzzle[Any, Any], name: str) -> list[str]:
    backend = get_backend(name)
    return [kind for kind in puzzle.encodings
            if ("sat" if puzzle.formula_kind(kind) == "cnf" else "smt") in backend.capabilities]


def _cnf_only(puzzle: Puzzle[Any, Any], kind: str, options: dict[str, Any]) -> dict[str, Any]:
    """CNF options (cardinality encodings) go to CNF runs only."""
    return options if puzzle.formula_kind(kind) == "cnf" else {}


def plan_solutions(puzzle: Puzzle[Any, Any], instance: Any, backends: list[str], options: dict[str, Any],
                   unique: bool = False) -> list[Method]:
    """The reference, then one solve (with the uniqueness proof when ``unique``) per backend and
    encoding it can take."""
    methods = [_reference(partial(reference_answers, puzzle, instance, unique))]
    for name in backends:
        for kind in _encodings_of(puzzle, name):
            run = partial(solve, puzzle, instance, name, kind, **_cnf_only(puzzle, kind, options))
            methods.append(Method(label(puzzle, get_backend(name).name, kind), family(puzzle, kind),
                                  solved(run)))
    return methods


def plan_optima(puzzle: Puzzle[Any, Any], instance: Any, backends: list[str], options: dict[str, Any]) -> list[Method]:
    """Every encoding with every optimisation method that fits it, against the reference's optimum."""
    from .optimize import METHODS

    methods = [_reference(partial(reference_answers, puzzle, instance))]
    for kind in puzzle.encodings:
        for method, (formula, _) in METHODS.items():
            if formula != puzzle.formula_kind(kind):
                continue
            for name in backends if method != "z3" else ["z3"]:
                shown = get_backend(name).name if method != "z3" else "z3"
                run = partial(solve, puzzle, instance, name, kind, method=method, **options)
                methods.append(Method(label(puzzle, f"{method} on {shown}", kind), family(puzzle, kind),
                                      solved(run, "optimal")))
    return methods


def count_answers(puzzle: Puzzle[Any, Any], counter: Callable[[bool], int]) -> tuple[str, dict[str, int]]:
    """(status, counts): both counts a tiling puzzle reports, every solution and one per symmetry class;
    the status is UNSAT when there is no solution at all."""
    counts = {label: counter(variant["break_symmetry"]) for label, variant in puzzle.count_variants()}
    return ("SAT" if next(iter(counts.values())) else "UNSAT"), counts


def plan_counts(puzzle: Puzzle[Any, Any], instance: Any, backends: list[str], options: dict[str, Any]) -> list[Method]:
    """Counts from the reference search and from enumeration on every backend and encoding."""
    def reference_counts() -> Outcome:
        return *count_answers(puzzle, lambda brk: len(puzzle.reference(instance, None, break_symmetry=brk))), ""

    methods = [_reference(reference_counts)]
    for name in backends:
        for kind in _encodings_of(puzzle, name):
            def run(limit: float | None, name: str = name, kind: str = kind) -> Outcome:
                return *count_answers(puzzle, lambda brk: count(puzzle, instance, name, limit, kind=kind,
                                                                break_symmetry=brk,
                                                                **_cnf_only(puzzle, kind, options))), ""
            methods.append(Method(label(puzzle, get_backend(name).name, kind), family(puzzle, kind), run))
    return methods


def plan(puzzle: Puzzle[Any, Any], instance: Any, backends: list[str], options: dict[str, Any],
         by_count: bool = False) -> list[Method]:
    """The methods of the cross-check that fits the puzzle (``by_count``: compare solution counts)."""
    if by_count:
        return plan_counts(puzzle, instance, backends, options)
    return puzzle.task.plan_crosscheck(puzzle, instance, backends, options)


def crosscheck(puzzle: Puzzle[Any, Any], instance: Any, backends: list[str], timeout: float | None,
               options: dict[str, Any], by_count: bool = False, budget: float | None = None) -> list[Row]:
    """Every method's row, the reference first."""
    return list(run_methods(plan(puzzle, instance, backends, options, by_count), timeout, budget))


def independent_agreement(rows: list[Row]) -> int:
    """How many families (methods that share no code) gave the yardstick's answers."""
    return len({row.family for row in rows if row.agrees})
