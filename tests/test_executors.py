"""The executor seam: every task ends as one outcome (OK, TIMEOUT or ERROR) on every executor, and cube
and conquer counts the same on local processes and on a Dask cluster as the plain count."""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from puzzlesat.core.errors import PuzzlesatError
from puzzlesat.pipeline import executors
from puzzlesat.pipeline.executors import LocalExecutor, executor_for
from puzzlesat.processes.runner import Outcome

from .conftest import INSTANCES


def sleepy() -> int:
    time.sleep(30)
    return 1


def failing() -> int:
    raise PuzzlesatError("no such thing")


def dying() -> int:
    os._exit(3)


def fine() -> int:
    return 42



@contextmanager
def local_cluster(tmp_path: Path, **options: Any) -> Iterator[Any]:
    """A Dask cluster on this machine whose scratch space (and its lock files) is the test's own
    directory: by default Dask leaves ``dask-scratch-space`` in the shared /tmp."""
    import dask
    import distributed

    with dask.config.set({"temporary-directory": str(tmp_path)}), distributed.LocalCluster(**options) as cluster:
        yield cluster


def _clients_left(cluster: Any) -> set[str]:
    """The clients the cluster's scheduler still has, once those closed have gone (within 10 s)."""
    end = time.monotonic() + 10
    while len(cluster.scheduler.clients) > 1 and time.monotonic() < end:
        time.sleep(0.05)
    return set(cluster.scheduler.clients)


def test_every_task_has_one_outcome_on_local_processes():
    outcomes = dict(LocalExecutor(2).run([fine, sleepy, failing, fine], 1.0))
    assert sorted(outcomes) == [0, 1, 2, 3]
    assert [outcomes[n].status for n in range(4)] == ["OK", "TIMEOUT", "ERROR", "OK"]
    assert outcomes[0].value == 42 and "no such thing" in outcomes[2].error


def test_a_task_that_kills_its_process_is_an_error_not_a_lost_result():
    outcomes = dict(LocalExecutor(2).run([dying, fine], 5.0))
    assert outcomes[0].status == "ERROR" and outcomes[1].status == "OK"


def test_executor_names_are_checked():
    with pytest.raises(PuzzlesatError, match="expected local, local:N, dask://HOST:PORT"):
        executor_for("ray://x")
    assert executor_for("local:3").workers == 3
    cap = 8 * (os.cpu_count() or 1)
    assert executor_for(f"local:{cap}").workers == cap
    with pytest.raises(PuzzlesatError, match=f"at most {cap} local workers"):
        executor_for(f"local:{cap + 1}")  # local:2000 forked 2,000 workers (issue 34)
    with pytest.raises(PuzzlesatError, match="no such scheduler file"):
        executor_for("dask:///nonexistent/scheduler.json")  # Dask would wait for it forever


CASES = [("jig", "jig/matt5x5.jig", 6), ("jig", "jig/zhurgut_6x4.jig", 5), ("jig", "jig/lavoie5x5.jig", 8),
         ("jig", "jig/lavoie5x5.jig", "auto"),
         ("jigsaw", "aoc/2020-20/example.txt", 5), ("aquarium", "aquarium/pa-6x6-easy-681742.txt", 4)]


@pytest.mark.parametrize("puzzle,path,depth", CASES)
def test_cube_and_conquer_counts_what_the_plain_count_counts(run_cli, puzzle, path, depth):
    code, plain, _ = run_cli("count", puzzle, str(INSTANCES / path), "--json")
    assert code == 0
    code, cubed, err = run_cli("count", puzzle, str(INSTANCES / path), "--cubes", str(depth), "--executor", "local:2",
                               "--json")
    assert code == 0, err
    plain_answers, report = json.loads(plain)["answers"], json.loads(cubed)
    assert report["answers"] == plain_answers
    for label, stats in report["cubes"].items():
        assert stats["cubes"] == len(stats["seconds"]) >= 1 and label in plain_answers and stats["split_seconds"] > 0


