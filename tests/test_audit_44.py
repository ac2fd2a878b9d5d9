"""The third hostile-input audit's cases outside the formula readers (issue 44): what a plain install
lacks is skipped, never blamed."""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlesat.core.bundled import ROOT

DICE = str(ROOT / "aoc" / "2021-21" / "example.txt")


def test_a_missing_counter_is_a_skipped_row_not_a_culprit(run_cli, monkeypatch):
    """On a plain install (no counters) crosscheck dice exited 1 with 'DISAGREEMENT: d4, ganak'."""
    from puzzlesat.backends import base

    monkeypatch.setitem(base._PROBED, "d4", "d4solver is not installed")
    monkeypatch.setitem(base._PROBED, "ganak", "pyganak is not installed")
    code, out, _ = run_cli("crosscheck", "dice", DICE, "--target", "8", "--sides", "2", "--json")
    report = json.loads(out)
    skipped = [row for row in report["rows"] if row["status"] == "SKIPPED"]
    assert code == 0 and report["agree"] and len(skipped) == 4
    assert all("is not installed" in row["error"] for row in skipped)


def puzzlesat(*args: str, env: dict[str, str] | None = None, limit_memory: int | None = None,
              timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The command line as a process of its own (its limits and environment are the test's)."""
    def limited() -> None:
        if limit_memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run([str(Path(sys.executable).parent / "puzzlesat"), *args], capture_output=True, text=True,
                          timeout=timeout, env=os.environ | (env or {}), preexec_fn=limited)


def test_a_numba_that_cannot_start_falls_back_to_python(tmp_path):
    """A numba that fails to import made count jig fail ('pysat:glucose4: solver failed: ImportError')
    and crosscheck jig report 'DISAGREEMENT: exact cover'; now the plain searches answer (the compiled
    ones asked for from the start here, so that no race decides), and say once why."""
    (tmp_path / "numba").mkdir()
    (tmp_path / "numba" / "__init__.py").write_text("raise ImportError('a broken numba')\n")
    script = ("from puzzlesat.encoders.jig.counting import reference_counts\n"
              "from puzzlesat.encoders.jig.cover_counting import cover_counts\n"
              "from puzzlesat.encoders.jig import PUZZLE\n"
              f"jig = PUZZLE.parse(open({str(ROOT / 'jig' / 'zhurgut_7x7.jig')!r}).read(), 'j')\n"
              "counted = reference_counts(jig, plain_seconds=0)\n"
              "print(counted.layouts, counted.classes, counted.method, cover_counts(jig, plain_seconds=0))\n")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         env=os.environ | {"PYTHONPATH": str(tmp_path)})
    assert ran.stdout == "8 2 plain search (8, 2)\n", ran
    assert ran.stderr.count("numba cannot start here (ImportError: a broken numba)") == 1, ran


def test_numba_disable_jit_is_not_called_compiled():
    ran = puzzlesat("count", "jig", str(ROOT / "jig" / "zhurgut_8x8.jig"), env={"NUMBA_DISABLE_JIT": "1"})
    assert ran.returncode == 0 and "compiled" not in ran.stdout and "plain search" in ran.stdout, ran


def test_a_hard_memory_limit_below_the_default_cap_is_respected(tmp_path):
    """Under a hard 'ulimit -v' below --max-memory's default every command exited 3 with nothing said
    (the worker could not raise its cap); now the cap is lowered to the limit, and -v says so."""
    from puzzlesat.cli.supervised import default_memory
    from puzzlesat.core.reporting import format_bytes

    limit = 3 << 30  # below the default cap (half the machine's memory) wherever the machine has 8 GB
    if (default_memory() or 0) <= limit:
        pytest.skip("the default cap is already below 3 GB here")
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 2 1\n1 2 0\n")
    ran = puzzlesat("solve", "cnf", str(path), "-v", limit_memory=limit)
    assert ran.returncode == 0 and "satisfiable: yes" in ran.stdout, ran
    assert f"--max-memory lowered to {format_bytes(limit)}" in ran.stderr


def test_a_flooding_outside_solver_is_a_one_line_error(run_cli, tmp_path):
    """A solver that prints without end was captured whole, and the MemoryError ended in exit 3."""
    solver = tmp_path / "flood.sh"
    solver.write_text("#!/bin/sh\nyes 'v 1 2 3 4 5 6 7 8 9 10'\n")
    solver.chmod(0o755)
    (tmp_path / "f.cnf").write_text("p cnf 2 1\n1 2 0\n")
    ran = puzzlesat("solve", "cnf", str(tmp_path / "f.cnf"), "--backend", f"external:{solver}", "--max-memory", "400M")
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "a flood, not an answer" in ran.stderr, ran


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_the_worker_alone_is_the_signals_exit(tmp_path, number):
    """'kill WORKER' (the worker, not the command) gave exit 3 and 'internal error'; it is the signal's
    documented exit (128 + its number) and its one line, as a signal to the command is."""
    solver = tmp_path / "slow.sh"
    solver.write_text("#!/bin/sh\nsleep 60\n")
    solver.chmod(0o755)
    (tmp_path / "f.cnf").write_text("p cnf 2 1\n1 2 0\n")
    proc = subprocess.Popen([str(Path(sys.executable).parent / "puzzlesat"), "solve", "cnf", str(tmp_path / "f.cnf"),
                             "--backend", f"external:{solver}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    worker = None
    for _ in range(300):  # the worker: the supervisor's child that leads its own group
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        worker = next((int(pid) for pid in children if os.getpgid(int(pid)) == int(pid)), None)
        if worker is not None and subprocess.run(["pgrep", "-g", str(worker), "sleep"], capture_output=True).returncode == 0:
            break  # the solver runs: the worker is in the solve phase
        time.sleep(0.05)
    assert worker is not None
    os.kill(worker, number)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + number and err.count("\n") == 1 and "phase" in err, err


def test_a_dead_racer_leaves_the_count_to_the_other(run_cli, monkeypatch, tmp_path):
    """When Ganak died the raced count ended, and the message named cadical (the default backend); now
    the enumeration answers, and the note names the one that died. (A formula file with no projection
    races D4 since session 26, so D4 is the one killed.)"""
    from puzzlesat.backends.d4_backend import D4Backend

    monkeypatch.setattr(D4Backend, "_count", lambda self, encoding: os.kill(os.getpid(), signal.SIGKILL))
    path = tmp_path / "f.cnf"  # 16,384 solutions: the enumeration runs past its head start
    path.write_text("p cnf 14 14\n" + "".join(f"{v} -{v} 0\n" for v in range(1, 15)))
    code, out, err = run_cli("count", "cnf", str(path), "-q")
    assert (code, out) == (0, "solutions: 16384\n")
    assert "d4" in err and "the race goes on without it" in err and "cadical" not in err, err


def test_stdin_is_read_under_the_time_limit(tmp_path):
    """stdin was read by the supervisor before the worker started, so a slow pipe ran past --timeout
    (15 s with --timeout 2); the worker reads it now, under the limit."""
    reading, writing = os.pipe()  # the writer stays open, and says nothing
    proc = subprocess.Popen([str(Path(sys.executable).parent / "puzzlesat"), "solve", "cnf", "-", "--timeout", "2"],
                            stdin=reading, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        os.close(reading)
        os.close(writing)
    assert proc.returncode == 4 and "time limit of 2 s" in err and time.monotonic() - start < 30, err


@pytest.mark.parametrize("closed", [">&-", "2>&-"])
def test_a_closed_stream_does_not_escape_supervision(tmp_path, closed):
    """With stdout closed the command ran unsupervised (22.7 s with --timeout 2, and a traceback)."""
    solver = tmp_path / "slow.sh"
    solver.write_text("#!/bin/sh\nsleep 60\n")
    solver.chmod(0o755)
    (tmp_path / "f.cnf").write_text("p cnf 2 1\n1 2 0\n")
    command = (f"'{Path(sys.executable).parent / 'puzzlesat'}' solve cnf '{tmp_path / 'f.cnf'}' "
               f"--backend 'external:{solver}' --timeout 2 {closed}")
    start = time.monotonic()
    ran = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 4 and "Traceback" not in ran.stderr + ran.stdout and time.monotonic() - start < 30, ran


def test_competition_says_unknown_when_the_limit_strikes_while_reading(tmp_path):
    """A competition solver prints 's UNKNOWN' and exits 0 at its limit; while reading a slow stdin the
    command exited 4 with no status line."""
    reading, writing = os.pipe()
    try:
        ran = subprocess.run([str(Path(sys.executable).parent / "puzzlesat"), "solve", "cnf", "-", "--timeout", "1",
                              "--competition"], stdin=reading, capture_output=True, text=True, timeout=60)
    finally:
        os.close(reading)
        os.close(writing)
    assert (ran.returncode, ran.stdout) == (0, "s UNKNOWN\n"), ran


def test_an_own_instances_directory_is_not_filled_in_from_the_bundled_one(tmp_path, monkeypatch):
    """'instances/...' missing from a working directory that has an instances/ of its own silently read
    the bundled copy; it is missing (the bundled copy serves only where there is no instances/)."""
    from puzzlesat.core.bundled import located

    monkeypatch.chdir(tmp_path)
    name = "instances/aquarium/pa-6x6-easy-681742.txt"
    assert located(name) != name  # no instances/ here: the bundled copy
    (tmp_path / "instances").mkdir()
    assert located(name) == name
