"""Weighted MaxSAT by trying every assignment: the least weight of broken soft clauses over the
assignments that satisfy every hard clause (None: no such assignment). Written from the definition,
sharing nothing with the file reader or the optimisers; and random WCNF text of the shapes a hostile
file brings (empty soft clauses, repeated literals, tautologies, repeated clauses, weights past 2^31, both formats)."""
from __future__ import annotations

import itertools
import random

Clause = list[int]


def optimum(variables: int, hard: list[Clause], soft: list[tuple[Clause, int]]) -> int | None:
    best = None
    for bits in itertools.product((False, True), repeat=variables):
        def true(lit: int) -> bool:
            return bits[abs(lit) - 1] == (lit > 0)
        if all(any(true(lit) for lit in clause) for clause in hard):
            cost = sum(weight for clause, weight in soft if not any(true(lit) for lit in clause))
            best = cost if best is None else min(best, cost)
    return best


def random_wcnf(rng: random.Random) -> tuple[int, list[Clause], list[tuple[Clause, int]], str]:
    """(variables, hard, soft, the file's text), in the 2022 format or the old one at random."""
    variables = rng.randint(1, 9)

    def clause(size: int) -> Clause:  # literals drawn with repetition: x x, x -x happen
        return [rng.choice((1, -1)) * rng.randint(1, variables) for _ in range(size)]

    hard = [clause(rng.randint(1, 3)) for _ in range(rng.randint(0, 2 * variables))]
    heavy = rng.random() < 0.2  # weights past 2^31, as MaxSAT-evaluation files have them
    soft = [(clause(rng.randint(0, 3)), rng.randint(1, 20) * (1 << 33 if heavy else 1)) for _ in range(rng.randint(1, 10))]
    if rng.random() < 0.3:
        soft += soft[:2]
    if rng.random() < 0.5:
        lines = ["h " + " ".join(map(str, c + [0])) for c in hard]
    else:
        top = sum(weight for _, weight in soft) + 1
        lines = [f"p wcnf {variables} {len(hard) + len(soft)} {top}"] + [f"{top} " + " ".join(map(str, c + [0])) for c in hard]
    lines += [f"{weight} " + " ".join(map(str, c + [0])) for c, weight in soft]
    return variables, hard, soft, "\n".join(lines) + "\n"
