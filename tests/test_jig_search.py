"""The jig's reference search and its exact cover, plain and compiled, against brute force
(``tests/brute/tiling.py``) and against each other: the same layouts in the same order, parts that add
up to the whole, both counts (classes by orbits, or by stabilisers), every layout checked when ``count``
races the search. ``PUZZLESAT_SEARCH_CASES``
sets the number of random cases (CI: 1,000; the seeds are fixed, so a failure names its case)."""
from __future__ import annotations

import json
import os
import pickle
import random
import re
import subprocess
import sys

import pytest

from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.jig import counting
from puzzlesat.encoders.jig.compiled import SearchPart, Tables, fits, narrowest_tables
from puzzlesat.encoders.jig.compiled_cover import jig_links
from puzzlesat.encoders.jig.cover_counting import cover_counts
from puzzlesat.encoders.jig.generate import generate
from puzzlesat.encoders.jig.memo_counting import memo_counts
from puzzlesat.encoders.jig.reference import layouts, put_first, representatives, search_plan
from puzzlesat.encoders.tiling.options import TilingOptions

from .brute import tiling
from .conftest import INSTANCES
from .test_brute_force import JIG_SHAPES

CASES = int(os.environ.get("PUZZLESAT_SEARCH_CASES", "1000"))
CHUNKS = 4
#: larger than brute force can take: the plain search is the yardstick of the compiled one there
#: (exhaustive in Python within a second or so even when all pieces are alike: 9! layouts of a 3x3)
LARGER_SHAPES = [(3, 3), (2, 4), (4, 2), (1, 7), (7, 1), (1, 8)]


def seen(instance, layout) -> tuple:
    """A layout as brute force writes it: (piece id, sides as placed) per cell."""
    return tuple((instance.ids[p], tiling.turn_sides(instance.pieces[p], t)) for p, t in layout)


