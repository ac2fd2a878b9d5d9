"""``explain --from MARKS``: a hint from a player's own marks (which are wrong and why, else the next step
from them), every claim replayed from scratch, marks that solve the puzzle passed by its checker
(:mod:`puzzlesat.deduction.hints` finds the hint)."""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CheckFailed, Interrupted, PuzzlesatError, SolverTimeout
from ..core.model import CnfModel
from ..core.puzzle import Puzzle
from ..core.reporting import stop_requested
from ..core.timing import UNLIMITED, Deadline, since_start
from ..deduction import Facts
from ..deduction.hints import Hint, find_hint
from ..deduction.replay import replay_hint
from ..proofs.certificate import Certificate
from .explaining import certified_line, fixed_text
from .report import html_table
from .stop import Stop, replay_stop


@dataclass
class Hinted:
    """A hint, checked: every claim replayed, marks that solve the puzzle passed by its checker, and with
    ``certify`` every replayed UNSAT answer's proof checked.

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> hinted = puzzlesat.explain("aquarium", grid, marks="? ? # # # #\\n" + "? ? ? ? ? ?\\n" * 5)
    >>> hinted.to_json()["wrong"], hinted.to_json()["next"]["facts"]
    ([], ['region 2 fills level by level'])
    """

    #: the puzzle's name
    puzzle: str
    #: the hint (:class:`~puzzlesat.deduction.hints.Hint`)
    hint: Hint
    #: each mark (a literal over a shown variable) -> the cells the player marked so
    marked: Mapping[int, tuple[Any, ...]]
    #: the marks as a solution, checked, where they solve the puzzle (None otherwise)
    solution: Any = None
    #: with ``certify``: each replayed UNSAT answer's checked proof
    certificates: list[Certificate] = field(default_factory=list)
    #: seconds spent, phase by phase (``hint``, ``replay``)
    times: dict[str, float] = field(default_factory=dict)
    #: why the search ended before its answer (a time limit, a signal): the wrong marks found by then
    stopped: Stop | None = None

    @property
    def answered(self) -> bool:
        """Whether it says something about the marks: wrong ones, a clash, the next step, or solved."""
        hint = self.hint
        return bool(hint.wrong or hint.clashing or hint.next is not None or hint.solved)

    def to_json(self) -> dict[str, Any]:
        """The hint as ``explain --from --json`` prints it (schema docs/schemas/hint-1.json)."""
        hint, facts = self.hint, self.hint.facts

        def labels(numbers: tuple[int, ...]) -> list[str]:
            return [facts.facts[i].label for i in numbers]

        def cells(literal: int) -> list[dict[str, Any]]:
            """Each cell marked so: [row, col], the mark's value, and a tiling's placement [id, orientation]."""
            return [{"cell": list(cell[:2]), "mark": facts.values[literal > 0]}
                    | ({"placement": list(cell[2:])} if len(cell) > 2 else {}) for cell in self.marked[literal]]

        out: dict[str, Any] = {
            "puzzle": self.puzzle, "marks": sum(len(cells) for cells in self.marked.values()),
            "wrong": [dict(mark, reasons=labels(wrong.facts), why=self.why(wrong.facts, (wrong.literal,)))
                      for wrong in hint.wrong for mark in cells(wrong.literal)],
            "clashing": ({"marks": [mark for literal in hint.clashing for mark in cells(literal)],
                          "reasons": labels(hint.clash_facts), "why": self.why(hint.clash_facts, hint.clashing)}
                         if hint.clashing else None),
            "next": ({"facts": labels(hint.next.facts), "cells": [_cells_json(facts, lit) for lit in hint.next.forced],
                      "why": self.why(hint.next.facts, hint.marks, hint.next.forced),
                      "before": [{"facts": labels(step.facts), "cells": [_cells_json(facts, lit) for lit in step.forced]}
                                 for step in hint.before]}
                     if hint.next is not None else None),
            "solved": hint.solved, "replayed": True,
            "times": {name: round(seconds, 6) for name, seconds in self.times.items()}}
        if hint.unexplained:
            out["unexplained"] = [mark for literal in hint.unexplained for mark in cells(literal)]
        if hint.conflict:
            out["no_solution"] = labels(hint.conflict)
        if hint.differing:
            out["differing"] = [[_cells_json(facts, lit) for lit in solution] for solution in hint.differing]
        if self.solution is not None:
            out["solution"] = self.solution.to_json()
        if self.certificates:
            joined = Certificate.joined(self.certificates)
            out["certificate"] = joined.to_json() if joined else None
        if self.stopped is not None:
            out["stopped"] = self.stopped.to_json()
        return out

    def why(self, numbers: tuple[int, ...], fixed: tuple[int, ...], forced: tuple[int, ...] = ()) -> str:
        """Why, in puzzle terms: where one counting fact is the reason, what the marks leave of its count
        ("row 3 needs 4 water cells; with these marks at most 3 fit"); otherwise the facts' labels. ``fixed``:
        the literals the reason starts from; ``forced``: what it forces (a step), or nothing (a refutation)."""
        facts = self.hint.facts
        labels = " + ".join(facts.facts[i].label for i in numbers)
        count = facts.facts[numbers[0]].count if len(numbers) == 1 else None
        if count is None:
            return labels
        water = facts.values[True]
        needs = f"{count.line} needs {count.total} {water} cell{'s' * (count.total != 1)}"
        given = set(fixed)
        totals = count.totals(given)
        with_ = ("with " + " ".join(f"{facts.values[lit > 0]} {facts.names[abs(lit)]}" for lit in fixed)
                 if len(fixed) == 1 and not forced else "with these marks")
        if forced:
            if min(totals) == count.total:
                return f"{needs}, and {with_} it has them: the rest of it is {facts.values[False]}"
            if max(totals) == count.total:
                return f"{needs}, and {with_} only {count.total} can be: every open one is {water}"
            return labels
        if max(totals) < count.total:
            return f"{needs}; {with_} at most {max(totals)} fit"
        if min(totals) > count.total:
            return f"{needs}; {with_} it holds at least {min(totals)}"
        held = sorted(totals)
        shown = ", ".join(map(str, held[:8])) + (" ..." if len(held) > 8 else "")
        return f"{needs}; {with_} it can hold {shown}, not {count.total}"

    def render(self) -> str:
        """The hint as a person reads it: the wrong marks and why, or the next step and why."""
        hint, facts = self.hint, self.hint.facts
        lines = []
        for wrong in hint.wrong:
            for cell in self.marked[wrong.literal]:
                lines.append(f"wrong: {self._mark(wrong.literal, cell)}, and no solution has it: "
                             f"{self.why(wrong.facts, (wrong.literal,))}")
        for literal in hint.unexplained:
            for cell in self.marked[literal]:
                lines.append(f"wrong: {self._mark(literal, cell)}, and no solution has it (stopped before its "
                             "reason was found)")
        if hint.clashing:
            marks = ", ".join(self._mark(lit, cell) for lit in hint.clashing for cell in self.marked[lit])
            why = self.why(hint.clash_facts, hint.clashing) if hint.clash_facts else "they are cells of one value"
            lines.append(f"each mark is in some solution, but these cannot all hold together: {marks}: {why}")
        if hint.next is not None and not hint.next.facts:
            lines.append("next: " + "; ".join(self._filled(lit) for lit in hint.next.forced))
        elif hint.next is not None:
            ruled = sum(len(step.forced) for step in hint.before)
            used = list(dict.fromkeys(facts.facts[i].label for step in hint.before for i in step.facts))
            more = f" and {len(used) - 3} more facts" if len(used) > 3 else ""
            after = (f" (after {ruled} {facts.values[False]} by {'; '.join(used[:3])}{more})" if hint.before else "")
            lines.append(f"next{after}: {self.why(hint.next.facts, hint.marks, hint.next.forced)}: "
                         f"{_step_text(facts, hint.next.forced)}")
        if hint.solved:
            lines.append("solved: the marks are the solution (checked)")
        if hint.conflict:
            labels = "; ".join(facts.facts[i].label for i in hint.conflict)
            lines.append(f"no solution: these facts cannot hold together: {labels}")
        if hint.differing:
            first, second = hint.differing
            differ = [facts.names[abs(a)] for a, b in zip(first, second) if a != b]
            lines.append(f"the marks leave several solutions, and no fact forces anything more; two differ at "
                         f"{', '.join(differ[:8])}{' ...' if len(differ) > 8 else ''}")
        if self.stopped is not None:
            lines.append(f"{self.stopped.said()}: {self.progress()}")
        elif not hint.wrong and not hint.clashing and not hint.conflict:
            lines.insert(0, "no wrong mark")
        lines += certified_line(self.certificates, "every claim")
        return "\n".join(lines)

    def progress(self) -> str:
        """How far a stopped hint came: "12 wrong marks found, 9 of them with their reasons"."""
        hint = self.hint
        found = sum(len(self.marked[lit]) for lit in (*(wrong.literal for wrong in hint.wrong), *hint.unexplained))
        explained = sum(len(self.marked[wrong.literal]) for wrong in hint.wrong)
        if not found:
            return "no mark is wrong; the next step was not found yet" if hint.marks_judged else "no wrong mark found yet"
        return f"{found:,} wrong mark{'s' * (found != 1)} found, {explained:,} of them with their reasons"

    def _mark(self, literal: int, cell: Any) -> str:
        """A mark as a text names it: "r3c4 is marked water", or a placement's own name ("piece 7 at r1c2
        in orientation 1 is marked placed")."""
        facts = self.hint.facts
        name = _cell_name(cell) if isinstance(cell, tuple) and len(cell) == 2 else facts.names[abs(literal)]
        return f"{name} is marked {facts.values[literal > 0]}"

    def _filled(self, literal: int) -> str:
        """Cells a mark fills, as a text says them: "dry r6c5 r6c6, as r6c4: r6c4 r6c5 r6c6 fill together"."""
        facts, marked = self.hint.facts, self.marked[literal]
        cells = " ".join(_cell_name(cell) for cell in facts.cells[abs(literal)] if cell not in marked)
        return (f"{facts.values[literal > 0]} {cells}, as {' '.join(_cell_name(cell) for cell in marked)}: "
                f"{facts.names[abs(literal)]} fill together")

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the hint as text, then the grid with the wrong marks ringed and the next
        step's cells in orange (:func:`~puzzlesat.deduction.picture.hint_picture`)."""
        from html import escape

        from ..deduction.picture import hint_picture
        from ..formats.picture import to_svg

        said = self.to_json()
        table = html_table(f"{self.puzzle}: a hint from {said['marks']} marks",
                           [("wrong marks", len(said["wrong"])), ("solved", self.hint.solved)])
        return f"{table}<pre>{escape(self.render())}</pre>{to_svg(hint_picture(self.hint, self.marked))}"


