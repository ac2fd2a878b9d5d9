"""A second DIMACS reader, written from the format's definition alone, for the references of ``cnf`` and
``wcnf``: it shares no code with :mod:`puzzlesat.formats.dimacs`, which every solver method reads the
file through. A cross-check then has a method whose reading of the file is independent of the solvers':
a reader fault (a clause dropped, an end marker read as an empty clause) makes that method disagree,
where every solver, reading through the same reader, would agree on the wrong formula.

What it reads, from the definitions (DIMACS CNF as the SAT competitions state it, SATLIB's files, the
MaxSAT evaluations' WCNF before and since 2022, the model-counting competition's projection):

- ``c`` lines are comments, except ``c p show V... 0`` and ``c ind V... 0``, which name the projection;
  so is the rest of a line from a ``c`` that starts a token or follows a number's digits (kissat,
  CaDiCaL and MiniSat read ``1 2 c note`` and ``1 0c note`` so);
- ``p cnf VARS CLAUSES`` (or ``p wcnf VARS CLAUSES [TOP]``) declares the variables 1..VARS;
- a clause is the integers up to the next 0, across lines; in WCNF its first token is ``h`` (hard) or
  its weight, and in the old format a weight of at least TOP is hard;
- a line that starts with ``%`` ends the formula (SATLIB);
- ``c t wmc`` / ``c t pwmc`` or ``c p weight LIT W 0`` lines make the file a weighted count: a model's
  weight is the product of its literals' weights, of the projection's variables where there is one; a
  literal with no weight of its own weighs 1 minus its complement's, or 1 where neither has one
  (Ganak's reading). A weight is what Python's ``Fraction`` reads (``0.3``, ``1/3``, ``1e-3``).

It is deliberately plain (a token stream, no fast paths), and it refuses what it does not understand
with a plain ``ValueError``: the reference is asked only of files the main reader accepted.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Read:
    """A formula as this reader reads it."""

    variables: int
    hard: list[list[int]]
    soft: list[tuple[list[int], int]]
    #: None when the file names no projection
    projection: list[int] | None
    #: a weighted model counting file (``c t wmc``, ``c t pwmc`` or ``c p weight`` lines)
    weighted: bool = False
    #: the weights its lines give, by literal
    weights: dict[int, Fraction] = field(default_factory=dict)


def read(text: str, weighted: bool = False) -> Read:
    """The formula of a DIMACS CNF text, or with ``weighted`` of a WCNF text (every clause starts with
    ``h`` or its weight)."""
    variables: int | None = None
    top: int | None = None
    tokens: list[str] = []
    projection: list[int] | None = None
    weighted_count, weights = False, dict[int, Fraction]()
    for line in text.split("\n"):  # lines end at \n alone, as in every solver's reader
        words = line.split()
        if not words:
            continue
        if words[0].startswith("%"):
            break
        if words[0] == "c":
            if words[1:3] == ["p", "show"] or words[1:2] == ["ind"]:
                named = words[3:] if words[1] == "p" else words[2:]
                projection = (projection or []) + _until_zero(named)
            if words[1:3] == ["p", "weight"]:
                weights[int(words[3])] = Fraction(words[4])
            weighted_count = weighted_count or words[1:3] in (["p", "weight"], ["t", "wmc"], ["t", "pwmc"])
            continue
        if words[0].startswith("c"):
            continue
        if words[0] == "p":
            variables = int(words[2])
            top = int(words[4]) if len(words) > 4 else None
            continue
        for word in words:  # a comment may follow literals: from a token that starts with c, or a c after digits
            number, comment, _ = word.partition("c")
            if number:
                tokens.append(number)
            if comment:
                break
    hard, soft = _clauses(tokens, top, weighted)
    if variables is None:  # the 2022 WCNF format has no header: its variables are the ones it uses
        variables = max((abs(lit) for clause in hard + [c for c, _ in soft] for lit in clause), default=0)
    return Read(variables, hard, soft, projection, weighted_count, weights)


def _until_zero(words: list[str]) -> list[int]:
    out = []
    for word in words:
        if int(word) == 0:
            break
        out.append(int(word))
    return out


def _clauses(tokens: list[str], top: int | None, weighted: bool) -> tuple[list[list[int]], list[tuple[list[int], int]]]:
    """Hard clauses and weighted soft ones; a CNF file (no weights) has hard clauses only."""
    hard: list[list[int]] = []
    soft: list[tuple[list[int], int]] = []
    clause: list[int] = []
    weight: str | None = None
    for token in tokens:
        if weighted and weight is None:
            weight = token
            continue
        number = int(token)
        if number != 0:
            clause.append(number)
            continue
        if weight is None or weight == "h" or (top is not None and int(weight) >= top):
            hard.append(clause)
        else:
            soft.append((clause, int(weight)))
        clause, weight = [], None
    if clause:
        raise ValueError("the last clause does not end with 0")
    return hard, soft


def model_weight(formula: Read, literals: list[int]) -> Fraction:
    """The weight of a model (its literal on each variable 1..n) in ``formula``'s weighted count."""
    counted = formula.projection if formula.projection is not None else range(1, formula.variables + 1)
    weight = Fraction(1)
    for variable in set(counted):
        literal = literals[variable - 1]
        if literal in formula.weights:
            weight *= formula.weights[literal]
        elif -literal in formula.weights:
            weight *= 1 - formula.weights[-literal]
    return weight


def falsified(clause: list[int], true: set[int]) -> bool:
    return not any(lit in true for lit in clause)


def assignments(variables: int) -> Iterator[list[int]]:
    """Every assignment of 1..``variables``, as its literals."""
    for mask in range(1 << variables):
        yield [v if mask >> (v - 1) & 1 else -v for v in range(1, variables + 1)]
