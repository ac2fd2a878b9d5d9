"""Cross-checking: the same instance through several backends, encodings and the reference method.

Every solution passes the independent checker; the answers (uniqueness included) must agree exactly.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .backends import all_backends, get_backend
from .backends.base import DEFAULT_BACKEND, call_with_timeout
from .core.errors import PuzzlesatError, SolverTimeout
from .core.puzzle import Puzzle
from .solving import count, solve


@dataclass
class Row:
    method: str
    status: str
    seconds: float
    answers: dict[str, Any] | None
    error: str = ""
    agrees: bool = False


def default_backends(puzzle: Puzzle) -> list[str]:
    """Every available named backend that can solve the puzzle's encodings; for optimisation puzzles,
    whose methods are the variety, the puzzle's default backend."""
    if puzzle.optimizes:
        return [puzzle.default_backend or DEFAULT_BACKEND]
    if puzzle.counts_universes:
        return ["d4", "ganak", "z3", "pysat:glucose4"]
    wanted = {"sat" if puzzle.formula_kind(kind) == "cnf" else "smt" for kind in puzzle.encodings}
    return [b.name for b in all_backends()
            if b.capabilities & wanted and b.unavailable_reason() is None]


def reference_row(puzzle: Puzzle, instance: Any, timeout: float | None) -> Row:
    """The solver-free method's answers, under the same time limit as every backend: a reference that
    takes longer (a jig's backtracking: zhurgut_9x9 20 s) is a TIMEOUT row, not a wait past the limit."""
    return _reference(lambda: _reference_answers(puzzle, instance), timeout)


def _reference_answers(puzzle: Puzzle, instance: Any) -> tuple[str, dict[str, Any] | None, str]:
    """(status, answers, error) of the reference: its first solution, checked, and whether it is unique."""
    solutions = puzzle.reference(instance, 2 if puzzle.claims_unique else 1)
    if not solutions:
        return "UNSAT", {}, ""
    problems = puzzle.check(instance, solutions[0])
    if problems:
        return "SAT", None, f"checker rejected: {problems[0]}"
    answers = dict(solutions[0].answers())
    if puzzle.claims_unique:
        answers["unique"] = len(solutions) == 1
    return "SAT", answers, ""


def _reference(run: Callable[[], tuple[str, dict[str, Any] | None, str]], timeout: float | None) -> Row:
    """Time ``run`` (status, answers, error) as the reference row, killed at ``timeout``."""
    start = time.perf_counter()
    try:
        status, answers, error = call_with_timeout(run, timeout, "reference")
    except SolverTimeout as exc:
        return Row("reference", "TIMEOUT", time.perf_counter() - start, None, str(exc))
    return Row("reference", status, time.perf_counter() - start, answers, error)


def _method_rows(puzzle: Puzzle, backends: list[str], options: dict[str, Any],
                 run: Callable[[str, str, dict[str, Any]], tuple[str, dict[str, Any]]]) -> list[Row]:
    """One row per backend and encoding kind it can take; an error becomes a row, not an abort.
    CNF-only options (cardinality encodings) are passed to CNF runs only."""
    rows = []
    for name in backends:
        backend = get_backend(name)
        for kind in puzzle.encodings:
            if ("sat" if puzzle.formula_kind(kind) == "cnf" else "smt") not in backend.capabilities:
                continue
            start = time.perf_counter()
            try:
                status, answers = run(name, kind, options if puzzle.formula_kind(kind) == "cnf" else {})
                rows.append(Row(f"{backend.name} [{kind}]", status, time.perf_counter() - start, answers))
            except SolverTimeout as exc:
                rows.append(Row(f"{backend.name} [{kind}]", "TIMEOUT", time.perf_counter() - start, None, str(exc)))
            except PuzzlesatError as exc:
                rows.append(Row(f"{backend.name} [{kind}]", "ERROR", time.perf_counter() - start, None, str(exc)))
    return rows


def crosscheck_optima(puzzle: Puzzle, instance: Any, backends: list[str], timeout: float | None,
                      options: dict[str, Any]) -> list[Row]:
    """Every encoding with every optimisation method that fits it, against the reference's optimum.
    A run that times out is reported but is not a disagreement; any other difference is."""
    from .optimize import METHODS

    rows = [reference_row(puzzle, instance, timeout)]
    for kind in puzzle.encodings:
        for method, (formula, _) in METHODS.items():
            if formula != puzzle.formula_kind(kind):
                continue
            for name in backends if method != "z3" else ["z3"]:
                label = f"{method} on {get_backend(name).name if method != 'z3' else 'z3'} [{kind}]"
                rows.append(_solved_row(label, "optimal", lambda: solve(puzzle, instance, name, kind, timeout,
                                                                         method=method, **options)))
    return _against_reference(rows)


