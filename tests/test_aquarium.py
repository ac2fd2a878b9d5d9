"""Aquarium end to end: every bundled instance against its .solution, on several backends and both
encodings, the reference, the cardinality options, and generated puzzles."""
from __future__ import annotations

import pytest

from puzzlesat.core.choices import CARDINALITY_ENCODINGS, PB_ENCODINGS
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.aquarium.generate import generate
from puzzlesat.encoders.aquarium.solution import AquariumSolution
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import load
from puzzlesat.pipeline.tasks import solve

from .conftest import aquarium_instances

AQUARIUM = get_puzzle("aquarium")
INSTANCES = aquarium_instances()


def expected(path) -> list[str]:
    return path.with_suffix(".solution").read_text().split()


def test_all_instances_are_bundled():
    assert len(INSTANCES) == 34


@pytest.mark.parametrize("backend,kind", [("pysat:cadical195", "cnf"), ("z3", "smt"), ("z3", "cnf")])
@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_instance_solution_and_uniqueness(path, backend, kind):
    report = solve(request(AQUARIUM, backend, kind), load(AQUARIUM, str(path)))
    assert report.status == "SAT" and report.checked
    assert report.answers == {"grid": expected(path), "unique": True}


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_reference_finds_the_one_solution(path):
    solutions = AQUARIUM.reference(load(AQUARIUM, str(path)), 2)
    assert [s.lines() for s in solutions] == [expected(path)]


@pytest.mark.parametrize("cardinality", CARDINALITY_ENCODINGS)
def test_every_cardinality_encoding(cardinality):
    for path in INSTANCES[::5]:
        report = solve(request(AQUARIUM, "cadical", cardinality=cardinality), load(AQUARIUM, str(path)))
        assert report.answers == {"grid": expected(path), "unique": True}


def test_checker_rejects_broken_solutions():
    path = INSTANCES[0]
    instance = load(AQUARIUM, str(path))
    good = expected(path)
    assert AQUARIUM.check(instance, AquariumSolution.from_lines(good)) == []
    flipped = [("." if ch == "#" else "#") + line[1:] for line, ch in [(good[0], good[0][0])]] + good[1:]
    assert AQUARIUM.check(instance, AquariumSolution.from_lines(flipped))
    # swap two rows: counts per column stay, but row counts or levels break
    swapped = [good[1], good[0]] + good[2:]
    if swapped != good:
        assert AQUARIUM.check(instance, AquariumSolution.from_lines(swapped))


@pytest.mark.parametrize("pb", PB_ENCODINGS)
def test_every_pb_encoding(pb):
    for path in INSTANCES[2::7]:
        report = solve(request(AQUARIUM, "cadical", pb=pb), load(AQUARIUM, str(path)))
        assert report.answers == {"grid": expected(path), "unique": True}


def test_non_unique_puzzle_is_reported():
    # 2x2, one region per cell, one water cell per row and column: two solutions
    instance = AQUARIUM.parse("1_1_1_1;1,2,3,4\n", "two.txt")
    report = solve(request(AQUARIUM, "cadical"), instance)
    assert report.answers["unique"] is False
    assert len(AQUARIUM.reference(instance, 5)) == 2
    assert len(AQUARIUM.reference(instance, None)) == 2  # None means all (it raised TypeError)


def test_unsatisfiable_puzzle():
    instance = AQUARIUM.parse("2_0_1_1;1,1,2,2\n", "unsat.txt")  # region 1 spans row 0 fully
    assert solve(request(AQUARIUM, "cadical"), instance).status == "UNSAT"
    assert AQUARIUM.reference(instance, 2) == []


@pytest.mark.parametrize("size,seed", [(6, 1), (6, 2), (8, 3), (10, 4), (15, 5), (30, 6)])
def test_generated_puzzles_have_exactly_one_solution(size, seed):
    text = generate(size, seed)
    assert generate(size, seed) == text  # same seed, same puzzle
    instance = AQUARIUM.parse(text, "generated")
    assert instance.height == instance.width == size
    report = solve(request(AQUARIUM, "cadical"), instance)
    assert report.checked and report.answers["unique"] is True
    if size <= 10:
        assert [s.lines() for s in AQUARIUM.reference(instance, 2)] == [report.answers["grid"]]
