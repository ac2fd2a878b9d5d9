"""Solver calls in forked children, under hard time limits.

Most PySAT solvers (CaDiCaL, Kissat, Lingeling, CryptoMiniSat) cannot be interrupted, so a limited call
runs in a forked child (a :class:`~puzzlesat.processes.runner.Child`) that is killed when time is up; the
child inherits the loaded solver through fork, so nothing is rebuilt, and its result comes back through
a pipe, its failure as the exception it was (a timeout, a refusal by design, a one-line error).

Every wait here also looks, every :data:`STOP_POLL` seconds, whether a signal asked the command to stop
(:func:`~puzzlesat.core.reporting.stop_requested`) and raises
:class:`~puzzlesat.core.errors.Interrupted` if so; a parent whose children report what they found when
they stop (a count's) waits :data:`SETTLE` seconds more for them, at its deadline as at a signal.
"""
from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar, cast

if TYPE_CHECKING:
    from ..processes.runner import Child

from ..core.errors import BackendError, Interrupted, NotApplicable, OutOfMemory, PuzzlesatError, SolverTimeout
from ..core.reporting import STOP_POLL, check_stop, hands_back, stop_requested
from ..core.timing import Deadline

#: what a forked call returns (sent back through a pipe, so picklable)
T = TypeVar("T")

#: how long a parent waits, past its deadline or a signal's request to stop, for children that stop by
#: themselves and report what they had (a count's); well within the supervisor's grace after the
#: command's limit (:data:`puzzlesat.processes.supervisor.GRACE`)
SETTLE = 0.25
#: how much sooner than their parent such children stop at a deadline (:meth:`Deadline.sooner`): the
#: time to send what they had (a count's listed solutions are pickled, 10,000 in about 0.3 s)
HAND_BACK = 0.25


class Settle:
    """How long a parent gives its children that stop by themselves and report what they had (a
    count's), past its deadline or a signal's request to stop: ``seconds`` from the first of its waits
    that finds either, counted once for all its children."""

    def __init__(self, seconds: float = SETTLE) -> None:
        self.seconds = seconds
        self.end: Deadline | None = None


def ready_among(conns: list[Any], deadline: Deadline, settle: Settle | None = None) -> list[Any]:
    """Those of ``conns`` with something to read, waiting until there are some, or until the
    ``deadline`` (then: none) or a signal's request to stop (then: :class:`Interrupted`), which come
    first even when there is something to read (a solver child streaming models faster than they are
    checked would otherwise never let its parent stop); with ``settle``, either end first gives the
    children its seconds more, and what they send then is read."""
    from multiprocessing.connection import wait

    while True:
        if settle is None or settle.end is None:
            if deadline.passed() or stop_requested():
                if settle is None:
                    check_stop()
                    return []
                settle.end = Deadline.after(settle.seconds)
        end = settle.end if settle is not None and settle.end is not None else deadline
        ready = wait(conns, end.left(most=STOP_POLL, at_least=0.0))
        if ready:
            return ready
        if end is not deadline and end.passed():
            check_stop()
            return []


def call_with_timeout(fn: Callable[[], T], deadline: Deadline, backend: str) -> T:
    """Run ``fn`` with a hard time limit, the ``deadline``.

    Most PySAT solvers (CaDiCaL, Kissat, Lingeling, CryptoMiniSat) cannot be interrupted, so a limit is
    enforced by running the call in a forked child that is killed when time is up. The child inherits
    the loaded solver through fork, so nothing is rebuilt; its result comes back through a pipe. In a
    command's worker the call is forked without a limit too (:func:`stoppable`).
    """
    if not stoppable(deadline):
        return fn()
    return run_forked([fn], deadline, backend)[0]


def stoppable(deadline: Deadline) -> bool:
    """Whether a solver call must run where it can be stopped at any moment: under a time limit, or in a
    command's process that hands back what it found when a signal asks the command to stop
    (:func:`~puzzlesat.core.reporting.hands_back`: native code in this process would not look at the
    request, and the supervisor would end the worker a second later with nothing of what it had found
    said: a signal is a limit). A fork costs a few milliseconds; a library caller with no limit, and a
    child that its parent kills when asked to stop (a solver call's, an enumeration's stream, a cube's,
    a portfolio member's), run the call in their own process."""
    return deadline.end is not None or hands_back()


class Stopped(PuzzlesatError):
    """A forked call ended because whoever asked for it no longer wants it (:func:`call_kept`)."""


