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
        has = lambda solution, cell: solution[cell[0]][cell[1]] == marked[cell]  # noqa: E731
        if not solutions:
            assert "no_solution" in said and not said["wrong"] and said["next"] is None, where
            endings.add("no solution")
            continue
        wrong = {tuple(mark["cell"]) for mark in said["wrong"]}
        for cell in marked:
            assert (cell in wrong) == (not any(has(solution, cell) for solution in solutions)), (cell, where)
        if wrong:
            endings.add("wrong")
            assert said["next"] is None and not said["solved"], where
            continue
        holding = [solution for solution in solutions if all(has(solution, cell) for cell in marked)]
        if said["clashing"] is not None:
            endings.add("clash")
            clash = [tuple(mark["cell"]) for mark in said["clashing"]["marks"]]
            assert not holding and not any(all(has(s, cell) for cell in clash) for s in solutions), where
            continue
        assert holding, where
        if said["solved"]:
            endings.add("solved")
            assert len(marked) == instance.height * instance.width and hinted.solution.lines() in solutions, where
        elif said["next"] is not None:
            endings.add("next")
            for fixed in said["next"]["cells"]:
                value = "#" if fixed["value"] == "water" else "."
                for r, c in fixed["cells"]:
                    assert all(solution[r][c] == value for solution in holding), (fixed, where)
        else:
            endings.add("stuck")
            assert len(holding) > 1 and "differing" in said, where
    assert endings == {"no solution", "wrong", "clash", "solved", "next", "stuck"}


def hinted_easy(marks: str, **given) -> Hinted:
    return hint_instance(AQUARIUM, puzzlesat.read("aquarium", EASY), marks, "marks", **given)


#: the easy 6x6 with r1c1 marked water (row 1 needs its 4 water cells on the right) and row 6 all water
WRONG = "# . # # # #\n" + "? ? ? ? ? ?\n" * 4 + "# # # # # #\n"


def test_a_planted_fault_in_a_hint_fails_its_replay():
    hint = hinted_easy(WRONG).hint
    assert replay_hint(hint) == []
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
    code, _, err = run_cli("explain", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--from", str(path))
    assert code == 2 and "explain --from is not offered for jig" in err
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
