"""`count` with no backend named answers by the method that fits (issue 38): the enumeration, with a head
start, for few solutions; an exact counter raced against it for many (at once when the enumeration has
found MANY_SOLUTIONS, issue 47); the report names which answered and what it raced. The tests that are
about the cue lengthen the head start, so that a loaded machine's slow enumeration does not end it.
Aquariums of one-cell regions whose every row and column holds k water cells have as many solutions as
n x n 0-1 matrices with those sums: 90 (4, 2) and 67,950 (6, 2)."""
from __future__ import annotations

import json

import pytest

from puzzlesat import api
from puzzlesat.backends import get_backend
from puzzlesat.encoders import get_puzzle
from puzzlesat.pipeline import tasks

from .test_schemas import valid

AQUARIUM = get_puzzle("aquarium")
needs_ganak = pytest.mark.skipif(get_backend("ganak").missing() is not None, reason="ganak is not installed")


def one_cell(n: int, k: int) -> str:
    return "_".join([str(k)] * 2 * n) + ";" + ",".join(str(cell + 1) for cell in range(n * n)) + "\n"


@needs_ganak
def test_many_solutions_are_counted_by_the_race_and_the_report_says_how(run_cli, tmp_path):
    """67,950 solutions: the enumeration (6.5 s here) is overtaken by Ganak (0.9 s; BENCHMARKS.md)."""
    path = tmp_path / "many.txt"
    path.write_text(one_cell(6, 2))
    code, out, _ = run_cli("count", "aquarium", str(path), "--json")
    report = valid(json.loads(out))
    assert code == 0 and report["answers"] == {"solutions": 67950}
    assert report["raced"] == ["enumeration on pysat:cadical195", "exact count on ganak"]
    assert (report["backend"], report["method"]) == ("ganak", "probabilistically exact counter")
    code, out, _ = run_cli("count", "aquarium", str(path))
    assert out.startswith("solutions: 67950 (probabilistically exact projected model count: right with high "
                          "probability; by ganak, the first to finish of 2 raced: enumeration on pysat:cadical195, "
                          "exact count on ganak)")


@needs_ganak
def test_many_solutions_cut_the_head_start_short(run_cli, tmp_path, monkeypatch):
    """Past MANY_SOLUTIONS the counter joins at once, whatever is left of the head start: with one of ten
    minutes, Ganak (0.9 s) still overtakes the enumeration (6.5 s). Before, it waited out the head start,
    and the enumeration answered."""
    monkeypatch.setattr(tasks, "QUICK_ENUMERATION", 600.0)
    path = tmp_path / "many.txt"
    path.write_text(one_cell(6, 2))
    report = valid(json.loads(run_cli("count", "aquarium", str(path), "--json")[1]))
    assert (report["answers"], report["backend"]) == ({"solutions": 67950}, "ganak")
    assert report["raced"] == ["enumeration on pysat:cadical195", "exact count on ganak"]


@needs_ganak
def test_few_solutions_are_counted_by_the_enumeration_every_one_checked(run_cli, tmp_path, monkeypatch):
    """Within its head start the enumeration answers alone, the same way every time, and races nobody:
    fewer than MANY_SOLUTIONS never cut it short."""
    monkeypatch.setattr(tasks, "QUICK_ENUMERATION", 600.0)
    assert 24 < tasks.MANY_SOLUTIONS
    path = tmp_path / "few.txt"
    path.write_text(one_cell(4, 1))
    for _ in range(3):
        report = valid(json.loads(run_cli("count", "aquarium", str(path), "--json")[1]))
        assert (report["answers"], report["method"], report["checked"]) == ({"solutions": 24}, "enumeration", True)
        assert "raced" not in report


@needs_ganak
def test_a_count_past_many_solutions_is_raced_within_the_head_start(run_cli, tmp_path, monkeypatch):
    """90 solutions, past MANY_SOLUTIONS (25): the counter joins at the 25th, not after the head start,
    and whichever finishes first answers the same count. (At 100, as it was, 90 were never raced.)"""
    monkeypatch.setattr(tasks, "QUICK_ENUMERATION", 600.0)
    path = tmp_path / "some.txt"
    path.write_text(one_cell(4, 2))
    report = valid(json.loads(run_cli("count", "aquarium", str(path), "--json")[1]))
    assert report["answers"] == {"solutions": 90}
    assert report["raced"] == ["enumeration on pysat:cadical195", "exact count on ganak"]