@pytest.mark.parametrize("part", range(CHUNKS))
def test_every_search_against_brute_force(part):
    puzzle = get_puzzle("jig")
    size = -(-CASES // CHUNKS)
    for seed in range(50_000 + part * size, 50_000 + min(CASES, (part + 1) * size)):
        rng = random.Random(seed)
        rows, cols = rng.choice(JIG_SHAPES)
        text = tiling.random_jig(rng, rows, cols)
        expected = tiling.jig_brute(text)
        instance = puzzle.parse(text, f"seed-{seed}")
        plain = list(layouts(instance))
        assert {seen(instance, layout) for layout in plain} == tiling.jig_layouts(text), f"seed {seed}\n{text}"
        assert len(plain) == len({tuple(layout) for layout in plain}), f"seed {seed}\n{text}"  # each once
        # the search's symmetry breaking: exactly one representative per class (reference's docstring),
        # whichever piece comes first in the piece order (a corner piece or not), plain and compiled
        assert len(list(representatives(instance))) == expected[1], f"seed {seed}\n{text}"
        reordered = put_first(search_plan(instance), rng.randrange(rows * cols))
        assert len(list(representatives(instance, reordered))) == expected[1], f"seed {seed}\n{text}"
        plain_reordered = list(layouts(instance, reordered))
        assert sorted(plain_reordered) == sorted(plain), f"seed {seed} first {reordered.rank.index(0)}\n{text}"
        assert list(Tables(instance, reordered).layouts()) == plain_reordered, f"seed {seed}\n{text}"
        assert narrowest_tables(instance).count()[0] == len(plain), f"seed {seed}\n{text}"
        compiled = Tables(instance)
        assert list(compiled.layouts(batch=rng.choice((1, 2, 4096)))) == plain, f"seed {seed}\n{text}"
        parts = rng.randint(2, 5)
        assert sum(compiled.count(k, parts)[0] for k in range(parts)) == len(plain), f"seed {seed}\n{text}"
        # dealt at any depth, the parts find every layout exactly once (the depth Tables.split_depth picks
        # is one of these)
        split = rng.randint(0, rows * cols - 1)
        dealt_layouts = [tuple(layout) for k in range(parts) for layout in compiled.count(k, parts, len(plain), split)[1]]
        assert sorted(dealt_layouts) == sorted(tuple(layout) for layout in plain), f"seed {seed} split {split}\n{text}"
        # pickled as for a Dask worker (the instance and the first piece; the tables built again there),
        # parts of any piece order find the same layouts
        chosen = Tables(instance, reordered)
        sent = [pickle.loads(pickle.dumps(SearchPart(chosen, k, parts, len(plain), split))) for k in range(parts)]
        assert [part.tables.plan.rank for part in sent] == [reordered.rank] * parts, f"seed {seed}\n{text}"
        moved_layouts = [tuple(layout) for part in sent for layout in part()[1]]
        assert sorted(moved_layouts) == sorted(tuple(layout) for layout in plain), f"seed {seed} split {split}\n{text}"
        for plain_seconds in (0, 60):
            counted = counting.reference_counts(instance, keep=rng.choice((0, 1, 10_000)), workers=1,
                                                plain_seconds=plain_seconds)
            assert (counted.layouts, counted.classes) == expected, f"seed {seed}\n{text}"
        assert tuple(puzzle.search_count(instance)[0].values()) == expected, f"seed {seed}\n{text}"
        # the count over the pieces left (alike pieces counted together, nothing listed)
        assert memo_counts(instance) == expected, f"seed {seed}\n{text}"
        assert memo_counts(instance, max_states=1) in (None, expected), f"seed {seed}\n{text}"
        # the exact cover, in Python and compiled (whole, and dealt among parts)
        for plain_seconds in (0, 60):
            assert cover_counts(instance, 1, plain_seconds) == expected, f"seed {seed}\n{text}"
        links = jig_links(instance)
        dealt = [links.count(k, parts) for k in range(parts)]
        assert sum(n for n, _ in dealt) == expected[0], f"seed {seed}\n{text}"
        assert sum(f for _, f in dealt) == expected[1] * links.turned.shape[0], f"seed {seed}\n{text}"


@pytest.mark.parametrize("part", range(CHUNKS))
def test_compiled_search_finds_what_the_plain_one_finds(part):
    """Past brute force's reach: the same layouts in the same order on larger random jigs, and as many
    by the compiled exact cover."""
    puzzle = get_puzzle("jig")
    for seed in range(60_000 + part * 8, 60_000 + (part + 1) * 8):
        rng = random.Random(seed)
        rows, cols = rng.choice(LARGER_SHAPES)
        text = tiling.random_jig(rng, rows, cols)
        instance = puzzle.parse(text, f"seed-{seed}")
        plain = list(layouts(instance))
        assert list(Tables(instance).layouts()) == plain, f"seed {seed}\n{text}"
        assert cover_counts(instance, 1, 0)[0] == len(plain), f"seed {seed}\n{text}"
        assert memo_counts(instance) in (None, (len(plain), cover_counts(instance, 1, 0)[1])), f"seed {seed}\n{text}"


@pytest.mark.parametrize("name", ["matt5x5", "zhurgut_6x6", "zhurgut_12x5", "zhurgut_9x9"])
def test_compiled_counts_on_every_core_match_the_bundled_answers(name):
    puzzle = get_puzzle("jig")
    instance = puzzle.parse((INSTANCES / "jig" / f"{name}.jig").read_text(), name)
    expected = tuple(int(v) for v in (INSTANCES / "jig" / f"{name}.expected").read_text().split())
    counted = counting.reference_counts(instance, workers=2, plain_seconds=0)
    assert (counted.layouts, counted.classes) == expected and counted.method == "compiled search on 2 cores"
    assert counted.complete and all(not puzzle.check(instance, puzzle.solution_from(instance, layout))
                                    for layout in counted.found)
    assert tuple(puzzle.reference_counts(instance, TilingOptions()).values()) == expected


@pytest.mark.parametrize(("jig", "fastest"), [("zhurgut_9x9", 72), ((8, 8, 4, 1), 40), ((8, 8, 4, 2), 34)])
def test_the_compiled_search_puts_first_the_corner_piece_measured_fastest(jig, fastest):
    """Which corner piece the search puts first sets its tree's size (docs/design-notes, session 32:
    zhurgut_9x9's four orders took 0.22 / 0.14 / 0.05 / 0.11 s; the generated 8x8s of four types, whose
    first line is narrow, 54 / 76 / 93 / 42 s and 89 / 33 / 142 s). :func:`narrowest_tables` picks the
    fastest by the tree's width after one line, or, where that is narrow, two."""
    puzzle = get_puzzle("jig")
    text = (INSTANCES / "jig" / f"{jig}.jig").read_text() if isinstance(jig, str) else generate(*jig)
    chosen = narrowest_tables(puzzle.parse(text, str(jig))).plan.rank
    assert chosen.index(0) == fastest


def test_a_search_past_the_table_limit_stays_plain(monkeypatch):
    """Thousands of distinct tab types would make the compiled search's table too large: the plain
    search counts them, and says so."""
    import puzzlesat.encoders.jig.compiled as compiled

    puzzle = get_puzzle("jig")
    instance = puzzle.parse((INSTANCES / "jig" / "matt5x5.jig").read_text(), "matt5x5")
    monkeypatch.setattr(compiled, "MAX_TABLE", 10)
    assert not fits(instance)
    counted = counting.reference_counts(instance, plain_seconds=0)
    assert (counted.layouts, counted.classes, counted.method) == (8, 2, "plain search")


def test_the_race_says_who_answered(run_cli):
    """`count` with no backend named races enumeration against the jig's own search; either answers the
    same checked counts and says which it was (the search plain or compiled, and on how many cores, by
    the machine's pace: a quiet fast one ends 12x7 plain in 0.23 s). With a backend named, that backend
    counts alone."""
    jig = str(INSTANCES / "jig" / "zhurgut_12x7.jig")
    code, out, _ = run_cli("count", "jig", jig)
    assert code == 0 and out.startswith("solutions: 4 (every one checked;") and "up_to_rotation: 2" in out
    assert re.search(r"by the solver-free (plain search|compiled search on \d+ cores?), the first to finish of 2 "
                     r"raced", out) or "the last search was UNSAT" in out, out
    # most jigs are counted by the plain search within its first 50 ms: no race is started for them
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--json")
    # no solver answered, so none is named (it said the count backend, glucose4, that never ran)
    assert code == 0 and (json.loads(out)["method"], json.loads(out)["backend"]) == ("plain search", "none")
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "-b", "glucose4")
    assert code == 0 and "solutions: 8 (every one checked; the last search was UNSAT)" in out


