"""Every command runs in a supervised worker process, so that its limits hold whatever it is doing.

Python cannot interrupt native solver code, and a process cannot always clean up after itself (the
kernel's OOM killer, a SIGKILL, a signal that arrives inside C++). So the command line forks one
*worker* per command, in a process group of its own, and stays behind as its *supervisor*:

- **time**: the worker's own solver calls stop at the command's deadline (a
  :class:`~puzzlesat.core.timing.Deadline` the command makes when it starts and passes down) and say
  so; if the worker is still running one second later (parsing, encoding, pruning: code that no solver
  limit covers), the supervisor kills its whole process group and names the phase it was in;
- **memory**: the worker's address space is capped with ``setrlimit`` (its children inherit the cap),
  so exhaustion is a ``MemoryError`` (or a dead worker), reported in one line, never swapping;
- **signals**: SIGINT, SIGTERM and SIGHUP reach the supervisor, which kills the worker's group (every
  descendant also dies with its parent, see :mod:`.processes`) and exits 128 + the signal;
- **files**: the worker's temporary files go to a scratch directory the supervisor removes, and the
  temporary files of atomic writes beside their targets are announced to it (:func:`announce_temp`),
  so no exit path leaves one behind.

The worker tells the supervisor its phase and temporary files through a pipe; nothing else crosses.
Library callers (no supervisor) get the same functions as no-ops.
"""
from __future__ import annotations

import mmap
import os
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import EXIT_INTERNAL, EXIT_MEMORY_UNSAID, EXIT_OUT_OF_MEMORY, EXIT_TIMEOUT
from .processes import die_with_parent, kill_group, silence_descriptor_2
from .signals import ENDING_SIGNALS

#: the supervisor kills a worker this long after the deadline it was given, which is the worker's own
#: time to stop its solver calls and report (the start of the process and this grace stay within the "limit + 1 s" the
#: README promises)
GRACE = 0.5


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


@dataclass
class _WorkerState:
    channel: int
    limits: Limits
    phase: str = "start"
    #: how far the phase has come ("1,234 solutions so far"), for the status line: a few texts in memory
    #: shared with the worker's forked children (counts run side by side, one a slot); a new phase of
    #: the worker clears them
    progress: mmap.mmap = field(default_factory=lambda: mmap.mmap(-1, PROGRESS_SLOTS * _SLOT_BYTES))
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
            _WORKER.progress[:] = bytes(len(_WORKER.progress))
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


def progress_slot(number: int) -> None:
    """Have this process (a forked child, one of several side by side) report its progress in slot
    ``number`` (modulo the slots), so that the children's texts are shown together."""
    global _slot
    _slot = number % PROGRESS_SLOTS


def current_progress() -> str:
    """The progress texts of this phase, joined ("" when none)."""
    if _WORKER is None:
        return ""
    data = bytes(_WORKER.progress)
    texts = (data[at:at + _SLOT_BYTES].rstrip(b"\0").decode(errors="replace") for at in range(0, len(data), _SLOT_BYTES))
    return ", ".join(text for text in texts if text)


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
    limits = _WORKER.limits
    return f"time limit of {limits.seconds:g} s ({limits.option}) reached while solving ({backend} gave no answer)"


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


def _send(kind: str, value: str) -> None:
    assert _WORKER is not None
    try:
        os.write(_WORKER.channel, f"{kind}\t{value}\0".encode("utf-8", "surrogateescape"))
    except OSError:  # the supervisor is gone: this process dies with it anyway
        pass


def _worker_main(run: Callable[[], int], limits: Limits, channel: int, scratch: str, supervisor: int) -> None:
    """The forked worker: its own group, its limits, then the command; never returns."""
    global _WORKER
    code = EXIT_INTERNAL
    try:
        os.setpgid(0, 0)
        die_with_parent(supervisor)
        for number in ENDING_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)
        tempfile.tempdir = scratch
        os.environ["TMPDIR"] = scratch  # external solver binaries put their files there too
        if limits.memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
        _WORKER = _WorkerState(channel, limits)
        if not os.environ.get("PUZZLESAT_DEBUG"):
            _quiet_native_stderr()
        code = run()
    except MemoryError:  # nothing is made here: the supervisor, which is not capped, says it
        code = EXIT_MEMORY_UNSAID
    finally:
        os._exit(code)


