"""Hints from a player's marks (``explain --from``, issue 72): on seeded random small aquariums of both
water rules, rectangles and missing clues, with random marks, every claim of the hint is held to the
solutions the solver-free reference lists; a planted fault in a hint fails its replay; bad marks files
are one-line errors."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

import puzzlesat
from puzzlesat.core.errors import CheckFailed
from puzzlesat.deduction import Step
from puzzlesat.deduction.hints import WrongMark
from puzzlesat.deduction.replay import replay_hint
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.aquarium.instance import AquariumInstance
from puzzlesat.pipeline.hinting import Hinted, hint_instance

from .conftest import INSTANCES
from .test_schemas import valid

AQUARIUM = get_puzzle("aquarium")
EASY = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")
EASY_SOLUTION = (INSTANCES / "aquarium" / "pa-6x6-easy-681742.solution").read_text().split()


def random_instance(rng: random.Random) -> AquariumInstance:
    """A small aquarium of any shape: 1-4 rows and columns, regions as patches or scattered cells, clues
    from a random filling under the rule drawn (so most have a solution), some clues left out, one now
    and then moved (usually none)."""
    height, width = rng.randint(1, 4), rng.randint(1, 4)
    regions = [[rng.randint(1, max(1, height * width // 2)) for _ in range(width)] for _ in range(height)]
    region_rule = rng.random() < 0.5
    instance = AquariumInstance(height, width, (None,) * width, (None,) * height,
                                tuple(map(tuple, regions)), region_rule=region_rule)
    filled = AQUARIUM.reference(instance, 50)
    grid = rng.choice(filled).lines() if filled else ["." * width] * height
    rows = [line.count("#") for line in grid]
    cols = [sum(line[c] == "#" for line in grid) for c in range(width)]
    if rng.random() < 0.1:
        rows[rng.randrange(height)] = rng.randint(0, width)
    hidden = lambda counts: tuple(None if rng.random() < 0.25 else count for count in counts)  # noqa: E731
    return replace(instance, cols=hidden(cols), rows=hidden(rows))


def random_marks(rng: random.Random, instance: AquariumInstance, solutions: list[list[str]]) -> list[str]:
    """Marks a player might make: most copied from one solution, some at random, the rest unmarked."""
    right = rng.choice(solutions) if solutions else None
    share, wrongs = rng.random(), rng.random() * 0.3
    lines = []
    for r in range(instance.height):
        cells = []
        for c in range(instance.width):
            if rng.random() > share:
                cells.append("?")
            elif right is not None and rng.random() > wrongs:
                cells.append(right[r][c])
            else:
                cells.append(rng.choice("#."))
        lines.append(" ".join(cells))
    return lines


def held_to_solutions(said: dict, marked: list, solutions: list, has, where) -> tuple[str, list]:
    """The hint's ending, and the solutions that hold every mark, once what it says of the marks is held
    to ``solutions`` (each listed by brute force; ``has(solution, cell)``: the solution has that cell's
    mark): "no solution" where there is none; each wrong mark in no solution and every other mark in
    some; each clash a set of marks no solution holds together."""
    if not solutions:
        assert "no_solution" in said and not said["wrong"] and said["next"] is None, where
        return "no solution", []
    wrong = {tuple(mark["cell"]) for mark in said["wrong"]}
    for cell in marked:
        assert (cell in wrong) == (not any(has(solution, cell) for solution in solutions)), (cell, where)
    if wrong:
        assert said["next"] is None and not said["solved"], where
        return "wrong", []
    holding = [solution for solution in solutions if all(has(solution, cell) for cell in marked)]
    if said["clashing"] is not None:
        clash = [tuple(mark["cell"]) for mark in said["clashing"]["marks"]]
        assert not holding and not any(all(has(s, cell) for cell in clash) for s in solutions), where
        return "clash", []
    assert holding, where
    return ("solved" if said["solved"] else "next" if said["next"] is not None else "stuck"), holding


def test_hints_against_the_solutions_of_random_aquariums():
    """Every wrong mark is in no solution, and every other mark in some; each clash is a set of marks no
    solution holds together; each next step's cells hold in every solution that has the marks; marks said
    to solve are a solution; "no solution" where there is none; several solutions left where the hint is
    stuck. Every ending is met."""
    endings = set()
    for case in range(400):
        rng = random.Random(case)
        instance = random_instance(rng)
        solutions = [solution.lines() for solution in AQUARIUM.reference(instance, None)]
        marks = random_marks(rng, instance, solutions)
        hinted = hint_instance(AQUARIUM, instance, "\n".join(marks) + "\n", "marks")
        said = hinted.to_json()
        where = (case, instance, marks, said)
        marked = {(r, c): line.split()[c] for r, line in enumerate(marks) for c in range(instance.width)
                  if line.split()[c] != "?"}
        ending, holding = held_to_solutions(said, list(marked), solutions,
                                            lambda solution, cell: solution[cell[0]][cell[1]] == marked[cell], where)
        endings.add(ending)
        if ending == "solved":
            assert len(marked) == instance.height * instance.width and hinted.solution.lines() in solutions, where
        elif ending == "next":
            for fixed in said["next"]["cells"]:
                value = "#" if fixed["value"] == "water" else "."
                for r, c in fixed["cells"]:
                    assert all(solution[r][c] == value for solution in holding), (fixed, where)
        elif ending == "stuck":
            assert len(holding) > 1 and "differing" in said, where
    assert endings == {"no solution", "wrong", "clash", "solved", "next", "stuck"}


def hinted_easy(marks: str, **given) -> Hinted:
    return hint_instance(AQUARIUM, puzzlesat.read("aquarium", EASY), marks, "marks", **given)


#: the easy 6x6 with r1c1 marked water (row 1 needs its 4 water cells on the right) and row 6 all water
WRONG = "# . # # # #\n" + "? ? ? ? ? ?\n" * 4 + "# # # # # #\n"


def test_a_planted_fault_in_a_hint_fails_its_replay():
    hint = hinted_easy(WRONG).hint
    assert replay_hint(hint) == (hint, [])
    first = hint.wrong[0]
    with pytest.raises(CheckFailed, match="the wrong mark"):  # a right mark called wrong
        replay_hint(replace(hint, wrong=(WrongMark(-first.literal, first.facts),)))
    wide = next(wrong for wrong in hint.wrong if len(wrong.facts) > 1)
    with pytest.raises(CheckFailed, match="is not refuted by its facts"):  # a reason cut short
        replay_hint(replace(hint, wrong=(WrongMark(wide.literal, wide.facts[:1]),)))
    step = hinted_easy("? ? # # # #\n" + "? ? ? ? ? ?\n" * 5).hint
    assert step.next is not None
    flipped = Step(step.next.facts, tuple(-lit for lit in step.next.forced))
    with pytest.raises(CheckFailed, match="explanation step 1"):
        replay_hint(replace(step, next=flipped))


def test_the_easy_six_by_six(run_cli, tmp_path):
    """Wrong marks each with their facts; the next step from right marks; the solution as marks; the
    text a player reads, the JSON, its schema, and --certify."""
    wrong = hinted_easy(WRONG)
    assert [mark["cell"] for mark in wrong.to_json()["wrong"]] == [[0, 0], [5, 3], [5, 4], [5, 5]]
    assert wrong.to_json()["wrong"][0]["reasons"] == ["row 1 count (4)"]
    assert wrong.render().splitlines()[0] == ("wrong: r1c1 is marked water, and no solution has it: row 1 needs 4 "
                                              "water cells; with water r1c1 r1c2 it can hold 2, 3, 5, 6, not 4")
    solved = hinted_easy("\n".join(EASY_SOLUTION))
    assert solved.hint.solved and solved.solution.lines() == EASY_SOLUTION
    assert solved.render() == "no wrong mark\nsolved: the marks are the solution (checked)"
    marks = tmp_path / "marks.txt"
    marks.write_text(WRONG)
    code, out, _ = run_cli("explain", "aquarium", EASY, "--from", str(marks), "--json", "--certify")
    payload = valid(json.loads(out))
    assert code == 0 and len(payload["wrong"]) == 4 and payload["certificate"]["checked"] is not None
    half = tmp_path / "half.txt"
    half.write_text("\n".join(" ".join(line) for line in EASY_SOLUTION[:3]) + "\n" + "? ? ? ? ? ?\n" * 3)
    code, out, _ = run_cli("explain", "aquarium", EASY, "--from", str(half))
    assert code == 0 and out.startswith("no wrong mark\nnext: "), out


@pytest.mark.parametrize("marks, problem", [
    ("# . # # # #\n? ? ? ?\n", "marks:2: row 2 has 4 cells; the puzzle's rows have 6"),
    ("# . x # # #\n", "marks:1:5: 'x' is not a mark: each cell is one of '#' '.' '?'"),
    ("? ? ? ? ? ?\n" * 7, "marks:7:1: the puzzle has 6 rows; this is row 7"),
    ("? ? ? ? ? ?\n" * 2, "marks:2: 2 rows of marks; the puzzle has 6"),
    ("? ? ? ? ? ? ?\n", "marks:1:13: row 1 has 7 cells; the puzzle's rows have 6"),
])
def test_marks_that_do_not_fit_are_one_line(run_cli, tmp_path, marks, problem):
    path = tmp_path / "marks"
    path.write_text(marks)
    code, out, err = run_cli("explain", "aquarium", EASY, "--from", str(path))
    assert (code, out) == (2, "") and err == f"puzzlesat: error: {str(tmp_path)}/{problem}\n", err


def test_where_hints_are_not_offered_and_stdin_twice(run_cli, tmp_path):
    path = tmp_path / "marks"
    path.write_text("?\n")
    code, _, err = run_cli("explain", "amphipod", str(INSTANCES / "aoc" / "2021-23" / "example.txt"), "--from", str(path))
    assert code == 2 and "explain --from is not offered for amphipod" in err, err
    code, _, err = run_cli("explain", "aquarium", "-", "--from", "-", input="x")
    assert code == 2 and "stdin (-) is given for both FILE and --from" in err


def test_a_puzzle_with_no_solution_and_marks_that_leave_several(run_cli):
    none = hint_instance(AQUARIUM, AQUARIUM.parse("1_1_2_0;1,2,1,2", "x"), "# ?\n? ?\n", "marks")
    assert none.hint.conflict and not none.answered
    assert none.render().startswith("no solution: these facts cannot hold together")
    several = hint_instance(AQUARIUM, AQUARIUM.parse("1_1_1_1;1,2,3,4", "x"), "? ?\n? ?\n", "marks")
    assert len(several.hint.differing) == 2 and not several.answered


def test_a_count_says_what_its_clauses_say():
    """The totals a counting fact's :class:`~puzzlesat.deduction.Count` gives, under random fixed cells,
    hold its clauses' verdict: the count's total is among them exactly when the fact's own clauses have a
    model with those cells (both water rules, rows and columns, cells of one variable counted by their
    number)."""
    from pysat.solvers import Solver

    checked = 0
    for case in range(150):
        rng = random.Random(1000 + case)
        instance = random_instance(rng)
        facts = AQUARIUM.facts(instance, AQUARIUM.options())
        for fact in facts.facts:
            if fact.count is None:
                continue
            variables = [var for var, _ in fact.count.cells]
            fixed = {rng.choice([var, -var]) for var in variables if rng.random() < 0.5}
            with Solver(name="minisat22", bootstrap_with=[list(clause) for clause in fact.clauses]) as solver:
                assert solver.solve(assumptions=sorted(fixed)) == (fact.count.total in fact.count.totals(fixed)), \
                    (instance, fact.label, fixed)
            checked += 1
    assert checked > 300


def test_a_puzz_link_url_and_the_physics_rule(run_cli):
    """The same marks get the same hint from the puzzle as a URL; under the physics rule the reason is
    physics' own fact (water flows)."""
    marks = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.marks")
    url = AQUARIUM.spell(puzzlesat.read("aquarium", EASY), "url")
    code, from_url, _ = run_cli("explain", "aquarium", url, "--from", marks)
    code2, from_file, _ = run_cli("explain", "aquarium", EASY, "--from", marks)
    assert code == code2 == 0 and from_url == from_file
    code, out, _ = run_cli("explain", "aquarium", EASY, "--rule", "physics", "--from", marks)
    assert code == 0 and out == ("wrong: r2c6 is marked water, and no solution has it: water at r2c6 flows + "
                                 "column 6 count (1)\n")


