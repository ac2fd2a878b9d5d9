"""The toolkit's one way to fork work: :class:`Child`, and independent tasks in killable children.

Every process the toolkit forks for work is a :class:`Child` (a limited solver call and a forked count,
:mod:`puzzlesat.backends.forking`; a portfolio member; a worker of :func:`run_each`, which bench, the
local executor and a cross-check on local processes use). Only the supervisor's worker is forked apart
(:mod:`puzzlesat.processes.supervisor`: it is forked before anything else, takes the command's rlimits and
signals, and reports its phase through a raw pipe), and work done behind the command for later runs
(:class:`Background`: a kernel compiled while the plain code answers), which nothing waits for.

:func:`run_each` runs independent tasks: at most ``workers`` forked worker processes, each in a process
group of its own, each task under its own time limit, each ending as one :class:`Outcome`.

The tasks are not pickled: a worker is forked after the list of tasks exists and finds them (and every
formula the parent built) in its memory; the parent sends it a task's number and gets the result back
through a pipe. A task still running at its limit is killed with its worker's whole group (its own
solver processes too) and a new worker takes the next task; a task that fails or whose worker dies is
an ERROR outcome, and every task gives exactly one outcome. Workers run task after task (cube and
conquer: a fork per cube would cost more than many cubes), or, with ``fresh``, one task each, so that
nothing one task warmed up (caches, loaded solvers) makes another look faster (bench's runs). The local
executor, bench and a cross-check on local processes all run here.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

from ..core.errors import EXIT_MEMORY_UNSAID, PuzzlesatError, SolverTimeout
from ..core.reporting import STOP_POLL, check_stop, memory_message, set_hands_back
from ..core.timing import UNLIMITED, Deadline
from .children import (
    default_signals,
    die_with_parent,
    forget_other_threads_imports,
    no_compilation_elsewhere,
    silence_descriptor_2,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """How one task ended: ``status`` OK (with ``value``), TIMEOUT, MEMOUT (its process died of memory)
    or ERROR (with ``error``), after ``seconds`` of wall time where it ran."""

    status: str
    value: T | None = None
    error: str = ""
    seconds: float = 0.0


class Child:
    """One forked child running ``target(conn)``, with a pipe to it (``conn`` here: the receiving end, or
    both ways with ``duplex``). It dies with its parent (:func:`die_with_parent`); with ``own_group`` it
    leads a process group of its own, so that :meth:`stop` also kills what it started (a task's solver
    processes). Not a daemon: what it runs may fork children of its own."""

    def __init__(self, target: Callable[[Any], None], own_group: bool = False, duplex: bool = False,
                 hands_back: bool = False) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self.conn, theirs = ctx.Pipe(duplex=duplex)
        self.own_group = own_group
        self.process = ctx.Process(target=_child_main, args=(theirs, target, own_group, hands_back))
        with no_compilation_elsewhere():
            self.process.start()
        theirs.close()

    def stop(self) -> None:
        """Kill the child (and its group, when it has one), reap it, close the pipe."""
        if self.own_group:
            try:
                if self.process.pid is not None:
                    os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):  # not yet its own group leader: kill it alone
                self.process.kill()
        elif self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


class Background:
    """A forked child that runs ``target()`` behind the work and ends by itself (a kernel compiled for
    later runs: :class:`~puzzlesat.processes.kernels.Kernel`). Unlike a :class:`Child` it is not
    multiprocessing's, which joins its children when a process ends: a racer or a library caller that
    ends would wait a minute for a compilation nobody waits for. It dies with its parent (and with the
    command's process group), as a :class:`Child` does, and reports only by its exit code."""

    def __init__(self, target: Callable[[], object]) -> None:
        parent = os.getpid()
        with no_compilation_elsewhere():
            self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover  (the child's own life ends in os._exit)
            code = 1
            try:
                forget_other_threads_imports()
                default_signals()
                die_with_parent(parent)
                if not os.environ.get("PUZZLESAT_DEBUG"):
                    silence_descriptor_2()
                    sys.stderr = open(os.devnull, "w")  # noqa: SIM115  (open for the child's whole life)
                target()
                code = 0
            finally:
                os._exit(code)
        self.exitcode: int | None = None

    def ended(self) -> int | None:
        """Its exit code once it has ended (a signal's: minus its number), else None; reaps it."""
        if self.exitcode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: its end is unknown, taken as a failure
                self.exitcode = 1
                return self.exitcode
            if pid != 0:
                self.exitcode = os.waitstatus_to_exitcode(status)
        return self.exitcode


def _child_main(conn: Any, target: Callable[[Any], None], own_group: bool, hands_back: bool) -> None:
    """A child reports through its pipe only. Its stderr goes nowhere (unless PUZZLESAT_DEBUG is set): what
    a native runtime prints as it dies (libstdc++'s "terminate called after throwing an instance of
    'std::bad_alloc'") or what multiprocessing prints of an exception that escapes ("Process
    ForkProcess-1:") would be lines beside the command's one-line message. A child that cannot send its
    report (out of memory while making it) ends at once; the parent sees it die and says why in one line."""
    forget_other_threads_imports()  # before anything here imports (die_with_parent: ctypes)
    default_signals()
    set_hands_back(hands_back)
    die_with_parent()
    if own_group:
        os.setpgid(0, 0)
    if not os.environ.get("PUZZLESAT_DEBUG"):
        silence_descriptor_2()
        # Python's own stream too ("Exception ignored in: <generator ...>" as a dying child collects):
        # in a command's worker it writes to a copy of the terminal's descriptor, not to 2
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115  (open for the child's whole life)
    try:
        target(conn)
    except MemoryError:
        os._exit(EXIT_MEMORY_UNSAID)
    except BaseException:  # noqa: BLE001  (its report could not be sent: the parent reports the death)
        os._exit(1)


def _memory_cap() -> int | None:
    """The address-space cap this process (and so its children) runs under, ``None`` without one."""
    import resource

    cap, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if cap == resource.RLIM_INFINITY else cap


def died_of_memory(exitcode: int | None) -> bool:
    """Whether a child's end says it ran out of memory: a MemoryError it could not report, or a death
    that running out of memory causes (a native allocation that aborted, SIGABRT; native code that did
    not check a failed allocation, SIGSEGV, seen in the reference of a 20x20 jig under --max-memory
    350M; the kernel's OOM killer, SIGKILL) when the children's peak memory came near the limit
    (:func:`near_memory_limit`). Any other death is a crash, named by its signal: D4 dying of SIGFPE on
    an empty formula is D4's fault, and an outside ``kill -9`` is no memory shortage."""
    if exitcode == EXIT_MEMORY_UNSAID:
        return True
    return exitcode in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGKILL) and near_memory_limit()


#: the share of the memory limit a child's peak resident memory reaches before its death by SIGABRT,
#: SIGSEGV or SIGKILL is taken for running out of memory (the cap limits address space, which is
#: larger than resident memory by the libraries mapped: numba's LLVM alone maps some 100 MB)
NEAR_LIMIT = 0.5


def near_memory_limit() -> bool:
    """Whether the largest child this process has reaped came near the memory limit: the address-space
    cap it runs under (``--max-memory``), else the machine's memory (the OOM killer's). Python keeps
    no per-child peak, so the peak is the largest of every reaped child's: an earlier large child can
    make a crash read as memory, never the other way round."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # kilobytes on Linux
    limit = _memory_cap()
    if limit is None:
        try:
            limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            return True
    return peak >= limit * NEAR_LIMIT


def death_message(exitcode: int | None) -> str:
    """Why a child died, as its parent says it (see :func:`died_of_memory`): out of memory, a crash or
    kill by a signal, named, or its exit code."""
    if died_of_memory(exitcode):
        said = memory_message(None, _memory_cap())
        if exitcode in (EXIT_MEMORY_UNSAID, -signal.SIGABRT):
            return said
        return f"killed ({signal.Signals(-(exitcode or 0)).name}): {said.replace('out of memory', 'out of memory?', 1)}"
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        return f"killed by {name}" if -exitcode in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT) else (
            f"crashed ({name}: {signal.strsignal(-exitcode) or name})")
    return f"its process died (exit code {exitcode})"


class _Worker(Child):
    """A :func:`run_each` worker: a child in a group of its own, serving task numbers, and the task it is
    running (None: idle)."""

    def __init__(self, tasks: Sequence[Callable[[], Any]], fresh: bool) -> None:
        super().__init__(partial(_serve, tasks=tasks, fresh=fresh), own_group=True, duplex=True)
        self.number: int | None = None
        self.start = 0.0
        #: when the task it runs is killed: its own limit from its start, or the budget's end
        self.deadline = UNLIMITED

    def give(self, number: int, limit: float | None, until: Deadline) -> None:
        self.number, self.start = number, time.monotonic()
        self.deadline = Deadline.after(limit, self.start).earlier(until)
        self.conn.send(number)


def run_each(tasks: Sequence[Callable[[], T]], workers: int, limit: float | None,
             skip: Callable[[int], bool] = lambda number: False, fresh: bool = False,
             until: Deadline = UNLIMITED) -> Generator[tuple[int, Outcome[T]], None, None]:
    """Run every task in forked workers, at most ``workers`` at a time, each task killed past ``limit``
    seconds from its start, and any still running at ``until`` (a budget's end);
    yield (task number, outcome) as each ends. ``skip(number)``, asked when a task's turn comes, leaves
    it out (no outcome: the caller knows why, e.g. a method's earlier repeat timed out, or the budget is
    spent). With ``fresh``, every task runs in a worker of its own. A task whose worker dies of memory
    (see :func:`died_of_memory`) is a MEMOUT outcome."""
    from multiprocessing.connection import wait

    queue = list(range(len(tasks)))
    idle: list[_Worker] = []
    busy: dict[Any, _Worker] = {}
    try:
        while queue or busy:
            while queue and len(busy) < workers:
                number = queue.pop(0)
                if skip(number):
                    continue
                worker = idle.pop() if idle else _Worker(tasks, fresh)
                worker.give(number, limit, until)
                busy[worker.conn] = worker
            if not busy:
                continue
            waits = [left for w in busy.values() if (left := w.deadline.left(at_least=0.0)) is not None]
            ready = wait(list(busy), min([*waits, STOP_POLL]))
            # a signal asked the command to stop: before the outcomes that came with it, which may be the
            # tasks' own ends by the same request (an error that is not theirs); the caller says what the
            # tasks that ended before had given
            check_stop()
            for conn in ready:
                worker = busy.pop(conn)
                done = worker.number
                assert done is not None, "a busy worker runs a task"
                try:
                    outcome: Outcome[T] = worker.conn.recv()
                except (EOFError, OSError):
                    worker.process.join()
                    died = worker.process.exitcode
                    outcome = Outcome("MEMOUT" if died_of_memory(died) else "ERROR",
                                      error=f"the task: {death_message(died)}")
                    worker.stop()
                else:
                    if fresh:
                        worker.stop()
                    else:
                        idle.append(worker)
                yield done, Outcome(outcome.status, outcome.value, outcome.error, time.monotonic() - worker.start)
            for conn, worker in list(busy.items()):
                if worker.deadline.passed():
                    del busy[conn]
                    worker.stop()
                    assert worker.number is not None, "a busy worker runs a task"
                    given = (worker.deadline.end or worker.start) - worker.start
                    yield worker.number, Outcome("TIMEOUT", error=f"no answer within the time limit of {given:g} s",
                                                 seconds=time.monotonic() - worker.start)
    finally:
        for worker in idle + list(busy.values()):
            worker.stop()


def _serve(conn: Any, tasks: Sequence[Callable[[], Any]], fresh: bool) -> None:
    """A worker: run the tasks the parent names, one after the other, until it closes the pipe. Stopped,
    it is killed: the outcomes it sent are what is kept."""
    while True:
        try:
            number = conn.recv()
        except (EOFError, OSError):
            break
        conn.send(_outcome(tasks[number]))
        if fresh:
            break
    conn.close()
    os._exit(0)  # no clean-up of the parent's objects (solvers, pools) that fork copied


def _outcome(task: Callable[[], Any]) -> Outcome[Any]:
    try:
        return Outcome("OK", task())
    except SolverTimeout as exc:
        return Outcome("TIMEOUT", error=str(exc))
    except PuzzlesatError as exc:
        return Outcome("ERROR", error=str(exc))
    except Exception as exc:  # noqa: BLE001  (a bug in one task is that task's ERROR, with its reason)
        return Outcome("ERROR", error=f"{type(exc).__name__}: {exc}".splitlines()[0])
