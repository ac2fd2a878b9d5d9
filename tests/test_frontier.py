"""The frontier counter against brute force: random CNFs over a few variables, in random (partial)
orders, with random queries; and the formulas it must refuse or handle at the edges."""
from __future__ import annotations

import random
from itertools import product

import pytest

from puzzlesat.backends.frontier import FrontierCounter


def brute_count(clauses: list[list[int]], num_vars: int, query: list[int] = ()) -> int:
    found = 0
    for bits in product((False, True), repeat=num_vars):
        def true(lit: int) -> bool:
            return bits[abs(lit) - 1] == (lit > 0)
        found += all(any(true(lit) for lit in clause) for clause in clauses) and all(true(lit) for lit in query)
    return found


def random_literals(rng: random.Random, num_vars: int, most: int) -> list[int]:
    return [rng.choice((-1, 1)) * rng.randint(1, num_vars) for _ in range(rng.randint(0, most))]


@pytest.mark.parametrize("seed", range(8))
def test_counts_and_query_counts_match_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(60):
        num_vars = rng.randint(1, 9)
        clauses = [random_literals(rng, num_vars, 4) or [rng.randint(1, num_vars)]
                   for _ in range(rng.randint(0, 16))]
        order = rng.sample(range(1, num_vars + 1), rng.randint(0, num_vars))  # the rest follow by number
        queries = [random_literals(rng, num_vars, 3) for _ in range(5)]
        counter = FrontierCounter(clauses, num_vars, order)
        assert counter.count_each(queries) == [brute_count(clauses, num_vars, q) for q in queries]
        assert counter.count() == brute_count(clauses, num_vars)


def test_edges():
    assert FrontierCounter([[]], 2).count() == 0  # the empty clause
    assert FrontierCounter([[1, -1]], 3).count() == 8  # a tautology, and variables in no clause
    assert FrontierCounter([[1, 2]], 3).count_each([[3], [-3, 3], [], [1, 2]]) == [3, 0, 6, 2]
    assert FrontierCounter([], 0).count() == 1
    with pytest.raises(ValueError, match="each variable"):
        FrontierCounter([[1]], 2, [1, 1])


def test_counts_are_exact_past_machine_integers():
    """A chain of 100 independent pairs (x_i or y_i): 3^100 models, far past 2^64."""
    clauses = [[2 * i + 1, 2 * i + 2] for i in range(100)]
    assert FrontierCounter(clauses, 200).count() == 3 ** 100
