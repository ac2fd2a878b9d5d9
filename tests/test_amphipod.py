"""Amphipod: AoC answers on every method and encoding, agreement with the A* reference on generated
burrows, the checker, and one-line errors on bad drawings."""
from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from puzzlesat.core.errors import PuzzleFormatError
from puzzlesat.core.timing import Stopwatch
from puzzlesat.encoders.amphipod import PUZZLE
from puzzlesat.encoders.amphipod.burrow import Burrow
from puzzlesat.encoders.amphipod.generate import away_from_home, backward_start, generate, has_plan, parts_read
from puzzlesat.encoders.amphipod.instance import AmphipodInstance, parse
from puzzlesat.encoders.amphipod.reference import cheapest_plan
from puzzlesat.pipeline.crosscheck import independent_agreement, run_methods
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import load
from puzzlesat.pipeline.tasks import solve

from .brute.amphipod import least_energy
from .conftest import INSTANCES, aoc_inputs

AOC = INSTANCES / "aoc" / "2021-23"
INPUTS = aoc_inputs("2021-23")


def expected(name: str) -> dict[str, int]:
    part1, part2 = map(int, Path(f"{name}.answers").read_text().split())
    return {"part1": part1, "part2": part2}


@pytest.mark.parametrize("name", INPUTS)
def test_aoc_answers_with_the_defaults(name, run_cli):
    code, out, _ = run_cli("solve", "amphipod", f"{name}.txt", "--json")
    report = json.loads(out)
    assert code == 0 and report["checked"]
    assert report["answers"] == expected(name) | {"optimal": True}


@pytest.mark.parametrize("method", ["rc2", "rc2-stratified"])
@pytest.mark.parametrize("name", INPUTS)
def test_aoc_answers_with_rc2_variants_on_cadical(name, method):
    instance = load(PUZZLE, f"{name}.txt")
    report = solve(request(PUZZLE, "pysat:cadical195", "events", method=method), instance)
    assert {k: report.answers[k] for k in ("part1", "part2")} == expected(name)


@pytest.mark.parametrize("method,kind", [("descent", "events"), ("z3", "smt")])
def test_example_with_descent_and_z3(method, kind):
    instance = load(PUZZLE, str(AOC / "example.txt"))
    report = solve(request(PUZZLE, None, kind, method=method), instance)
    assert report.checked and {k: report.answers[k] for k in ("part1", "part2")} == expected(str(AOC / "example"))


@pytest.mark.parametrize("name", INPUTS)
def test_unrolling_gives_part1(name):
    """The unrolled encoding on part 1, with every RC2 variant and the descent."""
    instance = load(PUZZLE, f"{name}.txt", unfold=False)
    for method in ("rc2", "rc2-stratified", "descent"):
        report = solve(request(PUZZLE, None, "unroll", method=method), instance)
        assert report.answers["energy"] == expected(name)["part1"], method


def test_unrolling_gives_both_parts_of_the_example():
    """Part 2 on the unrolling with its defaults (descent on CaDiCaL): 10-20 s (see BENCHMARKS.md)."""
    instance = load(PUZZLE, str(AOC / "example.txt"))
    report = solve(request(PUZZLE, None, "unroll", timeout=120), instance)
    assert report.checked and {k: report.answers[k] for k in ("part1", "part2")} == expected(str(AOC / "example"))


#: part 1 (this drawing) has a plan of energy 13509; part 2 (two lines unfolded into it) has none, as
#: the A* reference also finds
PART2_STUCK = "#############\n#...........#\n###C#D#A#A###\n  #C#B#D#B#\n  #########\n"


@pytest.mark.parametrize("chosen", [[], ["--backend", "pysat:cadical195", "--method", "descent"],
                                    ["--method", "z3"]])
def test_a_part_without_a_plan_does_not_hide_the_other_part(run_cli, tmp_path, chosen):
    """Both burrows used to be one formula, UNSAT as a whole, so the report said UNSAT with no answer
    at all; each part is now solved alone and has its own status. (``--method z3`` alone used to be
    refused: it now takes the SMT encoding it needs.)"""
    path = tmp_path / "stuck-part2.txt"
    path.write_text(PART2_STUCK)
    code, out, _ = run_cli("solve", "amphipod", str(path), "--json", *chosen)
    report = json.loads(out)
    assert code == 1
    assert (report["status"], report["answers"], report["parts"]) == (
        "PARTIAL", {"part1": 13509, "optimal": True}, {"part1": "SAT", "part2": "UNSAT"})
    assert report["checked"] and list(report["solution"]["plans"]) == ["part1"]


