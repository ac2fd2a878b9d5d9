"""The worker's side of a supervised command (:mod:`puzzlesat.processes.supervisor`): what it tells its
supervisor (its phase, how far it has come, its temporary files, that its one error line is out) and
what it knows of its limits, for messages. Outside a worker (a library caller, a test) every function
here does nothing, so the code that reports needs no supervisor to run.

The supervisor connects a worker it forks (:func:`connect`); only these few words cross the pipe, and
the progress texts a few bytes of shared memory. One byte of that memory goes the other way: a signal
the supervisor received, as a request to stop (:func:`stop_requested`). The waits for solver children
ask it and raise :class:`~puzzlesat.core.errors.Interrupted`, so that a count stopped by Ctrl-C still
says what it had found, as one stopped by its time limit does. This module is in ``core`` because the core types
report through it (a :class:`~puzzlesat.core.timing.Stopwatch` says its phases, an atomic write its
temporary file), while the process machinery itself lives in :mod:`puzzlesat.processes`.
"""
from __future__ import annotations

import mmap
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import Interrupted


@dataclass(frozen=True)
class Limits:
    """What a command may use. ``seconds`` bounds the whole command (``None``: no bound), ``memory``
    the bytes of address space of the worker and of each of its children (``None``: no cap);
    ``option`` is how the user set the time, for messages."""

    seconds: float | None = None
    memory: int | None = None
    option: str = "--timeout"
    #: the ``time.monotonic()`` the time counts from (the process's start); None: the supervisor's
    start: float | None = None


#: the progress texts the status line shows at most, and the bytes of each
PROGRESS_SLOTS, _SLOT_BYTES = 4, 96
#: how often a wait for children looks whether a signal asked the command to stop (seconds)
STOP_POLL = 0.1
#: where, after the texts, the supervisor writes the number of a signal it received (0: none)
_STOP_AT = PROGRESS_SLOTS * _SLOT_BYTES


@dataclass
class _WorkerState:
    channel: int
    limits: Limits
    phase: str = "start"
    #: how far the phase has come ("1,234 solutions so far"), for the status line and for the message
    #: of a command stopped before its end: a few texts in memory shared with the worker's forked
    #: children (counts run side by side, one a slot) and with the supervisor; a new phase of the worker
    #: clears them
    progress: mmap.mmap = field(default_factory=lambda: new_progress())
    #: told each new phase and each detail (``--verbose`` prints them as they come)
    on_phase: Callable[[str], None] | None = None
    #: the worker itself: its forked children (solver calls, cubes) report nothing
    pid: int = field(default_factory=os.getpid)


_WORKER: _WorkerState | None = None
#: the slot this process writes its progress to (:func:`progress_slot`)
_slot = 0


# --- the worker's side ---------------------------------------------------------------------------

def current_phase() -> str:
    """The phase the command is in, as the supervisor knows it ("start" outside a worker)."""
    return _WORKER.phase if _WORKER is not None else "start"


def report_phase(name: str) -> None:
    """Tell the supervisor which phase the command is in (named in a time-limit message)."""
    if _WORKER is not None and _WORKER.phase != name:
        _WORKER.phase = name
        if _WORKER.pid == os.getpid():
            _WORKER.progress[:_STOP_AT] = bytes(_STOP_AT)
        _send("phase", name)
        if _WORKER.on_phase is not None:
            _WORKER.on_phase(name)


def report_progress(text: str) -> None:
    """Say how far the current phase has come ("1,234 solutions so far"), for the status line
    (:mod:`puzzlesat.cli.progress`), from the worker or a forked child of it: a copy into shared memory,
    so a loop may call it every round. A torn read shows one line garbled, nothing worse."""
    if _WORKER is not None:
        start = _slot * _SLOT_BYTES
        _WORKER.progress[start:start + _SLOT_BYTES] = text.encode()[:_SLOT_BYTES].ljust(_SLOT_BYTES, b"\0")


def pace(done: int, total: int, what: str, started: float) -> str:
    """How far work of a known size has come, for :func:`report_progress`: "12 of 208 cubes counted,
    3.1 a second, about 1 min left" (the rate and the estimate from the pace so far, once something
    is done; ``started`` a ``time.monotonic()``)."""
    text = f"{done:,} of {total:,} {what}"
    seconds = time.monotonic() - started
    if not done or seconds <= 0:
        return text
    rate = done / seconds
    left = (total - done) / rate
    shown = f"{rate:.1f}" if rate < 10 else f"{rate:,.0f}"
    return f"{text}, {shown} a second, about {_duration(left)} left" if done < total else f"{text}, {shown} a second"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def progress_slot(number: int) -> None:
    """Have this process (a forked child, one of several side by side) report its progress in slot
    ``number`` (modulo the slots), so that the children's texts are shown together."""
    global _slot
    _slot = number % PROGRESS_SLOTS


def current_progress() -> str:
    """The progress texts of this phase, joined ("" when none)."""
    return ", ".join(progress_texts())


def progress_texts() -> list[str]:
    """The progress texts of this phase, one per slot that has one."""
    return _texts_in(_WORKER.progress) if _WORKER is not None else []


def new_progress() -> mmap.mmap:
    """The shared memory a worker's progress texts go to (made by the supervisor before it forks, so
    that it can say how far the command had come when it ends the command)."""
    return mmap.mmap(-1, _STOP_AT + 1)


def progress_in(memory: mmap.mmap) -> str:
    """The progress texts in ``memory``, joined ("" when none)."""
    return ", ".join(_texts_in(memory))


