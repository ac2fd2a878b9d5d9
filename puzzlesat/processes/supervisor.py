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
- **signals**: SIGINT, SIGTERM and SIGHUP reach the supervisor (or the worker, which passes them on:
  :func:`_pass_signals_on`), which asks the worker to stop
  (:func:`~puzzlesat.core.reporting.ask_to_stop`), so that a count can say what it had found; a worker
  that has not ended by itself :data:`STOP_GRACE` later (or at a second signal) is ended with its whole
  group (every descendant also dies with its parent, see :mod:`.children`); the command exits 128 + the
  signal;
- **files**: the worker's temporary files go to a scratch directory the supervisor removes, and the
  temporary files of atomic writes beside their targets are announced to it
  (:func:`~puzzlesat.core.reporting.announce_temp`),
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
from typing import Any

from ..core.errors import ENDING_SIGNALS, EXIT_INTERNAL, EXIT_MEMORY_UNSAID, EXIT_OUT_OF_MEMORY, EXIT_TIMEOUT
from ..core.reporting import (
    Limits,
    ask_to_stop,
    by_then,
    connect,
    format_bytes,
    memory_message,
    new_progress,
    progress_in,
)
from ..core.timing import Deadline
from .children import die_with_parent, kill_group, silence_descriptor_2

#: the supervisor kills a worker this long after the deadline it was given, which is the worker's own
#: time to stop its solver calls and report what it had found (the grace stays within the "limit + 1 s"
#: the README promises: the limit counts from the process's start)
GRACE = 0.8
#: how long a worker asked to stop by a signal has to say what it had found and end by itself, before the
#: supervisor ends it (its waits look every 0.1 s; a count's children hand back their counts in 0.25 s)
STOP_GRACE = 1.0


def _worker_main(run: Callable[[], int], limits: Limits, channel: int, progress: mmap.mmap, scratch: str,
                 supervisor: int, signals: int) -> None:
    """The forked worker: its own group, its limits, then the command; never returns."""
    code = EXIT_INTERNAL
    try:
        os.setpgid(0, 0)
        die_with_parent(supervisor)
        _pass_signals_on(signals)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)
        tempfile.tempdir = scratch
        os.environ["TMPDIR"] = scratch  # external solver binaries put their files there too
        if limits.memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
        connect(channel, limits, progress)
        if not os.environ.get("PUZZLESAT_DEBUG"):
            _quiet_native_stderr()
        code = run()
    except MemoryError:  # nothing is made here: the supervisor, which is not capped, says it
        code = EXIT_MEMORY_UNSAID
    finally:
        os._exit(code)


def _pass_signals_on(signals: int) -> None:
    """A signal sent to the worker alone (``kill WORKER``) is the supervisor's to handle, as if sent to
    the command: the worker's stop keeps what it had found only when the supervisor asks for it
    (:func:`~puzzlesat.core.reporting.ask_to_stop`) and gives it time. Python's C-level handler writes
    the signal's number to ``signals`` (a pipe the supervisor watches) the moment it arrives, even
    while the worker runs native code for minutes (it writes every handled signal's: the supervisor
    reads past its timers' SIGALRM); the Python-level handler does nothing more.
    (Killed by it outright, as before, the worker lost everything it had found.) The worker's forked
    children take the default back (:func:`~puzzlesat.processes.children.default_signals`)."""
    os.set_blocking(signals, False)
    for number in ENDING_SIGNALS:
        signal.signal(number, _passed_on)
    signal.set_wakeup_fd(signals, warn_on_full_buffer=False)


