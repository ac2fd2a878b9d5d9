"""The steps every task is made of: read an instance, decode and check a model, count one formula's
solutions. Written once here; the tasks (:mod:`.tasks`) put them together.

A solution is reported only after the independent checker accepted it; a count by enumeration is exact
only because its last search was UNSAT.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from contextlib import closing, nullcontext
from fractions import Fraction
from typing import Any

from ..backends.base import Capability, Session, SolverStatistics
from ..core.encoding import Encoding
from ..core.errors import CheckFailed, PuzzlesatError
from ..core.files import instance_text
from ..core.model import CnfModel, SmtModel
from ..core.options import accepts, described, quoted
from ..core.puzzle import Puzzle, Solution
from ..core.reporting import check_stop, report_progress
from ..core.result import Status
from ..core.timing import Stopwatch, since_start
from .report import Claims
from .request import Request
from .stop import STOPPING, Stop

#: (how many solutions, a file descriptor, a niceness): where this process's enumeration says that it has
#: found many, and how much it then gives way (:func:`cue_at`); None: it says nothing
_cue: tuple[int, int, int] | None = None


def cue_at(found: int, descriptor: int, niceness: int) -> None:
    """Have this process (a raced enumeration's forked child) write one byte to ``descriptor`` once an
    enumeration here has found ``found`` solutions, and lower its own priority by ``niceness`` then: a
    count that large will not end soon, so an exact counter joins the race at once
    (:data:`~puzzlesat.pipeline.tasks.MANY_SOLUTIONS`), and gets the cores first (two side-by-side
    enumerations and two counts are four processes on two cores)."""
    global _cue
    _cue = (found, descriptor, niceness)


def load(puzzle: Puzzle[Any, Any, Any], path: str, watch: Stopwatch | None = None, text: str | None = None,
         /, **reading: Any) -> Any:
    """Read and parse one instance file (``-`` = stdin), or ``text`` already read from it (export and
    decode hash what they parse). ``reading`` holds the options that say how to read it (a rectangular
    jigsaw's rows and cols, amphipod's unfold); each puzzle accepts its own, of its own type (the
    parameters before it are positional, so a variable map's ``path`` is an option refused here)."""
    watch = watch or Stopwatch()
    check_reading(puzzle, reading)
    with watch.phase("parse"):
        return puzzle.parse(instance_text(puzzle, path) if text is None else text, path, **reading)


def check_reading(puzzle: Puzzle[Any, Any, Any], reading: dict[str, Any]) -> None:
    """Refuse in one line a reading option the puzzle does not take, or a value not of its type."""
    declared = {option.name: option for option in puzzle.reading_options}
    for name, value in reading.items():
        option = declared.get(name)
        if option is None:
            raise PuzzlesatError(f"--{name.replace('_', '-')[:40]} does not apply to {puzzle.name}")
        if not accepts(option.type, value):
            raise PuzzlesatError(f"{option.spelling} takes {described(option.type)}, not {quoted(value)}")


def checked_solution(puzzle: Puzzle[Any, Any, Any], instance: Any, encoding: Encoding, model: CnfModel | SmtModel,
                     backend: str, watch: Stopwatch) -> Solution:
    """Decode a model and run the independent checker; a violation means a wrong backend or encoding."""
    with watch.phase("decode"):
        solution: Solution = puzzle.decode(instance, encoding, model)
    with watch.phase("check"):
        problems = puzzle.check(instance, solution)
    if problems:
        raise CheckFailed(f"{backend} returned a solution that breaks the rules: {problems[0]}")
    return solution


class Tally:
    """What counting one formula gave: the number, the formula's size, the backends that answered, and
    why it stopped before its end, if it did (``found`` is then a lower bound)."""

    def __init__(self, found: int, size: dict[str, int]) -> None:
        self.found, self.size = found, size
        #: a weighted formula's weighted count (the sum of the counted models' weights); None unweighted
        self.weight: Fraction | None = None
        self.solved_by: list[str] = []
        #: the enumerating session's solver statistics (None from an exact counter)
        self.statistics: SolverStatistics | None = None
        self.stop: Stop | None = None

    def answered(self, backend: str) -> None:
        if backend and backend not in self.solved_by:
            self.solved_by.append(backend)


def refuse_uncountable(request: Request, listing: bool) -> None:
    """Refuse, before anything is encoded, a count the request's backend cannot make: listing solutions
    with an exact counter, or enumerating with a backend that cannot solve or block."""
    backend = request.backend
    if request.exact_count:
        if listing:
            raise PuzzlesatError(f"{backend.name} counts without enumerating: --list, --limit and --jsonl need "
                                 "an enumerating backend")
        backend.require(Capability.COUNT)
    else:
        request.require_solving()
        backend.require(Capability.ENUMERATE)


#: the most free shown variables a count multiplies by (2^20: a count of some 315,000 digits, printed in
#: about a second; a header of a billion unused variables would take hours just to print)
MAX_FREE_SHOWN = 1 << 20


def count_formula(request: Request, instance: Any, encoding: Encoding, watch: Stopwatch, claims: Claims,
                  claim: str = "solutions", on_solution: Callable[[Solution], None] | None = None,
                  limit: int | None = None, keep_found: bool = True, session: Session | None = None,
                  under: Sequence[int] = ()) -> Tally:
    """Count ``encoding``'s solutions projected on its ``show`` set: with an exact counter (capability
    ``count``, e.g. ganak) in one call; otherwise by enumeration: solve, check, block, repeat until UNSAT.
    Every counted solution has passed the checker; the final UNSAT is what makes the count exact.
    With ``limit``, stop once that many are found (the result then means "at least ``limit``").
    An enumeration stopped by the request's deadline, a signal or a solver child's memory (``keep_found``)
    returns what it had found, its :attr:`Tally.stop` saying why: a lower bound, each solution in it
    checked (without ``keep_found``, the stop is raised: a cube's part of a sum is no bound).
    Under ``--certify`` the certificate for ``claim`` is the last search's checked proof: it refutes the
    formula with every blocking clause added, so no solution was left uncounted.
    Each solution stands for ``2 ** encoding.free_shown`` models (shown variables no clause names):
    the count is multiplied, the free variables never enumerated.
    With ``session`` (open on ``encoding``, left open) and ``under`` (literals on shown variables: a
    cube), the enumeration runs there, counting the solutions with those literals
    (:meth:`~puzzlesat.backends.base.Session.models`)."""
    backend = request.backend
    if encoding.free_shown > MAX_FREE_SHOWN:
        raise PuzzlesatError(f"{encoding.free_shown:,} shown variables occur in no clause, so the count has more than "
                             f"{encoding.free_shown * 3 // 10:,} digits: puzzlesat counts with up to {MAX_FREE_SHOWN:,} "
                             "of them (each doubles the count)")
    tally = Tally(0, encoding.size() | encoding.projection_size())
    if request.exact_count:
        with watch.phase("solve"):
            tally.found = backend.count(encoding, request.deadline) << encoding.free_shown
            if encoding.weights is not None:
                tally.weight = backend.weighted_count(encoding, request.deadline) * 2 ** encoding.free_shown
        tally.answered(backend.name)
        claims.claim(claim, None)
        return tally
    started = time.monotonic()
    tally.weight = None if encoding.weights is None else Fraction(0)
    try:
        _enumerate(request, instance, encoding, watch, claims, claim, on_solution, limit, tally, session, under)
    except STOPPING as stop:
        if not keep_found:
            raise
        tally.stop = Stop.of(stop, since_start(started))
    tally.found <<= encoding.free_shown
    if tally.weight is not None:  # a free shown variable weighs 1 on both literals
        tally.weight *= 2 ** encoding.free_shown
    return tally


def _enumerate(request: Request, instance: Any, encoding: Encoding, watch: Stopwatch, claims: Claims, claim: str,
               on_solution: Callable[[Solution], None] | None, limit: int | None, tally: Tally,
               kept: Session | None, under: Sequence[int]) -> None:
    """:func:`count_formula`'s enumeration, into ``tally`` as it goes (so a stop keeps what was found)."""
    backend = request.backend
    session = kept
    if session is None:
        with watch.phase("solve"):
            session = backend.open(encoding)
    tally.statistics = session.statistics
    with (session if kept is None else nullcontext()), closing(session.models(request.deadline, under)) as results:
        while True:
            with watch.phase("solve"):
                result = next(results)
            tally.answered(result.backend)
            if result.status == Status.UNSAT:
                claims.claim(claim, result.certificate)
                return
            if result.status != Status.SAT or result.model is None:
                raise CheckFailed(f"{backend.name} gave no answer ({result.status.value}) after {tally.found} "
                                  "solutions")
            solution = checked_solution(request.puzzle, instance, encoding, result.model, backend.name, watch)
            with watch.phase("solve"):  # the enumeration's own bookkeeping is its time too
                tally.found += 1
                if tally.weight is not None:
                    tally.weight += encoding.model_weight(result.model)
                report_progress(f"{tally.found:,} {claim} so far")
                if _cue is not None and tally.found == _cue[0]:
                    os.write(_cue[1], b"!")
                    os.nice(_cue[2])
                if on_solution is not None:
                    on_solution(solution)
            if tally.found == limit:
                return
            check_stop()  # between solutions: an enumeration in this process has no wait that would look


def count_solutions(request: Request, instance: Any, watch: Stopwatch | None = None, limit: int | None = None) -> int:
    """The number of solutions of the one formula the request's options ask for (a tiling's
    ``break_symmetry`` picks all layouts or one per class), by :func:`count_formula`."""
    watch = watch or Stopwatch()
    refuse_uncountable(request, limit is not None)
    with watch.phase("encode"):
        encoding = request.puzzle.encode(instance, request.encoding, request.options)
    return count_formula(request, instance, encoding, watch, Claims(request, watch), limit=limit, keep_found=False).found