#: the child each thread keeps for :func:`call_kept` (``child``: a Child, or None once it is gone)
_KEPT = threading.local()


def call_kept(fn: Callable[[], T], deadline: Deadline, backend: str, stop: Callable[[], bool],
              every: float = 0.2) -> T:
    """:func:`call_with_timeout`, always in a forked child (with or without a limit), which is also
    killed as soon as ``stop()`` says so (asked every ``every`` seconds): a Dask task whose future was
    cancelled, or whose client went away, keeps no solver running on its worker. Stopped:
    :class:`Stopped`.

    The child is one this thread forked for an earlier call and keeps for the next: a Dask worker runs
    thousands of tasks (a count's cubes, a search's parts), and a fork for each cost a worker about 7 ms
    here, more where the process is large or fork is slow. ``fn`` goes to the child pickled by
    cloudpickle (which Dask brings, and which sent it to the worker). The child is killed and forgotten
    when a call runs out of time or is stopped, and forgotten when it dies; a task's own failure leaves
    it for the next call. A child forked later inherits what the worker prepared since
    (:func:`~puzzlesat.pipeline.executors.guarded`); a kept one builds what it lacks once, for all the
    calls it serves."""
    import cloudpickle

    from ..processes.runner import Child

    sent = cloudpickle.dumps(fn)
    child = getattr(_KEPT, "child", None)
    if child is None or not child.process.is_alive():
        child = _KEPT.child = Child(_serve_kept, duplex=True)
    try:
        child.conn.send_bytes(sent)
        while not child.conn.poll(deadline.left(most=every)):
            check_stop()
            if deadline.passed():
                raise SolverTimeout(backend, deadline.seconds or 0.0)
            if stop():
                raise Stopped(f"{backend}: stopped (its run was cancelled)")
    except BaseException:
        _forget(child)
        raise
    try:
        return cast(T, _receive(child, deadline, backend)[1])
    finally:
        if not child.process.is_alive():  # it died of the call: its death is the error raised
            _forget(child)


def _forget(child: Child) -> None:
    _KEPT.child = None
    child.stop()


def _serve_kept(conn: Any) -> None:
    """A kept child (:func:`call_kept`): run each call sent, report how it ended, until the pipe closes."""
    while True:
        try:
            sent = conn.recv_bytes()
        except (EOFError, OSError):
            os._exit(0)
        _send_result(conn, partial(_call_pickled, sent))


def _call_pickled(sent: bytes) -> Any:
    import cloudpickle

    return cloudpickle.loads(sent)()


def run_forked(fns: list[Callable[[], T]], deadline: Deadline, backend: str, settle: bool = False) -> list[T]:
    """Run every ``fn`` at the same time, each in its own forked child, and return their results in
    order: independent solver calls (dice's two counts) use all cores. Past the ``deadline`` (and
    with ``settle``, :data:`SETTLE` seconds more for children that stop by themselves and answer),
    or when one fails, all children are killed."""
    with forked(fns, deadline, backend, settle) as results:
        return results()


@contextmanager
def forked(fns: list[Callable[[], T]], deadline: Deadline, backend: str,
           settle: bool = False) -> Iterator[Callable[[], list[T]]]:
    """:func:`run_forked` in two halves, so that the parent can work while the children do: the
    children start on entry, the function yielded waits for their results (in order), and on exit every
    child still running is killed."""
    from ..processes.runner import Child  # here: a command that forks nothing does not pay for it

    children: list[Child] = []
    settling = Settle() if settle else None
    try:
        for fn in fns:
            children.append(Child(partial(_send_result, fn=fn), hands_back=settle))
        yield lambda: [cast(T, _receive(child, deadline, backend, settling)[1]) for child in children]
    finally:
        for child in children:
            child.stop()


class Finish(NamedTuple, Generic[T]):
    """How a race (:func:`first_forked`) ended: the number of the racer that answered, its result, and
    whether the others had started (False: the first answered within its head start, alone)."""

    number: int
    result: T
    raced: bool


