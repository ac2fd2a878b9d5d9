"""A backend that lies must be caught: the checker rejects its model and crosscheck names it."""
from __future__ import annotations

import time

import pytest

from puzzlesat.backends import registry
from puzzlesat.backends.pysat_backend import PysatBackend, PysatSession
from puzzlesat.core.errors import CheckFailed
from puzzlesat.core.model import CnfModel
from puzzlesat.core.timing import UNLIMITED
from puzzlesat.encoders import get_puzzle
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import load
from puzzlesat.pipeline.tasks import crosscheck, solve

from .conftest import INSTANCES


class LyingSession(PysatSession):
    def solve(self, deadline=UNLIMITED):
        result = super().solve(deadline)
        if result.model is not None:  # flip the first shown variable: a wrong model
            truth = bytearray(result.model.truth)
            truth[self.encoding.show[0]] ^= 1
            result.model = CnfModel(bytes(truth))
        return result


class LyingBackend(PysatBackend):
    def __init__(self) -> None:
        super().__init__("cadical195")
        self.name = "test:liar"

    def _open(self, encoding):
        return LyingSession(self, encoding)


@pytest.fixture
def liar(monkeypatch):
    monkeypatch.setitem(registry._FACTORIES, "test:liar", LyingBackend)
    return "test:liar"


@pytest.mark.parametrize("puzzle,path", [("aquarium", "aquarium/pa-6x6-easy-681742.txt"),
                                         ("jigsaw", "aoc/2020-20/example.txt")])
def test_wrong_model_is_rejected(liar, puzzle, path):
    spec = get_puzzle(puzzle)
    with pytest.raises(CheckFailed, match="test:liar returned a solution that breaks the rules"):
        solve(request(spec, liar), load(spec, str(INSTANCES / path)))


def test_crosscheck_names_the_culprit(liar):
    spec = get_puzzle("aquarium")
    rows = crosscheck(request(spec), load(spec, str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")),
                      ["cadical", liar])
    verdict = {row.method: row.agrees for row in rows}
    assert verdict == {"reference": True, "pysat:cadical195 [cnf]": True, "test:liar [cnf]": False}


def test_count_reports_the_checkers_verdict_from_its_child_process(liar, run_cli):
    """The counts run in forked children; a child's one-line error must reach the user unchanged."""
    code, out, err = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--backend", liar)
    assert code != 0 and not out
    assert err.startswith("puzzlesat: error: test:liar returned a solution that breaks the rules")
    assert len(err.strip().splitlines()) == 1


def test_without_the_reference_the_first_answer_is_the_yardstick(liar, monkeypatch):
    """A reference past the limit is a TIMEOUT row; the backends are then held to the first answer."""
    spec = get_puzzle("aquarium")
    instance = load(spec, str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"))
    monkeypatch.setattr(spec, "reference", lambda *args, **kwargs: time.sleep(60))
    rows = crosscheck(request(spec, timeout=2), instance, ["cadical", "glucose", liar])
    assert [(row.method, row.status, row.agrees) for row in rows] == [
        ("reference", "TIMEOUT", False), ("pysat:cadical195 [cnf]", "SAT", True),
        ("pysat:glucose4 [cnf]", "SAT", True), ("test:liar [cnf]", "ERROR", False)]


def test_rows_stream_and_the_budget_skips_the_rest():
    """Each row is handed out before the next method starts, a method still running when the budget is
    spent is killed there (a TIMEOUT row: it ran 0.1 s past the budget before issue 34), and the
    methods left are SKIPPED rows, not a wait."""
    from puzzlesat.pipeline.crosscheck import Method, run_methods

    def slow(limit):
        time.sleep(2.0)
        return "SAT", {"x": 1}, ""

    # margins of a second, so that a loaded machine's slower forks change nothing (issue 46: these were
    # 0.15 s and 0.1 s, and failed when another test suite ran beside this one)
    rows, handed = [], []
    start = time.perf_counter()
    for row in run_methods([Method("first", "a", slow), Method("second", "b", slow),
                            Method("third", "c", slow)], None, budget=3.0):
        handed.append(time.perf_counter() - start)
        rows.append(row)
    assert handed[0] < 3.9  # the first row was out while the second method ran (it would end at 4 s)
    assert [(r.method, r.status, r.agrees) for r in rows] == [
        ("first", "SAT", True), ("second", "TIMEOUT", False), ("third", "SKIPPED", False)]
    assert rows[1].seconds < 2.0  # killed at the budget's end, before its own work was done
