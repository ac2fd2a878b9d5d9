"""Witnesses from each fact alone: cells that one fact, or two facts together, do not force, shown by
models of each fact on its own, with no solver call per question.

A cell is not forced by some facts and the known cells once two models of them differ on it. The search
(:mod:`.search`) asks this of every fact and of every pair of facts that share a cell, again whenever a
cell of theirs becomes known, and most answers are "nothing": on the jig zhurgut_9x5, 20,013 pair
questions took 13.7 of the explanation's 17.1 s, and none of them forced anything.

**Joining two facts' models.** When two facts share no variable but cells (a counting encoding's own
variables belong to its fact alone), a model of the first and a model of the second that agree on the
cells they share are together a model of both: each fact's clauses mention only its own variables. So a
cell of either fact that is true in one such joined model and false in another is not forced by the
pair. Two facts that share another variable are never joined (:meth:`Alone.unforced` says nothing).

**Which models.** Each fact keeps models of its own clauses under the known cells, found in a small
solver of that fact alone, one with each of its cells true where the fact allows it, every other
variable preferring false. Sparse models join well: a cell's exactly-one and a piece's exactly-one
agree on the shared placements whenever neither sets them, and a model with one placement true meets
the other fact's model with the same placement true. A model that breaks a cell that becomes known is
dropped (:meth:`Alone.learn`), and the fact is asked again, for the cells that lost their witness only.

Soundness rests on every kept model being a model of its fact under every known cell; the caller
passes each newly known literal to :meth:`Alone.learn` before asking again. A cell these models do not
show free is left to the caller's solver, so the answers are the same as without them (the
differential test in tests/test_explain.py asks both ways).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from pysat.solvers import Solver

from .numbering import Numbering

#: the solver of one fact's clauses: small formulas asked many times, as for :mod:`.search`'s questions
ALONE_SOLVER = "minisat22"


class _Own:
    """One fact's clauses in a solver of their own, numbered from 1, every variable preferring false."""

    def __init__(self, clauses: Sequence[Sequence[int]], variables: frozenset[int], scope: Sequence[int],
                 bit: dict[int, int]) -> None:
        self.local = Numbering(variables)
        self.solver = Solver(name=ALONE_SOLVER, bootstrap_with=self.local.clauses(clauses))
        self._false = [-number for number in range(1, len(self.local) + 1)]
        self.bits = [bit[cell] for cell in scope]
        at = [self.local(cell) - 1 for cell in scope]
        self._values: Callable[[list[int]], Sequence[int]] = (
            itemgetter(*at) if len(at) > 1 else lambda model: [model[index] for index in at])

    def model(self, assumptions: list[int]) -> int | None:
        """The mask of the true cells of a model under the assumptions (local literals), or None."""
        # set again before every call: MiniSat's phase saving overwrites it, and its models then fill up
        # with true cells that join with no other fact's (zhurgut_6x6's edge and piece pairs: 1.12 s, not 0.08)
        self.solver.set_phases(self._false)
        if not self.solver.solve(assumptions=assumptions):
            return None
        values = self._values(self.solver.get_model() or [])
        return sum(bit for bit, value in zip(self.bits, values) if value > 0)

    def close(self) -> None:
        self.solver.delete()


def _grouped(models: set[int], shared: int) -> dict[int, list[int]]:
    """The models by their cells among ``shared``: for each such part, the cells true in some model of
    it and the cells true in all of them (a cell not true in all of them is false in some model)."""
    groups: dict[int, list[int]] = {}
    for cells in models:
        part = cells & shared
        group = groups.get(part)
        if group is None:
            groups[part] = [cells, cells]
        else:
            group[0] |= cells
            group[1] &= cells
    return groups


