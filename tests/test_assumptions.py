"""Inputs outside a puzzle's stated assumptions (docs/puzzles.md) are said to be so, in one line, wherever
the answer is shown (issue 38): a jigsaw whose image shows sea monsters in more than one orientation."""
from __future__ import annotations

import json

from puzzlesat.encoders.jigsaw.grids import orient
from puzzlesat.encoders.jigsaw.solution import MONSTER

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
