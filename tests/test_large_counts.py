"""Counts that enumeration cannot reach (issue 71): a jig's layouts counted over the pieces left, alike
pieces together, without listing them; held to brute force in tests/test_jig_search.py, and to the
searches here."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from puzzlesat import Status
from puzzlesat.core.errors import NotApplicable
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.jig import memo_counting
from puzzlesat.encoders.jig.memo_counting import count_over_pieces_left, has_alike_pieces, memo_counts

JIG = get_puzzle("jig")


def line_of_one_type(middle: int) -> str:
    """A 1 x (middle + 2) line of one tab type, no flat inner edge: every middle piece alike, so every
    order of them fits (each turned the one way it fits), and so does the whole line turned."""
    return (f"1 {middle + 2}\n0 0 1 0 0\n" + "".join(f"{i} 0 1 0 -1\n" for i in range(1, middle + 1))
            + f"{middle + 1} 0 0 0 -1\n")


def test_a_line_of_alike_pieces_has_factorial_many_layouts(run_cli, tmp_path):
    """The held-out class of the issue: 1x12, one tab type, 7,257,600 layouts (10! orders of the middle
    pieces, times the line's half turn), which no enumeration listed within 120 s."""
    path = tmp_path / "line.jig"
    path.write_text(line_of_one_type(10))
    code, out, err = run_cli("count", "jig", str(path), "--json")
    report = json.loads(out)
    assert code == 0 and report["answers"] == {"solutions": 2 * math.factorial(10), "up_to_rotation": math.factorial(10)}
    assert report["method"] == "count over the pieces left" and report["checked"] is False
    code, out, _ = run_cli("count", "jig", str(path))
    assert "solutions: 7257600 (counted without listing them; by the solver-free count over the pieces left)" in out


@pytest.mark.parametrize("middle", [1, 2, 3, 4, 5, 6])
def test_the_count_over_the_pieces_left_is_the_searches_count(middle):
    """Alike pieces by the thousand of layouts: the compiled or plain search lists them one by one."""
    from puzzlesat.encoders.jig.counting import reference_counts

    instance = JIG.parse(line_of_one_type(middle), "line")
    counted = reference_counts(instance, keep=0)
    assert memo_counts(instance) == (counted.layouts, counted.classes) == (2 * math.factorial(middle),
                                                                          math.factorial(middle))


def test_a_memo_past_its_bound_gives_up_and_the_cross_check_skips_it(monkeypatch):
    """zhurgut_6x6's pieces are all unlike: the memo would only re-walk the search, so it is not tried
    by count (no two pieces alike), and asked anyway it gives up at its bound."""
    from .conftest import INSTANCES

    instance = JIG.parse((INSTANCES / "jig" / "zhurgut_6x6.jig").read_text(), "zhurgut_6x6")
    assert not has_alike_pieces(instance)
    assert memo_counts(instance, max_states=100) is None
    monkeypatch.setattr("puzzlesat.encoders.jig.memo_counting.MAX_STATES", 100)
    memo_counting._both.cache_clear()
    with pytest.raises(NotApplicable, match="too unlike"):  # what the cross-check's SKIPPED row says
        count_over_pieces_left(instance)
    memo_counting._both.cache_clear()


def test_crosscheck_shows_the_count_over_the_pieces_left_beside_the_others(run_cli, tmp_path):
    path = tmp_path / "line.jig"
    path.write_text(line_of_one_type(5))
    code, out, err = run_cli("crosscheck", "jig", str(path), "--backends", "cadical")
    assert code == 0, err
    rows = {line.split("  ")[0]: line for line in out.splitlines()}
    assert "solutions=240 up_to_rotation=120" in rows["count over the pieces left"] and \
        rows["count over the pieces left"].rstrip().endswith("yes"), out
    assert "solutions=240" in rows["exact cover (Algorithm X)"] and "solutions=240" in rows["reference"]


#: the command line as a plain install has it: neither D4's nor Ganak's module can be imported
PLAIN_INSTALL = ("import sys; sys.modules['py_d4'] = None; sys.modules['pyganak'] = None; "
                 "from puzzlesat.entry import main; sys.argv[0] = 'puzzlesat'; main()")


def random_3cnf(variables: int, clauses: int, seed: int) -> list[list[int]]:
    import random

    rng = random.Random(seed)
    return [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, variables + 1), 3)] for _ in range(clauses)]


