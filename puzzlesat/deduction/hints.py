"""Hints from a player's own marks: which marks no solution has, and why; else the next step from them.

A player is somewhere in the middle of a puzzle, some cells marked, some marks perhaps wrong. The marks
are literals over the shown variables (a cell's value as the player set it). :func:`find_hint` answers
exactly one of:

- **no solution**: the puzzle itself has none (a minimal set of facts that cannot hold together);
- **wrong marks**: each mark that no solution has, with a set of facts that refutes it from the empty
  grid (the other marks may be wrong too, so none is assumed), few facts first: one fact of the mark's
  cell, else the solver's core shrunk to a minimal set, or two facts of the mark's cell where they do
  and the core needs more. A mark some solution has is never reported, so on a puzzle with several solutions a mark
  is wrong only when every solution disagrees with it;
- **clashing marks**: no mark is wrong alone, yet they cannot all hold together (each is in some
  solution, never all in one): a minimal set of them, and the facts that refute them together;
- **cells the marks fill**: a shown variable may stand for several cells (an aquarium's region row), and
  a cell whose variable another marked cell fixes holds that mark's value: the next step, with no fact
  (the player marked one cell of a row that fills whole);
- **solved**: every cell is marked, and the marks hold together (the caller checks them as a solution);
- **the next step**: the easiest step from the marks (:meth:`.search._Search.next_step`, the same search
  and the same difficulty measure as ``explain``'s steps), which may rest on a mark that is right in some
  solution but not forced: a step "from those marks". Steps that only rule out values a text does not
  list (a tiling's other placements of a marked cell) are taken on the way, kept in :attr:`Hint.before`;
  the next step is the first that fixes a listed value;
- **stuck**: the marks leave several solutions and no fact forces anything more: two solutions that
  differ.

Every claim is checked afterwards by :func:`.replay.replay_hint`, which shares nothing with this search
but the facts.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from pysat.solvers import Solver

from . import Facts, Step
from .numbering import Numbering
from .search import CORE_CONFLICTS, QUESTION_SOLVER, Stopped, _Guarded, _Search

#: the conflicts a refutation of a mark by all the facts may take before it is asked again with eight
#: times as many (a mark is judged exactly: the budget only orders the work)
MARK_CONFLICTS = 8 * CORE_CONFLICTS
#: a conflict budget of none: a refutation to be shrunk is asked to its end
NO_LIMIT = -1


@dataclass(frozen=True)
class WrongMark:
    """A mark that no solution has, and facts that refute it from nothing known."""

    #: the mark, a literal over a shown variable
    literal: int
    #: the facts (indices into :attr:`Facts.facts`) that, with nothing else known, force its other value
    facts: tuple[int, ...]


@dataclass(frozen=True)
class Hint:
    """What a player's marks lead to (exactly one of the cases of :mod:`.hints`)."""

    #: the puzzle's CNF as labelled facts, and what its shown variables mean
    facts: Facts
    #: the marks, literals over shown variables, as given (each once)
    marks: tuple[int, ...]
    #: the marks no solution has, each with its refutation
    wrong: tuple[WrongMark, ...] = ()
    #: marks found wrong whose refutation the search was stopped before finding (by all the facts, then)
    unexplained: tuple[int, ...] = ()
    #: no mark is wrong, yet these (a minimal set of them) cannot hold together ...
    clashing: tuple[int, ...] = ()
    #: ... by these facts (none: the marks give one variable both values)
    clash_facts: tuple[int, ...] = ()
    #: the easiest step from the marks: its facts and the cells they force (no fact: cells whose variable
    #: a marked cell fixes)
    next: Step | None = None
    #: the steps taken before :attr:`next`, each only ruling out values a text does not list (a tiling's
    #: placements in the cells the marks fill): the next step is the first that fixes a listed value
    before: tuple[Step, ...] = ()
    #: every cell is marked, and the marks hold together
    solved: bool = False
    #: the puzzle has no solution: facts that cannot hold together
    conflict: tuple[int, ...] = ()
    #: the marks leave several solutions and nothing is forced: two of them, over the unmarked cells
    differing: tuple[tuple[int, ...], ...] = ()
    #: the search was stopped (a time limit, a signal) before it had its answer
    stopped: bool = False
    #: every mark was judged (none is wrong) before the search for the next step was stopped
    marks_judged: bool = False


def find_hint(facts: Facts, marks: Sequence[int], solver: str = "cadical195",
              stop: Callable[[], bool] = lambda: False, unmarked: Sequence[int] = (), complete: bool = False) -> Hint:
    """The hint for ``marks`` (literals over ``facts``' shown variables); ``unmarked``: those of them
    with a cell the player left unmarked (the marks fill it); ``complete``: every square of the grid is
    marked (a tiling's marks name its placed pieces only, the others' placements are left false); ``stop()``
    is asked before each question (a stopped search's hint says ``stopped``, with the wrong marks found by
    then)."""
    given = tuple(dict.fromkeys(marks))
    guarded = _Guarded(facts, solver)
    hinting = _Hinting(facts, guarded, given, stop, tuple(unmarked), complete)
    try:
        return hinting.run()
    finally:
        hinting.close()
        guarded.close()