def _quiet_native_stderr() -> None:
    """Keep Python's ``sys.stderr`` (the command's one-line messages) on the terminal, and point file
    descriptor 2, where native code writes, at /dev/null: libstdc++ prints "terminate called after
    throwing an instance of 'std::bad_alloc'" when a C++ encoder's allocation fails under the memory
    cap, lines that would come before ours. Outside tools keep theirs: they are run with their stderr
    captured. PUZZLESAT_DEBUG=1 leaves descriptor 2 as it was."""
    kept = os.dup(2)
    silence_descriptor_2()
    sys.stderr = os.fdopen(kept, "w", buffering=1, encoding=sys.stderr.encoding, errors=sys.stderr.errors)


# --- the supervisor's side -----------------------------------------------------------------------

class _Signalled(BaseException):
    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _raise_signalled(number: int, frame: object) -> None:
    raise _Signalled(number)


def supervise(run: Callable[[], int], limits: Limits, fail: Callable[[str], None]) -> int:
    """Run ``run`` (which returns an exit code) in a worker under ``limits``; return the exit code.
    ``fail`` prints a one-line error, for the ends only the supervisor sees. When stdout or stderr is
    not a file descriptor (a test runner's captured streams, which a forked worker's output would not
    reach), the command runs in this process, without the hard limits."""
    if not _real_streams():
        return run()
    sys.stdout.flush()
    sys.stderr.flush()
    previous = {number: signal.signal(number, _raise_signalled) for number in ENDING_SIGNALS}
    scratch: str | None = None
    watch: _Watch | None = None
    try:
        # signals wait while the scratch directory is made and the worker forked, so that none falls
        # between the directory's creation and its name being kept (it would be left behind), or between
        # the fork and the watch
        signal.pthread_sigmask(signal.SIG_BLOCK, ENDING_SIGNALS)
        scratch = tempfile.mkdtemp(prefix="puzzlesat-")
        read_end, write_end = os.pipe()
        supervisor = os.getpid()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _worker_main(run, limits, write_end, scratch, supervisor)
        os.close(write_end)
        watch = _Watch(pid, read_end)
        try:
            os.setpgid(pid, pid)  # also done by the worker: whichever runs first, the group exists
        except OSError:
            pass
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)
        return watch.until_done(limits, fail)
    except _Signalled as signalled:
        number = signal.Signals(signalled.number)
        if watch is not None and watch.code is not None:  # the command had ended: its own end stands
            return watch.code
        if watch is not None:  # what the worker sent before the signal cut the wait short
            watch._read()
            if watch.said:  # its one line is (being) written: let it end, and say nothing more
                watch.let_end(GRACE)
        if watch is None or not watch.said:
            fail(f"{ENDING_SIGNALS[number]} ({number.name}) in the {watch.phase if watch else 'start'} phase")
        return 128 + signalled.number
    finally:
        try:
            _clean_up(watch, scratch, previous)
        except _Signalled:  # a signal arrived as the clean-up began, before it could ignore signals
            _clean_up(watch, scratch, previous)


def _clean_up(watch: _Watch | None, scratch: str | None, previous: dict[signal.Signals, Any]) -> None:
    """Kill and reap the worker's group, remove the scratch directory, put the handlers back: first of
    all ignoring further signals, so that a second one cannot cut it short (safe to run twice)."""
    for number in ENDING_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)
    if watch is not None:
        watch.end()
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)
    for number, handler in previous.items():
        signal.signal(number, handler)


def _real_streams() -> bool:
    try:
        sys.stdout.fileno()
        sys.stderr.fileno()
        return True
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError and a ValueError
        return False


