"""Errors that the CLI turns into one-line messages (never tracebacks), and the exit codes they end with.

Every error a user can cause derives from :class:`PuzzlesatError`; its ``str`` is the whole message and
its ``exit_code`` the documented exit code (docs/limits.md, "Limits, signals and exit codes"; tests/test_limits.py pins them).
"""
from __future__ import annotations

import signal
from collections.abc import Iterable

#: the exit codes of every command; 130 and 143 are SIGINT and SIGTERM (128 + the signal's number)
EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_TIMEOUT = 4
EXIT_OUT_OF_MEMORY = 5
EXIT_DISK_FULL = 6
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_TERMINATED = 143
#: between processes of ours only: "out of memory, and nothing said" (making a message could run out
#: again); the process above says it in one line (the supervisor for its worker, a parent for its child)
EXIT_MEMORY_UNSAID = 105

#: the signals that end a command, and how its one line names each (the exit code is 128 + the number);
#: this module imports only :mod:`signal`, so the console script installs its handlers from here before
#: anything else is imported (:mod:`puzzlesat.entry`)
ENDING_SIGNALS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


class PuzzlesatError(Exception):
    """Base class of all expected, user-facing failures: bad input, bad options, a failing solver. Its
    message is one line; ``exit_code`` is the command line's exit code for it.

    >>> try:
    ...     puzzlesat.read("aquarium", "no-such-file.txt")
    ... except puzzlesat.PuzzlesatError as error:
    ...     print(error, error.exit_code)
    no-such-file.txt: no such file 2
    """

    exit_code = EXIT_BAD_INPUT


class PuzzleFormatError(PuzzlesatError):
    """Malformed puzzle input: names the file, line and column (1-based) of the problem."""

    def __init__(self, path: str, line: int | None, col: int | None, message: str) -> None:
        self.path, self.line, self.col, self.message = path, line, col, message
        where = path
        if line is not None:
            where += f":{line}"
            if col is not None:
                where += f":{col}"
        super().__init__(f"{where}: {message}")


class BackendError(PuzzlesatError):
    """A backend is unknown, unavailable, lacks a capability, or its solver failed."""


class SolverTimeout(PuzzlesatError):
    """The time limit ran out before the solver answered."""

    exit_code = EXIT_TIMEOUT

    def __init__(self, backend: str, seconds: float) -> None:
        self.backend, self.seconds = backend, seconds
        super().__init__(f"{backend}: no answer within the time limit of {seconds:g} s")


class Interrupted(PuzzlesatError):
    """A signal (Ctrl-C, ``kill``) asked the command to stop. The supervisor passes it on to the work as
    a request (:func:`~puzzlesat.core.reporting.stop_requested`), which the waits for solver children
    turn into this error, so that a count can still report what it had found before it ends."""

    def __init__(self, number: int, phase: str) -> None:
        self.number = number
        self.phase = phase
        self.exit_code = 128 + number
        name = signal.Signals(number)
        self.signal_name = name.name
        super().__init__(f"{ENDING_SIGNALS[name]} ({name.name}) in the {phase} phase")


class EndedEarly(PuzzlesatError):
    """Work stopped before its end (a time limit, a signal) whose output has already said what it had
    found: the command ends with the stop's one line and exit code."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class OutOfMemory(PuzzlesatError):
    """The command reached its memory limit (``--max-memory``)."""

    exit_code = EXIT_OUT_OF_MEMORY


class DiskFull(PuzzlesatError):
    """An output could not be written for want of space (ENOSPC, EDQUOT)."""

    exit_code = EXIT_DISK_FULL


class NotApplicable(PuzzlesatError):
    """A method refuses this input by design (the reference's plain walk past its size): in a
    cross-check or a benchmark, a SKIPPED row with the reason, never a failure or a disagreement."""


class CounterRefuses(BackendError, NotApplicable):
    """A model counter does not take this formula by design (a counter of every model and a formula whose
    shown variables leave others free; a counter without exact weights and a weighted formula): the
    one-line error of ``count --backend``, a SKIPPED row in a cross-check."""


class CheckFailed(PuzzlesatError):
    """A decoded solution broke a rule: the backend or the encoding is wrong."""


class BackendUnavailable(BackendError, NotApplicable):
    """A backend that is not installed or not on the PATH here: an error for a command that names it,
    and in a cross-check or a benchmark a SKIPPED row with the reason, never a culprit (a plain
    install's cross-check of dice named the missing counters as disagreeing)."""


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """" Did you mean 'cadical'?" for a misspelt name, the closest of ``known`` (difflib's ratio of at
    least 0.6, click's rule for options); "" when none is close."""
    import difflib

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" Did you mean '{close[0]}'?" if close else ""