def _solved_row(label: str, proof_key: str, run: Callable[[], Any]) -> Row:
    """Run one solve; its answers without the proof flag (``optimal``, ``exact``) become a row. A time
    limit reached is a TIMEOUT row, any other expected failure an ERROR row."""
    start = time.perf_counter()
    try:
        report = run()
        answers = {k: v for k, v in report.answers.items() if k != proof_key}
        return Row(label, report.status, time.perf_counter() - start, answers)
    except SolverTimeout as exc:
        return Row(label, "TIMEOUT", time.perf_counter() - start, None, str(exc))
    except PuzzlesatError as exc:
        return Row(label, "ERROR", time.perf_counter() - start, None, str(exc))


def _against_reference(rows: list[Row]) -> list[Row]:
    """Mark every row that gives exactly the yardstick's answers: the reference's (first row's), or,
    when the reference ran out of time or failed, the first method's that answered."""
    answered = [row for row in rows if row.answers is not None and not row.error]
    expected = answered[0].answers if answered else None
    for row in rows:
        row.agrees = row.answers is not None and not row.error and row.answers == expected
    return rows


def crosscheck(puzzle: Puzzle, instance: Any, backends: list[str], timeout: float | None,
               options: dict[str, Any]) -> list[Row]:
    """Run every method; the reference comes first and is what the others must agree with."""
    def run(name: str, kind: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        report = solve(puzzle, instance, name, kind, timeout, **opts)
        return report.status, report.answers

    return _against_reference([reference_row(puzzle, instance, timeout)] + _method_rows(puzzle, backends, options, run))


def count_answers(puzzle: Puzzle, counter) -> dict[str, int]:
    """Both counts a tiling puzzle reports: every solution, and one per symmetry class."""
    return {label: counter(variant["break_symmetry"]) for label, variant in puzzle.count_variants()}


def crosscheck_counts(puzzle: Puzzle, instance: Any, backends: list[str], timeout: float | None,
                      options: dict[str, Any]) -> list[Row]:
    """Counts from the backtracking reference and from enumeration on every backend and encoding."""
    def reference_counts() -> tuple[str, dict[str, Any], str]:
        return "SAT", count_answers(puzzle, lambda brk: len(puzzle.reference(instance, None, break_symmetry=brk))), ""

    def run(name: str, kind: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return "SAT", count_answers(puzzle, lambda brk: count(puzzle, instance, name, timeout, kind=kind,
                                                              break_symmetry=brk, **opts))

    return _against_reference([_reference(reference_counts, timeout)] + _method_rows(puzzle, backends, options, run))


#: enumeration lists universes one by one: past this many (known from the reference) it is not run
ENUMERATION_LIMIT = 200_000


def crosscheck_universes(puzzle: Puzzle, instance: Any, backends: list[str], timeout: float | None,
                         options: dict[str, Any]) -> list[Row]:
    """Dice: the reference DP, then part 1 and both universe counts from every counting backend (exact
    counter, Z3 recurrence, enumeration while the number of universes is small enough)."""
    rows = [reference_row(puzzle, instance, timeout)]
    universes = sum(rows[0].answers["wins"]) if rows[0].answers else 0
    for name in backends:
        backend = get_backend(name)
        if "enumerate" in backend.capabilities and name != "z3" and universes > ENUMERATION_LIMIT:
            rows.append(Row(f"{backend.name} (enumeration)", "SKIPPED", 0.0, None,
                            f"{universes} universes: too many to enumerate"))
            continue
        if "count" in backend.capabilities:  # both counting encodings: split by game length, whole game
            for kind in ("split", "count"):
                rows.append(_solved_row(f"{backend.name} (exact count, {kind})", "exact",
                                        lambda: solve(puzzle, instance, name, kind, timeout)))
            continue
        label = backend.name + (" (recurrence)" if name == "z3" else " (enumeration)")
        rows.append(_solved_row(label, "exact", lambda: solve(puzzle, instance, name, None, timeout)))
    return _against_reference(rows)