class _Hinting:
    def __init__(self, facts: Facts, guarded: _Guarded, marks: tuple[int, ...], stop: Callable[[], bool],
                 unmarked: tuple[int, ...], complete: bool) -> None:
        self.facts, self.guarded, self.marks, self.stop = facts, guarded, marks, stop
        self.unmarked, self.complete = unmarked, complete
        self.everything = tuple(range(len(facts.facts)))
        #: small solvers of one or two facts' clauses, kept across marks (:meth:`_refutes`)
        self._small: dict[tuple[int, ...], tuple[Numbering, Any]] = {}

    def close(self) -> None:
        for _, small in self._small.values():
            small.delete()

    def run(self) -> Hint:
        facts, marks = self.facts, self.marks
        if self.guarded.model(self.everything, []) is None:
            return Hint(facts, marks, conflict=_Search(facts, self.guarded, self.stop)._contradiction())
        wrong: list[WrongMark] = []
        try:
            refuted = self._refuted_marks()
        except Stopped:
            return Hint(facts, marks, stopped=True)
        try:
            for literal in refuted:
                wrong.append(WrongMark(literal, self._refutation(literal)))
        except Stopped:
            return Hint(facts, marks, tuple(wrong), unexplained=tuple(refuted[len(wrong):]), stopped=True)
        if wrong:
            return Hint(facts, marks, tuple(wrong))
        if self.guarded.model(self.everything, marks) is None:
            clashing = self._clashing()
            last, before = clashing[-1], list(clashing[:-1])
            self.guarded.forces(before, -last, NO_LIMIT)  # the core the shrinking starts from
            return Hint(facts, marks, clashing=clashing,
                        clash_facts=self.guarded.minimal_core(before, -last, NO_LIMIT))
        if self.unmarked:
            return Hint(facts, marks, next=Step((), self.unmarked))
        if self.complete:
            return Hint(facts, marks, solved=True)
        searching = _Search(facts, self.guarded, self.stop, known=marks)
        try:
            while searching.unknown:
                step = searching.next_step()
                if step is None:
                    break
                if any((literal > 0) in facts.listed for literal in step.forced):
                    return Hint(facts, marks, next=step, before=tuple(searching.steps))
                searching.take(step)  # it only rules out values a text does not list: on to one that places
        except Stopped:
            return Hint(facts, marks, stopped=True, marks_judged=True)
        return Hint(facts, marks, differing=searching._differing())

    def _look(self) -> None:
        if self.stop():
            raise Stopped

    def _refuted_marks(self) -> list[int]:
        """The marks that no solution has: each refuted by all the facts. A model found on the way shows
        every mark it agrees with in some solution, which spares their questions."""
        guarded = self.guarded
        seen = 0  # the cells true in some model found, and below, false in some
        seen_false = 0
        refuted = []
        pending, conflicts = list(self.marks), MARK_CONFLICTS
        while pending:
            postponed = []
            for literal in pending:
                bit = guarded.bit[abs(literal)]
                if (seen if literal > 0 else seen_false) & bit:
                    continue
                self._look()
                forced = guarded.forces([], -literal, conflicts)
                if forced is None:
                    postponed.append(literal)
                elif forced:
                    refuted.append(literal)
                else:
                    true = guarded.models[-1][1]
                    seen |= true
                    seen_false |= ~true
            pending, conflicts = postponed, conflicts * 8
        return [literal for literal in self.marks if literal in refuted]

    def _refutation(self, literal: int) -> tuple[int, ...]:
        """Few facts that refute ``literal`` alone: one fact of its cell where one does; else the solver's
        core shrunk to a minimal set, or where that needs more than two facts, two facts of its cell where
        two do (an aquarium's "water at r2c6 flows + column 6 count (1)", where the core had seven)."""
        guarded = self.guarded
        bit = guarded.bit[abs(literal)]
        around = [number for number in self.everything if guarded.alone.scope_mask[number] & bit]
        single = next(((number,) for number in around if self._refutes((number,), literal)), None)
        if single is not None:
            return single
        guarded.forces([], -literal, NO_LIMIT)  # the core the shrinking starts from
        core = guarded.minimal_core([], -literal, MARK_CONFLICTS, self._look)
        if len(core) <= 2:
            return core
        return next((pair for pair in combinations(around, 2) if self._refutes(pair, literal)), core)

    def _refutes(self, chosen: tuple[int, ...], literal: int) -> bool:
        """Whether the chosen facts alone refute ``literal``: asked of a small solver of their clauses,
        kept for the next mark they are asked of (the marks of one row ask its count again and again;
        a solver built for each question was most of a 30x30 grid's 12 s)."""
        self._look()
        guarded = self.guarded
        if chosen not in self._small:
            local = Numbering(set().union(*(guarded.variables[i] for i in chosen)))
            self._small[chosen] = (local, Solver(name=QUESTION_SOLVER, bootstrap_with=local.clauses(
                clause for i in chosen for clause in guarded.clauses[i])))
        local, small = self._small[chosen]
        return literal in local and not small.solve(assumptions=[local(literal)])

    def _clashing(self) -> tuple[int, ...]:
        """A minimal set of the marks that cannot hold together, by deletion."""
        kept = list(self.marks)
        for literal in list(self.marks):
            self._look()
            trial = [other for other in kept if other != literal]
            if self.guarded.model(self.everything, trial) is None:
                kept = trial
        return tuple(kept)
