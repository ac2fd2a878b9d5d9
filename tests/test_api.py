"""The Python interface (puzzlesat/api.py): formulas share the caller's IDPool and decode back, and
importing the package stays light (the examples of README and docs/python.md run in test_examples.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import puzzlesat
from puzzlesat.core.errors import PuzzlesatError

from .conftest import INSTANCES

ROOT = Path(__file__).resolve().parent.parent
SMALL = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")


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



def test_reports_and_explanations_display_themselves_in_a_notebook():
    """Jupyter's rich display: the answers as an HTML table (escaped), then the picture --svg draws."""
    instance = puzzlesat.read("aquarium", SMALL)
    shown = puzzlesat.solve("aquarium", instance)._repr_html_()
    assert "<table>" in shown and "<th style='text-align:left'>unique</th>" in shown and "<svg" in shown
    counted = puzzlesat.count("jig", puzzlesat.read("jig", str(INSTANCES / "jig" / "matt5x5.jig")), backend="glucose4")
    assert "solutions" in counted._repr_html_() and "counted by" in counted._repr_html_()
    explained = puzzlesat.explain("aquarium", instance)._repr_html_()
    assert "step 1:" in explained and "<svg" in explained and "steps" in explained
    from puzzlesat.pipeline.report import html_table

    escaped = html_table("<x>", [("a&b", "<script>")])
    assert "&lt;x&gt;" in escaped and "a&amp;b" in escaped and "&lt;script&gt;" in escaped and "<script>" not in escaped


def test_a_report_keeps_the_times_it_was_made_with():
    """Report.times aliased the task's live stopwatch, which kept growing after the frozen report was
    handed out (issue 45): now a copy, and the tasks make their report again after their last phase."""
    from puzzlesat.core.result import Status
    from puzzlesat.core.timing import Stopwatch
    from puzzlesat.pipeline.report import Report

    watch = Stopwatch()
    watch.add("solve", 1.0)
    report = Report("aquarium", "x", "b", "cnf", Status.SAT, times=watch.times)
    watch.add("check", 2.0)
    assert report.times == {"solve": 1.0}
    instance = puzzlesat.read("aquarium", SMALL)
    assert {"encode", "solve", "decode", "check"} <= set(puzzlesat.solve("aquarium", instance).times)
    certified = puzzlesat.solve("aquarium", instance, backend="cadical", certify="strict")
    assert {"encode", "solve", "decode", "check", "certify"} <= set(certified.times)
    burrow = puzzlesat.read("amphipod", str(INSTANCES / "aoc" / "2021-23" / "example.txt"), unfold=False)
    assert {"encode", "solve", "decode", "check"} <= set(puzzlesat.solve("amphipod", burrow, backend="glucose4").times)


def test_a_crosscheck_from_python_is_the_command_lines(run_cli):
    """puzzlesat.crosscheck runs the same methods and gives the verdict `crosscheck --json` gives, and
    shows itself in a notebook as its rows and that verdict."""
    path = str(INSTANCES / "jig" / "matt5x5.jig")
    checked = puzzlesat.crosscheck("jig", puzzlesat.read("jig", path), backends=["cadical", "z3"])
    code, out, _ = run_cli("crosscheck", "jig", path, "--backends", "cadical,z3", "--json")
    shown = json.loads(out)
    assert code == 0 and checked.agree is shown["agree"] is True
    assert checked.independent_methods == shown["independent_methods_agreeing"] == 4
    assert [(row.method, row.status, row.answers) for row in checked.rows] == [
        (row["method"], row["status"], row["answers"]) for row in shown["rows"]]
    html = checked._repr_html_()
    assert "<table>" in html and "exact cover (Algorithm X)" in html and checked.summary() in html