class Alone:
    """Models of each fact on its own under the known cells, as masks of true cells (one bit a cell)."""

    def __init__(self, clauses: Sequence[Sequence[Sequence[int]]], variables: Sequence[frozenset[int]],
                 scope: Sequence[frozenset[int]], bit: dict[int, int]) -> None:
        self._clauses, self._variables, self._bit = clauses, variables, bit
        self._scope = [sorted(cells) for cells in scope]
        self._shown = frozenset(bit)
        self._cell_at = [0] * len(bit)  # each bit's cell
        for cell, mask in bit.items():
            self._cell_at[mask.bit_length() - 1] = cell
        self.scope_mask = [sum(bit[cell] for cell in cells) for cells in self._scope]
        self.models: list[set[int]] = [set() for _ in clauses]
        #: per fact, the cells true in some kept model, and those no model of the fact sets true
        self._covered = [0] * len(clauses)
        self._refused = [0] * len(clauses)
        self._true = self._false = 0  # the known cells
        self._own: dict[int, _Own] = {}
        self._joinable: dict[tuple[int, int], bool] = {}

    def learn(self, literals: Sequence[int]) -> None:
        """These cells are now known: the models that break them are dropped."""
        true = sum(self._bit[lit] for lit in literals if lit > 0)
        false = sum(self._bit[-lit] for lit in literals if lit < 0)
        self._true |= true
        self._false |= false
        for number, mask in enumerate(self.scope_mask):
            must, mustnt = true & mask, false & mask
            if must | mustnt and self.models[number]:
                kept = {cells for cells in self.models[number] if cells & must == must and not cells & mustnt}
                self.models[number] = kept
                covered = 0
                for cells in kept:
                    covered |= cells
                self._covered[number] = covered

    def unforced(self, chosen: Sequence[int]) -> int:
        """The mask of cells of the chosen facts (one or two) on which two of their models (two facts:
        joined models) differ; 0 for more facts, or for two that share a variable that is not a cell."""
        if len(chosen) == 1:
            (number,) = chosen
            self._fill(number)
            ones, every = 0, -1
            for cells in self.models[number]:
                ones |= cells
                every &= cells
            return ones & self.scope_mask[number] & ~every  # none kept: 0 (every stays -1)
        if len(chosen) != 2 or not self._can_join(*chosen):
            return 0
        first, second = chosen
        self._fill(first)
        self._fill(second)
        shared = self.scope_mask[first] & self.scope_mask[second]
        mine, theirs = _grouped(self.models[first], shared), _grouped(self.models[second], shared)
        ones = zeros = 0
        for agreed in mine.keys() & theirs.keys():
            (my_ones, my_all), (their_ones, their_all) = mine[agreed], theirs[agreed]
            ones |= my_ones | their_ones
            zeros |= (self.scope_mask[first] & ~my_all) | (self.scope_mask[second] & ~their_all)
        return ones & zeros

    def cells_in(self, mask: int) -> list[int]:
        """The cells whose bits ``mask`` sets."""
        cells = []
        while mask:
            low = mask & -mask
            cells.append(self._cell_at[low.bit_length() - 1])
            mask ^= low
        return cells

    def _can_join(self, first: int, second: int) -> bool:
        joinable = self._joinable.get((first, second))
        if joinable is None:
            joinable = self._variables[first] & self._variables[second] <= self._shown
            self._joinable[(first, second)] = joinable
        return joinable

    def _fill(self, number: int) -> None:
        """Keep a model of the fact, and one with each of its unknown cells true where it can be."""
        known = self._true | self._false
        need = self.scope_mask[number] & ~known & ~self._covered[number] & ~self._refused[number]
        if not need and self.models[number]:
            return
        own = self._own.get(number)
        if own is None:
            own = self._own[number] = _Own(self._clauses[number], self._variables[number], self._scope[number],
                                           self._bit)
        units = [own.local(cell if self._true & self._bit[cell] else -cell)
                 for cell in self.cells_in(known & self.scope_mask[number])]
        models, covered = self.models[number], self._covered[number]
        if not models:
            found = own.model(units)
            if found is None:
                return  # the fact contradicts the known cells: no witness at all
            models.add(found)
            covered |= found
            need &= ~found
        while need:
            low = need & -need
            found = own.model([*units, own.local(self._cell_at[low.bit_length() - 1])])
            if found is None:
                self._refused[number] |= low
                need ^= low
            else:
                models.add(found)
                covered |= found
                need &= ~found
        self._covered[number] = covered

    def close(self) -> None:
        for own in self._own.values():
            own.close()