def _passed_on(number: int, frame: object) -> None:
    """The worker's handler of an ending signal: its wakeup byte has told the supervisor already."""


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
    progress: mmap.mmap | None = None
    try:
        # signals wait while the scratch directory is made and the worker forked, so that none falls
        # between the directory's creation and its name being kept (it would be left behind), or between
        # the fork and the watch
        signal.pthread_sigmask(signal.SIG_BLOCK, ENDING_SIGNALS)
        scratch = tempfile.mkdtemp(prefix="puzzlesat-")
        progress = new_progress()
        read_end, write_end = os.pipe()
        signals_read, signals_write = os.pipe()  # the signals sent to the worker alone, passed on
        supervisor = os.getpid()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            os.close(signals_read)
            _worker_main(run, limits, write_end, progress, scratch, supervisor, signals_write)
        os.close(write_end)
        os.close(signals_write)
        watch = _Watch(pid, read_end, progress, signals_read)
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
            else:  # asked to stop, the work may say what it had found, and end by itself
                assert progress is not None, "made before the worker"
                ask_to_stop(progress, signalled.number)
                code = watch.stopped_by_itself(STOP_GRACE)
                if code is not None:
                    return code
        if watch is None or not watch.said:
            fail(f"{ENDING_SIGNALS[number]} ({number.name}) in the {watch.phase if watch else 'start'} phase"
                 + (by_then(progress_in(progress)) if progress is not None else ""))
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

    def __init__(self, pid: int, channel: int, progress: mmap.mmap, signals: int) -> None:
        self.progress = progress
        self.pid = pid
        self.channel: int | None = channel
        #: the signals the worker passes on (:func:`_pass_signals_on`), one byte each
        self.signals: int | None = signals
        self.phase = "start"
        self.temps: list[str] = []
        self.said = False
        #: the notes said for the worker (:func:`~puzzlesat.core.reporting.say_once`), each once
        self.notes: set[str] = set()
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
        end = Deadline.after(seconds)
        while not self._reaped() and not end.passed():
            time.sleep(0.01)

    def stopped_by_itself(self, seconds: float) -> int | None:
        """The exit code of a worker asked to stop (:func:`~puzzlesat.core.reporting.ask_to_stop`) that
        ended by itself within ``seconds``, its own line said (or its work done); None if it did not
        (a second signal cuts the wait short): the supervisor then ends it and says the line."""
        try:
            self.let_end(seconds)
        except _Signalled:
            return None
        self._read()
        if self.status is None:
            return None
        code = os.waitstatus_to_exitcode(self.status)
        return code if code >= 0 and code != EXIT_MEMORY_UNSAID else None

    def _exit_code(self, limits: Limits, fail: Callable[[str], None]) -> int:
        # the worker's own solver calls stop at the command's deadline; it is killed GRACE later
        end = Deadline.after(None if limits.seconds is None else limits.seconds + GRACE, limits.start)
        while not self._reaped():
            if end.passed():
                self._read()
                if not self.said:  # a worker that said its own line (its timeout, seen first) gets no second one
                    fail(f"time limit of {limits.seconds:g} s ({limits.option}) reached in the {self.phase} phase"
                         + by_then(progress_in(self.progress)))
                return EXIT_TIMEOUT
            self._wait(end.left(at_least=0.0))
        self._read()
        code = os.waitstatus_to_exitcode(self.status or 0)
        if code == EXIT_MEMORY_UNSAID:
            fail(memory_message(self.phase, limits.memory))
            return EXIT_OUT_OF_MEMORY
        if code >= 0:
            return code
        name = signal.Signals(-code).name
        if -code in ENDING_SIGNALS:  # sent to the worker alone (kill PID): as if sent to the command
            fail(f"{ENDING_SIGNALS[signal.Signals(-code)]} ({name}) in the {self.phase} phase"
                 + by_then(progress_in(self.progress)))
            return 128 - code
        if -code in (signal.SIGKILL, signal.SIGABRT):  # the OOM killer; a native allocation that failed
            cap = f" (--max-memory {format_bytes(limits.memory)})" if limits.memory else ""
            fail(f"the command's process was killed ({name}) in the {self.phase} phase: out of memory?{cap}")
            return EXIT_OUT_OF_MEMORY
        fail(f"internal error: the command's process died ({name}) in the {self.phase} phase")
        return EXIT_INTERNAL

    def _wait(self, left: float | None) -> None:
        watched = [fd for fd in (self.channel, self.pidfd, self.signals) if fd is not None]
        # without a pidfd (not Linux), the worker's end is noticed by polling
        step = left if self.pidfd is not None else min(0.05, left if left is not None else 0.05)
        ready, _, _ = select.select(watched, [], [], None if step is None else max(0.0, step))
        if self.channel in ready:
            self._read()
        if self.signals is not None and self.signals in ready:
            passed = os.read(self.signals, 64)
            if not passed:  # the worker has ended
                os.close(self.signals)
                self.signals = None
            ending = [number for number in passed if number in ENDING_SIGNALS]  # (its timers' SIGALRM too)
            if ending and self.code is None:  # as if the signal had been sent to the command
                raise _Signalled(ending[0])

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
            elif kind == "say" and value not in self.notes:  # (reporting.say_once)
                self.notes.add(value)
                sys.stderr.write(f"puzzlesat: note: {value}\n")
                sys.stderr.flush()

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
        for fd in (self.channel, self.pidfd, self.signals):
            if fd is not None:
                os.close(fd)
        self.channel = self.pidfd = self.signals = None
        for path in self.temps:
            try:
                os.unlink(path)
            except OSError:  # renamed into place, or never created
                pass
