"""Aquarium as puzz.link shares it (issue 48): URLs read and written as pzprjs does (its own test vectors
and cspuz_core's), every bundled puzzle round-tripped through a URL, malformed URLs refused in one line,
and on 1,000 random small rectangles per rule (walls inside rooms, missing clues) both rules held to brute
force: the CNF and SMT encodings, the checker and the reference each agree with an enumeration of every
filling."""
from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest

from puzzlesat.core.errors import PuzzleFormatError
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.aquarium.instance import AquariumInstance
from puzzlesat.encoders.aquarium.solution import AquariumSolution
from puzzlesat.encoders.aquarium.url import _rooms, parse_url, to_url
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.tasks import count

from .conftest import INSTANCES

AQUARIUM = get_puzzle("aquarium")

#: (URL, every solution): pzprjs's test/script/aquarium.js (its solved board) and cspuz_core's
#: aquarium.rs tests (the second has several solutions; its forced cells are checked below)
VECTORS = [
    ("https://puzz.link/p?aquarium/4/4/bu8i90/i3213g", [("..##", "..#.", "#.##", "####")]),
    ("https://puzz.link/p?aquarium/5/4/9lqgfk4/3h12h13", [("#####", "#....", "..#..", "##..#")]),
]


@pytest.mark.parametrize("url,expected", VECTORS)
def test_the_published_vectors_are_read_solved_and_written_back(url, expected):
    instance = parse_url(url, "u")
    assert to_url(instance) == url
    found = count(request(AQUARIUM, "glucose4"), instance, listing=True)
    assert sorted(tuple(s.lines()) for s in found.solutions) == expected


def test_cspuz_region_rule_vector_forces_what_cspuz_says():
    """cspuz_core: 'r/5/4/17qgela/l24g' (region rule, rows 2 and 3 clued) leaves rows 1 and 4 open;
    row 2 is '#...#' and row 3 has water in columns 2 and 4 in every solution."""
    url = "https://puzz.link/p?aquarium/r/5/4/17qgela/l24g"
    instance = parse_url(url, "u")
    assert instance.region_rule and instance.cols == (None,) * 5 and instance.rows == (None, 2, 4, None)
    assert to_url(instance) == url
    grids = [s.lines() for s in AQUARIUM.reference(instance, None)]
    assert len(grids) == 12 and all(g[1] == "#...#" and g[2][1] == g[2][3] == "#" for g in grids)
    assert len({g[0] for g in grids}) == 2 and len({g[3] for g in grids}) > 1


@pytest.mark.parametrize("path", sorted((INSTANCES / "aquarium").glob("*.txt")), ids=lambda p: p.stem)
def test_every_bundled_aquarium_round_trips_through_a_url(path):
    instance = AQUARIUM.parse(path.read_text(), str(path))
    url = to_url(instance)
    again = parse_url(url, "u")
    assert to_url(again) == url and again.region_rule
    assert (again.cols, again.rows, again.wall_set) == (instance.cols, instance.rows, instance.wall_set)
    assert again.task_string() == instance.task_string() or _same_partition(again.regions, instance.regions)


def _same_partition(a, b) -> bool:
    pairs = {(x, y) for line_a, line_b in zip(a, b) for x, y in zip(line_a, line_b)}
    return len({x for x, _ in pairs}) == len({y for _, y in pairs}) == len(pairs)


