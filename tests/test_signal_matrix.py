"""A signal keeps what a limit keeps (issue 69, item 3): every command that can be stopped, stopped by its
time limit, by SIGINT to the command, and by SIGTERM to its worker alone, in text and in JSON, prints
what it had found and ends with the stop's exit code and one line that says the same thing again.

Each run is a real process (the supervisor forks only when stdout and stderr are file descriptors). The
stop comes a few seconds in, while the command is at work; where it comes is not asserted (a loaded
machine is slower), only that what is printed agrees with the run's own one-line account of its
progress, and that a JSON reader always gets a record. Before this issue a raced count, ``solve
--forced``, ``explain`` and ``bench`` printed nothing of what they had found on a signal (and explain
nothing at its time limit either), and SIGTERM to the worker killed it outright.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import INSTANCES
from .test_schemas import valid

EXE = str(Path(sys.executable).parent / "puzzlesat")
JIG_13x9 = str(INSTANCES / "jig" / "zhurgut_13x9.jig")
JIG_9x9 = str(INSTANCES / "jig" / "zhurgut_9x9.jig")
#: when the stop comes (the --timeout, or the signal's delay): every command below is then at work
AFTER = 4.0
STOPS = {"time limit": 4, "SIGINT": 128 + signal.SIGINT, "SIGTERM to the worker": 128 + signal.SIGTERM}


def many_models(tmp_path: Path) -> str:
    path = tmp_path / "many.cnf"
    path.write_text("p cnf 40 20\n" + "".join(f"{v} {v + 1} 0\n" for v in range(1, 40, 2)))
    return str(path)


def stopped_run(args: list[str], stop: str, tmp_path: Path) -> tuple[int, str, str]:
    """The command stopped ``AFTER`` seconds in, by ``stop``."""
    if stop == "time limit":
        args = [*args, "--timeout", str(AFTER)]
    proc = subprocess.Popen([EXE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(tmp_path)), cwd=tmp_path)
    if stop != "time limit":
        time.sleep(AFTER)
        if stop == "SIGINT":
            proc.send_signal(signal.SIGINT)
        else:
            worker = int(Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()[0])
            os.kill(worker, signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def said(err: str, stop: str) -> str:
    """The one line's account of what the run had found ('by then: ...'), after checking the line."""
    assert err.count("\n") == 1 and err.startswith("puzzlesat: error: ") and "internal error" not in err, err
    assert ("time limit" if stop == "time limit" else stop.split()[0]) in err, err
    found = re.search(r"; by then: (.*)$", err.strip())
    assert found, err
    return found[1]


def before_the_work(err: str, out: str) -> bool:
    """Whether the stop came before the count began (a loaded machine still encoding the formula four
    seconds in: encoding has no wait that asks for a stop, so the supervisor ends the worker a second
    later, and there is nothing found to keep): then the one line names that phase and nothing is
    claimed (seen once in a full suite run beside browser tests on 2 cores)."""
    if not re.fullmatch(r"puzzlesat: error: [^;]* in the (start|parse|encode) phase\n", err):
        return False
    assert "at least" not in out and '"solutions"' not in out, out
    return True


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the worker in /proc")


@needs_proc
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("command", ["raced jig count", "enumeration"])
def test_a_stopped_count_prints_its_lower_bounds(tmp_path, command, stop, as_json):
    args = (["count", "jig", JIG_13x9] if command == "raced jig count"
            else ["count", "cnf", many_models(tmp_path), "--backend", "glucose4"])
    code, out, err = stopped_run([*args, *(["--json"] if as_json else [])], stop, tmp_path)
    if code == 0:  # a fast machine counted the whole jig first: a whole answer, nothing to keep
        assert command == "raced jig count" and "at least" not in out
        return
    assert code == STOPS[stop]
    if before_the_work(err, out):
        return
    by_then = said(err, stop)
    if as_json:
        report = valid(json.loads(out))
        assert report["complete"] is False and report["stopped"]["exit_code"] == code
        counts = report["answers"]
    else:
        counts = {label: int(number.replace(",", "")) for label, number in
                  re.findall(r"^(\w+): at least ([\d,]+) \(stopped by", out, re.M)}
        assert counts, out
    first = next(iter(counts.values()))
    if as_json:
        assert report["status"] == ("SAT" if first else "UNKNOWN")
    assert (f"solutions at least {first:,}" in by_then) if first else by_then.startswith("no solution found yet")


@needs_proc
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("stop", STOPS)
def test_a_stopped_forced_solve_prints_its_solution(tmp_path, stop, as_json):
    code, out, err = stopped_run(["solve", "jig", JIG_13x9, "--forced", *(["--json"] if as_json else [])],
                                 stop, tmp_path)
    assert code == STOPS[stop]
    if not out and re.fullmatch(r"puzzlesat: error: .* in the solve phase\n", err) and overloaded():
        # a machine running three times as many processes as it has cores can starve the worker past the
        # supervisor's grace (seen at load 6-8 on 2 cores, when the race settled 0.5 s past the deadline;
        # it now settles 0.25 s past it): the supervisor's own line is then all. At any lesser load the
        # record is required.
        return
    found = "a solution, checked" in err
    if as_json:
        report = valid(json.loads(out))
        assert report["stopped"]["exit_code"] == code and "forced" not in report
        assert (report["status"], "solution" in report) == (("SAT", True) if found else ("UNKNOWN", False))
    else:
        assert ("forced in every solution: not decided" in out) == found and ("checked: yes" in out) == found
    if found:
        assert said(err, stop) == "a solution, checked; what every solution shares (--forced) was not decided"


def overloaded() -> bool:
    """Whether the machine's load is over three times its cores (the last minute's average)."""
    return os.getloadavg()[0] > 3 * (os.cpu_count() or 1)


@needs_proc
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("stop", STOPS)
def test_a_stopped_explanation_prints_its_steps(tmp_path, stop, as_json):
    code, out, err = stopped_run(["explain", "jig", JIG_9x9, *(["--json"] if as_json else [])], stop, tmp_path)
    assert code == STOPS[stop]
    by_then = said(err, stop)
    counted = re.match(r"([\d,]+) steps? found, every one replayed", by_then)
    steps = int(counted[1].replace(",", "")) if counted else 0
    assert counted or by_then == "no step found yet"
    if as_json:
        explained = valid(json.loads(out))
        assert explained["solved"] is False and explained["stopped"]["exit_code"] == code
        assert len(explained["steps"]) == steps
    else:
        assert len(re.findall(r"^step \d+: ", out, re.M)) == steps and "stopped by" in out


@needs_proc
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM to the worker"])
def test_a_stopped_bench_prints_and_writes_its_rows(tmp_path, stop):
    """bench has no whole-command limit (--timeout is each run's): a signal is its only stop."""
    code, out, err = stopped_run(["bench", "--puzzle", "jig", "--repeat", "1", "--out", str(tmp_path / "out")],
                                 stop, tmp_path)
    assert code == STOPS[stop]
    done = re.match(r"([\d,]+) of ([\d,]+) runs done", said(err, stop))
    assert done, err
    record = valid(json.loads((tmp_path / "out" / "bench.json").read_text()))
    assert len(record["samples"]) == int(done[1]) < int(done[2]) and record["stopped"]["exit_code"] == code
    assert f"wrote {tmp_path / 'out' / 'bench.json'}" in out
    assert len(re.findall(r"^jig ", out, re.M)) == len(record["rows"])
