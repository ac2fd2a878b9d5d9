"""The Python interface (puzzlesat/api.py): the README's example runs as written, formulas share the
caller's IDPool and decode back, and importing the package stays light."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import puzzlesat
from puzzlesat.core.errors import PuzzlesatError

from .conftest import INSTANCES

ROOT = Path(__file__).resolve().parent.parent
SMALL = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")


def test_the_readme_example_runs(monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text()
    example = re.search(r"### From Python\n\n```python\n(.*?)```", readme, re.S)
    assert example is not None and len(example.group(1).strip().splitlines()) == 5
    monkeypatch.chdir(ROOT)
    exec(compile(example.group(1), "README.md", "exec"), {})
    assert capsys.readouterr().out == "SAT True pysat:kissat404\n"


def test_encode_shares_the_callers_pool_and_decodes_back():
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    pool = IDPool()
    mine = pool.id("my own variable")  # the caller's variables keep their ids
    instance = puzzlesat.read("aquarium", SMALL)
    formula = puzzlesat.encode("aquarium", instance, vpool=pool)
    assert pool.id("my own variable") == mine and ("fill", 1, 0) in pool.obj2id
    with Solver(name="glucose4", bootstrap_with=formula.clauses + [[mine]]) as solver:
        assert solver.solve()
        solution = puzzlesat.decode(formula, solver.get_model())
    assert puzzlesat.check("aquarium", instance, solution) == []
    assert solution.lines() == puzzlesat.solve("aquarium", instance).answers["grid"]


def test_a_weighted_encoding_is_a_wcnf_that_rc2_optimises():
    from pysat.examples.rc2 import RC2

    instance = puzzlesat.read("amphipod", str(INSTANCES / "aoc" / "2021-23" / "example.txt"))
    formula = puzzlesat.encode("amphipod", instance)
    # RC2 as its command line's -x -m (exhaustion, minimisation) on Glucose 4: 0.2 s (plain RC2: 75 s)
    with RC2(formula, solver="g4", adapt=True, exhaust=True, minz=True) as rc2:
        solution = puzzlesat.decode(formula, rc2.compute())
    assert puzzlesat.check("amphipod", instance, solution) == []
    assert solution.answers() == {"part1": 12521, "part2": 44169}


def test_decode_needs_a_puzzlesat_formula():
    from pysat.formula import CNF

    try:
        puzzlesat.decode(CNF(from_clauses=[[1]]), [1])
    except PuzzlesatError as exc:
        assert "puzzlesat.encode()" in str(exc)
    else:
        raise AssertionError("decode accepted a formula it did not make")


def test_importing_the_package_imports_nothing_else():
    code = "import sys, puzzlesat; print(sorted(m for m in sys.modules if m.startswith(('puzzlesat.', 'pysat', 'z3'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "['puzzlesat.core', 'puzzlesat.core.version']\n"  # the version's one line, and its package