def test_a_part_without_a_plan_is_said_certified_and_cross_checked(run_cli, tmp_path):
    path = tmp_path / "stuck-part2.txt"
    path.write_text(PART2_STUCK)
    code, out, _ = run_cli("solve", "amphipod", str(path), "--certify")
    assert code == 1 and "PARTIAL" in out.splitlines()[0] and "part1: 13509" in out
    assert "optimal: yes (proven by the solver: nothing cheaper exists; certified:" in out
    assert "part2: no solution (proven by the solver: UNSAT; certified:" in out
    # the cross-check's methods that answer this burrow in a second (the unrolling and plain RC2 take 10 s
    # and more to prove part 2 stuck: rows that time out, contradicting no one, but slow for a test)
    quick = [method for method in PUZZLE.task.plan_crosscheck(request(PUZZLE), parse(PART2_STUCK, str(path)),
                                                                 ["pysat:glucose4"])
             if method.label == "reference" or ("[events" in method.label and "plain" not in method.label)
             or "[smt" in method.label]
    rows = list(run_methods(quick, 30, None))
    assert [(row.status, row.answers, row.agrees) for row in rows] == [("PARTIAL", {"part1": 13509}, True)] * 5
    assert independent_agreement(rows) == 2  # the A* reference and the movers' encodings


def test_decoding_an_unsat_export_says_one_part_may_be_to_blame(run_cli, tmp_path):
    """The export is one formula for both parts: an outside solver's UNSAT cannot say which part is stuck."""
    path, answer = tmp_path / "stuck-part2.txt", tmp_path / "answer.out"
    path.write_text(PART2_STUCK)
    answer.write_text("s UNSATISFIABLE\n")
    assert run_cli("export", "amphipod", str(path), "-o", str(tmp_path / "x.cnf"))[0] == 0
    code, out, _ = run_cli("decode", "amphipod", str(path), "--model", str(answer), "--map", str(tmp_path / "x.cnf.vars.json"))
    assert code == 1 and "at least one of them has no solution" in out


def random_burrow(rooms: int, depth: int, rng: random.Random) -> Burrow:
    """Shuffled amphipods, solvable or not."""
    amphipods = [kind for kind in range(rooms) for _ in range(depth)]
    rng.shuffle(amphipods)
    return Burrow(2 * rooms + 3, tuple(2 + 2 * k for k in range(rooms)),
                  tuple(tuple(amphipods[k * depth:(k + 1) * depth]) for k in range(rooms)))


def solvable(burrow: Burrow) -> bool:
    """Whether every part that ``solve`` reads from the drawing has a plan."""
    return all(has_plan(part) for _, part in parts_read(burrow))


def _small_burrows(count: int) -> list:
    rng = random.Random(7)
    out = []
    while len(out) < count:
        rooms = rng.choice([2, 3, 4])
        burrow = random_burrow(rooms, rng.choice([1, 2, 3] if rooms < 4 else [1, 2]), rng)
        if solvable(burrow):
            out.append(burrow)
    return out


@pytest.mark.parametrize("burrow", _small_burrows(14), ids=lambda b: f"{b.types}x{b.depth}-{hash(b.rooms) % 997}")
def test_generated_optimum_equals_reference(burrow):
    """Event ordering (RC2 and Z3) and the unrolling agree with A* on random small burrows."""
    instance = AmphipodInstance((("energy", burrow),), "generated")
    best, _ = cheapest_plan(burrow)
    for kind, method in (("events", "rc2"), ("smt", "z3"), ("unroll", "rc2-stratified")):
        report = solve(request(PUZZLE, None, kind, method=method), instance)
        assert report.answers["energy"] == best, (kind, method, burrow.draw())


def test_unrolling_lets_a_leaver_go_home_in_its_own_step():
    """The optimum here needs A to step out of room B to hall 5 (B at hall 3 blocks the direct way),
    which lets B go home and so clears A's way home: a first version of the step shape, where a leaver
    could only enter in a later step, found 13086 instead of 13082."""
    drawing = "#############\n#...........#\n###A#B#D#B###\n  #A#D#C#B#\n  #C#A#C#D#\n  #########\n"
    instance = PUZZLE.parse(drawing, "leaver", unfold=False)
    assert cheapest_plan(instance.burrows[0][1])[0] == 13082
    assert solve(request(PUZZLE, None, "unroll"), instance).answers["energy"] == 13082