def _texts_in(memory: mmap.mmap) -> list[str]:
    data = bytes(memory[:_STOP_AT])
    texts = (data[at:at + _SLOT_BYTES].rstrip(b"\0").decode(errors="replace") for at in range(0, len(data), _SLOT_BYTES))
    return [text for text in texts if text]


def by_then(progress: str) -> str:
    """What a command stopped before its end had found, for its one-line message: nothing found is left
    unsaid (a count's solutions so far, each checked; the cubes or parts done)."""
    return f"; by then: {progress}" if progress else ""


def ask_to_stop(memory: mmap.mmap, number: int) -> None:
    """The supervisor's side: tell the worker (and its forked children, which share ``memory``) that
    signal ``number`` asks the command to stop."""
    memory[_STOP_AT] = number


def stop_requested() -> int:
    """The number of the signal that asked the command to stop, or 0 (always 0 outside a worker)."""
    return _WORKER.progress[_STOP_AT] if _WORKER is not None else 0


def check_stop() -> None:
    """Raise :class:`~puzzlesat.core.errors.Interrupted` if a signal asked the command to stop: called
    by the waits for solver children and between the solutions of a count, where stopping loses
    nothing that was found."""
    number = stop_requested()
    if number:
        raise Interrupted(number, current_phase())


def report_detail(text: str) -> None:
    """A detail for ``--verbose`` (a solver's statistics); said by the worker only, not by its children."""
    if _WORKER is not None and _WORKER.on_phase is not None and _WORKER.pid == os.getpid():
        _WORKER.on_phase(text)


def follow_phases(callback: Callable[[str], None]) -> None:
    """Have ``callback`` told each phase the worker enters and each detail reported (nothing outside a
    worker)."""
    if _WORKER is not None:
        _WORKER.on_phase = callback


def announce_temp(path: str) -> None:
    """Tell the supervisor about a temporary file outside the scratch directory (an atomic write's),
    which it removes if the worker ends before renaming it."""
    if _WORKER is not None:
        _send("temp", os.path.abspath(path))


def say_once(text: str) -> None:
    """A note for the user on stderr, said once per command whichever of its processes says it (a
    compilation that takes a while, announced before it starts): through the supervisor in a command
    (a worker's children have no stderr of their own), directly outside one."""
    if _WORKER is not None:
        _send("say", text)
    elif text not in _SAID:
        _SAID.add(text)
        print(f"puzzlesat: note: {text}", file=sys.stderr, flush=True)


#: what :func:`say_once` has said in this process (outside a command)
_SAID: set[str] = set()


def announce_said() -> None:
    """Tell the supervisor that the command's one error line is out, so that a signal arriving while
    the worker ends does not add a second one."""
    if _WORKER is not None:
        _send("said", "")


def limit_message(backend: str, fallback: str) -> str:
    """A solver call's timeout as the user sees it: the limit they gave, which ran out while solving
    (``fallback``, the call's own message, outside a command with a time limit)."""
    if _WORKER is None or _WORKER.limits.seconds is None:
        return fallback
    return f"{limit_reached(fallback)} while solving ({backend} gave no answer)" + by_then(current_progress())


def limit_reached(fallback: str) -> str:
    """"time limit of 60 s (--timeout) reached": the limit as the user gave it, or ``fallback`` (a
    solver call's own message) outside a command with a time limit."""
    if _WORKER is None or _WORKER.limits.seconds is None:
        return fallback
    return f"time limit of {_WORKER.limits.seconds:g} s ({_WORKER.limits.option}) reached"


def memory_message(phase: str | None, memory: int | None) -> str:
    """Memory exhaustion as the user sees it: the phase it happened in (when known) and the cap they
    can raise (when there is one)."""
    where = f" in the {phase} phase" if phase else ""
    if memory is None:
        return f"out of memory{where}"
    return f"out of memory{where} (--max-memory {format_bytes(memory)}: raise it, or try a smaller instance)"


def in_worker() -> bool:
    """Whether this process is a supervised command's worker (whose supervisor reports its ends)."""
    return _WORKER is not None


#: whether this process hands back what it found when the command is asked to stop (the worker does);
#: a forked child says so as it starts (:class:`~puzzlesat.processes.runner.Child`)
_HANDS_BACK = True


def set_hands_back(hands_back: bool) -> None:
    """Say whether this process hands back what it found when asked to stop (see :func:`hands_back`)."""
    global _HANDS_BACK
    _HANDS_BACK = hands_back


def hands_back() -> bool:
    """Whether this process, asked to stop by a signal, is to hand back what it had found: the worker,
    and the forked children that report what they had (a race's racers, counts side by side). Its solver
    calls must then run where the request can reach them (:func:`~puzzlesat.backends.forking.stoppable`).
    Any other child (a solver call's, an enumeration's stream, a cube's or bench's task, a portfolio's
    member) is killed by its parent, which keeps what it had sent: its calls run in its own process."""
    return _WORKER is not None and _HANDS_BACK


def _send(kind: str, value: str) -> None:
    assert _WORKER is not None
    try:
        os.write(_WORKER.channel, f"{kind}\t{value}\0".encode("utf-8", "surrogateescape"))
    except OSError:  # the supervisor is gone: this process dies with it anyway
        pass


def connect(channel: int, limits: Limits, progress: mmap.mmap) -> None:
    """Make this process a worker that reports through ``channel`` (the supervisor's pipe) and
    ``progress`` (memory the supervisor reads too), under ``limits``; called by the supervisor in the
    worker it forks."""
    global _WORKER
    _WORKER = _WorkerState(channel, limits, progress=progress)


def format_bytes(count: int) -> str:
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if count >= size:
            return f"{count / size:g}{unit}"
    return str(count)