def test_hints_against_the_layouts_of_random_jigs():
    """On random jigs in lines and rectangles (flat inner edges, identical pieces, a side changed now and
    then), marks copied from a layout turned any way (a layout of another class is as right as the
    solver's), pieces placed at random, the same piece twice: each claim held to every layout brute force
    finds, as for the aquariums; a mark names a piece's id and its turns as `solve` prints them."""
    from puzzlesat.encoders.jig.solution import rotate

    from .brute import tiling

    jig = get_puzzle("jig")
    shapes = [(1, 2), (2, 1), (1, 3), (2, 2), (1, 4), (2, 3), (3, 2)]
    endings = set()
    for seed in range(250):
        rng = random.Random(seed)
        rows, cols = rng.choice(shapes)
        text = tiling.random_jig(rng, rows, cols)
        instance = jig.parse(text, f"jig-{seed}")
        sides = dict(zip(instance.ids, instance.pieces))
        layouts = list(tiling.jig_layouts(text))
        layout = rng.choice(layouts) if layouts else None
        grid, marked = [], {}
        for cell in range(rows * cols):
            if rng.random() < 0.45:
                grid.append("?")
                continue
            if layout is not None and rng.random() < 0.75:
                piece, placed = layout[cell]
                turns = rng.choice([t for t in range(4) if rotate(sides[piece], t) == placed])
            else:
                piece, turns = rng.choice(instance.ids), rng.randrange(4)
            grid.append(f"{piece}/{turns}")
            marked[divmod(cell, cols)] = (piece, rotate(sides[piece], turns))
        marks = "".join(" ".join(grid[r * cols:(r + 1) * cols]) + "\n" for r in range(rows))
        said = hint_instance(jig, instance, marks, "marks").to_json()
        where = (seed, text, marks, said)
        ending, holding = held_to_solutions(said, list(marked), layouts,
                                            lambda layout, cell: layout[cell[0] * cols + cell[1]] == marked[cell], where)
        endings.add(ending)
        if ending == "solved":
            assert len(marked) == rows * cols and len(holding) == 1, where
        elif ending == "next":
            for fixed in said["next"]["cells"]:
                for r, c, piece, turns in fixed["cells"]:
                    in_every = all(layout[r * cols + c] == (piece, rotate(sides[piece], turns)) for layout in holding)
                    in_none = all(layout[r * cols + c] != (piece, rotate(sides[piece], turns)) for layout in holding)
                    assert in_every if fixed["value"] == "placed" else in_none, (fixed, where)
        elif ending == "stuck":
            assert len(holding) > 1, where
    assert endings == {"no solution", "wrong", "clash", "solved", "next", "stuck"}, endings


