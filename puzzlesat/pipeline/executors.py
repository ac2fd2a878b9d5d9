"""Where independent tasks run: local processes (the default), or a Dask cluster (``dask://HOST:PORT``).

This module is only the seam. On one machine the tasks run in the toolkit's one process runner
(:func:`puzzlesat.processes.runner.run_each`: a forked child per task, so nothing is pickled); on a cluster,
Dask's client distributes them; there is no queue, retry or wire protocol here. What is ours is the same
guard around every task on every executor: the task's own time limit, enforced where it runs by a
forked child that is killed at the limit, and its end turned into one :class:`Outcome`, so that a task
that runs out of time is a TIMEOUT, one that fails (or whose worker dies) an ERROR, and no result is
lost or counted twice.
"""
from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..core.errors import PuzzlesatError, SolverTimeout
from ..core.reporting import check_stop
from ..core.timing import UNLIMITED, Deadline
from ..processes.runner import Outcome, run_each

T = TypeVar("T")

#: the prefix of a Dask scheduler address on the command line
DASK = "dask://"
#: how long a Dask client waits for the scheduler's first worker before it says there is none
WORKERS_WAIT = 5.0
#: how many times a Dask client tries to connect when the handshake fails on Dask's own ``assert``: the
#: scheduler tells every client of any client's cancelled tasks, and one told within the 2 ms in which
#: its handshake's ``stream-start`` waits to be sent gets two messages where it asserts one (2 of 100
#: connections failed so while another client cancelled in a loop; CI failed once on it)
HANDSHAKES = 3
#: how often a run on Dask looks for finished tasks when none is ready (and so for its deadline and a
#: signal's request to stop, which Dask's own wait for results would not see)
RESULTS_POLL = 0.02
#: local workers per core at most: past that they only share the cores and memory (``local:2000``
#: would fork 2,000 processes)
WORKERS_PER_CORE = 8


def guarded(task: Callable[[], T], limit: float | None) -> Outcome[T]:
    """Run ``task`` under ``limit`` seconds, hard (a forked child), and say how it ended. On a Dask
    worker the child is also killed when the task is cancelled there: by the client (Ctrl-C, the
    command's deadline, an error) or because the client went away (a killed command), with or without
    a limit; a running Dask task is not stopped by Dask itself (it kept counting for minutes). There the
    child is kept for the worker thread's next task (:func:`~puzzlesat.backends.forking.call_kept`). A
    task with a ``prepare()`` method has it called here first, in the worker's own process, so that what
    it prepares (compiled code, a built formula) is inherited by every child forked after it."""
    from ..backends.forking import call_kept, call_with_timeout

    _allow_children()
    prepare = getattr(task, "prepare", None)
    if callable(prepare):  # what every task's child would do again (compiling): done once, in this worker
        prepare()
    start = time.perf_counter()
    deadline = Deadline.after(limit)  # on this worker's clock, from the task's start here
    cancelled = _dask_cancellation()
    try:
        value = (call_with_timeout(task, deadline, "task") if cancelled is None
                 else call_kept(task, deadline, "task", cancelled))
    except SolverTimeout as exc:
        return Outcome("TIMEOUT", error=str(exc), seconds=time.perf_counter() - start)
    except PuzzlesatError as exc:
        return Outcome("ERROR", error=str(exc), seconds=time.perf_counter() - start)
    return Outcome("OK", value, seconds=time.perf_counter() - start)


def _dask_cancellation() -> Callable[[], bool] | None:
    """Inside a Dask task: whether the worker has since been told to drop it (its state 'cancelled',
    or gone); None anywhere else."""
    try:
        from distributed import get_worker
        from distributed.utils import thread_state  # type: ignore[attr-defined]  # the running task's key

        worker, key = get_worker(), thread_state.key
    except (ImportError, ValueError, AttributeError):  # not in a Dask worker's task
        return None

    def cancelled() -> bool:
        state = worker.state.tasks.get(key)
        return state is None or state.state in ("cancelled", "released", "forgotten")
    return cancelled


