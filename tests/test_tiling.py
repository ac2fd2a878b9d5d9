"""Jigsaw and jig: real inputs give their known answers and counts; solver and reference agree."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from puzzlesat.backends.forking import call_with_timeout
from puzzlesat.core.errors import PuzzlesatError
from puzzlesat.core.timing import Deadline, Stopwatch
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.tiling.options import TilingOptions
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions, load
from puzzlesat.pipeline.tasks import count, solve

from .conftest import INSTANCES, aoc_inputs

JIGSAW = get_puzzle("jigsaw")
JIG = get_puzzle("jig")
AOC = INSTANCES / "aoc" / "2020-20"
# the jig instances whose complete count takes CaDiCaL under a few seconds here; the larger
# zhurgut ones (9x9 and up, 12x7, 14x6, 6x12) are benchmark material, see BENCHMARKS.md
FAST_JIGS = ["matt5x5", "lavoie5x5", "zhurgut_4x4", "zhurgut_5x5", "zhurgut_5x5_0a7036e", "zhurgut_6x4",
             "zhurgut_6x6", "zhurgut_6x6_0a7036e", "zhurgut_7x7", "zhurgut_8x8", "zhurgut_9x5", "zhurgut_12x5"]


def answers(name: str) -> dict[str, int]:
    part1, part2 = Path(f"{name}.answers").read_text().split()
    return {"part1": int(part1), "part2": int(part2)}


@pytest.mark.parametrize("name", aoc_inputs("2020-20"))
def test_jigsaw_answers(name):
    report = solve(request(JIGSAW, "cadical"), load(JIGSAW, f"{name}.txt"))
    assert report.checked and report.answers == answers(name) | {"unique": True}


@pytest.mark.parametrize("name", aoc_inputs("2020-20", ("generated-1",), ("real-1",)))
def test_jigsaw_full_size_input_has_exactly_8_assemblies(name):
    instance = load(JIGSAW, f"{name}.txt")
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=False), instance) == 8
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=True), instance) == 1


@pytest.mark.parametrize("name", aoc_inputs("2020-20", ("example", "generated-2"), ("real-2",)))
def test_jigsaw_reference_agrees(name):
    instance = load(JIGSAW, f"{name}.txt")
    solutions = JIGSAW.reference(instance, None, TilingOptions(break_symmetry=False))
    assert len(solutions) == 8
    assert all(not JIGSAW.check(instance, s) and s.answers() == answers(name) for s in solutions)


def test_jigsaw_tolerates_crlf_and_trailing_blank_lines():
    text = (AOC / "example.txt").read_text().replace("\n", "\r\n") + "\r\n\r\n"
    report = solve(request(JIGSAW, "cadical"), JIGSAW.parse(text, "crlf.txt"))
    assert report.answers == answers(str(AOC / "example")) | {"unique": True}


@pytest.mark.parametrize("name", FAST_JIGS)
def test_jig_counts(name):
    instance = load(JIG, str(INSTANCES / "jig" / f"{name}.jig"))
    total, classes = map(int, (INSTANCES / "jig" / f"{name}.expected").read_text().split())
    assert count_solutions(request(JIG, "cadical", break_symmetry=False), instance) == total
    assert count_solutions(request(JIG, "cadical", break_symmetry=True), instance) == classes


@pytest.mark.parametrize("name", ["matt5x5", "zhurgut_4x4", "zhurgut_5x5_0a7036e", "zhurgut_6x4"])
def test_jig_reference_counts(name):
    instance = load(JIG, str(INSTANCES / "jig" / f"{name}.jig"))
    total, classes = map(int, (INSTANCES / "jig" / f"{name}.expected").read_text().split())
    solutions = JIG.reference(instance, None, TilingOptions(break_symmetry=False))
    assert len(solutions) == total and all(not JIG.check(instance, s) for s in solutions)
    assert len(JIG.reference(instance, None, TilingOptions(break_symmetry=True))) == classes


@pytest.mark.parametrize("name", ["zhurgut_12x5", "zhurgut_14x6", "zhurgut_12x7"])
def test_jig_reference_fills_along_the_shorter_side(name):
    """Grids wider than tall are filled column by column: row by row the reference took 42-60+ s on
    these, column by column 0.1-0.5 s."""
    instance = load(JIG, str(INSTANCES / "jig" / f"{name}.jig"))
    total, classes = map(int, (INSTANCES / "jig" / f"{name}.expected").read_text().split())
    counted = call_with_timeout(lambda: [len(JIG.reference(instance, None, TilingOptions(break_symmetry=brk)))
                                         for brk in (False, True)], Deadline.after(20), "reference")
    assert counted == [total, classes]


def test_count_command(run_cli):
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--list")
    assert code == 0 and "solutions: 8" in out and "up_to_rotation: 2" in out and out.count("-- solution") == 8



def test_count_timeout_names_the_given_limit(run_cli):
    """Both counts share one limit that also covers their encodes; the message names the limit given."""
    code, out, err = run_cli("count", "jig", str(INSTANCES / "jig" / "zhurgut_10x10.jig"), "--timeout", "1")
    # stopped before either racer found anything, the count says so (issue 69: it printed nothing, and
    # --json no record), and the message names the limit given and both racers (issue 46)
    assert code == 4 and out.startswith("solutions: at least 0 (stopped by the time limit after "), out
    assert err.startswith("puzzlesat: error: enumeration on pysat:glucose4 and the puzzle's own search: no answer "
                          "within the time limit of 1 s; by then: no solution found yet"), err
    assert "raced against the puzzle's own search" in err and err.count("\n") == 1


@pytest.mark.parametrize("name", ["zhurgut_10x10", "zhurgut_13x9"])
def test_the_default_backend_solves_the_largest_jigs(run_cli, name):
    """The default solver finds a layout of the largest jigs: glucose4, once jig's default, found none
    of these within 20 s (10x10: none in 14 minutes) where CaDiCaL takes about 1.5 s; 120 s leaves room
    for a loaded machine."""
    code, out, err = run_cli("solve", "jig", str(INSTANCES / "jig" / f"{name}.jig"), "--timeout", "120", "--json")
    assert code == 0 and json.loads(out)["checked"], err

def test_jig_rendering_reads_back():
    """Two-digit ids and signed sides stay separate fields: each cell's middle line reads back as
    left side, id/turns, right side, and the lines above and below as its top and bottom sides."""
    instance = load(JIG, str(INSTANCES / "jig" / "matt5x5.jig"))
    solution = JIG.reference(instance, 1, TilingOptions(break_symmetry=False))[0]
    lines = solution.render().splitlines()
    assert len(lines) == 3 * solution.rows
    for r in range(solution.rows):
        tops, middle, bottoms = (lines[3 * r + k].split() for k in range(3))
        for c in range(solution.cols):
            i = r * solution.cols + c
            t, right, b, left = solution.sides[i]
            assert middle[3 * c: 3 * c + 3] == [str(left), "{}/{}".format(*solution.placement[i]), str(right)]
            assert (tops[c], bottoms[c]) == (str(t), str(b))


TILE = "\n".join(["#.#", "...", "#.#"])
BAD_JIGSAW = {
    "ragged": ("Tile 1:\n#.#\n..\n#.#\n", ":3:1: row of length 2; tiles are 3 wide"),
    "duplicate": (f"Tile 1:\n{TILE}\n\nTile 1:\n{TILE}\n", "duplicate tile id 1"),
    "not-square": (f"Tile 1:\n{TILE}\n\nTile 2:\n{TILE}\n", "2 tiles is not a square number"),
    "unknown-char": ("Tile 1:\n#x#\n...\n#.#\n", ":2:2: unknown character 'x'"),
    "no-header": (f"{TILE}\n", ":1:1: expected a 'Tile ID:' header"),
    "empty": ("", "no tiles"),
}
BAD_JIG = {
    "short-line": ("1 1\n0 0 0 0\n", ":2:1: expected 5 fields 'ID TOP RIGHT BOTTOM LEFT', found 4"),
    "count": ("2 2\n0 0 0 0 0\n", "1 pieces for a 2x2 grid"),
    "not-int": ("1 1\n0 0 x 0 0\n", ":2:5: 'x' is not an integer"),
}


@pytest.mark.parametrize("puzzle,case", [("jigsaw", k) for k in BAD_JIGSAW] + [("jig", k) for k in BAD_JIG])
def test_bad_tiling_input(run_cli, tmp_path, puzzle, case):
    text, message = (BAD_JIGSAW if puzzle == "jigsaw" else BAD_JIG)[case]
    path = tmp_path / f"{case}.txt"
    path.write_text(text)
    code, out, err = run_cli("solve", puzzle, str(path))
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in out + err


def test_smt_encodings():
    report = solve(request(JIGSAW, "z3", "smt"), load(JIGSAW, str(AOC / "example.txt")))
    assert report.checked and report.answers == answers(str(AOC / "example")) | {"unique": True}
    instance = load(JIG, str(INSTANCES / "jig" / "matt5x5.jig"))
    assert count_solutions(request(JIG, "z3", "smt", break_symmetry=False), instance) == 8
    assert count_solutions(request(JIG, "z3", "smt", break_symmetry=True), instance) == 2


def test_crosscheck_compares_counts(run_cli):
    code, out, _ = run_cli("crosscheck", "jig", str(INSTANCES / "jig" / "zhurgut_5x5_0a7036e.jig"),
                           "--backends", "cadical,glucose,z3")
    assert code == 0 and "4 independent methods agree (7 runs)" in out and "solutions=12 up_to_rotation=3" in out


def test_crosscheck_limits_the_reference_too(run_cli):
    """zhurgut_10x10's reference takes over a minute even compiled, and glucose4 longer: under a limit of
    1 s both are TIMEOUT rows, the command ends in seconds (not minutes: room for a loaded machine), and
    having compared nothing it fails."""
    start = time.perf_counter()
    code, out, _ = run_cli("crosscheck", "jig", str(INSTANCES / "jig" / "zhurgut_10x10.jig"),
                           "--backends", "glucose", "--timeout", "1")
    assert time.perf_counter() - start < 30
    assert code == 1 and "NOTHING COMPARED: all 4 methods timed out or were skipped" in out
    assert out.splitlines()[2].split()[:2] == ["reference", "TIMEOUT"]


@pytest.mark.parametrize("ambiguity", [0, 15])
def test_generated_jigsaw_is_solved_back(run_cli, tmp_path, ambiguity):
    out = tmp_path / "tiles.txt"
    assert run_cli("generate", "jigsaw", "--size", "4", "--tile", "8", "--ambiguity", str(ambiguity),
                   "--seed", "5", "-o", str(out))[0] == 0
    instance = load(JIGSAW, str(out))
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=False), instance) == 8
    report = solve(request(JIGSAW, "cadical"), instance)
    assert report.checked
    assert [s.answers() | {"unique": True} for s in JIGSAW.reference(instance, 1)] == [report.answers]


def test_generators_refuse_what_they_cannot_make_in_one_line_that_says_why(run_cli):
    """Tiles of 3 cells share their borders (2 middle patterns for 24 edges): the advice was 'lower
    --ambiguity', which was already 0. A jig over the parser's 50 a side was refused as a file
    ('generated:2:1: grid 100x100 ...'); now --rows says it."""
    code, _, err = run_cli("generate", "jigsaw", "--size", "3", "--tile", "3")
    assert code == 2 and err.strip().endswith("--tile 3 gives 2 border patterns for 24 edges; --tile 7 or more gives "
                                              "each its own"), err
    code, _, err = run_cli("generate", "jig", "--rows", "100", "--cols", "3")
    assert code == 2 and "--rows" in err and "1<=x<=50" in err, err


@pytest.mark.parametrize("size,tile", [(4, 5), (4, 6), (5, 6)])
def test_corner_anchoring_loses_no_assembly(monkeypatch, size, tile):
    # tiny tiles make borders collide, so these puzzles often have several assemblies and their corners
    # are often proven only by patches (4x4 tiles of side 6: 25 of 40). Counted three ways: one per
    # symmetry class from the anchor, every image of the anchored domains, and with no anchor at all;
    # no assembly is its own mirror image (every tile is used once), so all = 8 x classes
    import random

    from puzzlesat.encoders.jigsaw.generate import scrambled
    from puzzlesat.encoders.jigsaw.instance import parse
    from puzzlesat.encoders.tiling import domains
    from puzzlesat.encoders.tiling.anchor import anchored_domains

    anchored = several = 0
    for seed in range(12):
        instance = parse(scrambled(size, tile, 0, random.Random(seed)), "generated")
        anchored += anchored_domains(JIGSAW.tiling_problem(instance)) is not None
        classes = count_solutions(request(JIGSAW, "cadical", break_symmetry=True), instance)
        images = count_solutions(request(JIGSAW, "cadical", break_symmetry=False), instance)
        with monkeypatch.context() as patched:
            patched.setattr(domains, "anchored_domains", lambda *args, **kwargs: None)
            unanchored = count_solutions(request(JIGSAW, "cadical", break_symmetry=False), instance)
        several += classes > 1
        assert images == unanchored == 8 * classes, seed
    assert anchored >= 4 and several >= 2  # both the anchored path and ambiguous puzzles were exercised


def test_anchoring_that_proves_nothing_gives_up_early():
    """A 4x4 jig of two tab types with a quarter of its inner edges flat: no corner is provable, and the
    4x4 patches examined 60 M joins and built a million patches (4.5-5.8 s of a 7 s count) before
    giving up (issue 36). Its budget, in proportion to the variants, gives up before building them;
    the count is unchanged."""
    from puzzlesat.encoders.jig.generate import generate
    from puzzlesat.encoders.tiling.anchor import anchoring

    jig = get_puzzle("jig")
    instance = jig.parse(generate(4, 4, 2, 14, 0.25), "generated")
    anchoring.cache_clear()
    start = time.process_time()
    assert anchoring(jig.tiling_problem(instance)) is None
    assert time.process_time() - start < 0.5  # 2 ms measured; the cliff was 5 s
    expected = (len(list(jig.reference_assemblies(instance))),) * 2
    counted = tuple(count_solutions(request(jig, "glucose4", break_symmetry=brk), instance) for brk in (False, True))
    assert (counted[0], counted[1] * 4) == expected


def test_generated_30x30_jigsaw_is_anchored_at_a_proven_corner():
    # 900 tiles of 10x10 whose borders repeat (511 classes, 3 of the 120 outer sides without a look-alike):
    # only patches prove the corners
    import random

    from puzzlesat.encoders.jigsaw.generate import scrambled
    from puzzlesat.encoders.jigsaw.instance import parse
    from puzzlesat.encoders.tiling.anchor import anchored_domains

    instance = parse(scrambled(30, 10, 0, random.Random(1)), "generated")
    domains = anchored_domains(JIGSAW.tiling_problem(instance))
    assert domains is not None and len(domains[0]) == 1
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=True), instance) == 1
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=False), instance) == 8  # every image of the anchored domains
    assert solve(request(JIGSAW, "cadical"), instance).checked


def test_the_largest_generated_jigsaw_is_anchored():
    """`generate jigsaw --size 60` (the generator's largest, default seed 0) ran out of 10 GB: anchoring
    gave up at its budget of 100 joins a variant (it needs 160-200 here), and the unpruned formula
    was built. Anchored, no cell keeps more than two placements (the solver settles the rest)."""
    import random

    from puzzlesat.encoders.jigsaw.generate import MAX_SIZE, scrambled
    from puzzlesat.encoders.jigsaw.instance import parse
    from puzzlesat.encoders.tiling.anchor import anchored_domains

    instance = parse(scrambled(MAX_SIZE, 10, 0, random.Random(0)), "generated")
    domains = anchored_domains(JIGSAW.tiling_problem(instance))
    assert domains is not None and max(len(cell) for cell in domains) <= 2


@pytest.mark.parametrize("rows,cols,types,seed", [(4, 4, 3, 1), (3, 5, 2, 2), (5, 5, 6, 3)])
def test_generated_jig_counts_agree_with_reference(run_cli, tmp_path, rows, cols, types, seed):
    out = tmp_path / "g.jig"
    assert run_cli("generate", "jig", "--rows", str(rows), "--cols", str(cols), "--types", str(types),
                   "--seed", str(seed), "-o", str(out))[0] == 0
    instance = load(JIG, str(out))
    total = count_solutions(request(JIG, "cadical", break_symmetry=False), instance)
    assert total >= (4 if rows == cols else 2)  # at least the layout it was cut from, in every rotation
    assert total == len(JIG.reference(instance, None, TilingOptions(break_symmetry=False)))
    classes = JIG.reference(instance, None, TilingOptions(break_symmetry=True))
    assert count_solutions(request(JIG, "cadical", break_symmetry=True), instance) == len(classes)
    assert count_solutions(request(JIG, "cadical"), instance) == total  # by default every solution counts


def test_a_generated_jig_has_enough_tab_types_by_default_to_be_counted(run_cli, tmp_path):
    """`generate jig` took 6 tab types whatever the size: a 10x10 of seed 1 took `count jig` 61 s on 2
    cores (past 120 s before session 31's search by classes), and larger grids longer still. The
    default now grows with the grid (``default_types``), so the default 10x10 is counted by the search
    with every layout checked; --types still sets any number."""
    out = tmp_path / "g.jig"
    assert run_cli("generate", "jig", "--rows", "10", "--cols", "10", "--seed", "1", "-o", str(out))[0] == 0
    assert out.read_text().startswith("# generated: puzzlesat generate jig --rows 10 --cols 10 --types 10 --seed 1\n")
    code, text, err = run_cli("count", "jig", str(out), "--json")
    assert code == 0, err
    report = json.loads(text)
    assert report["answers"]["solutions"] >= 4 and report["checked"] and report["complete"]
    few = tmp_path / "few.jig"
    assert run_cli("generate", "jig", "--rows", "10", "--cols", "10", "--types", "4", "--seed", "1", "-o", str(few))[0] == 0
    assert few.read_text().startswith("# generated: puzzlesat generate jig --rows 10 --cols 10 --types 4 --seed 1\n")


def test_png_of_the_assembled_image(run_cli, tmp_path):
    import struct

    out = tmp_path / "image.png"
    code, _, _ = run_cli("solve", "jigsaw", str(AOC / "example.txt"), "--png", str(out))
    data = out.read_bytes()
    assert code == 0 and data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    # 3 tiles of 10 cells, each followed by a grid line; below them the legend of the colours
    assert width % (3 * 11) == 0 and height > width


def test_rectangular_jigsaw_with_rows_and_cols(run_cli, tmp_path):
    example = load(JIGSAW, str(AOC / "example.txt"))
    assembled = solve(request(JIGSAW, "cadical"), example).solution
    # the top two rows of the assembled example, as a 2x3 puzzle
    blocks = [f"Tile {tid}:\n" + "\n".join(tile)
              for (tid, _), tile in zip(assembled.placement[:6], assembled.tiles[:6], strict=True)]
    path = tmp_path / "rect.txt"
    path.write_text("\n\n".join(reversed(blocks)) + "\n")
    code, _, err = run_cli("solve", "jigsaw", str(path))
    assert code == 2 and "6 tiles is not a square number" in err
    instance = load(JIGSAW, str(path), rows=2, cols=3)
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=False), instance) == 4  # 180-degree turn and two mirrors
    assert count_solutions(request(JIGSAW, "cadical", break_symmetry=True), instance) == 1
    code, out, _ = run_cli("count", "jigsaw", str(path), "--rows", "2", "--cols", "3", "--json")
    assert code == 0 and json.loads(out)["answers"] == {"solutions": 4, "up_to_symmetry": 1}
    code, _, err = run_cli("solve", "aquarium", str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"), "--rows", "2")
    assert code == 2 and "--rows does not apply to aquarium" in err


def test_count_refuses_an_impossible_backend_before_encoding(monkeypatch):
    """'ganak cannot list' is known from the options alone: no formula is built for it."""
    instance = load(JIG, str(INSTANCES / "jig" / "zhurgut_9x9.jig"))
    monkeypatch.setattr(JIG, "build", lambda *args, **kwargs: pytest.fail("encoded before refusing"))
    with pytest.raises(PuzzlesatError, match="ganak counts without enumerating"):
        count(request(JIG, "ganak"), instance, Stopwatch(), listing=True)


NON_SQUARE_JIG = """2 3
0 0 -3 2 0
1 0 -2 3 2
2 0 -2 -3 -2
3 -2 2 0 0
4 0 0 2 3
5 2 0 0 -2
"""


def test_non_square_jig_keeps_both_corner_orbits():
    """A 2x3 grid maps onto itself only by the half turn, so a corner piece has two orbits of corners
    ({top-left, bottom-right} and {top-right, bottom-left}); pinning it at the top-left lost every
    layout here (counted 0, brute force: 4 layouts, 2 up to rotation)."""
    instance = JIG.parse(NON_SQUARE_JIG, "2x3.jig")
    assert count_solutions(request(JIG, "cadical", break_symmetry=False), instance) == 4
    assert count_solutions(request(JIG, "cadical", break_symmetry=True), instance) == 2
    assert count_solutions(request(JIG, "z3", "smt", break_symmetry=True), instance) == 2


def test_flat_inner_edges_and_look_alike_turns_count_as_layouts(run_cli, tmp_path):
    """Flat sides fit flat sides inside the grid (docs/puzzles.md, section 2); a piece whose turns look alike
    counts once per look: four all-flat pieces in a 2x2 grid are 4! = 24 layouts, 6 up to rotation."""
    path = tmp_path / "flat.jig"
    path.write_text("2 2\n1 0 0 0 0\n2 0 0 0 0\n3 0 0 0 0\n4 0 0 0 0\n")
    code, out, err = run_cli("count", "jig", str(path))
    assert code == 0, err
    assert "solutions: 24 " in out and "up_to_rotation: 6 " in out


def test_too_few_flat_sides_is_no_solution(run_cli, tmp_path):
    """An odd number of flat sides is a puzzle without a solution, not a format error."""
    path = tmp_path / "odd.jig"
    path.write_text("1 2\n0 0 0 1 0\n1 0 -1 0 1\n")
    code, out, err = run_cli("solve", "jig", str(path))
    assert code == 1 and "UNSAT" in out


def test_crosscheck_of_a_jig_without_solution_says_unsat(run_cli, tmp_path):
    """A count of 0 is no solution: every row's status is UNSAT (it was SAT with solutions=0)."""
    path = tmp_path / "none.jig"
    path.write_text("1 2\n1 0 1 0 0\n2 0 0 0 1\n")
    code, out, _ = run_cli("crosscheck", "jig", str(path), "--backends", "cadical,z3")
    rows = out.splitlines()[2:-1]
    assert code == 0 and len(rows) == 6 and all(line.split()[-6] == "UNSAT" for line in rows)


def test_the_monster_search_finds_what_a_plain_scan_finds():
    """The bit-parallel search (all start columns of a row at once) against the cell-by-cell scan, on
    random pictures of every density, sizes below and above the monster's."""
    from puzzlesat.encoders.jigsaw.solution import MONSTER, MONSTER_CELLS, monster_corners

    def plain(picture):
        return sorted((r, c) for r in range(len(picture) - len(MONSTER) + 1)
                      for c in range(len(picture[0]) - len(MONSTER[0]) + 1)
                      if all(picture[r + dr][c + dc] == "#" for dr, dc in MONSTER_CELLS))

    rng = random.Random(23)
    for _ in range(300):
        height, width, density = rng.randint(1, 30), rng.randint(1, 45), rng.choice([0.5, 0.8, 0.95, 1.0])
        picture = tuple("".join("#" if rng.random() < density else "." for _ in range(width)) for _ in range(height))
        assert sorted(monster_corners(picture)) == plain(picture)


def test_the_eight_orientations_borders_at_once_are_those_of_each_turned_grid():
    from puzzlesat.encoders.jigsaw.grids import orient, oriented_borders

    def borders(grid):
        return grid[0], "".join(row[-1] for row in grid), grid[-1], "".join(row[0] for row in grid)

    rng = random.Random(5)
    for _ in range(200):
        height, width = rng.randint(1, 6), rng.randint(1, 6)
        grid = tuple("".join(rng.choice("ab#.") for _ in range(width)) for _ in range(height))
        assert oriented_borders(grid) == [borders(orient(grid, o)) for o in range(8)], grid


def test_jigsaw_variants_found_by_borders_are_those_of_every_turned_grid():
    """tiles.tiling_problem compares whole turned grids only where borders repeat: on tiles that are
    their own mirror images or turns, and tiles whose borders repeat while their insides do not, the
    variants must be those that comparing all 8 turned grids gives."""
    from puzzlesat.encoders.jigsaw.grids import orient
    from puzzlesat.encoders.jigsaw.instance import JigsawInstance
    from puzzlesat.encoders.jigsaw.tiles import tiling_problem

    def by_turned_grids(tiles):
        seen, variants = set(), []
        for piece, tile in enumerate(tiles):
            for o in range(8):
                if (piece, orient(tile, o)) not in seen:
                    seen.add((piece, orient(tile, o)))
                    variants.append((piece, o))
        return variants

    rng = random.Random(11)
    symmetric = ("#..#", ".##.", ".##.", "#..#")  # all 8 orientations alike
    mirror = ("#...", "#.##", "#.##", "#...")  # its own top-bottom mirror image
    same_look = ("####", "#..#", "#..#", "####")  # turned or not, the same borders and the same look
    inside_differs = ("####", "##.#", "#..#", "####")  # the same borders every way, the inside not
    for _ in range(60):
        tiles = [rng.choice([symmetric, mirror, same_look, inside_differs,
                             tuple("".join(rng.choice("#.") for _ in range(4)) for _ in range(4))]) for _ in range(4)]
        instance = JigsawInstance(tuple(range(1, 5)), tuple(tiles), 2, 2, "t")
        problem = tiling_problem(instance)
        assert [(v.piece, v.orientation) for v in problem.variants] == by_turned_grids(tiles), tiles


@pytest.mark.parametrize("size,seed", [(3, 1), (5, 2), (8, 3), (12, 4), (50, 1)])
def test_generated_pictures_show_monsters_in_one_orientation(size, seed):
    """docs/puzzles.md: the answer counts "in the orientation in which monsters appear", so a generated
    picture must not show a stray monster in a second orientation. At 50 x 50 tiles (400 x 400 cells)
    drawing the picture again until none showed never ended; stray monsters are now wiped out."""
    import random as _random

    from puzzlesat.encoders.jigsaw.generate import _picture
    from puzzlesat.encoders.jigsaw.grids import orient
    from puzzlesat.encoders.jigsaw.solution import monster_corners

    rows = call_with_timeout(lambda: _picture(size * 8, _random.Random(seed)), Deadline.after(30), "generator")
    lines = tuple("".join(row) for row in rows)
    with_monsters = [o for o in range(8) if monster_corners(orient(lines, o))]
    assert with_monsters in ([], [0]) and (size * 8 < 20 or with_monsters == [0])
    # every planted monster is still there: as many as were planted, at least
    assert size * 8 < 20 or len(monster_corners(lines)) >= (size * 8) ** 2 // 400 // 2


@pytest.mark.parametrize("name", ["matt5x5", "zhurgut_4x4", "zhurgut_5x5_0a7036e", "zhurgut_6x4"])
def test_exact_cover_counts_the_bundled_jigs(name):
    """JigChecker's approach (Algorithm X, coloured edges), square and not, with classes through
    stabilisers, against the counts the instances come with."""
    from puzzlesat.encoders.jig.cover_counting import count_layouts

    jig = get_puzzle("jig")
    instance = load(jig, str(INSTANCES / "jig" / f"{name}.jig"))
    expected = tuple(int(n) for n in (INSTANCES / "jig" / f"{name}.expected").read_text().split())
    assert (count_layouts(instance), count_layouts(instance, up_to_rotation=True)) == expected


def test_the_jigsaw_checker_takes_each_of_the_eight_orientations_and_nothing_else():
    """The checker's own rotation code: a 1x1 assembly holding its one tile turned and mirrored each of
    the 8 ways passes; the tile with two rows swapped (no rotation or mirror image of it) fails."""
    from puzzlesat.encoders.jigsaw.check import check
    from puzzlesat.encoders.jigsaw.grids import orient
    from puzzlesat.encoders.jigsaw.instance import JigsawInstance
    from puzzlesat.encoders.jigsaw.solution import JigsawSolution

    tile = ("#..#", "##..", "...#", ".#..")
    instance = JigsawInstance((7,), (tile,), 1, 1, "t")
    for o in range(8):
        assert check(instance, JigsawSolution(1, 1, ((7, o),), (orient(tile, o),))) == []
    swapped = (tile[1], tile[0], tile[2], tile[3])
    assert check(instance, JigsawSolution(1, 1, ((7, 0),), (swapped,))) == [
        "cell (0, 0): tile 7 is not a rotation/flip of itself"]
