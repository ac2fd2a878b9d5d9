"""``explain``: the steps that lead to a puzzle's solution, replayed and checked, and the solution they
reach checked by the puzzle's own checker (:mod:`puzzlesat.explain` finds and replays the steps)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CheckFailed, Interrupted, PuzzlesatError, SolverTimeout
from ..core.model import CnfModel
from ..core.puzzle import Puzzle
from ..core.reporting import stop_requested
from ..core.timing import UNLIMITED, Deadline, since_start
from ..deduction import Explanation, Facts
from ..deduction.replay import replay, replay_ending
from ..deduction.search import explain
from ..proofs.certificate import Certificate
from .report import html_table, solution_warnings
from .stop import Stop, replay_stop


@dataclass
class Explained:
    """An explanation, checked: every step replayed, the solution it reaches (if it reaches one) passed
    the checker, and with ``certify`` every replayed UNSAT answer's proof checked.

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> explained = puzzlesat.explain("aquarium", grid)
    >>> explained.explanation.solved, len(explained.to_json()["steps"])
    (True, 10)
    """

    #: the puzzle's name
    puzzle: str
    #: the steps and where they end (:class:`~puzzlesat.Explanation`)
    explanation: Explanation
    #: the solution the steps reach, checked (None where they stop short of one)
    solution: Any
    #: with ``certify``: each replayed UNSAT answer's checked proof
    certificates: list[Certificate]
    #: seconds spent, phase by phase (``explain``, ``replay``, ``certify``)
    times: dict[str, float] = field(default_factory=dict)
    #: why the search ended before its end (a time limit, a signal): the steps are those found by
    #: then, every one replayed
    stopped: Stop | None = None

    @property
    def warnings(self) -> list[str]:
        """Where the solution reached leaves the puzzle's stated assumptions (a jigsaw image without
        sea monsters), as ``solve`` says it."""
        return solution_warnings(self.solution)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the difficulty and every step as text, then the steps' picture."""
        from html import escape

        from ..deduction.picture import steps_picture
        from ..formats.picture import to_svg

        table = html_table(f"{self.puzzle}: {'solved' if self.explanation.solved else 'not solved'}",
                           list(self.explanation.difficulty.items()))
        return f"{table}<pre>{escape(self.render())}</pre>{to_svg(steps_picture(self.explanation))}"

    def to_json(self) -> dict[str, Any]:
        """The explanation as ``explain --json`` prints it (schema docs/schemas/explain-1.json)."""
        facts = self.explanation.facts
        def fixed(literal: int) -> dict[str, Any]:
            return {"cells": [list(cell) for cell in facts.cells[abs(literal)]], "value": facts.values[literal > 0]}

        steps = [{"facts": [facts.facts[i].label for i in step.facts], "cells": [fixed(lit) for lit in step.forced]}
                 for step in self.explanation.steps]
        out: dict[str, Any] = {"puzzle": self.puzzle, "solved": self.explanation.solved, "steps": steps,
                               "difficulty": self.explanation.difficulty, "values": list(facts.values), "replayed": True,
                               "times": {name: round(seconds, 6) for name, seconds in self.times.items()}}
        if facts.walls:
            out["walls"] = [list(wall) for wall in facts.walls]
        if self.solution is not None:
            out["solution"] = self.solution.to_json()
        if self.warnings:
            out["warnings"] = self.warnings
        if self.explanation.conflict:
            out["conflict"] = [facts.facts[i].label for i in self.explanation.conflict]
        if self.explanation.differing:
            out["differing"] = [[fixed(lit) for lit in solution] for solution in self.explanation.differing]
        if self.certificates:
            joined = Certificate.joined(self.certificates)
            out["certificate"] = joined.to_json() if joined else None
        if self.stopped is not None:
            out["stopped"] = self.stopped.to_json()
        return out

    def render(self) -> str:
        facts, explanation = self.explanation.facts, self.explanation
        lines = []
        for number, step in enumerate(explanation.steps, 1):
            said = " + ".join(facts.facts[i].label for i in step.facts)
            fixed = "; ".join(fixed_text(facts, [lit for lit in step.forced if (lit > 0) == value], value)
                              for value in (True, False) if any((lit > 0) == value for lit in step.forced))
            lines.append(f"step {number}: {said}: {fixed}")
        difficulty = explanation.difficulty
        if self.stopped is not None:
            lines.append(f"{self.stopped.said()}: {self.progress()}")
        elif explanation.solved:
            lines.append(f"solved in {difficulty['steps']} steps; the widest uses {difficulty['widest']} "
                         f"fact{'s' * (difficulty['widest'] != 1)}; every step replayed, the solution checked")
            lines += [f"warning: {warning}" for warning in self.warnings]
        elif explanation.conflict:
            lines.append("no solution: these facts cannot hold together: "
                         + "; ".join(facts.facts[i].label for i in explanation.conflict))
        else:
            first, second = explanation.differing
            differ = [abs(a) for a, b in zip(first, second) if a != b]
            lines.append(f"not unique: after {difficulty['steps']} steps no fact forces anything more; two "
                         f"solutions differ at {', '.join(facts.names[var] for var in differ[:8])}"
                         f"{' ...' if len(differ) > 8 else ''}")
        lines += certified_line(self.certificates, "every step")
        return "\n".join(lines)


    def progress(self) -> str:
        """How far a stopped explanation came: "3 steps found, every one replayed; 41 of 225 cells known"."""
        steps = self.explanation.steps
        if not steps:
            return "no step found yet"
        known = sum(len(step.forced) for step in steps)
        return (f"{len(steps):,} step{'s' * (len(steps) != 1)} found, every one replayed; {known:,} of "
                f"{len(self.explanation.facts.cells):,} cells known")


