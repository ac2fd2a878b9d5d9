"""Puzzles and backends from other packages, registered as entry points.

A package adds a puzzle by declaring, in its ``pyproject.toml``::

    [project.entry-points."puzzlesat.puzzles"]
    sudoku = "puzzlesat_sudoku:PUZZLE"

and a backend likewise under ``puzzlesat.backends`` (the object is a factory: a Backend subclass or a
function returning a Backend). ``importlib.metadata`` costs about 17 ms to import, so the entry
points are read only when a name is not a built-in one or when every name is listed: commands on the
built-in puzzles and backends never pay for it.

A plug-in is a guest: its faults are one line naming its entry point, never an internal error.

- Its import runs under the command's limits. The command line needs a plug-in's declared options
  before it parses (and so before its worker, which holds the limits, exists), so the supervisor first
  imports the plug-in in a forked probe under the command's ``--timeout`` and ``--max-memory``
  (:data:`IMPORT_LIMITS`, :func:`_probe`), and imports it itself only once the probe has: an import that
  sleeps ends at the time limit (exit 4), one that allocates at the memory cap (exit 5), one that calls
  ``sys.exit()`` is refused (it ended the command silently with its code).
- Its puzzle's methods are guarded (:func:`puzzlesat.encoders.guard.guarded`): one that raises anything but puzzlesat's own
  errors, or returns what its contract does not allow (``None`` from ``parse``, a check that is not a
  list of sentences), is a :class:`PluginFailed` naming the entry point and the method (exit 2).
"""
from __future__ import annotations

import os
import sys
from functools import cache
from typing import TYPE_CHECKING

from .errors import EXIT_BAD_INPUT, EXIT_OUT_OF_MEMORY, EXIT_TIMEOUT, PuzzlesatError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


class PluginFailed(PuzzlesatError):
    """A plug-in's import or one of its methods failed: the one line names its entry point and method;
    its exit code is 2 (a failing solver's), or the limit's it ran past (4 time, 5 memory)."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code


#: (seconds, bytes) a plug-in's import may take in the command line's supervisor, from the command's
#: --timeout and --max-memory (None: no limit); None for no probe (a library caller, a worker)
IMPORT_LIMITS: tuple[float | None, int | None] | None = None
#: the plug-ins whose probe failed, by (group, name): the command's worker says it, without importing
_FAILED: dict[tuple[str, str], PluginFailed] = {}

PUZZLE_GROUP = "puzzlesat.puzzles"
BACKEND_GROUP = "puzzlesat.backends"


@cache
def registered(group: str) -> dict[str, EntryPoint]:
    """The entry points of ``group`` by name, from every installed distribution."""
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group=group)}


def load(group: str, name: str) -> object:
    """The object an entry point names; a package that fails to import is a one-line error naming it."""
    point = registered(group)[name]
    where = f"{group} entry point '{name}' ({point.value})"
    from .reporting import in_worker  # (here: listing the commands imports this module, not reporting)

    if (group, name) in _FAILED:  # the probe's answer, kept for the worker (which inherits it)
        raise _FAILED[group, name]
    if IMPORT_LIMITS is not None and point.module not in sys.modules and not in_worker():
        try:
            _probe(point, where, *IMPORT_LIMITS)
        except PluginFailed as failed:
            _FAILED[group, name] = failed
            raise
    try:
        return point.load()
    except SystemExit as exc:  # it ended the command, silently, with its code
        raise PluginFailed(f"{where} failed to load: it called sys.exit({exc.code!r}) while imported") from None
    except Exception as exc:  # noqa: BLE001  (a broken plug-in is the user's one-line error, not a traceback)
        raise PluginFailed(f"{where} failed to load: {said(exc)}") from None


def said(exc: BaseException) -> str:
    """An exception as one line: its type and its message's first line."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first[:200]}".rstrip(": ")


def _probe(point: EntryPoint, where: str, seconds: float | None, memory: int | None) -> None:
    """Import ``point`` in a forked child under the command's limits, before this process imports it:
    raise :class:`PluginFailed` with the exit code of the limit it ran past (or 2 for a failure), so
    that a slow or greedy import is stopped as any work of the command is."""
    import resource
    import signal

    from . import timing

    if seconds is not None and timing.PROCESS_START is not None:  # what the command's limit leaves
        seconds = max(0.01, seconds - timing.since_start(timing.PROCESS_START))
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the probe: nothing of it is kept but its one line
        os.close(read_end)
        failure = ""
        try:
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
                signal.signal(number, signal.SIG_DFL)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            if memory is not None:
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            if seconds is not None:
                signal.setitimer(signal.ITIMER_REAL, seconds)  # SIGALRM's default ends it
            point.load()
        except MemoryError:
            failure = "\0memory"
        except SystemExit as exc:
            failure = f"it called sys.exit({exc.code!r}) while imported"
        except BaseException as exc:  # noqa: BLE001  (said by the parent in one line)
            failure = said(exc)
        os.write(write_end, failure.encode("utf-8", "replace")[:4000])
        os._exit(0)
    os.close(write_end)
    try:
        answer = b""
        while chunk := os.read(read_end, 4096):
            answer += chunk
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == -signal.SIGALRM:
        raise PluginFailed(f"{where}: its import ran past the time limit ({seconds:.3g} s left of --timeout)",
                           EXIT_TIMEOUT)
    if answer == b"\0memory" or code in (-signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT):
        cap = f" (--max-memory {memory >> 20} MiB)" if memory is not None else ""
        raise PluginFailed(f"{where}: its import ran out of memory{cap}", EXIT_OUT_OF_MEMORY)
    if answer or code != 0:
        raise PluginFailed(f"{where} failed to load: {answer.decode('utf-8', 'replace') or f'exit code {code}'}")
