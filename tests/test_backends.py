"""Every registered backend on small formulas with known answers: SAT, UNSAT, enumeration, timeouts."""
from __future__ import annotations

import os
import shutil

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from puzzlesat.backends import all_backends, get_backend
from puzzlesat.core.encoding import Encoding
from puzzlesat.core.errors import BackendError, SolverTimeout
from puzzlesat.core.result import Status
from puzzlesat.core.timing import Deadline

CNF_BACKENDS = [b.name for b in all_backends() if "sat" in b.capabilities and b.missing() is None]
EXTERNAL = [f"external:{b}" for b in ("cadical", "picosat") if shutil.which(b)]


def _count_models(name: str, clauses: list[list[int]], show: list[int], timeout: float | None) -> int:
    encoding = Encoding("cnf", clauses=clauses, show=show)
    with get_backend(name).open(encoding) as session:
        results = list(session.models(Deadline.after(timeout)))
        assert results[-1].status == Status.UNSAT
        # the session has seen every blocking clause, also when the enumeration ran in a child process
        assert session.solve().status == Status.UNSAT
    return len(results) - 1


@pytest.mark.parametrize("timeout", [None, 30.0])
@pytest.mark.parametrize("name", CNF_BACKENDS + EXTERNAL)
def test_enumerates_exactly_the_models(name, timeout):
    # x1 xor x2, x3 free: 4 models on {1,2,3}; projected on {1,2}: 2
    clauses = [[1, 2], [-1, -2], [3, -3]]
    assert _count_models(name, clauses, [1, 2, 3], timeout) == 4
    assert _count_models(name, clauses, [1, 2], timeout) == 2


@pytest.mark.parametrize("name", ["pysat:cadical195", "pysat:kissat404", "z3"])
def test_a_time_limit_bounds_the_whole_enumeration(name):
    # 2^20 models, each found at once: only the whole enumeration is long
    encoding = Encoding("cnf", clauses=[[v, -v] for v in range(1, 21)], show=list(range(1, 21)))
    with get_backend(name).open(encoding) as session, pytest.raises(SolverTimeout):
        list(session.models(Deadline.after(0.5)))


@pytest.mark.parametrize("name", CNF_BACKENDS + EXTERNAL)
def test_unsat(name):
    with get_backend(name).open(Encoding("cnf", clauses=[[1], [-1, 2], [-2]])) as session:
        assert session.solve().status == Status.UNSAT


@pytest.mark.parametrize("name", ["pysat:cadical195", "pysat:kissat404", "pysat:lingeling", "z3"] + EXTERNAL[:1])
def test_timeout_is_enforced(name):
    hard = Encoding("cnf", clauses=PHP(12).clauses)
    with get_backend(name).open(hard) as session, pytest.raises(SolverTimeout):
        session.solve(Deadline.after(0.3))


def test_aliases_and_unknown_names():
    assert get_backend("cadical").name == "pysat:cadical195"
    assert get_backend("kissat").name == "pysat:kissat404"
    assert get_backend("glucose").name == "pysat:glucose4"
    assert get_backend("minisat").name == "pysat:minisat22"
    with pytest.raises(BackendError, match="unknown backend 'nosuch'"):
        get_backend("nosuch")


def test_missing_binary_and_missing_capability():
    with pytest.raises(BackendError, match="not on the PATH"):
        get_backend("external:no-such-solver-binary").open(Encoding("cnf", clauses=[[1]]))
    with pytest.raises(BackendError, match="cannot do 'smt'"):
        get_backend("cadical").require("smt")


@pytest.mark.parametrize("name,script", [
    ("garbage-solver", "echo hello"),
    ("crashing-solver", "echo 'c starting'; kill -SEGV $$"),  # dies as a segfaulting solver would
])
def test_external_solver_that_misbehaves(tmp_path, monkeypatch, name, script):
    binary = tmp_path / name
    binary.write_text(f"#!/bin/sh\n{script}\n")
    binary.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    with get_backend(f"external:{name}").open(Encoding("cnf", clauses=[[1]])) as session:
        with pytest.raises(BackendError, match=f"external:{name} output: .*not the output of a SAT, MaxSAT") as caught:
            session.solve()
    assert "\n" not in str(caught.value)


def test_capabilities_are_checked_when_a_backend_is_looked_up(monkeypatch):
    """Capabilities are members of one enum; a plug-in that declares one that does not exist is refused
    in one line when its name is resolved, not half-way through a command."""
    from puzzlesat.backends import registry
    from puzzlesat.backends.base import Capability
    from puzzlesat.backends.pysat_backend import PysatBackend

    assert get_backend("cadical").capabilities == {Capability.SAT, Capability.ENUMERATE, Capability.PROOF}
    assert all(isinstance(c, Capability) for b in all_backends() for c in b.capabilities)

    class Teleporting(PysatBackend):
        def __init__(self) -> None:
            super().__init__("glucose4")
            self.name, self.capabilities = "test:teleport", frozenset({"sat", "teleport"})

    monkeypatch.setitem(registry._FACTORIES, "test:teleport", Teleporting)
    with pytest.raises(BackendError, match="test:teleport declares capabilities .*teleport.*; known: sat, smt"):
        get_backend("test:teleport")


def test_ganak_counts_are_labelled_probabilistically_exact(run_cli):
    """pyganak runs Ganak with its probabilistic component hashing (no switch in the binding): its counts
    were called exact in text, JSON and crosscheck (issue 35)."""
    import json

    from .conftest import INSTANCES

    jig = str(INSTANCES / "jig" / "matt5x5.jig")
    code, out, _ = run_cli("count", "jig", jig, "--backend", "ganak", "--json")
    assert code == 0 and json.loads(out)["method"] == "probabilistically exact counter"
    code, out, _ = run_cli("count", "jig", jig, "--backend", "ganak")
    assert "probabilistically exact projected model count" in out and "(exact" not in out
    dice = str(INSTANCES / "aoc" / "2021-21" / "example.txt")
    code, out, _ = run_cli("count", "dice", dice, "--target", "6", "--sides", "2", "--backend", "frontier", "--json")
    assert code == 0 and json.loads(out)["method"] == "exact counter"
    code, out, _ = run_cli("count", "dice", dice, "--target", "6", "--sides", "2", "--backend", "ganak", "--json")
    assert code == 0 and json.loads(out)["method"] == "probabilistically exact counter"


def _peak_growth_kib(build) -> int:
    """How far the peak resident memory of a forked child grows while ``build()`` runs, in KiB."""
    def peak() -> int:
        with open("/proc/self/status") as status:
            return int(next(line for line in status if line.startswith("VmHWM:")).split()[1])

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        before = peak()
        kept = build()
        os.write(write, str(peak() - before).encode())
        del kept
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        grown = int(answer.read())
    os.waitpid(pid, 0)
    return grown


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the peak memory from /proc")
def test_cadical_sizes_its_variable_tables_once():
    """A session hands CaDiCaL the largest variable first, so it sizes its per-variable tables once
    (pysat_backend._declaring). Given the variables one by one, it doubles the tables when they are
    full: just past a power of two (2^18 + 100 variables) that doubles them all once more and copies
    them. The same clauses, given plainly, take a third more memory (124 MB against 80 here)."""
    top = (1 << 18) + 100
    clauses = [[-v, v + 1] for v in range(1, top)]
    plain = _peak_growth_kib(lambda: Solver(name="cadical195", bootstrap_with=clauses))
    ours = _peak_growth_kib(lambda: get_backend("pysat:cadical195").open(Encoding("cnf", clauses=clauses, show=[1])))
    assert ours < 0.8 * plain, (ours, plain)