def formulas_built_here() -> int:
    """How many formulas this process (a Dask worker's own, run through ``Client.run``) keeps for cubes."""
    from puzzlesat.pipeline import cubes

    return len(cubes._BUILT)


def test_a_cube_task_digests_the_formula_once_per_build(monkeypatch):
    """Every cube checked that the worker's formula is the one split by its digest, made again for each
    cube: 0.39 s a cube at 10x10, as long as most cubes take. It is made once, with the formula."""
    from puzzlesat.encoders import get_puzzle
    from puzzlesat.pipeline import cubes
    from puzzlesat.pipeline.request import request
    from puzzlesat.pipeline.steps import load

    jig = get_puzzle("jig")
    instance = load(jig, str(INSTANCES / "jig" / "lavoie5x5.jig"))
    counting = request(jig, counting=True)
    encoding = jig.encode(instance, counting.encoding, counting.options)
    digest = cubes.formula_digest(encoding)
    made = []
    monkeypatch.setattr(cubes, "formula_digest", lambda formula: made.append(1) or digest)
    monkeypatch.setattr(cubes, "_BUILT", {})
    monkeypatch.setattr(cubes, "_KEPT", {})
    split = cubes.split(encoding, 4)
    total = sum(cubes.CubeTask(counting, instance, digest, cube)() for cube in split.open)
    assert total == 80 and len(made) == 1 and len(split.open) > 1


def test_a_worker_counts_its_cubes_in_one_kept_session(monkeypatch):
    """A fresh solver for each cube loaded the whole formula again (0.14 s at zhurgut_9x9, for 0.03 s of
    search): a worker now opens one session and counts every cube under assumptions. The same cubes,
    counted again in the same session in another order, give the same counts (a cube's blocking clauses
    are retired with it), and every layout found passed the checker."""
    from puzzlesat.encoders import get_puzzle
    from puzzlesat.pipeline import cubes
    from puzzlesat.pipeline.request import request
    from puzzlesat.pipeline.steps import load

    jig = get_puzzle("jig")
    instance = load(jig, str(INSTANCES / "jig" / "lavoie5x5.jig"))
    counting = request(jig, counting=True)
    assert counting.backend.assumes
    encoding = jig.encode(instance, counting.encoding, counting.options)
    monkeypatch.setattr(cubes, "_BUILT", {})
    monkeypatch.setattr(cubes, "_KEPT", {})
    opened = []
    real_open = type(counting.backend).open
    monkeypatch.setattr(type(counting.backend), "open", lambda self, formula: opened.append(1) or real_open(self, formula))
    split = cubes.split(encoding, 4)
    digest = cubes.formula_digest(encoding)
    first = [cubes.CubeTask(counting, instance, digest, cube)() for cube in split.open]
    again = [cubes.CubeTask(counting, instance, digest, cube)() for cube in reversed(split.open)]
    assert sum(first) == 80 and again == first[::-1] and len(opened) == 1


def test_a_split_made_on_the_workers_is_the_split_made_here(monkeypatch):
    """The split of zhurgut_10x10 to depth 14 took 33-36 s in the one process that made it: it is made
    in parts on the executor's workers, and gives the very cubes the one process gives."""
    from puzzlesat.encoders import get_puzzle
    from puzzlesat.pipeline import cubes
    from puzzlesat.pipeline.request import request
    from puzzlesat.pipeline.steps import load

    jig = get_puzzle("jig")
    instance = load(jig, str(INSTANCES / "jig" / "lavoie5x5.jig"))
    counting = request(jig, counting=True)
    encoding = jig.encode(instance, counting.encoding, counting.options)
    digest = cubes.formula_digest(encoding)
    for kept in ("_BUILT", "_KEPT", "_SPLITTER"):
        monkeypatch.setattr(cubes, kept, {})
    cubes._keep((jig.name, counting.encoding, counting.options, instance), encoding, digest)
    made, task = [], cubes.SplitTask
    monkeypatch.setattr(cubes, "SplitTask", lambda *given: made.append(given) or task(*given))
    here = cubes.split(encoding, 9)
    there = cubes.split_across(counting, instance, encoding, digest, 9, LocalExecutor(2))
    assert there == here and len(made) == len(cubes.split(encoding, 4).open) > 1 and len(here.open) > len(made)


