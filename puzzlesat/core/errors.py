"""Errors that the CLI turns into one-line messages (never tracebacks).

Every error a user can cause derives from :class:`PuzzlesatError`; its ``str`` is the whole message.
"""
from __future__ import annotations


class PuzzlesatError(Exception):
    """Base class of all expected, user-facing failures."""


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

    def __init__(self, backend: str, seconds: float) -> None:
        super().__init__(f"{backend}: no answer within the time limit of {seconds:g} s")


class CheckFailed(PuzzlesatError):
    """A decoded solution broke a rule: the backend or the encoding is wrong."""
