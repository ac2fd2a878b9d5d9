"""Named wall-clock phases (parse, encode, solve, decode, check) for reports and benchmarks, and the one
time limit of a piece of work, as a point in time that every solver call below it reads."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from .reporting import report_phase


class Stopwatch:
    """Accumulates seconds per phase name; a phase may be entered several times."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time the block as phase ``name`` (and tell a supervisor, whose time-limit message names it)."""
        report_phase(name)
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def add(self, name: str, seconds: float) -> None:
        self.times[name] = self.times.get(name, 0.0) + seconds


class Deadline(NamedTuple):
    """A time limit as the point in time it ends (``time.monotonic()``, which forked children share),
    made once where the limit starts (a command's start, a cross-check method's, a benchmark run's)
    and passed down unchanged: each solver call takes what is :meth:`left` of it. ``seconds`` is the
    limit as the user gave it, for messages."""

    seconds: float | None = None
    end: float | None = None

    @classmethod
    def after(cls, seconds: float | None, start: float | None = None) -> Deadline:
        """The deadline ``seconds`` from ``start`` (a ``time.monotonic()``; None: now), or no limit."""
        return cls(seconds, None if seconds is None else (time.monotonic() if start is None else start) + seconds)

    def left(self, most: float | None = None, at_least: float = 0.001) -> float | None:
        """Seconds left (``at_least`` a millisecond, so that a call given them still answers "time is up"
        itself), at ``most`` that many (a wait that looks up now and then), or None: no limit, no most."""
        if self.end is None:
            return most
        rest = max(at_least, self.end - time.monotonic())
        return rest if most is None else min(most, rest)

    def earlier(self, other: Deadline) -> Deadline:
        """Whichever of the two deadlines comes first (a method's own limit, or its budget's end)."""
        if other.end is None or (self.end is not None and self.end <= other.end):
            return self
        return other

    def sooner(self, seconds: float) -> Deadline:
        """This deadline ``seconds`` earlier (no limit stays none; ``seconds`` for messages stays the
        user's): the end of forked children that stop by themselves and hand back what they had found,
        so that it reaches their parent by the parent's own deadline."""
        return self if self.end is None else Deadline(self.seconds, self.end - seconds)

    def passed(self) -> bool:
        """Whether the deadline is past (never, without a limit)."""
        return self.end is not None and time.monotonic() >= self.end


#: no time limit
UNLIMITED = Deadline()

#: when the ``puzzlesat`` process started (set by its console script; None in a process that is not it,
#: such as a test runner): a command's --timeout counts from there
PROCESS_START: float | None = None


def since_start(started: float) -> float:
    """Seconds since the ``puzzlesat`` process started (what a user's ``--timeout`` counts), or, in
    another process (a library caller), since ``started`` (a ``time.monotonic()``)."""
    return time.monotonic() - (started if PROCESS_START is None else PROCESS_START)
