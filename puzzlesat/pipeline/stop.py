"""Work stopped before its end, and what it had found: the :class:`Stop` a report carries (a count's lower
bounds, an optimisation's best plan, a cross-check's rows so far) and the errors that are stops.

A count, an enumeration, cube and conquer, a cross-check and the SAT descent catch :data:`STOPPING` where
their work waits (the deadline of a solver call, a signal's request to stop passed on by the supervisor,
a solver child's death of memory) and answer with what they had, saying why, instead of raising: the
command line prints it and ends with the stop's exit code and one line (``EndedEarly``).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import Interrupted, OutOfMemory, PuzzlesatError, SolverTimeout
from ..core.reporting import limit_reached, stop_requested
from ..core.timing import Deadline


@dataclass(frozen=True)
class Stop:
    """Why a piece of work ended before its end, so that what it had found is reported with it (a
    count's numbers are then lower bounds, every solution in them checked): ``by`` what (``time
    limit``, ``memory limit``, or the signal's name), after how many ``seconds`` (since the command
    started), and the one-line ``message`` and ``exit_code`` the command ends with (the table of
    exit codes in docs/limits.md). Plain data: it crosses the pipe from a forked count."""

    #: what stopped it: ``time limit``, ``memory limit``, or the signal's name (``SIGINT``)
    by: str
    #: when, in seconds since the command (or the call) started
    seconds: float
    #: the one line the command ends with
    message: str
    #: the exit code the command ends with (4, 5, 130, 143: docs/limits.md)
    exit_code: int

    @classmethod
    def of(cls, error: PuzzlesatError, seconds: float) -> Stop:
        """The stop that ``error`` (a timeout, a signal's :class:`Interrupted`, :class:`OutOfMemory`) is."""
        if isinstance(error, SolverTimeout):
            return cls("time limit", seconds, limit_reached(str(error)), error.exit_code)
        if isinstance(error, Interrupted):
            return cls(error.signal_name, seconds, str(error), error.exit_code)
        assert isinstance(error, OutOfMemory), f"not a stop: {type(error).__name__}"
        return cls("memory limit", seconds, str(error), error.exit_code)

    def said(self) -> str:
        """"stopped by the time limit after 60.2 s"."""
        by = f"the {self.by}" if " " in self.by else self.by
        return f"stopped by {by} after {self.seconds:.1f} s"

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "after_seconds": round(self.seconds, 3), "message": self.message,
                "exit_code": self.exit_code}


#: what stops a piece of work early, leaving what it had found to be reported (:class:`Stop`)
STOPPING = (SolverTimeout, Interrupted, OutOfMemory)


#: how long the replay of what a search had found may go on once a signal has asked the command to stop:
#: half the time the supervisor then waits for the work to end by itself (its ``STOP_GRACE``, 1 s)
SIGNAL_REPLAY = 0.5


def replay_stop(deadline: Deadline) -> Callable[[], bool]:
    """When a replay of what a search found must stop: at the command's deadline, or :data:`SIGNAL_REPLAY`
    after a signal asked to stop. The search itself stops at the signal; stopping its replay there too
    kept none of it (an explanation stopped by SIGINT after 140 steps printed "no step found yet")."""
    signalled: list[float] = []

    def stop() -> bool:
        if deadline.passed():
            return True
        if not stop_requested():
            return False
        if not signalled:
            signalled.append(time.monotonic())
        return time.monotonic() - signalled[0] > SIGNAL_REPLAY
    return stop