@pytest.mark.parametrize("url,where,message", [
    ("https://puzz.link/p?aquarium/4/4/bu8i90", 39, "ends early"),
    ("https://puzz.link/p?aquarium/0/4/bu8i90/i3213g", 30, "COLS '0'"),
    ("https://puzz.link/p?aquarium/4/4/bu8i9/i3213g", 34, "5 border characters"),
    ("https://puzz.link/p?aquarium/4/4/bu8i9!/i3213g", 39, "'!' is not a border"),
    ("https://puzz.link/p?aquarium/4/4/bu8i90/i32!3g", 44, "'!' is not a clue"),
    ("https://puzz.link/p?aquarium/4/4/bu8i90/i3213", 46, "7 clues"),
    ("https://puzz.link/p?aquarium/4/4/bu8i90/i3213gg", 47, "after the last"),
    ("https://puzz.link/p?aquarium/4/4/bu8i90/i9213g", 42, "clue 9 is more than its 4 cells"),
    ("https://puzz.link/p?nurikabe/4/4/bu8i90/i3213g", 21, "not of an aquarium"),
])
def test_a_malformed_url_is_refused_in_one_line_naming_where(run_cli, url, where, message):
    with pytest.raises(PuzzleFormatError) as refused:
        parse_url(url, "the URL")
    assert refused.value.col == where and message in str(refused.value)
    code, out, err = run_cli("solve", "aquarium", url)
    assert code != 0 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_other_hosts_and_a_url_in_a_file(run_cli, tmp_path):
    for host in ("http://pzv.jp/p.html?", "https://puzz.link/p?", "puzz.link/p?"):
        assert to_url(parse_url(host + "aquarium/4/4/bu8i90/i3213g", "u")) == VECTORS[0][0]
    path = tmp_path / "p.txt"
    path.write_text(VECTORS[0][0] + "\n")
    code, out, _ = run_cli("solve", "aquarium", str(path), "--json")
    assert code == 0 and json.loads(out)["answers"]["grid"] == list(VECTORS[0][1][0])


# --- brute force on random small rectangles ------------------------------------------------------------