def certified_line(certificates: list[Certificate], what: str) -> list[str]:
    """The line that says ``what`` was certified (``every step``, ``every claim``): none without proofs."""
    joined = Certificate.joined(certificates)
    if joined is None:
        return []
    return [f"{what} certified: {len(certificates):,} proofs, {joined.checked:,} of {joined.lemmas:,} lemmas "
            f"checked in {joined.seconds:.2f} s"]


def fixed_text(facts: Facts, literals: list[int], value: bool) -> str:
    """Cells a step fixes to one value, as a text says them: named, or counted where they are not listed."""
    if value in facts.listed:
        return f"{facts.values[value]} " + ", ".join(facts.names[abs(lit)] for lit in literals)
    return f"{len(literals)} {facts.values[value]}"


#: the share of a time limit kept for replaying the steps found when the search is stopped by it (the
#: replay took 3-8% of the search on the bundled puzzles; it also stops between steps at the limit)
REPLAY_SHARE = 0.1


def explain_instance(puzzle: Puzzle[Any, Any, Any], instance: Any, options: Any = None,
                     certify: bool = False, deadline: Deadline = UNLIMITED) -> Explained:
    """Find the steps, replay them, and check the solution they reach. Stopped by the ``deadline`` or a
    signal's request, the explanation is the steps found (and replayed) by then, and says why."""
    # the options the puzzle solves with (a tiling breaks symmetry: one solution of each class)
    options = options if options is not None else puzzle.options(**getattr(puzzle.task, "solving", {}))
    facts = puzzle.facts(instance, options)
    if facts is None:
        raise PuzzlesatError(f"explain is not offered for {puzzle.name} (it is for puzzles whose encoders state "
                             "their clauses as puzzle facts)")
    times = {}
    started, start = time.monotonic(), time.perf_counter()
    searching = deadline.sooner(max(0.25, REPLAY_SHARE * (deadline.seconds or 0.0)))
    explanation = explain(facts, stop=lambda: bool(stop_requested()) or searching.passed())
    times["explain"] = time.perf_counter() - start
    start = time.perf_counter()
    replayed, certificates = replay(explanation, certify, stop=replay_stop(deadline))
    if replayed < len(explanation.steps):  # stopped in the replay: the steps replayed are the explanation
        explanation = Explanation(explanation.facts, explanation.steps[:replayed], False, stopped=True)
    certificates += replay_ending(explanation, certify)
    times["replay"] = time.perf_counter() - start
    if explanation.stopped:
        number = stop_requested()
        stop = Interrupted(number, "explain") if number else SolverTimeout("explain", deadline.seconds or 0.0)
        return Explained(puzzle.name, explanation, None, certificates, times,
                         Stop.of(stop, since_start(started)))
    solution = None
    if explanation.solved or explanation.differing:  # the solution reached, or the two that differ
        encoding = puzzle.encode(instance, "cnf", options)
        if list(encoding.show) != list(facts.cells):
            raise CheckFailed("internal: the facts and the cnf encoding number the cells differently")
        known = [lit for step in explanation.steps for lit in step.forced]
        claimed = ([("the explanation's solution", ())] if explanation.solved else
                   [("a solution the explanation gives to show it is not unique", d) for d in explanation.differing])
        for what, differing in claimed:
            checked = puzzle.decode(instance, encoding, CnfModel.from_literals([*known, *differing], encoding.num_vars))
            problems = puzzle.check(instance, checked)
            if problems:
                raise CheckFailed(f"{what} breaks the rules: {problems[0]}")
            solution = checked if explanation.solved else None
    return Explained(puzzle.name, explanation, solution, certificates, times)
