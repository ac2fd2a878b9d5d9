"""Differential tests: every encoding on two backends, and the reference, against brute force written
from the rules (``tests/brute``), on random tiny instances of every puzzle. ``PUZZLESAT_CASES`` sets
the number of cases per puzzle (CI: 200; ``make fuzz``: 10,000) and ``PUZZLESAT_FIRST_CASE`` where to
start (so that a long run can be resumed or split); the seeds are fixed, so a failure names the case
that reproduces it."""
from __future__ import annotations

import os
import random

import pytest

from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.amphipod.instance import AmphipodInstance, parse_burrow
from puzzlesat.encoders.tiling.options import TilingOptions
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions
from puzzlesat.pipeline.tasks import solve

from .brute import amphipod, aquarium, dice, dimacs, maxsat, tiling

CASES = int(os.environ.get("PUZZLESAT_CASES", "200"))
#: random WCNF files through every optimisation method and backend (CI: 100; ``make fuzz``: 1,000)
WCNF_CASES = int(os.environ.get("PUZZLESAT_WCNF_CASES", "100"))
FIRST_CASE = int(os.environ.get("PUZZLESAT_FIRST_CASE", "0"))
#: per test, how many chunks the cases are split into (so that pytest-xdist spreads them)
CHUNKS = 4

JIG_SHAPES = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (1, 4), (4, 1), (1, 5), (5, 1), (2, 3), (3, 2),
              (1, 6), (6, 1)]
JIGSAW_SHAPES = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (1, 4), (4, 1)]


