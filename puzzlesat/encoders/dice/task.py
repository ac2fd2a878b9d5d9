"""Dice's task: part 1 by unrolling the deterministic game in Z3, part 2 by counting the universes each
player wins, exactly (a model counter, or Z3 on the recurrence) or by enumeration (small games).

The counting is dice's own mode of solving, so it lives here, with the puzzle, and the pipeline only
calls the :class:`~puzzlesat.tasks.Task` interface.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from ...backends import get_backend
from ...backends.base import Capability
from ...backends.forking import forked
from ...core.errors import CheckFailed, PuzzlesatError
from ...core.options import EncoderOptions
from ...core.puzzle import Puzzle, Solution
from ...core.result import Status
from ...core.timing import UNLIMITED, Deadline, Stopwatch
from ...pipeline.report import Report
from ...pipeline.request import Request, encoding_for
from ...pipeline.steps import checked_solution, count_solutions, refuse_uncountable
from ...pipeline.tasks import Cubing, Task, refuse_search_on_executor
from .cnf import DiceEncoding
from .options import DiceOptions
from .smt import part1_horizons
from .solution import DiceSolution, Part1

if TYPE_CHECKING:
    from ...pipeline.crosscheck import Method, Outcome
    from ...pipeline.executors import Executor
    from . import Dice


class CountUniverses(Task):
    """Part 1 checked by replaying the game; part 2 the universes won by each player, counted."""

    options = frozenset({"player"})

    def request(self, puzzle: Puzzle[Any, Any, Any], backend: str | None, encoding: str | None,
                options: EncoderOptions, deadline: Deadline, method: str | None) -> Request:
        """The counter (frontier unless named) and the encoding it counts: z3 solves the recurrence (the
        ``smt`` formulas); an exact counter counts ``split`` (the default for compiling counters, which
        answer a track's 2K + 1 queries from one compilation) or the whole-game ``count`` encoding (the
        default for other counters: Ganak at target 15 takes 11 s on it, 90 s on split); an enumerating
        backend lists the universes of ``count``."""
        self.refuse_options(puzzle, method=method)
        chosen = self.backend_for(puzzle, backend)
        if Capability.SMT in chosen.capabilities:  # z3: the recurrence equations
            if encoding is not None:
                raise PuzzlesatError("z3 counts by solving the recurrence equations: --encoding does not apply")
            return Request(puzzle, chosen, "smt", options, deadline)
        if encoding == "smt":
            raise PuzzlesatError(f"{puzzle.name}: part 1 always uses the smt unrolling; --encoding chooses how "
                                 "part 2 is counted (count or split)")
        if Capability.COUNT in chosen.capabilities:
            kind = encoding_for(puzzle, encoding or ("split" if chosen.compiles else "count"))
        else:
            kind = encoding_for(puzzle, encoding or "count")
            if kind != "count":
                raise PuzzlesatError(f"{chosen.name} enumerates, and only the count encoding's models are "
                                     f"universes: use --encoding count, or an exact counter for {kind}")
        return Request(puzzle, chosen, kind, options, deadline)

    def solve_whole(self, request: Request, instance: Any, watch: Stopwatch) -> Report:
        return solve_counting(request, instance, watch)

    def count(self, request: Request, instance: Any, watch: Stopwatch, listing: bool = False,
              limit: int | None = None, on_solution: Callable[[Solution], None] | None = None,
              cubes: Cubing | None = None, executor: Executor | None = None) -> Report:
        """With an exact counter, both players from one pair of compilations (or z3 on the recurrence);
        otherwise as every task counts (by enumeration, each universe checked)."""
        if executor is not None and cubes is None:  # dice has no search of its own to spread: refused, with why
            refuse_search_on_executor(request, listing or limit is not None)
        if not (request.exact_count or request.encoding == "smt"):  # by enumeration, as every task counts
            return super().count(request, instance, watch, listing, limit, on_solution, cubes, executor)
        if cubes is not None:
            raise PuzzlesatError("dice: --cubes splits one CNF count; an exact counter answers the split encoding's "
                                 "questions from one compilation (and z3 solves the recurrence): count without "
                                 "--cubes, or enumerate by cubes with --backend glucose")
        listing = listing or limit is not None or on_solution is not None
        if listing and request.encoding == "smt":
            raise PuzzlesatError("z3 counts the universes by solving the recurrence equations: --list, --limit and "
                                 "--jsonl need an enumerating backend (--backend glucose)")
        refuse_uncountable(request, listing)
        how, wins, size = count_universes(request, instance, watch)
        variants = request.puzzle.count_variants(request.options)
        counts = {label: wins[number] for number, (label, _) in enumerate(variants)}
        return Report(request.puzzle.name, getattr(instance, "source", ""), request.backend.name, how,
                      Status.SAT if any(wins) else Status.UNSAT, answers=counts, size=size, times=watch.times,
                      solved_by=(request.backend.name,), counted_by=request.backend.counting if how != "recurrence"
                      else "recurrence equations")

    def crosscheck_backends(self, puzzle: Puzzle[Any, Any, Any]) -> list[str]:
        return ["frontier", "d4", "ganak", "z3", "pysat:glucose4"]

    def plan_answers(self, request: Request, instance: Any, backends: list[str]) -> list[Method]:
        return plan_universes(request, instance, backends, self)


def _dice(puzzle: Puzzle[Any, Any, Any]) -> Dice:
    from . import Dice

    assert isinstance(puzzle, Dice), "the CountUniverses task belongs to dice"
    return puzzle


def solve_counting(request: Request, instance: Any, watch: Stopwatch) -> Report:
    """Dice: part 1 from Z3 on the deterministic unrolling (checked by replaying the game), part 2 from
    the number of universes each player wins (:func:`count_universes`). Part 1 runs while the counting
    children work (the whole process at target 21: 0.45 -> 0.35 s)."""
    puzzle = _dice(request.puzzle)
    deadline = request.deadline
    part1: list[tuple[Part1, Any]] = []
    how, wins, size = count_universes(request, instance, watch,
                                      meanwhile=lambda: part1.append(solve_part1(puzzle, instance, deadline, watch)))
    first, unrolled = part1[0]
    solution = DiceSolution(first, wins)
    name = request.backend.name
    return Report(puzzle.name, getattr(instance, "source", ""), name, how, Status.SAT, solution,
                  dict(solution.answers()) | {"exact": True}, checked=True, size=size or unrolled.size(),
                  times=watch.times, solved_by=tuple(dict.fromkeys(("z3", name))),  # part 1, then part 2's counter
                  draw=partial(puzzle.picture, instance))


def solve_part1(puzzle: Dice, instance: Any, deadline: Deadline, watch: Stopwatch) -> tuple[Part1, Any]:
    """Part 1 and the unrolling that gave it: Z3 on ever deeper unrollings, deeper only while the game
    provably has not ended; the answer replayed by the checker."""
    for horizon in part1_horizons(instance):
        with watch.phase("encode"):
            unrolled = puzzle.encode(instance, "smt", DiceOptions(horizon=horizon))
        with watch.phase("solve"), get_backend("z3").open(unrolled) as session:
            first = session.solve(deadline)
        if first.status != Status.UNSAT:
            break
    if first.status != Status.SAT or first.model is None:
        raise CheckFailed(f"z3 gave no answer ({first.status.value}) on the deterministic game")
    part1 = checked_solution(puzzle, instance, unrolled, first.model, "z3", watch)
    assert isinstance(part1, Part1)
    return part1, unrolled


def count_universes(request: Request, instance: Any, watch: Stopwatch,
                    meanwhile: Callable[[], object] = lambda: None) -> tuple[str, tuple[int, int], dict[str, int]]:
    """(how, the universes each player wins, the size of player 1's counted formula: empty when none
    was built here), counted as the request says (see :meth:`CountUniverses.request`): z3 solves the
    recurrence equations; an exact counter counts the ``split`` encoding (both players' tracks, one core
    each, combined by ``puzzle.split_wins``) or the whole-game ``count`` encoding (one formula per
    winner, in parallel); an enumerating backend lists the universes of the ``count`` encoding.
    ``meanwhile()`` is called in this process while counting children run (first, when none do)."""
    puzzle, backend, kind = _dice(request.puzzle), request.backend, request.encoding
    deadline = request.deadline
    if kind == "smt":
        meanwhile()
        with watch.phase("solve"):
            return "recurrence", puzzle.recurrence_wins(instance, deadline), {}
    assert isinstance(request.options, DiceOptions), "dice requests carry dice options"
    players = [replace(request.options, winner=player) for player in (0, 1)]
    if Capability.COUNT not in backend.capabilities:
        meanwhile()
        one, two = (count_solutions(replace(request, options=options), instance, watch)
                    for options in players)
        return kind, (one, two), {}
    backend.require(Capability.COUNT)  # available here, before anything is built
    with watch.phase("encode"):
        formulas = [puzzle.encode(instance, kind, options) for options in players]
    if kind == "split":
        tracks = [formula for formula in formulas if isinstance(formula, DiceEncoding)]
        assert len(tracks) == len(formulas), "the split encoding is dice's own"
        counts = _counted([partial(backend.count_each, track, track.queries) for track in tracks],
                          meanwhile, deadline, backend.name, watch)
        return kind, puzzle.split_wins(instance, counts), formulas[0].size()
    one, two = _counted([partial(backend.count, formula) for formula in formulas], meanwhile, deadline,
                        backend.name, watch)
    return kind, (one, two), formulas[0].size()


T = TypeVar("T")


def _counted(calls: list[Callable[[], T]], meanwhile: Callable[[], object], deadline: Deadline, backend: str,
             watch: Stopwatch) -> list[T]:
    """The calls' results, each from a forked child, with ``meanwhile()`` run here as they work."""
    with forked(calls, deadline, backend) as results:
        meanwhile()
        with watch.phase("solve"):  # what is left of the counting once ``meanwhile`` is done
            return results()