def test_cube_and_conquer_on_a_local_dask_cluster(run_cli, tmp_path):
    pytest.importorskip("distributed")
    with local_cluster(tmp_path, n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        code, out, err = run_cli("count", "jig", str(INSTANCES / "jig" / "lavoie5x5.jig"), "--cubes", "6",
                                 "--executor", f"dask://{address}", "--json")
        assert code == 0, err
        report = json.loads(out)
        assert report["answers"] == {"solutions": 80, "up_to_rotation": 20}
        assert report["cubes"]["solutions"]["executor"] == "dask" and report["cubes"]["solutions"]["workers"] == 2
        # each worker built the formula in its own process, so that its cubes' children inherit it: built
        # in each child, it was built again for every cube (zhurgut_9x9 on 2 workers: 166 s, now 71 s)
        from distributed import Client

        with Client(cluster.scheduler_address, set_as_default=False) as client:
            assert list(client.run(formulas_built_here).values()) == [1, 1]
        # one formula counted three times: each worker's session, kept from the counts before, blocking
        # clauses and all, counts the next one's cubes exactly (each cube's blocks retired with it)
        formula = tmp_path / "f.cnf"
        formula.write_text("p cnf 6 3\nc p show 1 2 3 4 0\n1 2 0\n-3 4 0\n5 6 0\n")
        for _ in range(3):
            code, out, err = run_cli("count", "cnf", str(formula), "--cubes", "3", "--executor", f"dask://{address}",
                                     "--json")
            assert code == 0 and json.loads(out)["answers"] == {"solutions": 9}, err
        assert _clients_left(cluster) == {"fire-and-forget"}
        executor = executor_for(f"dask://{address}")
        try:
            outcomes = dict(executor.run([fine, sleepy, failing], 1.0))
        finally:
            executor.close()
        assert [outcomes[n].status for n in range(3)] == ["OK", "TIMEOUT", "ERROR"]
        # the address as Dask writes it (tls:// was prefixed tcp:// and refused), and a scheduler file
        scheduler_file = tmp_path / "scheduler.json"
        scheduler_file.write_text(json.dumps({"type": "Scheduler", "address": cluster.scheduler_address}))
        for spec in (f"dask://{cluster.scheduler_address}", f"dask://{scheduler_file}"):
            executor = executor_for(spec)
            try:
                outcomes = dict(executor.run([fine], 5.0))
            finally:
                executor.close()
            assert outcomes[0].status == "OK" and outcomes[0].value == 42, spec


#: a module whose import takes a while (the seconds in PUZZLESAT_TEST_IMPORT_SECONDS, none unless set), and
#: a task whose ``prepare`` (run in the worker before it forks) waits until another thread is importing it
SLOW_MODULE = """import os, time
time.sleep(float(os.environ.get("PUZZLESAT_TEST_IMPORT_SECONDS", "0")))
def answer():
    return "imported"
"""
WAITING_TASK = """import sys, time
class WaitsForTheImport:
    seen = False
    def prepare(self):
        end = time.monotonic() + 30
        while "slow_to_import" not in sys.modules and time.monotonic() < end:
            time.sleep(0.01)
        self.seen = "slow_to_import" in sys.modules
    def __call__(self):
        return self.seen
"""


@pytest.fixture
def slow_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """:data:`SLOW_MODULE` and :data:`WAITING_TASK` importable here (and in workers spawned from here), and
    gone from ``sys.modules`` after the test."""
    import sys

    (tmp_path / "slow_to_import.py").write_text(SLOW_MODULE)
    (tmp_path / "waits_for_the_import.py").write_text(WAITING_TASK)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("slow_to_import", "waits_for_the_import"):
        sys.modules.pop(name, None)


def _import_and_send(conn: Any) -> None:
    import slow_to_import  # type: ignore[import-not-found]

    conn.send(slow_to_import.answer())


def test_a_forked_child_imports_what_another_thread_was_importing(slow_module, monkeypatch):
    """A child forked while another thread is inside an import finishes that import itself: the module's
    lock was copied held, and the child waited for a thread it does not have (a Dask worker's kept child
    hung until its limit; :func:`~puzzlesat.processes.children.forget_other_threads_imports`)."""
    import sys
    import threading

    from puzzlesat.processes.runner import Child

    monkeypatch.setenv("PUZZLESAT_TEST_IMPORT_SECONDS", "3")
    importing = threading.Thread(target=__import__, args=("slow_to_import",))
    importing.start()
    try:
        while "slow_to_import" not in sys.modules:  # its body runs: its lock is held
            time.sleep(0.01)
        child = Child(_import_and_send)
        try:
            assert child.conn.poll(30), "the child hung on the import another thread held"
            assert child.conn.recv() == "imported"
        finally:
            child.stop()
    finally:
        importing.join()


def _compile_and_send(conn: Any) -> None:
    import numba

    conn.send(numba.njit(lambda x: x + 1)(41))


def test_a_child_forked_while_another_thread_compiles_can_compile(monkeypatch):
    """A fork waits while another thread holds numba's compiler lock (a Dask worker with several threads:
    one task loading its kernels while another forks its kept child): forked in the middle, the child
    had the lock held for ever, and its first compilation hung."""
    pytest.importorskip("numba")
    import threading

    from numba.core.compiler_lock import global_compiler_lock

    from puzzlesat.processes.runner import Child

    held, done = threading.Event(), threading.Event()

    def compiling() -> None:
        with global_compiler_lock:
            held.set()
            done.wait(2.0)  # as long as a kernel takes to compile or load

    thread = threading.Thread(target=compiling)
    thread.start()
    try:
        held.wait()
        child = Child(_compile_and_send)
        try:
            assert child.conn.poll(60), "the child hung on the compiler lock another thread held"
            assert child.conn.recv() == 42
        finally:
            child.stop()
    finally:
        done.set()
        thread.join()


def test_a_kept_child_on_a_dask_worker_imports_the_next_tasks_modules(slow_module, tmp_path, monkeypatch):
    """The worker's event loop unpickles a queued task (importing its modules) while the running task
    forks the worker's kept child; the queued task then runs in that child: it used to wait there on
    the import lock until its limit (a cross-check's two solver rows TIMEOUT in CI, 0.1 s each alone)."""
    pytest.importorskip("distributed")
    import slow_to_import  # type: ignore[import-not-found]
    import waits_for_the_import  # type: ignore[import-not-found]

    monkeypatch.setenv("PUZZLESAT_TEST_IMPORT_SECONDS", "2")  # in the workers only: they start after this
    with local_cluster(tmp_path, n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        executor = executor_for(f"dask://{cluster.scheduler_address}")
        try:
            outcomes = dict(executor.run([waits_for_the_import.WaitsForTheImport(), slow_to_import.answer], 30.0))
        finally:
            executor.close()
    assert outcomes[0].status == "OK" and outcomes[0].value is True, "the second task was not being unpickled"
    assert outcomes[1].status == "OK" and outcomes[1].value == "imported", outcomes[1]


def test_a_client_that_fails_without_a_word_is_named_with_its_line(monkeypatch):
    """Dask's client fails on some paths with a bare ``assert`` (CI once: "no Dask scheduler answers there
    (AssertionError)", which said nothing to follow): the line of Dask's that raised is named."""
    distributed = pytest.importorskip("distributed")

    def failing_client(**_: Any) -> None:
        raise AssertionError

    monkeypatch.setattr(distributed, "Client", failing_client)
    monkeypatch.setattr(executors, "_require_dask_speaks", lambda url, address: None)  # nothing listens at :9
    with pytest.raises(PuzzlesatError, match=r"no Dask scheduler answers there \(AssertionError at "
                                             r"tests/test_executors\.py:\d+, 3 times\)$"):
        executor_for("dask://127.0.0.1:9")


def test_a_handshake_that_meets_another_clients_cancellation_is_tried_again(tmp_path, monkeypatch):
    """Dask's scheduler tells every client of any client's cancellation, and a client whose handshake is
    told one fails on an ``assert`` (2 of 100 connections while another client cancelled in a loop; CI
    once, as the cluster test's next client connected while the one before cancelled its futures)."""
    distributed = pytest.importorskip("distributed")
    real, tries = distributed.Client, []

    def unlucky_once(**options: Any) -> Any:
        tries.append(options)
        if len(tries) == 1:
            raise AssertionError
        return real(**options)

    monkeypatch.setattr(distributed, "Client", unlucky_once)
    with local_cluster(tmp_path, n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        executor = executor_for(f"dask://{cluster.scheduler_address}")
        try:
            cancelled: list[Any] = []
            monkeypatch.setattr(executor.client, "cancel", lambda futures, **_: cancelled.append(futures))
            outcomes = dict(executor.run([fine, fine], 5.0))
        finally:
            executor.close()
    assert len(tries) == 2 and [outcomes[n].value for n in range(2)] == [42, 42]
    assert cancelled == []  # a run that ended cancels nothing: no cancellation told to every client


def test_no_scheduler_is_one_line(run_cli):
    pytest.importorskip("distributed")
    code, _, err = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--cubes", "2",
                           "--executor", "dask://127.0.0.1:9")
    assert code == 2 and "no Dask scheduler answers there" in err and len(err.strip().splitlines()) == 1


def test_crosscheck_on_a_local_dask_cluster(run_cli, tmp_path):
    """The methods of a cross-check as tasks on the cluster's workers: the same rows and verdicts as
    one after the other here."""
    pytest.importorskip("distributed")
    path = str(INSTANCES / "jig" / "matt5x5.jig")
    code, here, _ = run_cli("crosscheck", "jig", path, "--backends", "cadical,glucose", "--json")
    assert code == 0
    with local_cluster(tmp_path, n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        code, there, err = run_cli("crosscheck", "jig", path, "--backends", "cadical,glucose", "--executor",
                                   f"dask://{address}", "--json")
        # the command closed its client (left open, each kept a connection and a thread in this process)
        assert _clients_left(cluster) == {"fire-and-forget"}
    assert code == 0, err
    rows_here, rows_there = json.loads(here)["rows"], json.loads(there)["rows"]
    assert [(r["method"], r["status"], r["answers"], r["agrees"]) for r in rows_there] == \
        [(r["method"], r["status"], r["answers"], r["agrees"]) for r in rows_here]


def test_bench_on_a_local_dask_cluster(run_cli, tmp_path):
    """A benchmark sweep as tasks on the cluster: every run one sample, a run past its limit a TIMEOUT."""
    pytest.importorskip("distributed")
    with local_cluster(tmp_path, n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        code, out, err = run_cli("bench", "--puzzle", "jig", "--instances", str(INSTANCES / "jig"), "--repeat", "1",
                                 "--timeout", "0.3", "--executor", f"dask://{address}", "--out", str(tmp_path))
    assert code == 0, err
    runs = json.loads((tmp_path / "bench.json").read_text())["samples"]
    jigs = len(list((INSTANCES / "jig").glob("*.jig")))
    assert len(runs) == 2 * jigs  # the reference and the default backend on each, once
    statuses = {(r["instance"].rsplit("/", 1)[-1], r["method"]): r["status"] for r in runs}
    assert statuses["matt5x5.jig", "reference"] == "SAT" and statuses["matt5x5.jig", "pysat:cadical195"] == "SAT"
    assert statuses["zhurgut_11x11.jig", "pysat:cadical195"] == "TIMEOUT"  # its encode alone takes 0.7 s


def test_cube_and_conquer_counts_a_dimacs_file_projected(run_cli, tmp_path):
    """Any CNF: 3 x 3 projected solutions (x5, x6 hidden), as the plain count says."""
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 6 3\nc p show 1 2 3 4 0\n1 2 0\n-3 4 0\n5 6 0\n")
    code, out, err = run_cli("count", "cnf", str(path), "--cubes", "3", "--executor", "local:2", "--json")
    assert code == 0, err
    assert json.loads(out)["answers"] == {"solutions": 9}


def test_a_dask_task_that_dies_is_an_error_row(tmp_path):
    """A task runs in a forked child on its worker, with or without a limit (so that it can be stopped):
    a task that kills its process kills that child, not the worker, and is an ERROR outcome; the task
    beside it on the same worker answers."""
    pytest.importorskip("distributed")
    with local_cluster(tmp_path, n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        executor = executor_for(f"dask://{cluster.scheduler_address.removeprefix('tcp://')}")
        ended = list(executor.run([dying, fine], None))
    outcomes = dict(ended)
    assert len(ended) == 2 and sorted(outcomes) == [0, 1]
    assert outcomes[0].status == "ERROR" and outcomes[1].status == "OK" and outcomes[1].value == 42


def child_pid() -> int:
    return os.getpid()


def gone(pid: int) -> bool:
    for _ in range(300):
        if not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z":
            return True
        time.sleep(0.05)
    return False


def test_a_dask_worker_keeps_one_child_for_its_tasks(tmp_path):
    """Each task forked a child of its own (about 7 ms a task here, and a worker runs a count's thousands
    of cubes); a worker thread keeps its child for the next task, and forgets it when a task kills it or
    runs out of time, and the task after it runs in a new one."""
    pytest.importorskip("distributed")
    with local_cluster(tmp_path, n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        executor = executor_for(f"dask://{cluster.scheduler_address.removeprefix('tcp://')}")
        first = [outcome for _, outcome in executor.run([child_pid, child_pid, child_pid], None)]
        assert [outcome.status for outcome in first] == ["OK"] * 3
        kept = {outcome.value for outcome in first}
        assert len(kept) == 1
        (_, died), = executor.run([dying], None)
        (_, after_death), = executor.run([child_pid], None)
        assert died.status == "ERROR" and after_death.status == "OK" and after_death.value not in kept
        (_, slow), = executor.run([sleepy], 0.5)
        assert slow.status == "TIMEOUT" and gone(after_death.value)
        (_, fresh), = executor.run([child_pid], None)
        (_, failed), = executor.run([failing], None)
        (_, again), = executor.run([child_pid], None)
        assert fresh.status == "OK" and fresh.value not in kept | {after_death.value}
        assert failed.status == "ERROR" and "no such thing" in failed.error
        assert again.value == fresh.value  # a task's own failure leaves the child for the next
        executor.close()


def says_then_sleeps(path: str) -> int:
    with open(path, "w") as handle:
        handle.write(str(os.getpid()))
    time.sleep(120)
    return 1


def test_a_dask_task_stops_running_when_its_client_goes(tmp_path):
    """Ctrl-C of 'count --cubes --executor dask://' left its cubes running on the workers (a worker busy
    57 CPU-seconds after exit 130), with or without --timeout: the task's process is killed as soon as
    its worker drops the task, here because the client went away."""
    import contextlib
    import threading
    from functools import partial

    pytest.importorskip("distributed")
    marker = tmp_path / "pid"
    with local_cluster(tmp_path, n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        executor = executor_for(f"dask://{cluster.scheduler_address.removeprefix('tcp://')}")
        runs = executor.run([partial(says_then_sleeps, str(marker))], None)

        def wait_for_it() -> None:  # ends when the client below goes: Dask says so with an error, expected here
            with contextlib.suppress(Exception):
                list(runs)
        threading.Thread(target=wait_for_it, daemon=True).start()
        for _ in range(600):
            if marker.exists() and marker.read_text():
                break
            time.sleep(0.05)
        pid = int(marker.read_text())
        executor.close()
        for _ in range(300):
            if not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z":
                break
            time.sleep(0.05)
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"


def test_a_scheduler_without_workers_is_one_line(tmp_path):
    """The client waited without a word for workers that never came."""
    pytest.importorskip("distributed")
    with local_cluster(tmp_path, n_workers=0, dashboard_address=None) as cluster:
        start = time.monotonic()
        with pytest.raises(PuzzlesatError, match="the scheduler has no workers"):
            executor_for(f"dask://{cluster.scheduler_address.removeprefix('tcp://')}")
        assert time.monotonic() - start < 60


JIG_7X7 = INSTANCES / "jig" / "zhurgut_7x7.jig"


def expected_jig_counts(path: Path) -> dict[str, int]:
    total, classes = map(int, path.with_suffix(".expected").read_text().split())
    return {"solutions": total, "up_to_rotation": classes}


def test_the_jigs_own_search_runs_its_parts_as_an_executors_tasks(run_cli):
    """``count --executor`` without ``--cubes``: the compiled search's parts are the executor's tasks
    (issue 47, item 4), not raced, every layout checked."""
    code, out, err = run_cli("count", "jig", str(JIG_7X7), "--executor", "local:2", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["answers"] == expected_jig_counts(JIG_7X7) and report["checked"]
    assert report["method"] == "compiled search on 2 cores" and "raced" not in report


def compiled_here() -> bool:
    """Whether this process (a Dask worker's own, run through ``Client.run``) has the jig's kernel compiled."""
    from puzzlesat.encoders.jig import compiled

    return compiled.KERNEL.in_process()


def test_the_jigs_own_search_on_a_local_dask_cluster(run_cli, tmp_path):
    """The parts are Dask tasks, every count checked; and each worker compiles (loads) the kernel in its
    own process before forking a part's child, so that the children inherit it: each child loaded it
    again, 0.5 s a part (a count on 2 workers took 2.6 s for 0.1 s of search)."""
    pytest.importorskip("distributed")
    from distributed import Client

    with local_cluster(tmp_path, n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        code, out, err = run_cli("count", "jig", str(JIG_7X7), "--executor", f"dask://{address}", "--json")
        with Client(cluster.scheduler_address, set_as_default=False) as client:
            warm = client.run(compiled_here)
    assert code == 0, err
    report = json.loads(out)
    assert report["answers"] == expected_jig_counts(JIG_7X7) and report["method"] == "compiled search on dask x2"
    assert list(warm.values()) == [True, True]


class FailingPart(LocalExecutor):
    """Runs the parts, then reports the second one as lost (as a Dask task whose worker died for good)."""

    def run(self, tasks: Any, limit: Any, until: Any = None) -> Iterator[tuple[int, Outcome[Any]]]:
        for number, outcome in super().run(tasks, limit):
            yield number, (Outcome("ERROR", error="KilledWorker: the worker died") if number == 1 else outcome)


def test_a_lost_part_fails_the_count_rather_than_undercounting():
    from puzzlesat.encoders.jig import PUZZLE
    from puzzlesat.encoders.jig.counting import reference_counts

    jig = PUZZLE.parse(JIG_7X7.read_text(), str(JIG_7X7))
    with pytest.raises(PuzzlesatError, match="a part ended ERROR KilledWorker"):
        reference_counts(jig, executor=FailingPart(2))
    assert reference_counts(jig, executor=LocalExecutor(2)).layouts == expected_jig_counts(JIG_7X7)["solutions"]


@pytest.mark.parametrize("args,message", [
    (("dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt")), "parts of a puzzle's own search, which dice has not"),
    (("jig", str(JIG_7X7), "--backend", "glucose"), "runs the puzzle's own search, which counts with its default"),
    (("jig", str(JIG_7X7), "--list"), "runs the puzzle's own search, which counts with its default"),
    (("jig", str(JIG_7X7), "--jsonl"), "--jsonl streams one enumeration in this process"),
])
def test_an_executor_without_cubes_is_refused_where_no_search_can_use_it(run_cli, args, message):
    code, _, err = run_cli("count", *args, "--executor", "local:2")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