def _cell_name(cell: Any) -> str:
    """A grid cell (row, col), 0-based, as a person names it: ``r3c4`` (another cell as it is named)."""
    if isinstance(cell, tuple) and len(cell) == 2:
        return f"r{cell[0] + 1}c{cell[1] + 1}"
    return str(cell)


def _cells_json(facts: Facts, literal: int) -> dict[str, Any]:
    return {"cells": [list(cell) for cell in facts.cells[abs(literal)]], "value": facts.values[literal > 0]}


def _step_text(facts: Facts, forced: tuple[int, ...]) -> str:
    return "; ".join(fixed_text(facts, [lit for lit in forced if (lit > 0) == value], value)
                     for value in (True, False) if any((lit > 0) == value for lit in forced))


#: the share of a time limit kept for replaying the hint's claims when the search is stopped by it
REPLAY_SHARE = 0.1


def hint_instance(puzzle: Puzzle[Any, Any, Any], instance: Any, marks_text: str, marks_path: str,
                  options: Any = None, certify: bool = False, deadline: Deadline = UNLIMITED) -> Hinted:
    """Read the player's marks, find the hint, replay it, and check marks that solve the puzzle."""
    options = puzzle.hint_options(options if options is not None else puzzle.options(**getattr(puzzle.task, "solving", {})))
    read = puzzle.read_marks(instance, marks_text, marks_path)
    facts = puzzle.hint_facts(instance, options, read) if read is not None else None
    if facts is None or read is None:
        raise PuzzlesatError(f"explain --from is not offered for {puzzle.name} (it is for puzzles that read a "
                             "player's marks and state their clauses as puzzle facts)")
    variable = {cell: var for var, cells in facts.cells.items() for cell in cells}
    marked: dict[int, list[Any]] = {}
    for cell, value in read.items():
        if cell not in variable:
            raise CheckFailed(f"internal: the mark {cell} names no cell of {puzzle.name}'s facts")
        marked.setdefault(variable[cell] if value else -variable[cell], []).append(cell)
    # every grid square marked: the marks are a whole solution where they hold together
    complete = {cell[:2] for cell in read} == {cell[:2] for cells in facts.cells.values() for cell in cells}
    times: dict[str, float] = {}
    started, start = time.monotonic(), time.perf_counter()
    searching = deadline.sooner(max(0.25, REPLAY_SHARE * (deadline.seconds or 0.0)))
    unmarked = [literal for literal in marked if len(marked[literal]) < len(facts.cells[abs(literal)])]
    hint = find_hint(facts, list(marked), stop=lambda: bool(stop_requested()) or searching.passed(), unmarked=unmarked,
                     complete=complete)
    times["hint"] = time.perf_counter() - start
    start = time.perf_counter()
    hint, certificates = replay_hint(hint, certify, stop=replay_stop(deadline))
    times["replay"] = time.perf_counter() - start
    cells = {literal: tuple(found) for literal, found in marked.items()}
    if hint.stopped:
        number = stop_requested()
        stop = Interrupted(number, "explain") if number else SolverTimeout("explain", deadline.seconds or 0.0)
        return Hinted(puzzle.name, hint, cells, None, certificates, times, Stop.of(stop, since_start(started)))
    solution = None
    if hint.solved:
        encoding = puzzle.encode(instance, "cnf", options)
        if list(encoding.show) != list(facts.cells):
            raise CheckFailed("internal: the facts and the cnf encoding number the cells differently")
        solution = puzzle.decode(instance, encoding, CnfModel.from_literals(list(hint.marks), encoding.num_vars))
        problems = puzzle.check(instance, solution)
        if problems:
            raise CheckFailed(f"the marks said to solve the puzzle break the rules: {problems[0]}")
    return Hinted(puzzle.name, hint, cells, solution, certificates, times)
