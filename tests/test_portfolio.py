"""The portfolio backend: first answer wins, losers are killed, failures and time limits are handled."""
from __future__ import annotations

import os
import time

import pytest

from puzzlesat.backends import get_backend, registry
from puzzlesat.backends.pysat_backend import PysatSession
from puzzlesat.core.errors import BackendError, SolverTimeout
from puzzlesat.core.timing import UNLIMITED
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.dice.reference import dirac_wins
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions, load
from puzzlesat.pipeline.tasks import solve

from .conftest import INSTANCES, backend_double

AQUARIUM = str(INSTANCES / "aquarium" / "pa-10x10-hard-2865115.txt")


class SleepySession(PysatSession):
    def solve(self, deadline=UNLIMITED):
        time.sleep(600)


class CrashingSession(PysatSession):
    def solve(self, deadline=UNLIMITED):
        os._exit(3)  # the whole solver process dies, as a segfaulting native solver would


@pytest.fixture
def doubles(monkeypatch):
    monkeypatch.setitem(registry._FACTORIES, "test:sleepy", backend_double("test:sleepy", SleepySession))
    monkeypatch.setitem(registry._FACTORIES, "test:crash", backend_double("test:crash", CrashingSession))


def test_fast_member_wins_and_slow_one_is_killed(doubles):
    spec = get_puzzle("aquarium")
    start = time.perf_counter()
    report = solve(request(spec, "portfolio:test:sleepy,cadical"), load(spec, AQUARIUM))
    assert report.status == "SAT" and report.checked and report.answers["unique"] is True
    assert report.solved_by == ("pysat:cadical195", "pysat:cadical195")
    assert time.perf_counter() - start < 30


def test_losers_do_not_survive_the_session(doubles):
    spec = get_puzzle("aquarium")
    backend = get_backend("portfolio:test:sleepy,glucose")
    with backend.open(spec.encode(load(spec, AQUARIUM), "cnf")) as session:
        assert session.solve().status.value == "SAT"
        sleeper = session.workers[0]
        assert sleeper.child is None  # killed as soon as glucose answered
        kept = session.workers[1].child
        assert kept is not None
        winner = kept.process
        assert winner.is_alive()  # kept: its incremental session serves the next call
    assert not winner.is_alive()


def test_a_crashing_member_drops_out(doubles):
    spec = get_puzzle("aquarium")
    report = solve(request(spec, "portfolio:test:crash,minisat"), load(spec, AQUARIUM))
    assert report.status == "SAT" and set(report.solved_by) == {"pysat:minisat22"}


def test_all_members_failing_is_one_error(doubles):
    spec = get_puzzle("aquarium")
    with pytest.raises(BackendError, match="every member failed.*test:crash: the solver process died"):
        solve(request(spec, "portfolio:test:crash,test:crash"), load(spec, AQUARIUM))


def test_time_limit_kills_every_member(doubles):
    spec = get_puzzle("aquarium")
    start = time.perf_counter()
    with pytest.raises(SolverTimeout):
        solve(request(spec, "portfolio:test:sleepy,test:sleepy", timeout=1), load(spec, AQUARIUM))
    assert time.perf_counter() - start < 10


def test_enumeration_through_a_portfolio_counts_exactly():
    spec = get_puzzle("jig")
    instance = load(spec, str(INSTANCES / "jig" / "matt5x5.jig"))
    assert count_solutions(request(spec, "portfolio:cadical,glucose,z3", break_symmetry=False), instance) == 8


@pytest.mark.parametrize("name,message", [
    ("portfolio:cadical", "name at least two backends"),
    ("portfolio:cadical,nosuch", "unknown backend 'nosuch'"),
    ("portfolio:cadical,portfolio:glucose,minisat", "name at least two backends"),  # no nesting
])
def test_bad_portfolios(name, message):
    with pytest.raises(BackendError, match=message):
        get_backend(name)


def test_portfolio_cli_names_the_winner(run_cli):
    code, out, _ = run_cli("solve", "aquarium", AQUARIUM, "--backend", "portfolio:cadical,glucose")
    assert code == 0
    assert "answered by: pysat:" in out and "checked: yes" in out


def test_optimisation_races_whole_methods():
    spec = get_puzzle("amphipod")
    instance = load(spec, str(INSTANCES / "aoc" / "2021-23" / "example.txt"), unfold=False)
    report = solve(request(spec, "portfolio:glucose,cadical"), instance)
    assert report.answers == {"energy": 12521, "optimal": True}
    assert report.solved_by[0] in ("pysat:glucose4", "pysat:cadical195")


def test_counting_races_counters():
    spec = get_puzzle("dice")
    instance = load(spec, str(INSTANCES / "aoc" / "2021-21" / "example.txt"), target=8)
    report = solve(request(spec, "portfolio:d4+ganak"), instance)
    assert report.answers["wins"] == list(dirac_wins(instance))
