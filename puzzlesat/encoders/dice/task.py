"""Dice's task: part 1 by unrolling the deterministic game in Z3, part 2 by counting the universes each
player wins, exactly (a model counter, or Z3 on the recurrence) or by enumeration (small games).

The counting is dice's own mode of solving, so it lives here, with the puzzle, and the pipeline only
calls the :class:`~puzzlesat.tasks.Task` interface.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from ...backends import get_backend
from ...backends.forking import call_with_timeout, run_forked
from ...core.errors import CheckFailed, PuzzlesatError
from ...core.puzzle import Puzzle, Solution
from ...core.result import Status
from ...core.timing import Deadline, Stopwatch
from ...crosscheck import Method, Outcome, family, reference_answers, solved
from ...solving import Report, backend_for, checked_solution, count, encoding_for, solve
from ...tasks import Task
from .smt import part1_horizons
from .solution import DiceSolution

if TYPE_CHECKING:
    from . import Dice


class CountUniverses(Task):
    """Part 1 checked by replaying the game; part 2 the universes won by each player, counted."""

    options = frozenset({"player"})

    def solve(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str | None, kind: str | None,
              timeout: float | None, watch: Stopwatch, method: str | None, **options: Any) -> Report:
        self.refuse_options(puzzle, method=method)
        if kind == "smt":
            raise PuzzlesatError(f"{puzzle.name}: part 1 always uses the smt unrolling; --encoding chooses "
                                 "how part 2 is counted (count or split)")
        return solve_counting(_dice(puzzle), instance, backend_for(puzzle, backend_name), kind, timeout, watch)

    def count(self, puzzle: Puzzle[Any, Any], instance: Any, backend_name: str, timeout: float | None,
              watch: Stopwatch, report: Report, list_first: bool,
              **options: Any) -> tuple[dict[str, int], list[Solution]]:
        """With an exact counter, both players from one pair of compilations; otherwise by enumeration."""
        if list_first or "count" not in get_backend(backend_name).capabilities:
            return super().count(puzzle, instance, backend_name, timeout, watch, report, list_first, **options)
        _, wins, report.size = count_universes(_dice(puzzle), instance, backend_name, None, timeout, watch)
        report.solved_by.append(backend_name)
        return {label: wins[number] for number, (label, _) in enumerate(puzzle.count_variants())}, []

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any]) -> list[str]:
        return ["d4", "ganak", "z3", "pysat:glucose4"]

    def plan_crosscheck(self, puzzle: Puzzle[Any, Any], instance: Any, backends: list[str],
                        options: dict[str, Any]) -> list[Method]:
        return plan_universes(puzzle, instance, backends, options)


def _dice(puzzle: Puzzle[Any, Any]) -> Dice:
    from . import Dice

    assert isinstance(puzzle, Dice), "the CountUniverses task belongs to dice"
    return puzzle


def solve_counting(puzzle: Dice, instance: Any, backend_name: str, kind: str | None, timeout: float | None,
                   watch: Stopwatch) -> Report:
    """Dice: part 1 from Z3 on the deterministic unrolling (checked by replaying the game), part 2 from
    the number of universes each player wins (:func:`count_universes`)."""
    deadline = Deadline(timeout)
    for horizon in part1_horizons(instance):  # deeper only while the game provably has not ended
        with watch.phase("encode"):
            unrolled = puzzle.encode(instance, "smt", horizon=horizon)
        with watch.phase("solve"), get_backend("z3").open(unrolled) as session:
            first = session.solve(deadline.left())
        if first.status != Status.UNSAT:
            break
    if first.status != Status.SAT:
        raise CheckFailed(f"z3 gave no answer ({first.status.value}) on the deterministic game")
    part1 = checked_solution(puzzle, instance, unrolled, first.model, "z3", watch)
    kind, wins, size = count_universes(puzzle, instance, backend_name, kind, deadline.left(), watch)
    solution = DiceSolution(part1, wins)
    report = Report(puzzle.name, getattr(instance, "source", ""), backend_name, kind, "SAT", solution,
                    dict(solution.answers()), checked=True, size=size or unrolled.size(), times=watch.times)
    report.answers["exact"] = True
    report.solved_by = list(dict.fromkeys(("z3", backend_name)))  # part 1, then part 2's counter
    return report


def count_universes(puzzle: Dice, instance: Any, backend_name: str, kind: str | None, timeout: float | None,
                    watch: Stopwatch) -> tuple[str, tuple[int, int], dict[str, int]]:
    """(how, the universes each player wins, the size of player 1's counted formula: empty when none
    was built here), counted by ``backend_name``: z3 solves the recurrence equations; an exact counter
    counts the ``split`` encoding (both players' tracks, one core each, combined by
    ``puzzle.split_wins``; the default for compiling counters, which answer a track's 2K + 1 queries
    from one compilation) or the whole-game ``count`` encoding (one formula per winner, in parallel; the
    default for other counters: Ganak at target 15 takes 11 s on it, 90 s on split); any enumerating
    backend lists the universes of the ``count`` encoding (small targets only)."""
    backend = get_backend(backend_name)
    deadline = Deadline(timeout)
    if backend_name == "z3":
        if kind is not None:
            raise PuzzlesatError("z3 counts by solving the recurrence equations: --encoding does not apply")
        with watch.phase("solve"):
            return "recurrence", puzzle.recurrence_wins(instance, deadline.left()), {}
    if "count" not in backend.capabilities:
        kind = encoding_for(puzzle, kind or "count")
        if kind != "count":
            raise PuzzlesatError(f"{backend.name} enumerates, and only the count encoding's models are "
                                 f"universes: use --encoding count, or an exact counter for {kind}")
        one, two = (count(puzzle, instance, backend_name, deadline.left(), watch, kind=kind, winner=winner)
                    for winner in (0, 1))
        return kind, (one, two), {}
    backend.require("count")  # available here, before anything is built
    kind = encoding_for(puzzle, kind or ("split" if backend.compiles else "count"))
    with watch.phase("encode"):
        formulas = [puzzle.encode(instance, kind, winner=player) for player in (0, 1)]
    with watch.phase("solve"):
        if kind == "split":
            counts = run_forked([partial(backend.count_each, formula, formula.info["queries"])
                                 for formula in formulas], deadline.left(), backend.name)
            return kind, puzzle.split_wins(instance, counts), formulas[0].size()
        one, two = run_forked([partial(backend.count, formula) for formula in formulas], deadline.left(),
                              backend.name)
        return kind, (one, two), formulas[0].size()


#: enumeration lists universes one by one: past this many (known from the reference) it is not run
ENUMERATION_LIMIT = 200_000


def plan_universes(puzzle: Puzzle[Any, Any], instance: Any, backends: list[str],
                   options: dict[str, Any]) -> list[Method]:
    """Dice: the reference DP, then part 1 and both universe counts from every counting backend (exact
    counter on both counting encodings, Z3 recurrence, enumeration while the number of universes is
    small enough: the reference's count, when it answers within the limit, decides that)."""
    universes: list[int] = []

    def remember(limit: float | None) -> Outcome:
        outcome = call_with_timeout(lambda: reference_answers(puzzle, instance), limit, "reference")
        if outcome[1]:
            universes.append(sum(outcome[1]["wins"]))
        return outcome

    methods = [Method("reference", "reference", remember)]
    shared = family(puzzle, "count")
    for name in backends:
        backend = get_backend(name)
        if "count" in backend.capabilities:  # both counting encodings: split by game length, whole game
            for kind in ("split", "count"):
                run = partial(solve, puzzle, instance, name, kind)
                methods.append(Method(f"{backend.name} (exact count, {kind}, {shared})", shared,
                                      solved(run, "exact")))
        elif name == "z3":
            run = partial(solve, puzzle, instance, name, None)
            methods.append(Method(f"{backend.name} (recurrence, {shared})", shared,
                                  solved(run, "exact")))
        else:
            def enumerate_universes(limit: float | None, name: str = name) -> Outcome:
                if universes and universes[0] > ENUMERATION_LIMIT:
                    return "SKIPPED", None, f"{universes[0]} universes: too many to enumerate"
                return solved(partial(solve, puzzle, instance, name, None), "exact")(limit)
            methods.append(Method(f"{backend.name} (enumeration, {shared})", shared, enumerate_universes))
    return methods