def chunk(seed_base: int, part: int) -> range:
    size = -(-(CASES - FIRST_CASE) // CHUNKS)
    start = FIRST_CASE + part * size
    return range(seed_base + start, seed_base + min(CASES, start + size))


def tiling_counts(puzzle, instance) -> dict[str, tuple[int, int]]:
    """(total, up to symmetry) from every encoding on two backends, from the reference and from the
    puzzle's other solver-free counts."""
    out = {}
    for backend, kind in (("pysat:cadical195", "cnf"), ("pysat:glucose4", "cnf"), ("z3", "smt")):
        out[f"{backend} [{kind}]"] = tuple(count_solutions(request(puzzle, backend, kind, break_symmetry=brk), instance)
                                           for brk in (False, True))
    out["reference"] = tuple(len(puzzle.reference(instance, None, TilingOptions(break_symmetry=brk))) for brk in (False, True))
    for name, counter in puzzle.other_counts().items():  # jig: the exact cover
        out[name] = tuple(counter(instance, TilingOptions(break_symmetry=brk)) for brk in (False, True))
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
        report = solve(request(puzzle, "pysat:cadical195"), instance)
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
        # solve's claim "unique up to the grid's symmetries" (a second search on the symmetry-broken
        # formula) against the brute-force classes; a second class is also a warning
        classes = expected[1]
        report = solve(request(puzzle, "pysat:cadical195"), instance)
        where = f"seed {seed} ({rows}x{cols})\n{text}"
        assert report.status == ("SAT" if classes else "UNSAT"), where
        if classes:
            assert (report.answers["unique"], len(report.noticed)) == (classes == 1, int(classes > 1)), where


@pytest.mark.parametrize("part", range(CHUNKS))
def test_aquarium_against_brute_force(part):
    """Solve (with the uniqueness proof) on two CNF backends and the SMT encoding, counts on both
    encodings, and the reference: the same solutions as trying every water level of every region."""
    puzzle = get_puzzle("aquarium")
    for seed in chunk(200_000, part):
        rng = random.Random(seed)
        text = aquarium.random_aquarium(rng, rng.randint(1, 5))
        while aquarium.candidates(text) > 20_000:  # too many fillings to try them all: another one
            text = aquarium.random_aquarium(rng, rng.randint(1, 5))
        expected = set(aquarium.solutions(text))
        instance = puzzle.parse(text, f"aquarium-seed-{seed}")
        where = f"seed {seed}: {text}"
        for backend, kind in (("pysat:cadical195", "cnf"), ("pysat:glucose4", "cnf"), ("z3", "smt")):
            report = solve(request(puzzle, backend, kind), instance)
            assert report.status == ("SAT" if expected else "UNSAT"), where
            if expected:
                assert tuple(report.answers["grid"]) in expected and report.answers["unique"] == (len(expected) == 1), where
        for backend, kind in (("pysat:cadical195", "cnf"), ("z3", "smt")):
            assert count_solutions(request(puzzle, backend, kind), instance) == len(expected), where
        found = puzzle.reference(instance, 2)
        assert {tuple(s.lines()) for s in found} <= expected and len(found) == min(2, len(expected)), where


AMPHIPOD_SHAPES = [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (4, 1), (5, 1)]
#: the shape that gets stuck: about 3 shuffles in 10 have no plan (the others above almost never)
STUCK_SHAPE = (2, 5)


@pytest.mark.parametrize("part", range(CHUNKS))
def test_amphipod_against_brute_force(part):
    """The least energy (or no plan) from the event ordering with RC2 on two backends, the unrolling by
    SAT descent, Z3 on the SMT encoding and the A* reference, against Dijkstra over every state. One
    case in four is an instance of two parts (as ``solve`` reads part 1 and part 2), one of them of the
    shape that gets stuck, so that often one part has a plan and the other none: each part's status
    and answer must be its own."""
    puzzle = get_puzzle("amphipod")
    for seed in chunk(300_000, part):
        rng = random.Random(seed)
        labels = ("part1", "part2") if seed % 4 == 1 else ("energy",)
        shapes = [rng.choice(AMPHIPOD_SHAPES) for _ in labels]
        if len(labels) > 1:
            shapes[seed // 4 % 2] = STUCK_SHAPE  # part 1 or part 2 by turns
        texts = [amphipod.random_burrow(rng, *shape) for shape in shapes]
        expected = {label: amphipod.least_energy(text) for label, text in zip(labels, texts)}
        instance = AmphipodInstance(tuple((label, parse_burrow(text, f"amphipod-seed-{seed}"))
                                          for label, text in zip(labels, texts)))
        statuses = {label: "UNSAT" if energy is None else "SAT" for label, energy in expected.items()}
        answers = {label: energy for label, energy in expected.items() if energy is not None}
        overall = {"SAT"} if set(statuses.values()) == {"SAT"} else {"UNSAT"} if not answers else {"PARTIAL"}
        where = f"seed {seed}:\n" + "\n".join(texts)
        runs = [("pysat:glucose4", "events", "rc2"), ("pysat:cadical195", "events", "rc2"),
                ("pysat:cadical195", "unroll", "descent"), ("pysat:glucose4", "unroll", "descent"),
                ("z3", "smt", "z3")]
        for backend, kind, method in runs:
            report = solve(request(puzzle, backend, kind, method=method), instance)
            assert {report.status.value} == overall, f"{backend} {kind} {where}"
            assert {label: status.value for label, status in report.parts.items()} == (
                statuses if len(labels) > 1 else {}), f"{backend} {kind} {where}"
            assert {k: v for k, v in report.answers.items() if k != "optimal"} == answers, f"{backend} {kind} {where}"
        status, found, _ = puzzle.task.reference(request(puzzle), instance)
        assert ({status}, found) == (overall, answers), where


@pytest.mark.parametrize("part", range(CHUNKS))
def test_dice_against_brute_force(part):
    """Part 1 and both players' universes from frontier, D4 and Ganak on both counting encodings, the Z3
    recurrence, enumeration and the reference DP, against playing every universe out (the default method
    and the reference on every case, the seven others two a case in turn: each on some 57 of CI's 200)."""
    puzzle = get_puzzle("dice")
    for seed in chunk(400_000, part):
        rng = random.Random(seed)
        while True:  # games too big for brute force are drawn again from the same generator
            text, options = dice.random_game(rng)
            starts = dice.parse(text)
            try:
                wins = dice.universes(starts, options["track"], options["sides"], options["rolls"],
                                      options["target"], most=20_000)
                break
            except dice.TooMany:
                continue
        part1 = dice.part1(starts, options["track"], options["rolls"], options["det_sides"], options["det_target"])
        expected = {"part1": part1, "part2": max(wins), "wins": list(wins)}
        instance = puzzle.parse(text, f"dice-seed-{seed}", **options)
        where = f"seed {seed}: {options} {starts}"
        # the default (frontier on split) every case; the other seven methods take turns, two a case, so
        # that four consecutive cases cover them all (each case took 1.3 s with all of them, half of CI's
        # time; four a case still made this test the suite's slowest after the wheel's)
        others = [("frontier", "count"), ("d4", "split"), ("d4", "count"), ("ganak", "split"), ("ganak", "count"),
                  ("z3", None), ("pysat:glucose4", "count")]
        for backend, kind in [("frontier", "split"), others[seed % 7], others[(seed + 3) % 7]]:
            report = solve(request(puzzle, backend, kind), instance)
            assert {k: report.answers[k] for k in expected} == expected, f"{backend} {where}"
        assert puzzle.reference(instance, 1)[0].answers() == expected, where


@pytest.mark.parametrize("part", range(CHUNKS))
def test_wcnf_optimum_on_every_method_and_backend_against_brute_force(part):
    """Every optimisation method on every backend it takes, on random WCNF files with empty soft
    clauses, repeated literals, tautologies and repeated clauses: the optimum every assignment gives.
    (An empty soft clause made RC2 fail, and an external solver was given a header below the
    descent's bound variables; issue 34.)"""
    import shutil

    puzzle = get_puzzle("wcnf")
    runs = [("rc2", "pysat:cadical195"), ("rc2-stratified", "pysat:glucose4"), ("rc2-plain", "pysat:minisat22"),
            ("descent", "pysat:cadical195"), ("descent", "pysat:kissat404"), ("descent", "pysat:glucose4"),
            ("descent", "pysat:lingeling"), ("descent", "z3")]
    if shutil.which("cadical"):
        runs.append(("descent", "external:cadical"))
    size = -(-WCNF_CASES // CHUNKS)
    for seed in range(part * size, min(WCNF_CASES, (part + 1) * size)):
        variables, hard, soft, text = maxsat.random_wcnf(random.Random(seed))
        expected = maxsat.optimum(variables, hard, soft)
        instance = puzzle.parse(text, f"wcnf-seed-{seed}")
        for method, backend in runs:
            report = solve(request(puzzle, backend, method=method), instance)
            where = f"seed {seed}, {method} on {backend}:\n{text}"
            if expected is None:
                assert str(report.status) == "UNSAT", where
            else:
                assert report.checked and report.answers["cost"] == expected and report.answers["optimal"], where


@pytest.mark.parametrize("part", range(CHUNKS))
def test_cnf_dialects_count_against_brute_force(part):
    """Random CNF files in every dialect (SATLIB's '%' end, clauses across lines, a miscounted header,
    unused declared variables, every projection spelling): the enumeration, Ganak and the reference
    (its own reader) count what every assignment of the declared variables gives (issue 44: the '%'
    line's 0 was an empty clause, and unused variables counted or not by where they stood)."""
    puzzle = get_puzzle("cnf")
    for seed in chunk(7_000_000, part):
        variables, clauses, shown, text = dimacs.random_cnf(random.Random(seed))
        expected = dimacs.count(variables, clauses, shown)
        instance = puzzle.parse(text, f"cnf-seed-{seed}")
        where = f"seed {seed}:\n{text}"
        for backend in ("pysat:glucose4", "ganak"):
            assert count_solutions(request(puzzle, backend), instance) == expected, f"{backend} {where}"
        assert puzzle.reference_counts(instance, puzzle.options()) == {"solutions": expected}, where


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generators_emit_what_they_promise_by_brute_force(seed):
    """Every generator writes a puzzle with a solution (aquarium and jigsaw: a unique one, up to the
    grid's symmetries for jigsaw), confirmed by brute force on small sizes. (Four-room burrows, which
    ``solve`` unfolds for part 2, are too big for brute force: tests/test_amphipod.py solves them.)"""
    from puzzlesat.encoders.amphipod.generate import generate as generate_amphipod
    from puzzlesat.encoders.aquarium.generate import generate as generate_aquarium
    from puzzlesat.encoders.jig.generate import generate as generate_jig
    from puzzlesat.encoders.jigsaw.generate import generate as generate_jigsaw

    for size in (2, 3, 4):
        assert len(aquarium.solutions(generate_aquarium(size, seed))) == 1
    for rows, cols, types in ((1, 3, 1), (2, 2, 2), (2, 3, 2), (3, 2, 3)):
        assert tiling.jig_brute(generate_jig(rows, cols, types, seed))[0] >= 1
    assert tiling.jigsaw_brute(generate_jigsaw(2, 5, 0, seed), 2, 2)[1] == 1
    for rooms, depth in ((2, 2), (3, 2), (5, 1)):
        assert amphipod.least_energy(generate_amphipod(rooms, depth, seed)) is not None