def _allow_children() -> None:
    """Dask runs tasks in daemonic worker processes, and multiprocessing refuses to start a child from a
    daemon (so that no child outlives it). The limit's child may be started: it dies with its parent
    anyway (``PR_SET_PDEATHSIG``, set by every fork target here)."""
    import multiprocessing

    current = multiprocessing.current_process()
    if current.daemon:
        current.daemon = False


class Executor(ABC):
    """Runs independent tasks, each under its own time limit, and yields (task number, outcome) as
    they finish; at ``until`` (the whole run's deadline) it stops with
    :class:`~puzzlesat.core.errors.SolverTimeout`, or yields the tasks still running as TIMEOUT outcomes."""

    name: str

    @abstractmethod
    def run(self, tasks: Sequence[Callable[[], T]], limit: float | None,
            until: Deadline = UNLIMITED) -> Iterator[tuple[int, Outcome[T]]]: ...

    @property
    @abstractmethod
    def workers(self) -> int:
        """How many tasks run at once."""

    def close(self) -> None:  # noqa: B027  (most executors hold nothing between runs)
        """Let go of what the executor holds (a Dask client's connection and its thread); a command
        that made an executor closes it when it ends."""


class LocalExecutor(Executor):
    """Forked processes on this machine, one per core unless told (:func:`~puzzlesat.processes.runner.run_each`)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self._workers = workers or os.cpu_count() or 1

    @property
    def workers(self) -> int:
        return self._workers

    def run(self, tasks: Sequence[Callable[[], T]], limit: float | None,
            until: Deadline = UNLIMITED) -> Iterator[tuple[int, Outcome[T]]]:
        return run_each(tasks, self._workers, limit, until=until)


class DaskExecutor(Executor):
    """The workers of a running Dask scheduler (``dask://HOST:PORT``), through its client."""

    name = "dask"

    def __init__(self, address: str) -> None:
        """``address`` as Dask writes it: ``HOST:PORT`` (TCP), ``tls://HOST:PORT`` or another of Dask's
        schemes, or the path of a scheduler file (``dask scheduler --scheduler-file``). TLS takes its
        certificates from Dask's own configuration (``distributed.comm.tls``), as ``dask worker`` does."""
        try:
            from distributed import Client
        except ImportError:
            raise PuzzlesatError("--executor dask://...: Dask is not installed: pip install 'puzzlesat[dist]'") from None
        if address.endswith(".json") and not os.path.isfile(address):  # Dask would wait for it forever
            raise PuzzlesatError(f"--executor {DASK}{address[:60]}: no such scheduler file")
        where = {"scheduler_file": address} if address.endswith(".json") else \
            {"address": address if "://" in address else f"tcp://{address}"}
        if where.get("address", "").startswith("tcp://"):
            _require_dask_speaks(where["address"], address)
        for attempt in range(1, HANDSHAKES + 1):
            try:
                self.client = Client(**where, timeout=5, set_as_default=False)
                break
            except AssertionError as exc:  # the handshake met another client's cancellation: again
                if attempt == HANDSHAKES:
                    raise PuzzlesatError(f"--executor {DASK}{address[:60]}: no Dask scheduler answers there "
                                         f"({_why(exc)}, {HANDSHAKES} times)") from None
            except Exception as exc:  # Dask says why in many types (OSError, ValueError, TypeError for TLS)
                raise PuzzlesatError(f"--executor {DASK}{address[:60]}: no Dask scheduler answers there "
                                     f"({_why(exc)})") from None
        try:  # a scheduler without workers would hold every task, without a word, for ever
            self.client.wait_for_workers(1, timeout=WORKERS_WAIT)
        except Exception:  # noqa: BLE001 (Dask raises TimeoutError, or OSError when the scheduler goes)
            self.client.close()
            raise PuzzlesatError(f"--executor {DASK}{address[:60]}: the scheduler has no workers (none joined within "
                                 f"{WORKERS_WAIT:g} s: start some with 'dask worker ADDRESS')") from None

    @property
    def workers(self) -> int:
        workers = self.client.scheduler_info()["workers"].values()
        return max(1, sum(int(info.get("nthreads", 1)) for info in workers))

    def run(self, tasks: Sequence[Callable[[], T]], limit: float | None,
            until: Deadline = UNLIMITED) -> Iterator[tuple[int, Outcome[T]]]:
        from distributed import as_completed

        futures = {self.client.submit(guarded, task, limit, pure=False): number for number, task in enumerate(tasks)}
        try:
            finished = as_completed(list(futures), loop=self.client.loop)
            while not finished.is_empty():  # looked at often: the deadline and a signal's request come first
                check_stop()
                if until.passed():
                    raise SolverTimeout("dask", until.seconds or 0.0)
                batch = finished.next_batch(block=False) if finished.has_ready() else []
                for future in batch:
                    yield futures[future], _outcome(future)
                if not batch:
                    time.sleep(RESULTS_POLL)
        finally:  # only what still runs: the scheduler tells every client of a cancellation (see HANDSHAKES)
            running = [future for future in futures if not future.done()]
            if running:
                self.client.cancel(running)

    def close(self) -> None:
        self.client.close()


#: how long a TCP address has to start Dask's handshake (a scheduler sends its own at once, unasked)
HANDSHAKE_WAIT = 5.0


def _require_dask_speaks(url: str, address: str) -> None:
    """Refuse a TCP address where no Dask scheduler listens, before Dask's client tries it: pointed at
    a port that reads first and answers later (an HTTP server, Dask's own dashboard), the client sent
    its handshake, read the answer's first bytes as a frame length of some 10^18 bytes and waited for
    them for ever. A Dask scheduler writes its handshake as soon as a connection opens: 8 bytes of
    length, then the number of frames (a few) as 8 more."""
    import socket
    import struct

    host, _, port = url.removeprefix("tcp://").rpartition(":")
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)), timeout=HANDSHAKE_WAIT)
    except (OSError, ValueError) as exc:
        raise PuzzlesatError(f"--executor {DASK}{address[:60]}: no Dask scheduler answers there ({_why(exc)})") from None
    said = b""
    with connection:
        try:
            while len(said) < 16:
                chunk = connection.recv(16 - len(said))
                if not chunk:
                    break
                said += chunk
        except OSError:  # a time-out too: connected, and nothing said
            pass
    if len(said) < 16 or not 1 <= struct.unpack("<Q", said[8:16])[0] <= 64:
        raise PuzzlesatError(f"--executor {DASK}{address[:60]}: something listens there, but not a Dask scheduler "
                             "(it does not start Dask's handshake: an HTTP port such as the dashboard's?)")