def test_without_numba_every_jig_is_still_counted(tmp_path):
    """Where numba cannot be imported: the search stays plain, and says so."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['numba'] = None\n")  # an import of numba fails
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", (
        "from puzzlesat.encoders.jig import counting\n"
        "from puzzlesat.core.compiled import compiled_available\n"
        "from puzzlesat.encoders.jig.instance import parse\n"
        f"instance = parse(open({str(INSTANCES / 'jig' / 'zhurgut_12x7.jig')!r}).read(), 'x')\n"
        "counted = counting.reference_counts(instance, plain_seconds=0)\n"
        "print(compiled_available(), counted.layouts, counted.classes, counted.method)")],
        env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "4", "2", "plain", "search"]


def test_the_first_layout_the_search_finds_is_there_exactly_when_brute_force_finds_one():
    """``solve`` races the jig's own search for a first layout (``Jig.search_solution``): on random jigs of
    every shape (flat inner edges, look-alike pieces, a side changed so that none fits), plain and
    compiled, it finds one exactly when brute force finds some, and the layout is one of brute force's."""
    jig = get_puzzle("jig")
    rng = random.Random(30)
    solvable = unsolvable = 0
    for case in range(CASES // 5):
        rows, cols = rng.choice(JIG_SHAPES)
        text = tiling.random_jig(rng, rows, cols)
        instance = jig.parse(text, f"case {case}")
        expected = tiling.jig_layouts(text)
        for seconds in (10.0, None):  # the plain search; the compiled one where numba is installed
            found = jig.search_solution(instance, seconds)
            assert found is not None, (case, text)
            solution, method = found
            assert method in ("plain search", "compiled search"), method
            if not expected:
                assert solution is None, (case, text)
                continue
            assert solution is not None and not jig.check(instance, solution), (case, text)
            placed = tuple((piece, tuple(sides)) for (piece, _), sides in zip(solution.placement, solution.sides))
            assert placed in expected, (case, text, placed)
        solvable += bool(expected)
        unsolvable += not expected
    assert solvable > 20 and unsolvable > 5


def test_solve_with_no_backend_named_races_the_jigs_own_search(run_cli, monkeypatch):
    """A jig the plain search answers within QUICK_SEARCH is solved by it, no solver named; a named
    backend solves alone; and the race itself (no quick answer, no head start) answers with a checked
    layout from whichever method finished first, saying which."""
    from puzzlesat.pipeline import tasks
    from puzzlesat.pipeline.request import request as make_request

    matt = str(INSTANCES / "jig" / "matt5x5.jig")
    code, out, _ = run_cli("solve", "jig", matt, "--json")
    report = json.loads(out)
    assert code == 0 and (report["backend"], report["solved_by"], report["checked"]) == ("none", ["plain search"], True)
    code, out, _ = run_cli("solve", "jig", matt, "--json", "-b", "cadical")
    assert code == 0 and json.loads(out)["backend"] == "pysat:cadical195"
    code, out, _ = run_cli("solve", "jig", matt, "--forced", "--json")  # what only the formula answers
    assert code == 0 and json.loads(out)["backend"] == "pysat:cadical195"
    jig = get_puzzle("jig")
    instance = jig.parse((INSTANCES / "jig" / "zhurgut_6x6.jig").read_text(), "zhurgut_6x6")
    monkeypatch.setattr(tasks, "QUICK_SEARCH", 1e-6)
    monkeypatch.setattr(tasks, "SOLVE_HEAD_START", 0.0)
    raced = tasks.solve(make_request(jig), instance)
    assert raced.status.value == "SAT" and raced.checked and not jig.check(instance, raced.solution)
    assert raced.raced == ("solve on pysat:cadical195", "the puzzle's own search")
    assert raced.backend in ("none", "pysat:cadical195") and raced.solved_by


def test_a_jig_with_no_layout_is_unsat_by_the_search_and_by_the_solver(run_cli, tmp_path):
    """One side changed so that nothing fits: the search's answer (no layout) is UNSAT, as the solver's."""
    path = tmp_path / "none.jig"
    path.write_text("1 2\n0 0 1 0 0\n1 0 0 0 1\n")  # the tab of piece 0 meets a tab of piece 1
    code, out, _ = run_cli("solve", "jig", str(path), "--json")
    report = json.loads(out)
    assert (report["status"], report["backend"], report["solved_by"]) == ("UNSAT", "none", ["plain search"]), out
    code, out, _ = run_cli("solve", "jig", str(path), "--json", "-b", "cadical")
    assert json.loads(out)["status"] == "UNSAT"
