"""Named wall-clock phases (parse, encode, solve, decode, check) for reports and benchmarks, and one
time limit shared by several solver calls."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from .supervisor import report_phase, time_left


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


class Deadline:
    """What is left of one overall time limit, handed to each solver call in turn. Inside a supervised
    command the limit is also cut to what is left of the command's own (``--timeout`` bounds the whole
    command), so that solver calls stop in time to say so themselves."""

    def __init__(self, seconds: float | None) -> None:
        seconds = time_left(seconds)
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds

    def left(self) -> float | None:
        return None if self.end is None else max(0.001, self.end - time.perf_counter())
