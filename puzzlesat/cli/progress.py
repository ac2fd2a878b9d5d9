"""A status line for work that can take long: on a terminal only, rewritten in place once a second.

``puzzlesat count jig zhurgut_9x9.jig`` used to sit a minute without a word. A command's worker now
shows, on stderr when it is a terminal, what it is doing and for how long ("count: solve phase, 1,234
solutions so far, 12 s": the phase, and how far it has come where the work says so),
from the second second on; a quick command shows nothing. Never in a pipe, never with ``--json``,
``--jsonl`` or ``--list`` (their output is the record), and not in crosscheck or bench, which print rows
and a bar of their own. The line is cleared before anything else is written to stdout or stderr (the
streams are wrapped), so it never mixes with the output. It costs nothing at start-up: one thread,
started only on a terminal.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

#: how long a command runs before its status line appears, and how often the line is rewritten
FIRST, EVERY = 2.0, 1.0


class StatusLine:
    """The line itself, written by a daemon thread until :meth:`clear` is called."""

    def __init__(self, stream: TextIO, command: str, doing: Any) -> None:
        self.stream, self.command, self.doing = stream, command, doing
        self.start = time.monotonic()
        self.shown = False
        self.lock = threading.Lock()
        self.done = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        if self.done.wait(FIRST):
            return
        while True:
            with self.lock:
                if self.done.is_set():
                    return
                seconds = time.monotonic() - self.start
                self.stream.write(f"\r{self.command}: {self.doing()}, {seconds:.0f} s (Ctrl-C stops)\x1b[K")
                self.stream.flush()
                self.shown = True
            if self.done.wait(EVERY):
                return

    def clear(self) -> None:
        """Stop for good, and wipe the line if it was drawn."""
        with self.lock:
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self.shown = False
            self.done.set()


class _Clearing:
    """A text stream that clears the status line before its first write."""

    def __init__(self, stream: TextIO, status: StatusLine) -> None:
        self._stream, self._status = stream, status

    def write(self, text: str) -> int:
        self._status.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def shown_while(command: str, doing: Any) -> StatusLine | None:
    """A status line for ``command`` on stderr, when stderr is a terminal; stdout and stderr are wrapped
    so that whatever the command writes first clears it. ``doing()`` says what it is doing ("solve
    phase, 1,234 solutions so far")."""
    if not sys.stderr.isatty():
        return None
    status = StatusLine(sys.stderr, command, doing)
    sys.stdout = _Clearing(sys.stdout, status)
    sys.stderr = _Clearing(sys.stderr, status)
    return status