def test_jigsaw_marks(run_cli, tmp_path):
    """A jigsaw's tiles as its solution lists them (id/orientation, 0-7); the marks of the solution solve
    it, a tile turned wrong is wrong, and a tile that is not in the puzzle is a one-line error."""
    jigsaw = get_puzzle("jigsaw")
    path = str(INSTANCES / "aoc" / "2020-20" / "example.txt")
    report = puzzlesat.solve("jigsaw", puzzlesat.read("jigsaw", path))
    layout = [f"{tile}/{orientation}" for tile, orientation in report.solution.placement]
    marks = "".join(" ".join(layout[r * 3:(r + 1) * 3]) + "\n" for r in range(3))
    assert hint_instance(jigsaw, puzzlesat.read("jigsaw", path), marks, "marks").hint.solved
    first, orientation = report.solution.placement[0]
    turned = marks.replace(f"{first}/{orientation}", f"{first}/{(orientation + 1) % 4}", 1)
    said = hint_instance(jigsaw, puzzlesat.read("jigsaw", path), turned, "marks").to_json()
    assert [mark["cell"] for mark in said["wrong"]] == [[0, 0]]
    bad = tmp_path / "marks"
    bad.write_text("9999/0 ? ?\n? ? ?\n? ? ?\n")
    code, _, err = run_cli("explain", "jigsaw", path, "--from", str(bad))
    assert code == 2 and err == f"puzzlesat: error: {bad}:1:1: '9999/0': 9999 is not a piece of this puzzle\n"


