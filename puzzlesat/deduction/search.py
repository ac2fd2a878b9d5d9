"""Finding an explanation: the fewest facts first, as a person would.

Every fact's clauses go into one incremental solver behind a selector literal of their own, so that any
set of facts is asked about by assumptions alone. Round by round, with the cells fixed so far assumed:

1. one fact at a time: the cells of its scope that it forces (a model, then each cell's other value
   refuted or not, in a small solver of that fact's own clauses; a model that differs on further cells
   spares their calls; taking only what unit propagation draws first was measured worse: more, smaller
   steps, then wider cores);
2. two facts that share a cell;
3. otherwise, for a cell the whole puzzle forces, the solver's core over the selectors, shrunk one fact
   at a time to a minimal set (PySAT's MUS tools need the facts as soft clauses; assumptions do the same
   here without rebuilding the solver), the smallest of a few cells taken.

A fact or pair is asked again only when a cell of its scope has been fixed since it was last asked. The
steps are checked afterwards by :mod:`.replay`, which shares nothing with this search but the facts.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from operator import itemgetter
from typing import Any

import numpy
from pysat.solvers import Solver

from ..core.reporting import report_progress
from . import Explanation, Facts, Step
from .alone import Alone
from .numbering import Numbering

#: how many cells the core search tries for the smallest set of facts
CORE_TRIES = 4
#: the conflicts a cell's first try in the core search may take (:meth:`_Search._core`)
CORE_CONFLICTS = 1_000
#: the solver of one question's own clauses (:meth:`_Guarded.forced`): thousands of small formulas, each
#: built and asked dozens of times. MiniSat 2.2 took 1.66 s on the hard 15x15 2243092 where Glucose 4
#: took 1.89 s and CaDiCaL 2.18 s (zhurgut_6x6: 5.4, 6.4, 8.4 s; before renumbering)
QUESTION_SOLVER = "minisat22"
#: the facts from which a question's forced values are propagated (:meth:`_Guarded._refuted`): a forced
#: value is a consequence of the question, so assuming it changes no answer, and the values propagation
#: then draws need no refutation of their own (a jig's step of 50 facts and 430 forced values: 9.1 ->
#: 5.7 s); a single's or a pair's refutations are propagations themselves, and an extra one each made
#: the 15x15 aquariums slower (one of them 0.13 -> 0.24 s)
PROPAGATED_FROM = 3


def _mask(literals: Sequence[int]) -> int:
    """Bit ``i`` set where ``literals[i]`` is true (a model's values, packed in C: a Python loop over
    a jig's 355 cells took a tenth of its explanation)."""
    signs = numpy.fromiter(literals, dtype=numpy.int64, count=len(literals)) > 0
    return int.from_bytes(numpy.packbits(signs, bitorder="little").tobytes(), "little")


class _Guarded:
    """The facts in one solver, each behind its selector."""

    def __init__(self, facts: Facts, solver: str) -> None:
        top = max((abs(lit) for fact in facts.facts for clause in fact.clauses for lit in clause), default=0)
        top = max([top, *facts.cells])
        self.selectors = [top + 1 + number for number in range(len(facts.facts))]
        self.solver: Any = Solver(name=solver)  # (PySAT's stubs leave out get_core)
        self.solver_name = solver
        shown = set(facts.cells)
        #: each cell's bit in a kept model's mask of true cells
        self.bit = {cell: 1 << number for number, cell in enumerate(facts.cells)}
        self._size = top + len(facts.facts)  # a model's length: the selectors are its last variables
        cells_at = [cell - 1 for cell in facts.cells]
        self._cells_of: Callable[[list[int]], Sequence[int]] = (
            itemgetter(*cells_at) if len(cells_at) > 1 else lambda model: [model[cell] for cell in cells_at])
        self.clauses = [fact.clauses for fact in facts.facts]
        #: each fact's variables, and those of them that are cells (its scope)
        self.variables = [frozenset(abs(lit) for clause in fact.clauses for lit in clause) for fact in facts.facts]
        self.scope = [variables & shown for variables in self.variables]
        for selector, fact in zip(self.selectors, facts.facts):
            for clause in fact.clauses:
                self.solver.add_clause([*clause, -selector])
        #: the models found since the known cells last grew (see :meth:`forced`), each as two bit masks:
        #: the facts whose selectors it sets true, and its true cells (:attr:`bit`). Only these are ever
        #: read, and a whole model is a list of every variable: on a 30x30 aquarium 13,769 of them, and
        #: up to 1,222 models a step took 700 MB.
        self.models: list[tuple[int, int]] = []
        self.alone = Alone(self.clauses, self.variables, self.scope, self.bit)

    def learn(self, literals: Sequence[int]) -> None:
        """The known cells grew by ``literals`` (every question after this one is asked with them known):
        the whole models found so far may break them, and so may the facts' own models."""
        self.models = []
        self.alone.learn(literals)

    def model(self, chosen: Iterable[int], known: Sequence[int]) -> set[int] | None:
        """The true literals of a model of the chosen facts and the known cells, or None."""
        if not self.solver.solve(assumptions=[self.selectors[i] for i in chosen] + list(known)):
            return None
        return {lit for lit in self.solver.get_model() or [] if lit > 0}

    def scope_of(self, chosen: Iterable[int]) -> int:
        """The cells of the chosen facts, as a mask (:attr:`bit`)."""
        scope = 0
        for number in chosen:
            scope |= self.alone.scope_mask[number]
        return scope

    def forced(self, chosen: Sequence[int], known: Sequence[int], asked: int) -> list[int] | None:
        """The literals over the cells ``asked`` (a mask) that the chosen facts and the known cells force
        (None: they contradict each other).

        Most questions are answered by the facts' own models (:mod:`.alone`): a cell on which two of them
        differ is not forced.

        A model found for other facts under the same known cells is a model of the chosen ones too when
        it sets their selectors true (their clauses then hold in it), so it answers for free: a cell on
        which two such models differ is not forced. Most pairs of facts force nothing, and these models
        (CaDiCaL sets a free selector true) spare most of their calls: on the hardest bundled 15x15,
        2,643 pair questions took 21,430 solver calls without them.

        The cells they leave are asked of a small solver that holds the chosen facts' clauses only
        (:meth:`_refuted`): the same question, far cheaper to ask."""
        mask = sum(1 << i for i in chosen)
        first: int | None = None
        differ = self.alone.unforced(chosen)  # the cells on which two witnesses differ: not forced
        if differ & asked == asked:
            return []
        for holding, cells_true in self.models:
            if holding & mask == mask:
                if first is None:
                    first = cells_true
                differ |= cells_true ^ first
                if differ & asked == asked:
                    return []  # each cell differs somewhere: none is forced, no more witnesses needed
        if first is None:
            if not self.solver.solve(assumptions=[self.selectors[i] for i in chosen] + list(known)):
                return None
            first = self._kept_model()
        bit = self.bit
        undecided = [var if first & bit[var] else -var for var in self.alone.cells_in(asked & ~differ)]
        return self._refuted(chosen, known, undecided) if undecided else []

    def _refuted(self, chosen: Sequence[int], known: Sequence[int], values: list[int]) -> list[int]:
        """Those of ``values`` (literals of one model of the chosen facts under the known cells) that the
        chosen facts and the known cells force: the ones whose other value has no model.

        Every clause of :attr:`solver` is behind its fact's selector, and a fact whose selector is not
        assumed holds when its selector is false, whatever its variables. So a model of the chosen facts'
        own clauses and the known cells among their variables is, with the other selectors false, a model
        of the whole question, and the other way round: a known cell outside those variables constrains
        nothing there. The question therefore goes to a small solver of those clauses alone, numbered
        from 1 (a model is read in full at each call). A SAT call must assign every variable of its
        solver, and the whole solver's are the whole puzzle's: on a generated 30x30 aquarium this took
        the explanation from 7.0 s to 1.0 s, and zhurgut_6x6 from 12.0 s to 1.8 s.

        Each refutation that fails should flip as many undecided cells as it can, so the solver is asked
        to prefer their other values (``set_phases``, a backbone search's usual hint; the answer cannot
        change, only how many calls reach it)."""
        local = Numbering(set().union(*(self.variables[i] for i in chosen)))
        with Solver(name=QUESTION_SOLVER, bootstrap_with=local.clauses(clause for i in chosen
                                                                         for clause in self.clauses[i])) as small:
            units = local.among(known)
            # each with its number here; a cell outside the chosen facts' variables is free: never forced
            pending = [(literal, local(literal)) for literal in values if literal in local]
            small.set_phases([-here for _, here in pending])
            wide = len(chosen) >= PROPAGATED_FROM
            forced: set[int] = set()
            while pending:
                literal, here = pending.pop(0)
                if not small.solve(assumptions=[*units, -here]):
                    forced.add(literal)
                    if wide:  # what propagation draws from the values forced so far is forced too, call-free
                        units.append(here)
                        implied = set(small.propagate(assumptions=units)[1])
                        forced.update(other for other, there in pending if there in implied)
                        pending = [(other, there) for other, there in pending if there not in implied]
                    continue
                model: list[int] = small.get_model() or []
                pending = [(other, there) for other, there in pending if model[abs(there) - 1] == there]
            return [literal for literal in values if literal in forced]  # in the cells' order, as asked

    def _kept_model(self) -> int:
        """The solver's model as its mask of true cells, kept with its facts for :meth:`forced`'s later
        questions."""
        model: list[int] = self.solver.get_model() or []
        if len(model) < self._size:  # a variable past its end is in no clause: false, as in a set of true literals
            model += [-var for var in range(len(model) + 1, self._size + 1)]
        holding = _mask(model[self.selectors[0] - 1:self._size]) if self.selectors else 0
        cells_true = _mask(self._cells_of(model))
        self.models.append((holding, cells_true))
        return cells_true

    def forces(self, known: Sequence[int], literal: int, conflicts: int) -> bool | None:
        """Whether all the facts with the known cells force ``literal``; None when the solver ran out of
        its conflicts first. A model found (not forced) is kept, the last of :attr:`models`."""
        self.solver.conf_budget(conflicts)
        answer = self.solver.solve_limited(assumptions=[*self.selectors, *known, -literal])
        if answer:
            self._kept_model()
        return None if answer is None else not answer

    def minimal_core(self, known: Sequence[int], literal: int, conflicts: int,
                     look: Callable[[], None] = lambda: None) -> tuple[int, ...]:
        """A set of facts that, with the known cells, force ``literal``, where :meth:`forces` just said
        all of them do: the solver's core, shrunk one fact at a time.

        The shrinking runs in a small solver of the core's facts alone, each behind a selector of its
        own (as :meth:`_refuted` asks a question's facts alone: on the jig zhurgut_7x7 the whole solver's
        shrinking calls were 10 of its 17 s). A fact goes when the others still force the literal within
        ``conflicts``; one whose trial runs out stays, so the set is minimal but for those. ``look()``
        runs before each trial (the search's stop: it raises)."""
        by_selector = {selector: number for number, selector in enumerate(self.selectors)}
        kept = sorted(by_selector[lit] for lit in self.solver.get_core() or [] if lit in by_selector)
        local = Numbering(set().union(*(self.variables[i] for i in kept), {abs(literal)}))
        selector = {fact: len(local) + number for number, fact in enumerate(kept, 1)}
        small: Any  # (PySAT's stubs leave out conf_budget and solve_limited)
        with Solver(name=self.solver_name, bootstrap_with=[[*clause, -selector[fact]] for fact in kept
                                                           for clause in local.clauses(self.clauses[fact])]) as small:
            fixed = [*local.among(known), -local(literal)]
            for number in list(kept):
                if number not in kept:
                    continue  # gone with an earlier trial's core
                look()
                trial = [other for other in kept if other != number]
                small.conf_budget(conflicts)
                if small.solve_limited(assumptions=[*(selector[i] for i in trial), *fixed]) is False:
                    core = set(small.get_core() or ())
                    kept = [other for other in trial if selector[other] in core]
        return tuple(kept)

    def close(self) -> None:
        self.solver.delete()
        self.alone.close()


def explain(facts: Facts, solver: str = "cadical195", stop: Callable[[], bool] = lambda: False) -> Explanation:
    """The steps from nothing known to the solution, or to where no fact forces anything more.

    CaDiCaL answers the search's many small assumption calls faster than Glucose: on the nine hard
    15x15 aquariums it took 0.7-3.5 s where Glucose took 0.9-6.9 s. Which minimal sets of facts are
    found depends on the solver's models and cores, so the steps (not their soundness) follow it.

    ``stop()`` is asked before every question and every cell of a core search (each a solver call of
    milliseconds, or at most :data:`CORE_CONFLICTS` conflicts): once it says True, the steps found so
    far are the explanation, ``stopped`` (a time limit or a signal keeps them)."""
    guarded = _Guarded(facts, solver)
    try:
        return _Search(facts, guarded, stop).run()
    finally:
        guarded.close()


class _Cut(Exception):
    """The search's ``stop()`` said so: it ends with the steps it had."""


class Stopped(Exception):
    """A search told to stop (its ``stop()`` said so) before it had its answer."""


class _Search:
    def __init__(self, facts: Facts, guarded: _Guarded, stop: Callable[[], bool] = lambda: False,
                 known: Sequence[int] = ()) -> None:
        """``known``: literals over cells fixed before the search starts (a player's marks)."""
        self.facts, self.guarded, self.stop = facts, guarded, stop
        self.known: list[int] = list(known)
        self.unknown = set(facts.cells) - {abs(lit) for lit in known}
        self.unknown_mask = sum(guarded.bit[var] for var in self.unknown)
        if known:
            guarded.learn(self.known)
        self.steps: list[Step] = []
        #: per fact (or pair), the cells of its scope known when it was last asked and forced nothing
        self.asked: dict[tuple[int, ...], int] = {}
        scope = guarded.scope
        self.pairs = [(i, j) for i, j in combinations(range(len(scope)), 2) if scope[i] & scope[j]]

    def run(self) -> Explanation:
        try:
            return self._steps()
        except _Cut:
            return Explanation(self.facts, tuple(self.steps), False, stopped=True)

    def _look(self) -> None:
        """End the search here if it has been asked to stop."""
        if self.stop():
            raise _Cut

    def _steps(self) -> Explanation:
        everything = tuple(range(len(self.facts.facts)))
        if self.guarded.model(everything, []) is None:
            return Explanation(self.facts, (), False, self._contradiction())
        while self.unknown:
            step = self._single() or self._pair() or self._core()
            if step is None:
                return Explanation(self.facts, tuple(self.steps), False, (), self._differing())
            self.take(step)
            self._report()
        return Explanation(self.facts, tuple(self.steps), True)

    def take(self, step: Step) -> None:
        """The step's cells are known from here on."""
        self.steps.append(step)
        self.known += step.forced
        self.guarded.learn(step.forced)
        self.unknown -= {abs(lit) for lit in step.forced}
        self.unknown_mask &= ~sum(self.guarded.bit[abs(lit)] for lit in step.forced)

    def next_step(self) -> Step | None:
        """The easiest step from the known cells (fewest facts first); None where no fact forces anything
        more (the known cells leave several solutions). Raises :class:`Stopped` when told to stop."""
        try:
            return self._single() or self._pair() or self._core()
        except _Cut:
            raise Stopped from None

    def _report(self, searching: str = "") -> None:
        """Say the steps found and the cells known, and how far the search for the next step has come
        where it takes long (a core of half a jig's facts can take a minute to find and shrink): the
        status line shows it, and a command stopped by its limit says it."""
        steps, known = len(self.steps), len(self.facts.cells) - len(self.unknown)
        text = f"{steps:,} step{'s' * (steps != 1)} found, {known:,} of {len(self.facts.cells):,} cells known"
        report_progress(f"{text}; next step: {searching}" if searching else text)

    def _try(self, chosen: tuple[int, ...]) -> Step | None:
        self._look()
        scope = self.guarded.scope_of(chosen)
        cells = scope & self.unknown_mask
        if not cells:
            return None
        known_there = (scope ^ cells).bit_count()
        if self.asked.get(chosen) == known_there:
            return None  # nothing fixed in its scope since it forced nothing
        forced = self.guarded.forced(chosen, self.known, cells)
        if not forced:
            self.asked[chosen] = known_there
            return None
        return Step(chosen, tuple(forced))

    def _single(self) -> Step | None:
        for number in range(len(self.facts.facts)):
            step = self._try((number,))
            if step is not None:
                return step
        return None

    def _pair(self) -> Step | None:
        for pair in self.pairs:
            step = self._try(pair)
            if step is not None:
                return step
        return None

    def _core(self) -> Step | None:
        """The smallest of a few cores, each a minimal set of facts that forces one cell.

        The cells are asked in order, each within a number of conflicts that grows eightfold a round
        (:data:`CORE_CONFLICTS` first) for the cells that ran out: proving that the whole puzzle forces a
        cell can take as long as solving it (on the jig zhurgut_8x8 one such call took over 50 s), and a
        cell proven within few conflicts is one a person would see sooner. A cell that differs between
        two models is not forced and is not asked.

        Once a cell is shown unforced (the puzzle has more than one solution with the cells known), each
        further model should show as many cells unforced as it can, so the solver then prefers every
        unknown cell's other value (``set_phases``, as :meth:`_refuted` does): on a generated jig of 24
        pieces where nothing is forced, showing so took 20 s without it and 5 s with it. Not before: where
        the solution is unique every cell is forced, no model is found, and the phases only moved the
        cores (the 15x15 aquariums took 10% longer with them set from the start)."""
        everything = tuple(range(len(self.facts.facts)))
        true = self.guarded.model(everything, self.known)
        if true is None:
            return None
        bit = self.guarded.bit
        truth = sum(bit[var] for var in true if var in bit)
        free = 0  # cells on which two models differ
        pending, conflicts = sorted(self.unknown), CORE_CONFLICTS
        found: list[tuple[int, ...]] = []
        asked = 0
        while pending and not found:
            postponed = []
            for var in pending:
                if free & bit[var]:
                    continue
                literal = var if truth & bit[var] else -var
                asked += 1
                self._look()
                self._report(f"{asked:,} cells asked, {len(found)} core{'s' * (len(found) != 1)} found")
                forces = self.guarded.forces(self.known, literal, conflicts)
                if forces is None:
                    postponed.append(var)
                elif not forces:
                    if not free:
                        self.guarded.solver.set_phases([-cell if cell in true else cell for cell in self.unknown])
                    free |= self.guarded.models[-1][1] ^ truth
                else:
                    found.append(self.guarded.minimal_core(self.known, literal, conflicts, self._look))
                    if len(found) == CORE_TRIES:
                        break
            pending, conflicts = postponed, conflicts * 8
        if not found:
            return None
        best = min(found, key=len)
        self._report(f"the cells {len(best)} facts force")
        forced = self.guarded.forced(best, self.known, self.guarded.scope_of(best) & self.unknown_mask)
        return Step(best, tuple(forced or ()))

    def _contradiction(self) -> tuple[int, ...]:
        """A minimal set of facts that cannot hold together."""
        guarded = self.guarded
        kept = list(range(len(self.facts.facts)))
        for number in list(kept):
            trial = [other for other in kept if other != number]
            if guarded.model(trial, []) is None:
                kept = trial
        return tuple(kept)

    def _differing(self) -> tuple[tuple[int, ...], ...]:
        """Two solutions, as their literals over the cells no step fixed: the second is asked to differ
        from the first somewhere there (the search is over, so the solver may keep that clause)."""
        everything = tuple(range(len(self.facts.facts)))
        first = self.guarded.model(everything, self.known) or set()
        cells = sorted(self.unknown)
        one = tuple(var if var in first else -var for var in cells)
        self.guarded.solver.add_clause([-lit for lit in one])
        second = self.guarded.model(everything, self.known)
        if second is None:  # (not a falsy model: one with every cell false is a solution too)
            second = first
        return one, tuple(var if var in second else -var for var in cells)
