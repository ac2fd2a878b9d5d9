"""Differential tests: every encoding on two backends, and the reference, against brute force written
from the rules (``tests/brute``), on random tiny instances of every puzzle. ``PUZZLESAT_CASES`` sets
the number of cases per puzzle (CI: 200; ``make fuzz``: 10,000); the seeds are fixed, so a failure
names the case that reproduces it."""
from __future__ import annotations

import os
import random

import pytest

from puzzlesat.encoders import get_puzzle
from puzzlesat.solving import count, solve

from .brute import tiling

CASES = int(os.environ.get("PUZZLESAT_CASES", "200"))
#: per test, how many chunks the cases are split into (so that pytest-xdist spreads them)
CHUNKS = 4

JIG_SHAPES = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (1, 4), (4, 1), (1, 5), (5, 1), (2, 3), (3, 2),
              (1, 6), (6, 1)]
JIGSAW_SHAPES = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (1, 4), (4, 1)]


def chunk(seed_base: int, part: int) -> range:
    size = -(-CASES // CHUNKS)
    return range(seed_base + part * size, seed_base + min(CASES, (part + 1) * size))


def tiling_counts(puzzle, instance) -> dict[str, tuple[int, int]]:
    """(total, up to symmetry) from every encoding on two backends and from the reference."""
    out = {}
    for backend, kind in (("pysat:cadical195", "cnf"), ("pysat:glucose4", "cnf"), ("z3", "smt")):
        out[f"{backend} [{kind}]"] = tuple(count(puzzle, instance, backend, kind=kind, break_symmetry=brk)
                                           for brk in (False, True))
    out["reference"] = tuple(len(puzzle.reference(instance, None, break_symmetry=brk)) for brk in (False, True))
    return out


@pytest.mark.parametrize("part", range(CHUNKS))
def test_jig_against_brute_force(part):
    puzzle = get_puzzle("jig")
    for seed in chunk(0, part):
        rng = random.Random(seed)
        rows, cols = rng.choice(JIG_SHAPES)
        text = tiling.random_jig(rng, rows, cols)
        expected = tiling.jig_brute(text)
        instance = puzzle.parse(text, f"jig-seed-{seed}")
        for method, counted in tiling_counts(puzzle, instance).items():
            assert counted == expected, f"seed {seed} ({rows}x{cols}), {method}: {counted} != {expected}\n{text}"
        report = solve(puzzle, instance, "pysat:cadical195")
        assert report.status == ("SAT" if expected[0] else "UNSAT"), f"seed {seed}\n{text}"


@pytest.mark.parametrize("part", range(CHUNKS))
def test_jigsaw_against_brute_force(part):
    puzzle = get_puzzle("jigsaw")
    for seed in chunk(100_000, part):
        rng = random.Random(seed)
        rows, cols = rng.choice(JIGSAW_SHAPES)
        text = tiling.random_jigsaw(rng, rows, cols)
        expected = tiling.jigsaw_brute(text, rows, cols)
        instance = puzzle.parse(text, f"jigsaw-seed-{seed}", rows=rows, cols=cols)
        for method, counted in tiling_counts(puzzle, instance).items():
            assert counted == expected, f"seed {seed} ({rows}x{cols}), {method}: {counted} != {expected}\n{text}"