def _why(exc: Exception) -> str:
    """The first line of what ``exc`` says; where it says nothing (one of Dask's own ``assert`` lines),
    its type and the line of Dask's that raised it, so that a report of it can be followed."""
    said = str(exc).splitlines()
    if said and said[0].strip():
        return said[0][:160]
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {'/'.join(frames[-1].filename.split(os.sep)[-2:])}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}{where}"


def _outcome(future: Any) -> Outcome[Any]:
    """The outcome a finished future holds; a task that could not finish (its worker died, the pool
    broke) is an ERROR outcome, not an exception that would lose the other results."""
    try:
        outcome: Outcome[Any] = future.result()
    except Exception as exc:  # the engine's report of a lost task
        return Outcome("ERROR", error=f"{type(exc).__name__}: {exc}".splitlines()[0])
    return outcome


def executor_for(spec: str | None) -> Executor:
    """``None`` or ``local`` (or ``local:N`` workers, at most :data:`WORKERS_PER_CORE` a core), or
    ``dask://ADDRESS``; anything else is refused."""
    if spec is None or spec == "local":
        return LocalExecutor()
    if spec.startswith("local:") and spec[6:].isdigit() and int(spec[6:]) > 0:
        cores = os.cpu_count() or 1
        if int(spec[6:]) > WORKERS_PER_CORE * cores:
            raise PuzzlesatError(f"--executor {spec[:20]}: at most {WORKERS_PER_CORE * cores} local workers on "
                                 f"this machine's {cores} cores ({WORKERS_PER_CORE} a core)")
        return LocalExecutor(int(spec[6:]))
    if spec.startswith(DASK) and len(spec) > len(DASK):
        return DaskExecutor(spec[len(DASK):])
    raise PuzzlesatError(f"--executor {spec[:60]}: expected local, local:N, dask://HOST:PORT, "
                         "dask://tls://HOST:PORT or dask://SCHEDULER-FILE.json")