def test_checker_rejects_wrong_plans():
    instance = load(PUZZLE, str(AOC / "example.txt"), unfold=False)
    good = PUZZLE.reference(instance, 1)[0]
    assert PUZZLE.check(instance, good) == []
    plan = good.plans[0]
    cheaper = replace(good, plans=(replace(plan, energy=plan.energy - 1),))
    assert "cost" in PUZZLE.check(instance, cheaper)[0]
    shortened = replace(good, plans=(replace(plan, moves=plan.moves[:-1]),))
    assert "not home" in PUZZLE.check(instance, shortened)[0]
    first = plan.moves[0]
    above_room = replace(first, target=("hall", instance.burrows[0][1].room_x[0]))
    stops_above = replace(good, plans=(replace(plan, moves=(above_room,) + plan.moves[1:]),))
    assert "never stop above a room" in PUZZLE.check(instance, stops_above)[0]


def test_steps_and_crosscheck(run_cli, tmp_path):
    path = tmp_path / "small.txt"
    code, _, _ = run_cli("generate", "amphipod", "--rooms", "3", "--depth", "2", "--seed", "3", "-o", str(path))
    assert code == 0
    code, out, _ = run_cli("solve", "amphipod", str(path), "--no-unfold", "--steps")
    assert code == 0 and out.count("#####") >= 3 and "optimal: yes" in out
    code, out, _ = run_cli("crosscheck", "amphipod", str(path), "--no-unfold", "--timeout", "30")
    assert code == 0 and "DISAGREEMENT" not in out


@pytest.mark.parametrize("seed", [1, 4])
def test_generated_four_room_burrows_solve_as_solve_reads_them(run_cli, tmp_path, seed):
    """With four rooms ``solve`` unfolds part 2; these seeds used to give burrows whose unfolded part 2
    was stuck (UNSAT), because the generator checked the drawing alone."""
    path = tmp_path / "four.txt"
    assert run_cli("generate", "amphipod", "--rooms", "4", "--depth", "2", "--seed", str(seed), "-o", str(path))[0] == 0
    code, out, _ = run_cli("solve", "amphipod", str(path))
    assert code == 0 and "optimal: yes" in out


def test_crosscheck_agrees_that_a_stuck_burrow_has_no_solution(run_cli, tmp_path):
    """No plan sorts this burrow (three B must wait in a hallway of five stops while the A below them
    cannot leave): the A* reference says so (it used to raise 'no plan reaches the goal', exit 2), and
    every method that answers agrees."""
    path = tmp_path / "stuck.txt"
    path.write_text("#########\n#.......#\n###A#B###\n  #B#A#\n  #B#A#\n  #B#A#\n  #####\n")
    assert run_cli("solve", "amphipod", str(path), "--no-unfold")[0] == 1
    code, out, _ = run_cli("crosscheck", "amphipod", str(path), "--no-unfold", "--timeout", "10", "--budget", "30")
    assert code == 0 and "DISAGREEMENT" not in out
    assert out.splitlines()[2].split()[:2] == ["reference", "UNSAT"]

