"""``solve --forced`` for jig and jigsaw against brute force (``tests/brute/tiling.py``) on every shape
of a few cells, square and not, with flat inner edges, look-alike pieces and no solution at all.

- Over every layout (``break_symmetry=False``): a cell's placement is forced exactly where every
  brute-force layout puts the same piece there looking the same way.
- Over the layouts ``solve`` keeps (its default, one per symmetry class): those layouts, enumerated from
  the formula, are one of each brute-force class, and what is forced is exactly what they share.
"""
from __future__ import annotations

import random

import pytest
from pysat.solvers import Solver

import puzzlesat
from puzzlesat.core.model import CnfModel
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.jig.solution import rotate
from puzzlesat.encoders.jigsaw.grids import orient
from puzzlesat.encoders.tiling.options import TilingOptions

from .brute import tiling
from .test_brute_force import JIG_SHAPES, JIGSAW_SHAPES

#: random cases of each puzzle; a random jigsaw rarely has no layout, so the first seed that has none
#: (brute force says so) is added
SEEDS = {"jig": range(5300, 5420), "jigsaw": [*range(5300, 5420), 5703]}


def looks(puzzle: str, instance, placement) -> tuple:
    """(id, piece as it lies) per cell, as brute force writes layouts; None where nothing is placed."""
    index = {pid: i for i, pid in enumerate(instance.ids)}
    if puzzle == "jig":
        return tuple(None if p is None else (p[0], rotate(instance.pieces[index[p[0]]], p[1])) for p in placement)
    return tuple(None if p is None else (p[0], orient(instance.tiles[index[p[0]]], p[1])) for p in placement)


def shared(layouts) -> tuple:
    """Per cell, what every layout has there, or None where two differ."""
    return tuple(cells[0] if len(set(cells)) == 1 else None for cells in zip(*layouts))


def kept_layouts(puzzle, instance) -> list[tuple]:
    """Every layout of the symmetry-broken formula, by plain enumeration over its shown variables."""
    encoding = puzzle.encode(instance, "cnf", TilingOptions(break_symmetry=True))
    found = []
    with Solver(name="minisat22", bootstrap_with=encoding.pysat_clauses()) as solver:
        while solver.solve():
            model = solver.get_model()
            solution = puzzle.decode(instance, encoding, CnfModel.from_literals(model, encoding.num_vars))
            found.append(looks(puzzle.name, instance, solution.placement))
            solver.add_clause([-v if model[v - 1] > 0 else v for v in encoding.show])
    return found


def random_case(name: str, seed: int):
    rng = random.Random(seed)
    if name == "jig":
        rows, cols = rng.choice(JIG_SHAPES)
        text = tiling.random_jig(rng, rows, cols)
        return rows, cols, text, tiling.jig_layouts(text), tiling.jig_class_key, get_puzzle("jig").parse(text, "jig")
    rows, cols = rng.choice(JIGSAW_SHAPES)
    text = tiling.random_jigsaw(rng, rows, cols)
    return (rows, cols, text, tiling.jigsaw_layouts(text, rows, cols), tiling.jigsaw_class_key,
            get_puzzle("jigsaw").parse(text, "jigsaw", rows=rows, cols=cols))