def first_forked(fns: list[Callable[[], T]], deadline: Deadline, backend: str,
                 head_start: float = 0.0, names: Sequence[str] = (),
                 found: Callable[[T], int | None] | None = None, cue: int | None = None) -> Finish[T]:
    """Run every ``fn`` at once, each in its own forked child, and end them all when the first one
    answers: a :class:`Finish`, its number and result. A race of methods that answer the same question:
    one whose solver fails or dies (:class:`BackendError`, :class:`OutOfMemory`) leaves the race to the
    others (said on stderr, naming it by ``names``), and when every one has failed the first failure is
    raised, named after its method, so a failure is never hidden behind another method's answer nor
    blamed on another method; a refusal of the input (any other one-line error), which every method
    would make, ends the race at once. Past the ``deadline``: SolverTimeout. With ``head_start``,
    the first ``fn`` runs alone that long before the others start: a quick answer then costs the
    others nothing, and a slow one loses none of its work when they join. With ``cue`` too, a file
    descriptor the first ``fn`` writes to when it knows it will not be quick (a count past many
    solutions), the others start as soon as it does.

    With ``found``, a racer stopped before its end (by the deadline or a signal) may answer with what
    it had: ``found(result)`` is then how much (a count's lower bound), None for a whole answer. Such
    an answer does not end the race; at the end (every racer answered or failed, or twice
    :data:`SETTLE` past the racers' own deadline, :data:`HAND_BACK` before ``deadline``, or past the
    stop: a racer waits for its own children first), the one that had found the most is returned, and a
    racer's timeout is one more failure. Such racers must be given ``deadline.sooner(HAND_BACK)``."""
    from ..processes.runner import Child

    children: dict[int, Child] = {}
    failures: list[PuzzlesatError] = []
    stopped: list[tuple[int, int, T]] = []  # (how much it had found, its number, its answer)
    leaving: tuple[type[PuzzlesatError], ...] = (BackendError, OutOfMemory)
    if found is not None:
        leaving += (SolverTimeout, Interrupted)

    def settled(number: int) -> tuple[bool, Any]:
        """(True, its result) when the child answered; (False, None) when it failed (recorded)."""
        name = names[number] if number < len(names) else backend
        try:
            return True, _receive(children.pop(number), deadline, name)[1]
        except leaving as exc:  # a crash, a death: the others may yet answer
            failures.append(exc)
            if (len(children) or number < len(fns) - 1) and not isinstance(exc, (SolverTimeout, Interrupted)):
                print(f"puzzlesat: note: {exc}; the race goes on without it", file=sys.stderr)
            return False, None

    every: list[Child] = []
    settling = Settle(2 * SETTLE) if found is not None else None  # a racer settles its own children first
    # the settle starts when the racers stop (HAND_BACK before the deadline), not at the deadline: it then
    # ends SETTLE past it, leaving most of the supervisor's grace for the report to be written (a heavily
    # loaded worker that settled 2 * SETTLE past the deadline missed it, and its record went unsaid)
    racers_stop = deadline.sooner(HAND_BACK) if settling is not None else deadline
    try:
        for number, fn in enumerate(fns):
            children[number] = Child(partial(_send_result, fn=fn), hands_back=found is not None)
            every.append(children[number])
            if number == 0 and head_start > 0 and _alone(children[0].conn, cue, deadline.left(most=head_start)):
                answered, result = settled(0)
                had = found(result) if answered and found is not None else None
                if answered and had is None:
                    return Finish(0, cast(T, result), False)
                if had is not None:
                    stopped.append((had, 0, cast(T, result)))
        while children:
            try:
                ready = ready_among([child.conn for child in children.values()], racers_stop, settling)
            except Interrupted:
                if not stopped:
                    raise
                break
            if not ready:
                if not stopped:
                    raise SolverTimeout(backend, deadline.seconds or 0.0)
                break
            number = next(n for n, child in children.items() if child.conn in ready)
            answered, result = settled(number)
            if not answered:
                continue
            had = found(result) if found is not None else None
            if had is None:
                return Finish(number, cast(T, result), len(every) > 1)
            stopped.append((had, number, cast(T, result)))
        if stopped:
            _, number, result = max(stopped, key=lambda entry: (entry[0], -entry[1]))
            return Finish(number, result, len(every) > 1)
        # stopped with nothing to show: the stop is what ended the race (a crash before it was said)
        raise next((failure for failure in failures if isinstance(failure, (SolverTimeout, Interrupted))), failures[0])
    finally:
        for child in every:
            child.stop()


def _alone(conn: Any, cue: int | None, seconds: float | None) -> bool:
    """Wait up to ``seconds`` for the first racer of a head start: True when it answered (or died)
    first, False when the time passed or it wrote to its ``cue``."""
    from multiprocessing.connection import wait

    return conn in wait([conn] if cue is None else [conn, cue], seconds)