class _Watch:
    """The worker seen from the supervisor: its messages, its end, its clean-up."""

    def __init__(self, pid: int, channel: int) -> None:
        self.pid = pid
        self.channel: int | None = channel
        self.phase = "start"
        self.temps: list[str] = []
        self.said = False
        self.status: int | None = None
        self.code: int | None = None
        self.pending = b""
        self.pidfd = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None

    def until_done(self, limits: Limits, fail: Callable[[str], None]) -> int:
        """The command's exit code, once the worker has ended (or been ended at the limit); kept in
        :attr:`code`, so that a signal arriving after it is known changes nothing."""
        self.code = self._exit_code(limits, fail)
        return self.code

    def let_end(self, seconds: float) -> None:
        """Give a worker that is ending (its last line said) up to ``seconds`` to exit by itself."""
        end = time.monotonic() + seconds
        while not self._reaped() and time.monotonic() < end:
            time.sleep(0.01)

    def _exit_code(self, limits: Limits, fail: Callable[[str], None]) -> int:
        start = time.monotonic() if limits.start is None else limits.start
        end = None if limits.seconds is None else start + limits.seconds + GRACE
        while not self._reaped():
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                self._read()
                if not self.said:  # a worker that said its own line (its timeout, seen first) gets no second one
                    fail(f"time limit of {limits.seconds:g} s ({limits.option}) reached in the {self.phase} phase")
                return EXIT_TIMEOUT
            self._wait(left)
        self._read()
        code = os.waitstatus_to_exitcode(self.status or 0)
        if code == EXIT_MEMORY_UNSAID:
            fail(memory_message(self.phase, limits.memory))
            return EXIT_OUT_OF_MEMORY
        if code >= 0:
            return code
        name = signal.Signals(-code).name
        if -code in ENDING_SIGNALS:  # sent to the worker alone (kill PID): as if sent to the command
            fail(f"{ENDING_SIGNALS[signal.Signals(-code)]} ({name}) in the {self.phase} phase")
            return 128 - code
        if -code in (signal.SIGKILL, signal.SIGABRT):  # the OOM killer; a native allocation that failed
            cap = f" (--max-memory {format_bytes(limits.memory)})" if limits.memory else ""
            fail(f"the command's process was killed ({name}) in the {self.phase} phase: out of memory?{cap}")
            return EXIT_OUT_OF_MEMORY
        fail(f"internal error: the command's process died ({name}) in the {self.phase} phase")
        return EXIT_INTERNAL

    def _wait(self, left: float | None) -> None:
        watched = [fd for fd in (self.channel, self.pidfd) if fd is not None]
        # without a pidfd (not Linux), the worker's end is noticed by polling
        step = left if self.pidfd is not None else min(0.05, left if left is not None else 0.05)
        ready, _, _ = select.select(watched, [], [], None if step is None else max(0.0, step))
        if self.channel in ready:
            self._read()

    def _read(self) -> None:
        if self.channel is None:
            return
        while select.select([self.channel], [], [], 0)[0]:
            data = os.read(self.channel, 65536)
            if not data:
                os.close(self.channel)
                self.channel = None
                break
            self.pending += data
        *messages, self.pending = self.pending.split(b"\0")
        for message in messages:
            kind, _, value = message.decode("utf-8", "surrogateescape").partition("\t")
            if kind == "phase":
                self.phase = value
            elif kind == "temp":
                self.temps.append(value)
            elif kind == "said":
                self.said = True

    def _reaped(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status is not None

    def end(self) -> None:
        """Kill whatever is left of the worker's group, reap the worker, remove its temporary files."""
        kill_group(self.pid)
        if self.status is None:
            _, self.status = os.waitpid(self.pid, 0)
        self._read()
        for fd in (self.channel, self.pidfd):
            if fd is not None:
                os.close(fd)
        self.channel = self.pidfd = None
        for path in self.temps:
            try:
                os.unlink(path)
            except OSError:  # renamed into place, or never created
                pass


def format_bytes(count: int) -> str:
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if count >= size:
            return f"{count / size:g}{unit}"
    return str(count)