@pytest.mark.parametrize("name", ["jig", "jigsaw"])
def test_forced_placements_against_brute_force(name):
    puzzle = get_puzzle(name)
    kinds = set()
    for seed in SEEDS[name]:
        rows, cols, text, layouts, class_key, instance = random_case(name, seed)
        where = f"seed {seed} ({rows}x{cols})\n{text}"
        backend = random.Random(seed).choice(["cadical195", "glucose4"])
        report = puzzlesat.solve(name, instance, backend=backend, forced=True, break_symmetry=False)
        if not layouts:
            assert report.status.value == "UNSAT" and report.forced is None, where
            kinds.add("unsolvable")
            continue
        every = looks(name, instance, report.forced.placement)
        assert every == shared(layouts), where
        kept = kept_layouts(puzzle, instance)
        assert sorted(class_key(rows, cols, layout) for layout in kept) == sorted(
            {class_key(rows, cols, layout) for layout in layouts}), where
        default = puzzlesat.solve(name, instance, backend=backend, forced=True)
        assert looks(name, instance, default.forced.placement) == shared(kept), where
        # what every layout shares is shared by the kept ones too
        assert all(a is None or a == b for a, b in zip(every, looks(name, instance, default.forced.placement))), where
        kinds.add("unique up to symmetry" if len(kept) == 1 else "several classes")
        kinds.add("square" if rows == cols else "not square")
        if None in every and None not in shared(kept):
            kinds.add("forced only up to symmetry")
    assert kinds >= {"unsolvable", "unique up to symmetry", "several classes", "square", "not square",
                     "forced only up to symmetry"}, kinds


def test_forced_placements_on_the_command_line(run_cli, tmp_path):
    """Text, JSON and picture of ``solve jig --forced``; a unique jigsaw's forced layout is its solution."""
    import json

    from .test_schemas import valid

    code, out, _ = run_cli("solve", "jig", "instances/jig/matt5x5.jig", "--forced", "--json",
                           "--svg", str(tmp_path / "forced.svg"))
    report = valid(json.loads(out))
    layout = report["forced"]["layout"]
    assert code == 0 and report["forced"]["cells"] == 25 and len(layout) == 5
    assert report["forced"]["forced"] == sum(cell is not None for row in layout for cell in row)
    assert "differs between layouts" in (tmp_path / "forced.svg").read_text()
    code, out, _ = run_cli("solve", "jig", "instances/jig/matt5x5.jig", "--forced", "--certify", "--json")
    certified = valid(json.loads(out))  # the last UNSAT answer, which fixes the forced placements, proof-checked
    assert code == 0 and certified["certified"] == {"forced": True} and certified["forced"]["layout"] == layout
    code, out, _ = run_cli("solve", "jigsaw", "instances/aoc/2020-20/example.txt", "--forced", "--json")
    report = valid(json.loads(out))
    assert code == 0 and report["answers"]["unique"] and report["forced"]["forced"] == 9
    assert report["forced"]["layout"] == report["solution"]["layout"]
    code, out, _ = run_cli("solve", "jigsaw", "instances/aoc/2020-20/example.txt", "--forced")
    assert "forced in every solution up to the grid's symmetries: 9 of 9 cells" in out


def test_forced_stopped_by_the_limit_keeps_the_solution(run_cli):
    """On a large jig, what every layout shares is as hard as listing the layouts: a --timeout ends it
    with exit 4, the checked solution printed, and the stop said in one line (it used to lose the
    solution in a bare time-limit error)."""
    import json

    from .test_schemas import valid

    path = "instances/jig/zhurgut_10x10.jig"
    code, out, err = run_cli("solve", "jig", path, "--forced", "--timeout", "10", "--json")
    report = valid(json.loads(out))
    assert code == 4 and report["checked"] and report["stopped"]["by"] == "time limit" and "forced" not in report
    assert err.count("\n") == 1 and "(--forced) was not decided" in err
    code, out, err = run_cli("solve", "jig", path, "--forced", "--timeout", "10")
    assert code == 4 and "checked: yes" in out and "forced in every solution: not decided (stopped by the time limit" in out


def test_forced_labels_fit_their_cells():
    """A jigsaw's four-digit ids with their orientation ran into the next cell at the jig's size."""
    from puzzlesat.encoders.tiling.forced import TilingForced
    from puzzlesat.formats.picture import CHARACTER_WIDTH

    picture = TilingForced(2, 2, ((1951, 1), (2729, 7), None, (11, 0))).picture()
    inside = [label for label in picture.labels if label.text in {"1951/1", "2729/7", "?", "11/0"}]
    assert len(inside) == 4 and all(label.size * CHARACTER_WIDTH * len(label.text) <= 0.9 for label in inside)