def stream_forked(items: Callable[[], Iterator[Any]], deadline: Deadline, backend: str) -> Iterator[Any]:
    """Yield what ``items()`` yields, produced in one forked child under one hard time limit.

    An enumeration under :func:`call_with_timeout` would fork once per solve, and each child's learnt
    clauses die with it; here one child keeps its solver for the whole loop, and the parent reads each
    item as it comes. Closing the generator early (a ``limit`` reached) kills the child."""
    from ..processes.runner import Child

    child = Child(partial(_send_stream, items=items))
    try:
        while True:
            kind, payload = _receive(child, deadline, backend)
            if kind == "done":
                return
            yield payload
    finally:
        child.stop()


def _receive(child: Child, deadline: Deadline, backend: str, settle: Settle | None = None) -> tuple[str, Any]:
    """The child's next message, or the error that its silence, death or report means."""
    if not ready_among([child.conn], deadline, settle):
        raise SolverTimeout(backend, deadline.seconds or 0.0)
    try:
        kind, payload = child.conn.recv()
    except EOFError:
        from ..processes.runner import death_message, died_of_memory

        child.process.join()
        failure = OutOfMemory if died_of_memory(child.process.exitcode) else BackendError
        raise failure(f"{backend}: {death_message(child.process.exitcode)}") from None
    if kind == "error":
        raise BackendError(f"{backend}: solver failed: {payload.splitlines()[0]}")
    if kind == "timeout":
        name, seconds = payload.split("\0")
        raise SolverTimeout(name, float(seconds))
    if kind == "not applicable":  # a method that refuses this input by design, kept as such
        raise NotApplicable(payload)
    if kind == "backend":  # a solver of the child's own failed or died (a counter in its own child)
        raise BackendError(payload)
    if kind == "memory":
        raise OutOfMemory(payload)
    if kind == "interrupted":  # a signal's request to stop reached the child first: still that request
        number, phase = payload.split("\0")
        raise Interrupted(int(number), phase)
    if kind == "refused":  # the child's own one-line message (bad option, failed check), kept as it was
        raise PuzzlesatError(payload)
    return kind, payload


def _send_result(sender: Any, fn: Callable[[], Any]) -> None:
    try:
        sender.send(("ok", fn()))
    except MemoryError:  # no report is made: the child ends, and its parent says why
        raise
    except BaseException as exc:  # report anything, the parent turns it into an error
        if _memory_ran_out(exc):
            raise MemoryError from None
        sender.send(_failure(exc))


def _send_stream(sender: Any, items: Callable[[], Iterator[Any]]) -> None:
    try:
        for item in items():
            sender.send(("item", item))
        sender.send(("done", None))
    except MemoryError:
        raise
    except BaseException as exc:
        if _memory_ran_out(exc):
            raise MemoryError from None
        sender.send(_failure(exc))


def _memory_ran_out(exc: BaseException) -> bool:
    """Whether ``exc`` is memory running out under the command's cap as CPython 3.11 reports it where a
    frame cannot be allocated (a deep recursion: "SystemError: error return without exception set"):
    a 20x20 jig's searches under --max-memory 400M were ERROR rows, a disagreement, not MEMOUT ones."""
    import resource

    return (isinstance(exc, SystemError) and "without exception set" in str(exc)
            and resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY)


def _failure(exc: BaseException) -> tuple[str, str]:
    """A user-facing error travels as its message; anything else as a solver failure with its trace."""
    if isinstance(exc, SolverTimeout):  # the child's own deadline (the command's) came first: still a timeout
        return "timeout", f"{exc.backend}\0{exc.seconds}"
    if isinstance(exc, Interrupted):  # a signal's request, seen by the child first: a stop, not a refusal
        return "interrupted", f"{exc.number}\0{exc.phase}"
    if isinstance(exc, NotApplicable):
        return "not applicable", str(exc)
    if isinstance(exc, OutOfMemory):
        return "memory", str(exc)
    if isinstance(exc, BackendError):
        return "backend", str(exc)
    if isinstance(exc, PuzzlesatError):
        return "refused", str(exc)
    return "error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"


@contextmanager
def quiet_stdout() -> Iterator[None]:
    """Native counters (Ganak, D4) print progress lines ("c ...") on the process's stdout, which would
    corrupt --json and tables: point file descriptor 1 at /dev/null while they run."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
