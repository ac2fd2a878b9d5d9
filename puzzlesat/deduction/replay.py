"""Checking an explanation from scratch, independently of how it was found: for every step, a fresh
solver holding only the step's facts and the cells fixed before it must find no model with any one of
the step's cells set otherwise (one call per cell). With ``certify``, each of those UNSAT answers comes
with a DRAT proof that puzzlesat's own checker verifies."""
from __future__ import annotations

from pysat.solvers import Solver

from ..core.errors import CheckFailed
from ..proofs.certificate import Certificate, certify
from . import Explanation

#: the solver that replays (a proof writer, so that ``certify`` can ask it for proofs)
REPLAY_SOLVER = "glucose4"


def replay(explanation: Explanation, certify_steps: bool = False) -> list[Certificate]:
    """Raise :class:`CheckFailed` naming the first step that does not force what it claims; with
    ``certify_steps``, the certificates of every step's UNSAT answers."""
    facts = explanation.facts.facts
    known: list[int] = []
    certificates: list[Certificate] = []
    for number, step in enumerate(explanation.steps, 1):
        clauses = [list(clause) for index in step.facts for clause in facts[index].clauses]
        clauses += [[literal] for literal in known]
        for literal in step.forced:
            refuted = clauses + [[-literal]]  # a clause, not an assumption: a proof is of the clauses
            with Solver(name=REPLAY_SOLVER, bootstrap_with=refuted, with_proof=certify_steps) as solver:
                if solver.solve():
                    labels = ", ".join(facts[index].label for index in step.facts)
                    raise CheckFailed(f"explanation step {number}: {labels} do not force literal {literal}")
                if certify_steps:
                    certificates.append(certify(refuted, solver.get_proof() or [], REPLAY_SOLVER))
        known += step.forced
    return certificates


def replay_ending(explanation: Explanation, certify_ending: bool = False) -> list[Certificate]:
    """Check from scratch how an explanation that does not solve ends, as its steps are checked:
    "no solution" (a fresh solver holding only the conflict's facts finds no model; with
    ``certify_ending`` its proof is checked) or "not unique" (each of the two solutions, with the cells
    the steps fixed, is a model of every fact, and they differ). Raise :class:`CheckFailed` when the
    ending does not hold; its certificate (none for "not unique": a model is its own evidence)."""
    facts = explanation.facts.facts
    if explanation.solved:
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
