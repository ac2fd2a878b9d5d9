"""Model counts of random CNF files in every dialect their authors write, by trying every assignment of
the variables the file declares: the formula is known here as it was generated (clauses, declared
variables, projection), never read back, so no reader stands between the text and the count. The text
spells it in a random dialect: SATLIB's ``%`` and ``0`` after the last clause, clauses across lines,
comments between clauses, a header whose clause count is wrong, unused declared variables (first, in
the middle, last), ``c p show`` / ``c ind`` / ``c p show 0``."""
from __future__ import annotations

import itertools
import random

Clause = list[int]


def count(variables: int, clauses: list[Clause], shown: list[int] | None) -> int:
    """The models of the clauses over 1..variables, projected on ``shown`` (None: every variable)."""
    seen = set()
    for bits in itertools.product((False, True), repeat=variables):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            seen.add(bits if shown is None else tuple(bits[v - 1] for v in shown))
    return len(seen)


def random_cnf(rng: random.Random) -> tuple[int, list[Clause], list[int] | None, str]:
    """(declared variables, clauses, projection, the file's text)."""
    variables = rng.randint(1, 10)
    used = sorted(rng.sample(range(1, variables + 1), rng.randint(1, variables)))  # the others: unused
    clauses = [[rng.choice((1, -1)) * rng.choice(used) for _ in range(rng.randint(1, 3))]
               for _ in range(rng.randint(0, 3 * len(used)))]
    shown = None
    projection = []
    if rng.random() < 0.4:
        shown = sorted(rng.sample(range(1, variables + 1), rng.randint(0, variables)))
        spelling = rng.choice(["c p show", "c ind"]) if shown else "c p show"
        projection = [f"{spelling} {' '.join(map(str, shown))} 0".replace("  ", " ")]
    said = len(clauses) + rng.choice([0, 0, 0, -1, 1, 5])  # a header that miscounts its clauses, sometimes
    lines = ["c random formula", f"p cnf {variables} {max(said, 0)}", *projection]
    for clause in clauses:
        words = [*map(str, clause), "0"]
        if len(words) > 2 and rng.random() < 0.2:  # across lines
            cut = rng.randint(1, len(words) - 1)
            lines += [" ".join(words[:cut]), " ".join(words[cut:])]
        else:
            lines.append(("  " if rng.random() < 0.2 else "") + " ".join(words))
        if rng.random() < 0.1:
            lines.append("c a comment between clauses")
    if rng.random() < 0.3:  # SATLIB's end
        lines += ["%", "0", ""]
    return variables, clauses, shown, "\n".join(lines) + "\n"