def brute_force_models(variables: int, clauses: list[list[int]]) -> int:
    import numpy as np

    values = ((np.arange(2 ** variables, dtype=np.uint32)[:, None] >> np.arange(variables, dtype=np.uint32)) & 1
              ).astype(bool)  # a row: one assignment
    satisfied = np.ones(2 ** variables, dtype=bool)
    for clause in clauses:
        satisfied &= np.any([values[:, abs(lit) - 1] == (lit > 0) for lit in clause], axis=0)
    return int(satisfied.sum())


def test_a_plain_install_races_the_frontier_counter(tmp_path):
    """With no extras, `count cnf` raced nothing: a 30-variable random 3-CNF with 411,656 models took
    48.8 s by enumeration, where the frontier counter (numpy only) took 0.9 s."""
    import subprocess
    import sys

    clauses = random_3cnf(20, 40, 7)
    path = tmp_path / "r20.cnf"
    path.write_text("p cnf 20 40\n" + "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses))
    ran = subprocess.run([sys.executable, "-c", PLAIN_INSTALL, "count", "cnf", str(path), "--json"],
                         capture_output=True, text=True, timeout=300)
    report = json.loads(ran.stdout)
    assert ran.returncode == 0 and report["answers"]["solutions"] == brute_force_models(20, clauses), ran.stderr
    assert "exact count on frontier" in report["raced"], report


def test_a_slow_enumeration_says_where_a_faster_count_is(monkeypatch, capsys):
    from puzzlesat import backends
    from puzzlesat.cli.count import say_where_a_faster_count_is
    from puzzlesat.pipeline.report import Report

    enumerated = Report("cnf", "f.cnf", "pysat:cadical195", "cnf", Status.SAT, counted_by="enumeration")
    real = backends.get_backend

    class Missing:
        def missing(self) -> str:
            return "not installed"

    monkeypatch.setattr(backends, "get_backend", lambda name: Missing() if name in ("d4", "ganak") else real(name))
    say_where_a_faster_count_is(enumerated, 2.0)  # quick: nothing to say
    assert capsys.readouterr().err == ""
    say_where_a_faster_count_is(enumerated, 12.0)
    said = capsys.readouterr().err
    assert said.startswith("puzzlesat: note: counted by listing every solution (12 s); the exact counters d4 and "
                           "ganak, not installed here") and "pip install 'puzzlesat[count]'" in said
    say_where_a_faster_count_is(replace(enumerated, counted_by="exact counter"), 12.0)
    assert capsys.readouterr().err == ""
    from fractions import Fraction

    weighted = replace(enumerated, answers={"solutions": 3, "weighted count": Fraction(19, 10)})
    say_where_a_faster_count_is(weighted, 12.0)  # those counters would refuse its weights
    assert capsys.readouterr().err == ""



@pytest.mark.parametrize("backend", [None, "pysat:cadical195"], ids=["raced", "one backend"])
def test_the_time_line_adds_up(tmp_path, backend):
    """`count cnf r24.cnf -v` ran 5.7 s and its times said 2.2 s: the race's own time (a head start
    waited, the forks, the answer handed back) and the side-by-side children's are phases now ("race",
    "forks"), and the enumeration's bookkeeping is its solve time. Held at 80% of the wall time (the
    issue's 10% on a quiet machine; a loaded one stretches the gaps between phases)."""
    import time

    from puzzlesat.core.timing import Stopwatch
    from puzzlesat.pipeline.request import request
    from puzzlesat.pipeline.steps import load
    from puzzlesat.pipeline.tasks import count

    clauses = random_3cnf(20, 36, 24)
    path = tmp_path / "r20.cnf"
    path.write_text("p cnf 20 36\n" + "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses))
    puzzle = get_puzzle("cnf")
    watch = Stopwatch()
    started = time.monotonic()
    instance = load(puzzle, str(path), watch)
    report = count(request(puzzle, backend, None, None, counting=True), instance, watch)
    elapsed = time.monotonic() - started
    assert report.answers["solutions"] == brute_force_models(20, clauses)
    assert sum(report.times.values()) >= 0.8 * elapsed, (report.times, elapsed)
