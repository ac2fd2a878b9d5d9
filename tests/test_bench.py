"""``puzzlesat bench``: runs in child processes, medians, files, timeouts killed, failures reported."""
from __future__ import annotations

import csv
import json
import os
import shutil
import time

import pytest

from puzzlesat.backends import registry
from puzzlesat.backends.pysat_backend import PysatSession
from puzzlesat.core.timing import UNLIMITED

from .conftest import INSTANCES, backend_double


class StuckSession(PysatSession):
    def solve(self, deadline=UNLIMITED):
        time.sleep(600)


class DyingSession(PysatSession):
    def solve(self, deadline=UNLIMITED):
        os._exit(5)


@pytest.fixture
def jigsaw_dir(tmp_path):
    directory = tmp_path / "jigsaw"
    directory.mkdir()
    shutil.copy(INSTANCES / "aoc" / "2020-20" / "example.txt", directory)
    shutil.copy(INSTANCES / "aoc" / "2020-20" / "example.answers", directory)  # not an instance: skipped
    return directory


def test_bench_writes_table_json_csv_and_plot(run_cli, jigsaw_dir, tmp_path):
    out = tmp_path / "out"
    code, stdout, _ = run_cli("bench", "--puzzle", "jigsaw", "--instances", str(jigsaw_dir), "--backends",
                              "cadical,glucose", "--repeat", "2", "--out", str(out), "--plot", str(tmp_path / "b.png"))
    assert code == 0, stdout
    rows = json.loads((out / "bench.json").read_text())["rows"]
    assert [(r["method"], r["status"], r["runs"]) for r in rows] == [
        ("reference", "SAT", 2), ("pysat:cadical195", "SAT", 2), ("pysat:glucose4", "SAT", 2)]
    solver = rows[1]
    assert solver["encode"] > 0 and solver["solve"] > 0 and solver["total"] >= solver["encode"] + solver["solve"]
    assert solver["variables"] == 9 and solver["reference_ratio"] > 0
    samples = json.loads((out / "bench.json").read_text())["samples"]
    assert {s["answers"]["part1"] for s in samples} == {20899048083289}  # every run, the reference too
    table = list(csv.DictReader((out / "bench.csv").open()))
    assert [r["method"] for r in table] == ["reference", "pysat:cadical195", "pysat:glucose4"]
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "pysat:glucose4" in stdout and "ref/this" in stdout


def test_a_run_past_its_timeout_is_killed_and_reported(run_cli, jigsaw_dir, tmp_path, monkeypatch):
    monkeypatch.setitem(registry._FACTORIES, "test:stuck", backend_double("test:stuck", StuckSession))
    start = time.perf_counter()
    code, stdout, _ = run_cli("bench", "--puzzle", "jigsaw", "--instances", str(jigsaw_dir), "--backends",
                              "test:stuck", "--timeout", "1", "--repeat", "3", "--out", str(tmp_path))
    assert code == 0
    assert time.perf_counter() - start < 20  # one kill, the other repeats are dropped
    data = json.loads((tmp_path / "bench.json").read_text())
    stuck = [s for s in data["samples"] if s["method"] == "test:stuck"]
    assert [s["status"] for s in stuck] == ["TIMEOUT"]
    assert "TIMEOUT" in stdout


def test_a_crashing_run_is_an_error_row_and_exit_1(run_cli, jigsaw_dir, tmp_path, monkeypatch):
    monkeypatch.setitem(registry._FACTORIES, "test:dying", backend_double("test:dying", DyingSession))
    code, _stdout, stderr = run_cli("bench", "--puzzle", "jigsaw", "--instances", str(jigsaw_dir), "--backends",
                                   "test:dying,cadical", "--repeat", "1", "--jobs", "2", "--out", str(tmp_path))
    assert code == 1
    assert "died (exit code 5)" in stderr
    rows = {r["method"]: r["status"] for r in json.loads((tmp_path / "bench.json").read_text())["rows"]}
    assert rows == {"reference": "SAT", "test:dying": "ERROR", "pysat:cadical195": "SAT"}


@pytest.mark.parametrize("args,message", [
    (("--instances", "instances/jig"), "--instances needs --puzzle"),
    (("--puzzle", "jig", "--instances", "no/such/dir"), "no such directory"),
    (("--puzzle", "jig", "--instances", str(INSTANCES / "aquarium")), "no .jig instance files"),
    (("--puzzle", "jig", "--backends", "nosuch"), "unknown backend 'nosuch'"),
])
def test_bad_bench_options(run_cli, args, message):
    code, _, stderr = run_cli("bench", *args)
    assert code == 2 and message in stderr


def test_a_plot_without_matplotlib_is_refused_before_any_run(tmp_path):
    """`bench --plot` ran the whole benchmark and then refused for want of matplotlib (issue 46): now
    before the first run, and in a pipe no stray progress-bar label is printed either."""
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['matplotlib'] = None\n")
    exe = str(Path(sys.executable).parent / "puzzlesat")
    done = subprocess.run([exe, "bench", "--puzzle", "dice", "--plot", str(tmp_path / "p.png"), "--out", str(tmp_path)],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert done.returncode == 2 and "--plot needs matplotlib" in done.stderr and done.stdout == ""
    assert not (tmp_path / "bench.json").exists()  # no run was made
    piped = subprocess.run([exe, "bench", "--puzzle", "dice", "--instances", str(INSTANCES / "aoc" / "2021-21"),
                            "--repeat", "1", "--out", str(tmp_path)], capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stdout.splitlines()[0].startswith("instance") and "bench" not in piped.stderr
