"""Inputs outside a puzzle's stated assumptions (docs/puzzles.md) are said to be so, in one line, wherever
the answer is shown (issue 38): a jigsaw whose image shows sea monsters in more than one orientation, or
none; a jigsaw that assembles in more than one way up to the grid's symmetries; a Dirac game that both
players win in as many universes."""
from __future__ import annotations

import json

from puzzlesat.encoders.dice.solution import DiceSolution, Part1
from puzzlesat.encoders.jigsaw.grids import orient
from puzzlesat.encoders.jigsaw.solution import MONSTER

from .conftest import INSTANCES
from .test_schemas import valid


def one_tile_jigsaw(upright: int, turned: bool) -> str:
    """A 1x1 jigsaw whose 22x22 image holds ``upright`` monsters in the image's own orientation (rows
    0-2, 4-6) and, with ``turned``, one more turned a quarter (rows 2-21, columns 19-21), plus one rough
    cell."""
    image = [["."] * 22 for _ in range(22)]

    def put(shape: tuple[str, ...], top: int, left: int) -> None:
        for r, line in enumerate(shape):
            for c, ch in enumerate(line):
                if ch == "#":
                    image[top + r][left + c] = "#"

    for k in range(upright):
        put(MONSTER, 4 * k, 0)
    if turned:
        put(orient(MONSTER, 1), 2, 19)
    image[15][5] = "#"
    tile = ["." * 24] + ["." + "".join(row) + "." for row in image] + ["." * 24]
    return "Tile 1:\n" + "\n".join(tile) + "\n"


def test_monsters_in_two_orientations_are_said_to_be(run_cli, tmp_path):
    both = tmp_path / "both.txt"
    both.write_text(one_tile_jigsaw(2, True))
    code, out, _ = run_cli("solve", "jigsaw", str(both))
    warning = [line for line in out.splitlines() if line.startswith("warning:")]
    assert code == 0 and len(warning) == 1, out
    assert "sea monsters appear in 2 orientations of the image" in warning[0]
    code, out, _ = run_cli("solve", "jigsaw", str(both), "--json")
    report = valid(json.loads(out))
    total = sum(line.count("#") for line in report["solution"]["image"])
    assert report["answers"]["part2"] == total - 30 and report["warnings"] == [w.removeprefix("warning: ") for w in warning]
    assert f"part 2 would be {total - 30} in orientation 0, {total - 15} in orientation" in warning[0]


def test_monsters_in_one_orientation_say_nothing(run_cli, tmp_path):
    one = tmp_path / "one.txt"
    one.write_text(one_tile_jigsaw(2, False))
    code, out, _ = run_cli("solve", "jigsaw", str(one), "--json")
    report = valid(json.loads(out))
    assert code == 0 and "warnings" not in report and report["answers"]["part2"] == 1


#: nine blank tiles: every arrangement fits, so the tiles assemble in many ways up to the grid's
#: symmetries, with other corners (part 1), and the image shows no monster
BLANK_3X3 = "\n".join(f"Tile {1001 + 7 * k}:\n...\n...\n...\n" for k in range(9))


def test_a_jigsaw_of_several_assemblies_is_said_to_be(run_cli, tmp_path):
    path = tmp_path / "blank.txt"
    path.write_text(BLANK_3X3)
    code, out, _ = run_cli("solve", "jigsaw", str(path))
    warnings = [line for line in out.splitlines() if line.startswith("warning:")]
    assert code == 0 and "unique: no up to the grid's symmetries (the solver found a second solution)" in out
    assert warnings[0] == ("warning: no sea monster appears in any orientation of the image, and the puzzle "
                           "assumes some: part 2 counts every '#'")
    assert warnings[1].startswith("warning: jigsaw assumes one solution up to the grid's symmetries, and the "
                                  "solver found a second: ")
    report = valid(json.loads(run_cli("solve", "jigsaw", str(path), "--json")[1]))
    assert report["answers"]["unique"] is False and len(report["warnings"]) == 2


def test_a_cross_check_shows_warnings_and_compares_only_what_every_solution_shares(run_cli, tmp_path):
    """Each method may find another assembly (other corners): every one passed the checker, so only
    'unique: False' is compared, and the warnings are shown once each with who gave them."""
    path = tmp_path / "blank.txt"
    path.write_text(BLANK_3X3)
    code, out, _ = run_cli("crosscheck", "jigsaw", str(path), "--backends", "cadical,glucose,minisat22")
    assert code == 0 and "DISAGREEMENT" not in out and out.count("unique=False") == 4
    assert "warning: no sea monster appears in any orientation of the image" in out
    rows = valid(json.loads(run_cli("crosscheck", "jigsaw", str(path), "--backends", "glucose", "--json")[1]))["rows"]
    assert [len(row.get("warnings", [])) for row in rows] == [0, 2]  # the reference gives none


def test_a_cross_check_of_an_aquarium_with_two_solutions_agrees(run_cli, tmp_path):
    """The two diagonals: solvers found one or the other and used to be marked as disagreeing."""
    path = tmp_path / "two.txt"
    path.write_text("1_1_1_1;1,2,3,4\n")
    code, out, _ = run_cli("crosscheck", "aquarium", str(path), "--backends", "cadical,glucose,minisat22")
    assert code == 0 and "DISAGREEMENT" not in out and out.count("unique=False") == 4


def test_the_real_example_assembles_in_one_way_up_to_symmetry(run_cli):
    code, out, _ = run_cli("solve", "jigsaw", str(INSTANCES / "aoc" / "2020-20" / "example.txt"))
    assert code == 0 and "unique: yes up to the grid's symmetries (solver: no second solution, UNSAT)" in out
    assert "warning" not in out


def test_a_dirac_game_both_players_win_as_often_is_said_to_be():
    """No small game found has a tie (player 1 moves first), so the solution is made by hand."""
    part1 = Part1(3, (10, 7), 3)
    assert DiceSolution(part1, (5, 5)).warnings() == [
        "both players win in 5 universes, and the puzzle assumes one wins in more: part 2 is that number either way"]
    assert DiceSolution(part1, (5, 4)).warnings() == []


def test_bench_shows_the_warnings_of_its_runs(run_cli, tmp_path):
    directory = tmp_path / "instances"
    directory.mkdir()
    (directory / "blank.txt").write_text(BLANK_3X3)
    code, out, err = run_cli("bench", "--puzzle", "jigsaw", "--instances", str(directory), "--repeat", "1",
                             "--out", str(tmp_path / "out"), "--timeout", "60")
    assert code == 0, err
    assert "warning: blank.txt: no sea monster appears in any orientation of the image" in out
    samples = json.loads((tmp_path / "out" / "bench.json").read_text())["samples"]
    assert [len(sample.get("warnings", [])) for sample in samples] == [0, 2]  # the reference's, the solver's


def test_explain_says_it_too(run_cli, tmp_path):
    path = tmp_path / "no-monster.txt"
    path.write_text("Tile 7:\n#....\n.....\n..#..\n.....\n....#\n")
    code, out, _ = run_cli("explain", "jigsaw", str(path))
    assert code == 0 and out.splitlines()[-1].startswith("warning: no sea monster appears")
    report = json.loads(run_cli("explain", "jigsaw", str(path), "--json")[1])
    assert len(valid(report)["warnings"]) == 1