def test_a_hint_stopped_by_its_limit_keeps_the_wrong_marks_it_had_replayed():
    """A 30x30 grid with a third of its marks wrong, under a limit of 0.3 s: the hint ends stopped, and
    each wrong mark it kept is wrong (the puzzle is unique: it differs from the solution) and was
    replayed; the text says how far it came."""
    from puzzlesat.encoders.aquarium.generate import generate

    instance = AQUARIUM.parse(generate(30, 3), "a30")
    solution = puzzlesat.solve("aquarium", instance).solution.lines()
    rng = random.Random(1)
    marks = "".join(" ".join(rng.choice("#.?") for _ in range(30)) + "\n" for _ in range(30))
    hinted = puzzlesat.explain("aquarium", instance, marks=marks, timeout=0.3)
    assert hinted.stopped is not None and hinted.stopped.by == "time limit"
    for mark in hinted.to_json()["wrong"]:
        r, c = mark["cell"]
        assert solution[r][c] != ("#" if mark["mark"] == "water" else ".")
    assert hinted.render().splitlines()[-1].startswith("stopped by the time limit after ")
    assert "wrong marks found" in hinted.progress() or hinted.progress() == "no wrong mark found yet"


def test_a_hint_stopped_by_a_signal_keeps_the_wrong_marks_it_found(monkeypatch):
    """As an explanation: the replay of the wrong marks found goes on briefly after the signal."""
    import signal

    from puzzlesat.pipeline import hinting, stop

    asked = iter(range(10_000))
    monkeypatch.setattr(hinting, "stop_requested", lambda: signal.SIGTERM if next(asked) > 3 else 0)
    monkeypatch.setattr(stop, "stop_requested", lambda: signal.SIGTERM)
    marks = "# # ? ? ? ?\n" + "? ? ? ? ? ?\n" * 4 + "# # # # # #\n"
    hinted = hinted_easy(marks)
    assert hinted.stopped is not None and hinted.stopped.by == "SIGTERM"
    assert hinted.to_json()["wrong"] or hinted.to_json().get("unexplained"), hinted.to_json()