def test_a_named_backend_is_not_raced(tmp_path):
    report = api.count("aquarium", AQUARIUM.parse(one_cell(4, 2), "few"), backend="glucose4")
    assert (report.answers, report.counted_by, report.raced) == ({"solutions": 90}, "enumeration", ())


def test_without_a_counter_that_takes_the_formula_the_enumeration_counts_alone(monkeypatch):
    """D4 refuses aquarium's formula (auxiliary variables the shown ones do not determine): with no
    other counter, nothing is raced."""
    monkeypatch.setattr(tasks, "EXACT_COUNTERS", ("d4",))
    report = api.count("aquarium", AQUARIUM.parse(one_cell(4, 2), "few"))
    assert (report.answers, report.counted_by, report.raced) == ({"solutions": 90}, "enumeration", ())


@needs_ganak
def test_a_formula_file_is_raced_too(run_cli, tmp_path):
    """`count cnf`: 20 free variables, 2^20 models, none of which an enumeration lists in time. With no
    projection D4 takes the file and is the counter raced (the faster, and exact); with one, Ganak."""
    path = tmp_path / "free.cnf"
    clause = " ".join(str(v) for v in range(1, 21)) + " 0\n"
    path.write_text("p cnf 20 1\n" + clause)
    code, out, _ = run_cli("count", "cnf", str(path), "--json", "--timeout", "60")
    report = valid(json.loads(out))
    assert code == 0 and report["answers"] == {"solutions": 2 ** 20 - 1} and report["backend"] == "d4"
    path.write_text("c p show " + " ".join(str(v) for v in range(1, 19)) + " 0\np cnf 20 1\n" + clause)
    code, out, _ = run_cli("count", "cnf", str(path), "--json", "--timeout", "60")
    report = valid(json.loads(out))
    assert code == 0 and report["answers"] == {"solutions": 2 ** 18} and report["backend"] == "ganak"


def test_the_backends_page_states_the_race_as_coded():
    """docs/backends.md says when the counter joins: the numbers there are the constants here."""
    from pathlib import Path

    page = " ".join((Path(__file__).parent.parent / "docs" / "backends.md").read_text().split())
    assert f"until it has found {tasks.MANY_SOLUTIONS} solutions or run for {tasks.QUICK_ENUMERATION:g} s" in page


def test_a_count_with_no_backend_named_takes_the_puzzles_count_backend(run_cli):
    """Jig solves on CaDiCaL and counts on glucose4 (``count_backend``: it proves an enumeration's last
    UNSAT faster). A count that names no backend takes it, still raced against the jig's own search;
    a named backend, a solve, and the proof-writing backend of --certify follow the names."""
    from puzzlesat.pipeline.request import request

    jig = get_puzzle("jig")
    counting = request(jig, counting=True)
    assert (counting.backend.name, counting.race_search) == ("pysat:glucose4", True)
    assert request(jig, "cadical", counting=True).backend.name == "pysat:cadical195"
    assert not request(jig, "cadical", counting=True).race_search
    assert request(jig).backend.name == "pysat:cadical195"
    assert request(jig, counting=True, certify="strict").backend.name.startswith("pysat:glucose4")
    matt = "instances/jig/matt5x5.jig"
    for given, backend in (((), "pysat:glucose4"), (("-b", "cadical"), "pysat:cadical195")):
        report = valid(json.loads(run_cli("count", "jig", matt, "--cubes", "1", "--json", *given)[1]))
        assert (report["answers"], report["backend"]) == ({"solutions": 8, "up_to_rotation": 2}, backend)
    assert "default backend  pysat:glucose4" in run_cli("count", "jig", "--help")[1]
    assert "default backend  pysat:cadical195" in run_cli("solve", "jig", "--help")[1]