def random_instance(rng: random.Random, region_rule: bool) -> AquariumInstance:
    """Up to 12 cells, walls at random (so rooms of any shape, U's and walls inside a room), clues from
    a random filling or at random, some of them missing."""
    height, width = rng.randint(1, 4), rng.randint(1, 4)
    while height * width > 12:
        width -= 1
    pairs = [((r, c), (r, c + 1)) for r in range(height) for c in range(width - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(height - 1) for c in range(width)]
    walls = frozenset(pair for pair in pairs if rng.random() < 0.45)
    regions = _rooms(walls, width, height)
    grid = [[rng.random() < 0.5 for _ in range(width)] for _ in range(height)]

    def clue(actual: int, side: int) -> int | None:
        return None if rng.random() < 0.25 else actual if rng.random() < 0.8 else rng.randint(0, side)

    cols = tuple(clue(sum(grid[r][c] for r in range(height)), height) for c in range(width))
    rows = tuple(clue(sum(grid[r]), width) for r in range(height))
    return AquariumInstance(height, width, cols, rows, regions, walls, region_rule, "random")


def brute_force(instance: AquariumInstance) -> list[tuple[str, ...]]:
    """Every filling that keeps the counts and the rule, the rule stated as cspuz_core states it: water
    in a cell means water in every cell it reaches through open edges without going above its row
    (physics), or in every cell of its region not above it (regions)."""
    height, width = instance.height, instance.width
    cells = [(r, c) for r in range(height) for c in range(width)]

    def opened(a, b):
        return (min(a, b), max(a, b)) not in instance.wall_set

    def reached(start):
        seen, stack = {start}, [start]
        while stack:
            y, x = stack.pop()
            for other in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if other in cells and other[0] >= start[0] and other not in seen and opened((y, x), other):
                    seen.add(other)
                    stack.append(other)
        return seen

    needs = {cell: (reached(cell) if not instance.region_rule else
                    {o for o in cells if instance.regions[o[0]][o[1]] == instance.regions[cell[0]][cell[1]]
                     and o[0] >= cell[0]}) for cell in cells}
    found = []
    for bits in itertools.product((False, True), repeat=len(cells)):
        wet = {cell for cell, bit in zip(cells, bits) if bit}
        if any(instance.rows[r] is not None and sum((r, c) in wet for c in range(width)) != instance.rows[r]
               for r in range(height)) or any(
                instance.cols[c] is not None and sum((r, c) in wet for r in range(height)) != instance.cols[c]
                for c in range(width)):
            continue
        if all(needs[cell] <= wet for cell in wet):
            found.append(tuple("".join("#" if (r, c) in wet else "." for c in range(width)) for r in range(height)))
    return sorted(found)


@pytest.mark.parametrize("region_rule", [False, True], ids=["physics", "regions"])
def test_both_rules_agree_with_brute_force_on_random_rectangles(region_rule):
    rng = random.Random(48 + region_rule)
    for case in range(1000):  # the SMT encoding on every fourth (Z3's enumeration is the slow part)
        instance = random_instance(rng, region_rule)
        expected = brute_force(instance)
        for backend, kind in (("glucose4", "cnf"), ("z3", "smt"))[:1 if case % 4 else 2]:
            found = count(request(AQUARIUM, backend, encoding=kind), instance, listing=True)
            assert sorted(tuple(s.lines()) for s in found.solutions) == expected, (case, backend, to_url(instance))
        assert sorted(tuple(s.lines()) for s in AQUARIUM.reference(instance, None)) == expected, (case, to_url(instance))
        for bits in itertools.product((False, True), repeat=instance.height * instance.width) if case < 60 else ():
            lines = ["".join("#" if bits[r * instance.width + c] else "." for c in range(instance.width))
                     for r in range(instance.height)]  # the checker passes exactly the brute force's fillings
            verdict = not AQUARIUM.check(instance, AquariumSolution.from_lines(lines))
            assert verdict == (tuple(lines) in expected), (case, lines, to_url(instance))


@pytest.mark.parametrize("name", ["ext-newtomsoft-10x10", "pa-10x10-hard-8977124", "pa-15x15-hard-6467736",
                                  "pa-15x15-hard-2243092", "open-5x5"])
def test_the_physics_reference_on_large_grids(name):
    """The physics reference on grids far past brute force (it tried every filling up to 20 cells and
    refused larger ones): every solution, the same as the CNF encoding lists; bundled puzzles read under
    physics (one has 34 solutions so), and a 5x5 room with no clue (one per water level: 6)."""
    if name == "open-5x5":
        instance = AquariumInstance(5, 5, (None,) * 5, (None,) * 5, ((1,) * 5,) * 5, frozenset(), False, "open")
    else:
        instance = replace(AQUARIUM.parse((INSTANCES / "aquarium" / f"{name}.txt").read_text(), name), region_rule=False)
    expected = count(request(AQUARIUM, "cadical195"), instance, listing=True)
    assert sorted(s.lines() for s in AQUARIUM.reference(instance, None)) == sorted(s.lines() for s in expected.solutions)
    assert name != "open-5x5" or len(expected.solutions) == 6


def test_pzprjs_board_that_only_physics_allows(run_cli):
    """pzprjs's test board of 4 columns and 3 rows: water in rows 2-3 of columns 3-4 stands under physics
    (a wall parts it from the empty left column) and breaks the region rule (the room reaches row 2 of
    column 1, which is dry). ``--rule`` sets the rule over the URL's."""
    walls = frozenset({((1, 0), (1, 1)), ((1, 1), (1, 2)), ((2, 0), (2, 1)), ((2, 1), (2, 2)), ((0, 1), (1, 1))})
    physics = AquariumInstance(3, 4, (None,) * 4, (None,) * 3, _rooms(walls, 4, 3), walls, False, "board")
    water = AquariumSolution.from_lines(["....", "..##", "..##"])
    assert AQUARIUM.check(physics, water) == []
    regions = parse_url(to_url(physics).replace("aquarium/", "aquarium/r/"), "u")
    assert AQUARIUM.check(regions, water) != []
    url = to_url(physics)
    assert run_cli("count", "aquarium", url)[1] != run_cli("count", "aquarium", url, "--rule", "region")[1]
    code, out, _ = run_cli("count", "aquarium", url, "--rule", "physics", "--json")
    assert code == 0 and json.loads(out)["answers"]["solutions"] == len(brute_force(physics))


@pytest.mark.parametrize("region_rule", [False, True], ids=["physics", "regions"])
def test_forced_cells_are_what_every_brute_force_solution_shares(region_rule):
    """``solve --forced`` on random rectangles (both rules, clues missing): '#' or '.' exactly where every
    solution brute force finds agrees, '?' elsewhere; a unique puzzle's is its solution."""
    import puzzlesat

    rng = random.Random(4800 + region_rule)
    tried = 0
    while tried < 150:
        instance = random_instance(rng, region_rule)
        expected = brute_force(instance)
        if not expected:
            continue
        tried += 1
        report = puzzlesat.solve("aquarium", instance, backend=rng.choice(["glucose4", "cadical195"]), forced=True)
        shared = ["".join(column[0] if len(set(column)) == 1 else "?" for column in zip(*rows))
                  for rows in zip(*expected)]
        assert report.forced.lines() == shared, (to_url(instance), expected)
        if len(expected) == 1:
            assert report.answers["unique"] and report.forced.lines() == report.solution.lines()


def test_forced_on_the_command_line_json_and_refusals(run_cli):
    from .test_schemas import valid

    url = "https://puzz.link/p?aquarium/r/5/4/17qgela/l24g"
    code, out, _ = run_cli("solve", "aquarium", url, "--forced", "--json")
    report = valid(json.loads(out))
    assert code == 0 and report["forced"] == {"grid": ["?????", "#...#", "?#?#?", "?????"], "forced": 7, "cells": 20}
    code, out, _ = run_cli("solve", "aquarium", url, "--forced")
    assert "forced in every solution: 7 of 20 cells" in out and "? # ? # ?" in out
    code, out, _ = run_cli("solve", "aquarium", url, "--forced", "--certify", "--json")
    report = valid(json.loads(out))  # the UNSAT answer that fixes the forced cells, its proof checked
    assert code == 0 and report["certified"] == {"forced": True} and report["forced"]["forced"] == 7
    code, out, _ = run_cli("solve", "aquarium", VECTORS[1][0], "--forced", "--certify", "--json")
    report = valid(json.loads(out))  # unique: the uniqueness proof fixes every cell
    assert code == 0 and report["certified"] == {"unique": True} and report["forced"]["forced"] == 20
    for refused in (["dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), "--forced"],
                    ["aquarium", url, "--forced", "--encoding", "smt"]):
        code, out, err = run_cli("solve", *refused)
        assert code == 2 and out == "" and "--forced" in err and len(err.strip().splitlines()) == 1


def test_export_and_generate_write_the_url_that_reads_back(run_cli, tmp_path):
    path = INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"
    written = tmp_path / "url.txt"
    assert run_cli("export", "aquarium", str(path), "--format", "url", "-o", str(written))[0] == 0
    url = written.read_text()
    assert url.startswith("https://puzz.link/p?aquarium/r/6/6/") and url.endswith("\n")
    by_file = json.loads(run_cli("solve", "aquarium", str(path), "--json")[1])
    by_url = json.loads(run_cli("solve", "aquarium", url.strip(), "--json")[1])
    assert by_url["answers"] == by_file["answers"] and by_url["source"] == url.strip()
    assert run_cli("export", "aquarium", url.strip(), "--format", "task", "-o", str(written))[0] == 0
    assert written.read_text() == path.read_text()
    generated, plain = tmp_path / "g-url.txt", tmp_path / "g.txt"
    assert run_cli("generate", "aquarium", "--size", "5", "--seed", "2", "--format", "url", "-o", str(generated))[0] == 0
    assert run_cli("generate", "aquarium", "--size", "5", "--seed", "2", "-o", str(plain))[0] == 0
    assert generated.read_text().strip() == to_url(AQUARIUM.parse(plain.read_text(), "g"))
    code, out, err = run_cli("export", "dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), "--format", "url",
                             "-o", str(written))
    assert code == 2 and out == "" and "'url' is not one of" in err


@pytest.mark.parametrize("rule", ["physics", "region"])
def test_a_url_exported_goes_through_an_outside_solver_and_decodes(run_cli, tmp_path, rule):
    """export a URL puzzle (either rule) as DIMACS, solve it with the cadical binary, decode the model:
    the checked solution the solver found."""
    from .test_round_trip import run, tool

    url = VECTORS[1][0] if rule == "physics" else "https://puzz.link/p?aquarium/r/5/4/17qgela/l24g"
    cnf = tmp_path / "u.cnf"
    assert run_cli("export", "aquarium", url, "-o", str(cnf))[0] == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(run(tool("cadical"), "-q", str(cnf)))
    code, out, err = run_cli("decode", "aquarium", url, "--model", str(answer), "--map", f"{cnf}.vars.json", "--json")
    assert code == 0, err
    report = json.loads(out)
    grid = tuple(report["answers"]["grid"])
    assert report["checked"] and grid in brute_force(parse_url(url, "u"))


def test_generate_hides_clues_and_the_puzzle_stays_unique(tmp_path, run_cli):
    """``generate aquarium --hide K``: up to K clues taken away, each only where the solver still proves the
    solution unique; brute force agrees on the small ones."""
    import puzzlesat
    from puzzlesat.encoders.aquarium.generate import generate

    for seed in range(12):
        url = generate(3 if seed % 2 else 4, seed, None, hide=4).strip()
        instance = parse_url(url, "g")
        assert 0 < sum(count is None for count in instance.cols + instance.rows) <= 4, url
        assert len(brute_force(instance)) == 1, url
        assert puzzlesat.solve("aquarium", instance).answers["unique"]
    out = tmp_path / "sparse.txt"
    assert run_cli("generate", "aquarium", "--size", "6", "--hide", "5", "--seed", "3", "-o", str(out))[0] == 0
    assert out.read_text().startswith("https://puzz.link/p?aquarium/r/6/6/")


def test_generate_makes_rectangles_with_one_solution(tmp_path, run_cli):
    """``generate aquarium --size R --cols C``: R rows of C cells, unique by brute force (small ones) and by
    the solver; a square grid's output is the task string as before."""
    import puzzlesat
    from puzzlesat.encoders.aquarium.generate import generate

    for seed, (rows, cols) in enumerate([(2, 3), (3, 2), (2, 5), (3, 4), (4, 3), (2, 6)]):
        instance = parse_url(generate(rows, seed, None, cols=cols).strip(), "g")
        assert (instance.height, instance.width) == (rows, cols) and len(brute_force(instance)) == 1
    wide = parse_url(generate(8, 1, None, cols=12).strip(), "g")
    assert puzzlesat.solve("aquarium", wide).answers["unique"]
    out = tmp_path / "sq.txt"
    assert run_cli("generate", "aquarium", "--size", "5", "--cols", "5", "--seed", "1", "-o", str(out))[0] == 0
    assert ";" in out.read_text()  # square: puzzle-aquarium.com's task string


def test_bench_reads_url_files(run_cli, tmp_path):
    """``bench`` over a folder of URL files (one per file, both rules): every run answers SAT."""
    folder = tmp_path / "urls"
    folder.mkdir()
    (folder / "physics.txt").write_text(VECTORS[0][0] + "\n")
    (folder / "regions.txt").write_text("https://puzz.link/p?aquarium/r/5/4/17qgela/l24g\n")
    code, _, err = run_cli("bench", "--puzzle", "aquarium", "--instances", str(folder), "--repeat", "1",
                           "--out", str(tmp_path / "out"))
    samples = json.loads((tmp_path / "out" / "bench.json").read_text())["samples"]
    assert code == 0 and len(samples) == 4 and {s["status"] for s in samples} == {"SAT"}, err
