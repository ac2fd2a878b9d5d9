"""--png and --svg for every puzzle: real pictures of checked solutions, written atomically."""
from __future__ import annotations

import stat
import xml.etree.ElementTree as ET

import pytest

import puzzlesat
from puzzlesat.core.errors import CheckFailed
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.dice.instance import DiceInstance, Game
from puzzlesat.encoders.dice.reference import dirac_wins, wins_by_turn
from puzzlesat.encoders.dice.solution import DiceSolution, Part1
from puzzlesat.formats.picture import Picture, to_png, to_svg

from .conftest import INSTANCES

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("puzzle,path,extra,label", [
    ("aquarium", "aquarium/pa-6x6-easy-681742.txt", [], None),
    ("jigsaw", "aoc/2020-20/example.txt", [], None),
    ("jig", "jig/matt5x5.jig", [], "24"),
    # the optimum's plan depends on which raced solver answers first (11 or 12 moves): the energy does not
    ("amphipod", "aoc/2021-23/example.txt", ["--no-unfold"], "energy = 12521 ("),
    ("dice", "aoc/2021-21/example.txt", ["--target", "8"], None),
])
def test_every_puzzle_draws_png_and_svg(run_cli, tmp_path, puzzle, path, extra, label):
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    code, _, _ = run_cli("solve", puzzle, str(INSTANCES / path), *extra, "--png", str(png), "--svg", str(svg))
    assert code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    root = ET.parse(svg).getroot()
    assert len(root.findall(f"{SVG}rect")) > 5
    if label:  # a label ending in "(" is a prefix
        texts = [t.text or "" for t in root.findall(f"{SVG}text")]
        assert any(text.startswith(label) if label.endswith("(") else text == label for text in texts), texts
    assert stat.S_IMODE(png.stat().st_mode) & 0o044  # a normal readable file, not mkstemp's 0600
    assert list(tmp_path.iterdir()) == [png, svg] or sorted(tmp_path.iterdir()) == sorted([png, svg])