BAD = {
    "unknown letter": ("#############\n#...........#\n###B#C#B#E###\n  #A#D#C#A#\n  #########\n", "unknown amphipod 'E'"),
    "wrong count": ("#############\n#...........#\n###B#C#B#D###\n  #A#D#C#B#\n  #########\n", "amphipods of type A"),
    "ragged": ("#############\n#...........#\n###B#C#B#D###\n  #A#D#C#\n  #########\n", "ragged"),
    "no hallway": ("#############\n###B#C#B#D###\n  #A#D#C#A#\n  #########\n", "hallway"),
    "occupied hallway": ("#############\n#A..........#\n###B#C#B#D###\n  #A#D#C#.#\n  #########\n", "hallway must start empty"),
    "no bottom": ("#############\n#...........#\n###B#C#B#D###\n  #A#D#C#A#\n", "bottom wall"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_drawings_give_one_line_errors(case, tmp_path, run_cli):
    text, message = BAD[case]
    with pytest.raises(PuzzleFormatError, match=message):
        parse(text, "bad.txt")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, out, err = run_cli("solve", "amphipod", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "bad.txt:" in err


def test_part2_needs_four_rooms(tmp_path, run_cli):
    path = tmp_path / "three.txt"
    path.write_text("###########\n#.........#\n###B#C#A###\n  #A#B#C#\n  #######\n")
    code, _, err = run_cli("solve", "amphipod", str(path))
    assert code == 2 and "--no-unfold" in err
    code, out, _ = run_cli("solve", "amphipod", str(path), "--no-unfold", "--json")
    expected = cheapest_plan(parse(path.read_text(), "x", False).burrows[0][1])
    assert code == 0 and expected is not None and json.loads(out)["answers"]["energy"] == expected[0]


def test_count_does_not_apply_to_amphipod(run_cli):
    code, _, err = run_cli("count", "amphipod", str(INSTANCES / "aoc" / "2021-23" / "example.txt"))
    assert code == 2 and "optimisation puzzle" in err


def test_rc2_on_a_solver_without_limited_solves_is_refused_in_one_line(run_cli):
    """Lingeling has no limited solve, which RC2 calls: that was an internal error (exit 3) with a hint
    to debug, and is now a one-line refusal naming the method and the backend."""
    example = str(Path(__file__).resolve().parent.parent / "instances" / "aoc" / "2021-23" / "example.txt")
    code, _, err = run_cli("solve", "amphipod", example, "--method", "rc2", "--backend", "lingeling")
    assert code == 2 and err.count("\n") == 1
    assert "method rc2 cannot run on pysat:lingeling: Limited solve is currently unsupported" in err


def test_bench_times_both_parts_of_a_partial_answer(run_cli, tmp_path):
    """bench reads the stopwatch it passes in: the parts' times must land there (they once stayed in
    the joined report only, and bench showed a 1 ms solve)."""
    directory = tmp_path / "instances"
    directory.mkdir()
    (directory / "stuck.txt").write_text(PART2_STUCK)
    watch = Stopwatch()
    report = solve(request(PUZZLE), parse(PART2_STUCK, "stuck.txt"), watch)
    assert report.status == "PARTIAL" and watch.times["encode"] > 0 and watch.times["solve"] > 0.01
    code, out, err = run_cli("bench", "--puzzle", "amphipod", "--instances", str(directory), "--repeat", "1",
                             "--out", str(tmp_path / "out"), "--timeout", "60")
    samples = json.loads((tmp_path / "out" / "bench.json").read_text())["samples"]
    assert code == 0 and {sample["status"] for sample in samples} == {"PARTIAL"}, err


def test_a_start_walked_backwards_from_the_goal_has_a_plan():
    """Every burrow a backward walk ends in is solvable (the module docstring argues each step): brute
    force (Dijkstra over every state, shared with nothing of ours) on the small ones, SAT on the event
    ordering on the larger ones; one room, one slot, non-square and flat shapes included."""
    rng = random.Random(5)
    walked = 0
    for rooms, depth in [(1, 1), (1, 3), (2, 1), (2, 2), (3, 1), (3, 2), (2, 4), (4, 1), (4, 2), (5, 1), (3, 3)] * 6:
        burrow = backward_start(rooms, depth, rng)
        if burrow is None:  # a hallway that could not be put back: the generator draws another walk
            continue
        walked += 1
        assert all(len(room) == depth for room in burrow.rooms)
        assert sorted(k for room in burrow.rooms for k in room) == sorted(list(range(rooms)) * depth)
        assert least_energy(burrow.draw()) is not None, burrow.draw()
    assert walked > 50
    for rooms, depth in [(5, 4), (6, 3), (3, 6), (10, 2)]:  # not four rooms: solvable() would add part 2
        burrow = backward_start(rooms, depth, rng)
        assert burrow is not None and parse(burrow.draw(), "walked", unfold_part2=False).burrows[0][1] == burrow
        assert solvable(burrow), burrow.draw()


@pytest.mark.parametrize(("rooms", "depth"), [(4, 10), (10, 4), (7, 12)])
def test_deep_and_wide_burrows_are_generated(rooms, depth):
    """Shuffling and proving each start by SAT took minutes here (4 x 10 and 10 x 4 did not end within
    120 s): nearly every deep shuffle is stuck. Every part solve reads from the burrow drawn has a plan,
    by SAT, and it is mixed (amphipods away from home)."""
    text = generate(rooms, depth, 1)
    burrow = parse(text, "generated", unfold_part2=False).burrows[0][1]
    assert (burrow.types, burrow.depth) == (rooms, depth)
    assert solvable(burrow) and away_from_home(burrow) >= rooms