#: enumeration lists universes one by one: past this many (known from the reference) it is not run
ENUMERATION_LIMIT = 200_000


def plan_universes(request: Request, instance: Any, backends: list[str], task: CountUniverses) -> list[Method]:
    """Dice: the reference DP, then part 1 and both universe counts from every counting backend (exact
    counter on both counting encodings, Z3 recurrence, enumeration while the number of universes is
    small enough). Whether enumeration can finish is the DP's count, asked by the enumeration method
    itself (milliseconds): each method runs in a process of its own, so it cannot read what the
    reference's row found, and it must not depend on the order the methods run in."""
    from ...pipeline.crosscheck import Method
    from ...pipeline.plans import family, reference_method, solved

    puzzle = request.puzzle

    def on(name: str, kind: str | None = None) -> Request:
        return puzzle.task.request(puzzle, name, kind, request.options, UNLIMITED, None)

    methods = [reference_method(lambda: task.reference(request, instance))]
    shared = family(puzzle, "count")
    for name in backends:
        backend = get_backend(name)
        if Capability.COUNT in backend.capabilities:  # both counting encodings: split by game length, whole game
            for kind in ("split", "count"):
                label = backend.counting.removesuffix(" counter").replace("probabilistically exact", "prob. exact")
                methods.append(Method(f"{backend.name} ({label} count, {kind}, {shared})", shared,
                                      solved(task.solve, on(name, kind), instance, "exact")))
        elif Capability.SMT in backend.capabilities:
            methods.append(Method(f"{backend.name} (recurrence, {shared})", shared,
                                  solved(task.solve, on(name), instance, "exact")))
        else:
            def enumerate_universes(deadline: Deadline, name: str = name) -> Outcome:
                _, answers, _ = task.reference(request, instance)
                universes = sum(answers["wins"]) if answers else 0
                if universes > ENUMERATION_LIMIT:
                    return "SKIPPED", None, f"{universes} universes: too many to enumerate"
                return solved(task.solve, on(name), instance, "exact")(deadline)
            methods.append(Method(f"{backend.name} (enumeration, {shared})", shared, enumerate_universes))
    return methods
