"""Test helpers for the proof checker: proofs written in both formats, and a naive checker that shares
nothing with puzzlesat's (forward, every lemma checked, deletions ignored, propagation by rescanning
every clause) to compare it with."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from puzzlesat.proofs.reading import Step


def write_binary(steps: Iterable[Step]) -> bytes:
    out = bytearray()
    for step in steps:
        out.append(0x64 if step.deletion else 0x61)
        for literal in step.literals:
            number = 2 * abs(literal) + (literal < 0)
            while number >= 0x80:
                out.append((number & 0x7F) | 0x80)
                number >>= 7
            out.append(number)
        out.append(0)
    return bytes(out)


def write_text(steps: Iterable[Step]) -> str:
    return "".join(("d " if step.deletion else "") + " ".join(map(str, step.literals + (0,))) + "\n"
                   for step in steps)


def propagation_conflicts(clauses: Sequence[Sequence[int]], assumed: Iterable[int]) -> bool:
    """Whether unit propagation from ``assumed`` reaches a conflict, by rescanning every clause."""
    true = set(assumed)
    if any(-lit in true for lit in true):
        return True
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(lit in true for lit in clause):
                continue
            free = [lit for lit in clause if -lit not in true]
            if not free:
                return True
            if len(free) == 1:
                true.add(free[0])
                changed = True
    return False


def naive_drup(formula: Sequence[Sequence[int]], steps: Sequence[Step]) -> bool:
    """Whether every lemma is RUP against the formula and every lemma before it (deletions ignored),
    and the whole propagates to a conflict."""
    clauses = [list(clause) for clause in formula]
    for step in steps:
        if step.deletion:
            continue
        if not propagation_conflicts(clauses, [-lit for lit in step.literals]):
            return False
        clauses.append(list(step.literals))
    return propagation_conflicts(clauses, [])


def satisfiable(formula: Sequence[Sequence[int]]) -> bool:
    """By brute force over every assignment (small formulas only)."""
    variables = sorted({abs(lit) for clause in formula for lit in clause})
    for values in product((False, True), repeat=len(variables)):
        truth = dict(zip(variables, values))
        if all(any(truth[abs(lit)] == (lit > 0) for lit in clause) for clause in formula):
            return True
    return False