def test_aquarium_picture_shows_the_water():
    spec = get_puzzle("aquarium")
    instance = spec.parse((INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt").read_text(), "x")
    solution = spec.reference(instance, 1)[0]
    picture = spec.picture(instance, solution)
    grid = instance.height + 1  # the clues' margin and the grid; the legend is below
    water = [r for r in picture.rects if r.fill == (70, 130, 220) and r.y < grid]
    assert len(water) == sum(map(sum, solution.water))
    assert [t.text for t in picture.labels if t.y < grid] == [*map(str, instance.cols), *map(str, instance.rows)]


@pytest.mark.parametrize("starts,game", [((4, 8), Game(target=10)), ((1, 1), Game(target=8, sides=2)),
                                         ((3, 7), Game(target=12, track=7, sides=4, rolls=2))])
def test_wins_by_turn_add_up_to_the_dp(starts, game):
    instance = DiceInstance(starts, game)
    ended = wins_by_turn(instance)
    assert tuple(sum(w[p] for w in ended.values()) for p in (0, 1)) == dirac_wins(instance)
    assert all(w[turn % 2] == 0 for turn, w in ended.items())  # player 1 wins only on odd turns


def test_dice_picture_refuses_wins_that_do_not_add_up():
    spec = get_puzzle("dice")
    instance = DiceInstance((4, 8), Game(target=8))
    right = dirac_wins(instance)
    with pytest.raises(CheckFailed, match="add up to"):
        spec.picture(instance, DiceSolution(Part1(1, (0, 0), 3), (right[0] + 1, right[1])))


def test_png_rasterises_rectangles_and_svg_escapes_text():
    picture = Picture(2, 1)
    picture.rect(1, 0, 1, 1, (255, 0, 0))
    picture.label(0.5, 0.5, "<a&b>")
    assert "&lt;a&amp;b&gt;" in to_svg(picture)
    assert to_png(picture, scale=1) != to_png(Picture(2, 1), scale=1)


@pytest.mark.parametrize("puzzle,path,extra", [
    ("aquarium", "aquarium/pa-6x6-easy-681742.txt", []),
    ("jigsaw", "aoc/2020-20/example.txt", []),
    ("jig", "jig/matt5x5.jig", []),
    ("amphipod", "aoc/2021-23/example.txt", ["--no-unfold"]),
    ("dice", "aoc/2021-21/example.txt", []),
])
def test_pictures_a_person_can_read(puzzle, path, extra):
    """Sizes a screen shows whole, text in the PNG too (it had none: the jig's pieces had no numbers, the
    dice chart no axes or values), and every label inside its canvas (the dice title overflowed its SVG;
    issue 35)."""
    import io

    from PIL import Image

    from puzzlesat.formats.picture import CHARACTER_WIDTH, fitted
    from puzzlesat.pipeline.steps import load

    spec = get_puzzle(puzzle)
    reading = {"unfold": False} if "--no-unfold" in extra else {}
    instance = load(spec, str(INSTANCES / path), None, **reading)
    solution = spec.reference(instance, 1)[0]
    picture = spec.picture(instance, solution)
    image = Image.open(io.BytesIO(to_png(picture)))
    assert 600 <= max(image.size) <= 2400, image.size
    for label in picture.labels:
        half = len(label.text) * CHARACTER_WIDTH * fitted(label, picture) / (1 if label.start else 2)
        assert label.x + half <= picture.width + 1e-9 and (label.start or label.x - half >= -1e-9), label
    if picture.labels:  # the text is drawn: the PNG differs from the same scene without it
        bare = Picture(picture.width, picture.height, picture.rects, [], picture.background)
        assert to_png(picture) != to_png(bare)
    if puzzle == "dice":  # a title, a legend with both totals, a value axis, a value on each bar
        texts = [label.text for label in picture.labels]
        assert any(text.startswith("Dirac dice") for text in texts)
        assert sum(text.startswith("player ") for text in texts) == 2 and "universes" in texts
    if puzzle == "jig":  # the pieces' numbers, and a key of the tab types (it had none)
        texts = [label.text for label in picture.labels]
        assert sorted(int(text) for text in texts if text.isdigit()) == list(range(25))
        assert [text for text in texts if text.startswith("type ")] == [f"type {kind}" for kind in range(1, 8)]
    svg_width = float(to_svg(picture).split('width="', 1)[1].split('"', 1)[0])
    assert 300 <= svg_width <= 2400, svg_width  # a 5 x 5 jig's SVG was 130 pixels wide
    if puzzle == "amphipod":  # captions a person can read in the PNG (they were some 5 pixels tall)
        scale = max(2, min(120, round(1200 / max(picture.width, picture.height))))
        captions = [label for label in picture.labels if "->" in label.text or label.text == "start"]
        assert captions and min(fitted(label, picture) * scale for label in captions) >= 10
    if puzzle == "jigsaw":  # every tile's id and orientation, and a legend of the colours (it had no text)
        texts = [label.text for label in picture.labels]
        assert sorted(text for text in texts if "/" in text and text[0].isdigit()) == sorted(
            f"{tile}/{orientation}" for tile, orientation in solution.placement)
        assert "sea monster (2)" in texts and "rough water #" in texts and "calm water ." in texts
    if puzzle == "aquarium":  # a legend: what is water, what is dry, what the thick lines and numbers are
        texts = [label.text for label in picture.labels]
        assert {"water", "dry", "wall"} <= set(texts) and any(text.startswith("clues:") for text in texts)


def test_an_explanation_draws_what_each_step_rules_out_and_a_legend():
    """The 66 steps of a 5 x 5 jig were 66 panels alike: a step that only rules placements out drew
    nothing. Each step now marks the cells where it rules some out, with how many (each of its ruled-out
    placements counted once), and a legend says what the colours mean."""
    from puzzlesat.deduction.picture import steps_picture

    jig = puzzlesat.read("jig", str(INSTANCES / "jig" / "matt5x5.jig"))
    explanation = puzzlesat.explain("jig", jig).explanation
    picture = steps_picture(explanation)
    marks = [label for label in picture.labels if label.text.startswith("-") and label.text[1:].isdigit()]
    ruled_out = sum(1 for step in explanation.steps for literal in step.forced if literal < 0)
    assert sum(int(label.text[1:]) for label in marks) == ruled_out > 0
    texts = [label.text for label in picture.labels]
    assert "placed before the step" in texts and "placed by the step" in texts
    assert "-N: N ruled out by the step" in texts
    grid = puzzlesat.read("aquarium", str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"))
    texts = [label.text for label in steps_picture(puzzlesat.explain("aquarium", grid).explanation).labels]
    assert {"water before the step", "water by the step", "dry before the step", "dry by the step"} <= set(texts)
