"""Independent tasks in killable children on this machine: each task forked into a process group of its
own, at most ``workers`` at a time, each under its own time limit, each ending as one :class:`Outcome`.

The task is not pickled: a forked child finds it (and every formula the parent built) in its memory, so
closures and unpicklable solver state are fine; only the result crosses back, through a pipe. A task
still running at its limit is killed with its whole group (its own solver processes too), a task that
fails or dies is an ERROR outcome, and every task gives exactly one outcome. The local executor, bench's
runs and a cross-check's parallel methods all run here.
"""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from .errors import PuzzlesatError, SolverTimeout
from .processes import die_with_parent

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """How one task ended: ``status`` OK (with ``value``), TIMEOUT or ERROR (with ``error``), after
    ``seconds`` of wall time where it ran."""

    status: str
    value: T | None = None
    error: str = ""
    seconds: float = 0.0


def run_each(tasks: Sequence[Callable[[], T]], workers: int, limit: float | None,
             skip: Callable[[int], bool] = lambda number: False) -> Iterator[tuple[int, Outcome[T]]]:
    """Run every task in its own forked child, at most ``workers`` at a time, each killed past ``limit``
    seconds; yield (task number, outcome) as each ends. ``skip(number)``, asked when a task's turn comes,
    leaves it out (no outcome: the caller knows why, e.g. a method's earlier repeat timed out)."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    ctx = multiprocessing.get_context("fork")
    queue = list(range(len(tasks)))
    running: dict[Connection, tuple[int, Any, float]] = {}
    try:
        while queue or running:
            while queue and len(running) < workers:
                number = queue.pop(0)
                if skip(number):
                    continue
                receiver, sender = ctx.Pipe(duplex=False)
                # not a daemon: a task may start processes of its own (portfolio members, forked solver calls)
                process = ctx.Process(target=_child, args=(sender, tasks[number]))
                process.start()
                sender.close()
                running[receiver] = (number, process, time.perf_counter())
            if not running:
                continue
            now = time.perf_counter()
            waits = [start + limit - now for _, _, start in running.values()] if limit is not None else []
            for answered in wait(list(running), max(0.0, min(waits)) if waits else None):
                conn = cast(Connection, answered)
                number, process, start = running.pop(conn)
                try:
                    outcome: Outcome[T] = conn.recv()
                except EOFError:
                    outcome = Outcome("ERROR", error=f"the process died (exit code {_ended(process)})")
                _kill_group(process)
                conn.close()
                yield number, Outcome(outcome.status, outcome.value, outcome.error, time.perf_counter() - start)
            now = time.perf_counter()
            for conn, (number, process, start) in list(running.items()):
                if limit is not None and now - start >= limit:
                    _kill_group(process)
                    conn.close()
                    del running[conn]
                    yield number, Outcome("TIMEOUT", error=f"no answer within the time limit of {limit:g} s",
                                          seconds=now - start)
    finally:
        for _, process, _ in running.values():
            _kill_group(process)


def _child(sender: Any, task: Callable[[], Any]) -> None:
    die_with_parent()
    os.setpgid(0, 0)  # its own process group, so that a kill also reaches its solver processes
    try:
        outcome: Outcome[Any] = Outcome("OK", task())
    except SolverTimeout as exc:
        outcome = Outcome("TIMEOUT", error=str(exc))
    except PuzzlesatError as exc:
        outcome = Outcome("ERROR", error=str(exc))
    except Exception as exc:  # noqa: BLE001  (a bug in one task is that task's ERROR, with its reason)
        outcome = Outcome("ERROR", error=f"{type(exc).__name__}: {exc}".splitlines()[0])
    sender.send(outcome)
    sender.close()
    os._exit(0)  # no clean-up of the parent's objects (solvers, pools) that fork copied


def _ended(process: Any) -> int | None:
    process.join()
    return cast("int | None", process.exitcode)


def _kill_group(process: Any) -> None:
    try:
        if process.pid is None:  # never started
            return
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # not yet its own group leader: kill it alone
        process.kill()
    process.join()
