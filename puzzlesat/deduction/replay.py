"""Checking an explanation from scratch, independently of how it was found: for every step, a fresh
solver holding only the step's facts and the cells fixed before it that they mention must find no model
with any one of the step's cells set otherwise (one call per cell, its other value assumed). With
``certify``, each cell is refuted in a fresh solver of its own, its other value a clause (a proof is of
clauses), and each DRAT proof is verified by puzzlesat's own checker."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from pysat.solvers import Solver

from ..core.errors import CheckFailed
from ..proofs.certificate import Certificate, certify
from . import Explanation
from .hints import Hint

#: the solver that replays (a proof writer, so that ``certify`` can ask it for proofs)
REPLAY_SOLVER = "glucose4"


def replay(explanation: Explanation, certify_steps: bool = False,
           stop: Callable[[], bool] = lambda: False, given: Sequence[int] = ()) -> tuple[int, list[Certificate]]:
    """How many steps were replayed (all of them, unless ``stop()`` said to stop before one: a time limit
    or a signal), and with ``certify_steps`` the certificates of their UNSAT answers. Raise
    :class:`CheckFailed` naming the first step that does not force what it claims. ``given``: cells
    known before the first step (a player's marks)."""
    facts = explanation.facts.facts
    known: list[int] = list(given)
    certificates: list[Certificate] = []
    for number, step in enumerate(explanation.steps, 1):
        if stop():
            return number - 1, certificates
        clauses = [list(clause) for index in step.facts for clause in facts[index].clauses]
        variables = {abs(literal) for clause in clauses for literal in clause}
        # the known cells the step's facts mention: another unit is a variable of its own, which no
        # refutation needs (on the jig zhurgut_7x7 every cell known made the replay 1.7 s of its 5.5)
        clauses += [[literal] for literal in known if abs(literal) in variables]
        unforced = (_first_unforced_certified(clauses, step.forced, certificates) if certify_steps
                    else _first_unforced(clauses, step.forced))
        if unforced is not None:
            labels = ", ".join(facts[index].label for index in step.facts)
            raise CheckFailed(f"explanation step {number}: {labels} do not force literal {unforced}")
        known += step.forced
    return len(explanation.steps), certificates


def _first_unforced(clauses: list[list[int]], forced: Sequence[int]) -> int | None:
    """The first of ``forced`` that the clauses do not force, asked in one solver: a step's core can be
    as hard to refute as the puzzle (zhurgut_8x8: a fresh solver per cell made the replay 36 s)."""
    with Solver(name=REPLAY_SOLVER, bootstrap_with=clauses) as solver:
        return next((literal for literal in forced if solver.solve(assumptions=[-literal])), None)


def _first_unforced_certified(clauses: list[list[int]], forced: Sequence[int],
                              certificates: list[Certificate]) -> int | None:
    """As :func:`_first_unforced`, each literal in a fresh solver with its negation as a clause, and the
    certificate of each refutation added to ``certificates``."""
    for literal in forced:
        refuted = [*clauses, [-literal]]
        with Solver(name=REPLAY_SOLVER, bootstrap_with=refuted, with_proof=True) as solver:
            if solver.solve():
                return literal
            certificates.append(certify(refuted, solver.get_proof() or [], REPLAY_SOLVER))
    return None


def replay_ending(explanation: Explanation, certify_ending: bool = False) -> list[Certificate]:
    """Check from scratch how an explanation that does not solve ends, as its steps are checked:
    "no solution" (a fresh solver holding only the conflict's facts finds no model; with
    ``certify_ending`` its proof is checked) or "not unique" (each of the two solutions, with the cells
    the steps fixed, is a model of every fact, and they differ). Raise :class:`CheckFailed` when the
    ending does not hold; its certificate (none for "not unique": a model is its own evidence)."""
    facts = explanation.facts.facts
    if explanation.solved or explanation.stopped:  # (a stopped one ends nowhere yet)
        return []
    if explanation.conflict:
        clauses = [list(clause) for index in explanation.conflict for clause in facts[index].clauses]
        with Solver(name=REPLAY_SOLVER, bootstrap_with=clauses, with_proof=certify_ending) as solver:
            if solver.solve():
                raise CheckFailed("explanation: the facts it says cannot hold together have a solution")
            return [certify(clauses, solver.get_proof() or [], REPLAY_SOLVER)] if certify_ending else []
    first, second = explanation.differing
    if first == second:
        raise CheckFailed("explanation: the two solutions it gives to show it is not unique are the same")
    known = [lit for step in explanation.steps for lit in step.forced]
    every = [list(clause) for fact in facts for clause in fact.clauses]
    for solution in (first, second):
        with Solver(name=REPLAY_SOLVER, bootstrap_with=every) as solver:
            if not solver.solve(assumptions=[*known, *solution]):
                raise CheckFailed("explanation: a solution it gives to show it is not unique breaks a fact")
    return []


def replay_hint(hint: Hint, certify_claims: bool = False,
                stop: Callable[[], bool] = lambda: False) -> tuple[Hint, list[Certificate]]:
    """Check a hint's claims from scratch, each in a fresh solver of its own facts: a wrong mark is
    refuted by its facts alone, clashing marks by theirs, the next step forces its cells given the marks
    (:func:`replay`), two differing solutions are models of every fact with the marks, marks said to
    solve hold every fact, and "no solution" as :func:`replay_ending` checks it. Raise
    :class:`CheckFailed` naming the claim that does not hold; with ``certify_claims``, the certificates
    of its UNSAT answers. Returns the hint as replayed: where ``stop()`` says to stop (a time limit, a
    signal) before a wrong mark, the wrong marks replayed by then, ``stopped``."""
    facts = hint.facts.facts
    certificates: list[Certificate] = []

    def refuted(numbers: Sequence[int], units: Sequence[int], claim: str, solver: Any = None) -> None:
        if solver is not None and not certify_claims:  # one solver of every fact, asked under assumptions
            if solver.solve(assumptions=list(units)):
                raise CheckFailed(f"hint: {claim} is not refuted by its facts")
            return
        clauses = [list(clause) for index in numbers for clause in facts[index].clauses] + [[lit] for lit in units]
        with Solver(name=REPLAY_SOLVER, bootstrap_with=clauses, with_proof=certify_claims) as fresh:
            if fresh.solve():
                raise CheckFailed(f"hint: {claim} is not refuted by its facts")
            if certify_claims:
                certificates.append(certify(clauses, fresh.get_proof() or [], REPLAY_SOLVER))

    every = [list(clause) for fact in facts for clause in fact.clauses]
    for number, wrong in enumerate(hint.wrong):
        if stop():
            return replace(hint, wrong=hint.wrong[:number], unexplained=(), stopped=True), certificates
        refuted(wrong.facts, [wrong.literal], f"the wrong mark {wrong.literal}")
    with Solver(name=REPLAY_SOLVER, bootstrap_with=every) as whole:
        for number, literal in enumerate(hint.unexplained):  # (stopped before its few facts were found: all)
            if stop():
                return replace(hint, unexplained=hint.unexplained[:number], stopped=True), certificates
            refuted(range(len(facts)), [literal], f"the wrong mark {literal}", whole)
    if hint.clashing:
        refuted(hint.clash_facts, hint.clashing, "the clash of the marks " + " ".join(map(str, hint.clashing)))
    if hint.conflict:
        refuted(hint.conflict, [], "'no solution'")
    if hint.next is not None and not hint.next.facts:  # cells the marks fill: each a mark's own variable
        if not set(hint.next.forced) <= set(hint.marks):
            raise CheckFailed("hint: a cell said to hold a marked cell's value is not one of a mark's variable")
    elif hint.next is not None:
        _, proofs = replay(Explanation(hint.facts, (*hint.before, hint.next), False), certify_claims, given=hint.marks)
        certificates += proofs
    holding = [(list(hint.marks), "the marks said to solve it")] if hint.solved else []
    holding += [([*hint.marks, *solution], "a solution it gives to show the marks leave several")
                for solution in hint.differing]
    for assumed, what in holding:
        with Solver(name=REPLAY_SOLVER, bootstrap_with=every) as solver:
            if not solver.solve(assumptions=assumed):
                raise CheckFailed(f"hint: {what} break a fact")
    if hint.differing and hint.differing[0] == hint.differing[1]:
        raise CheckFailed("hint: the two solutions it gives to show the marks leave several are the same")
    return hint, certificates
