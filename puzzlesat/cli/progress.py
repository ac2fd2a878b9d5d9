"""A status line for work that can take long: on a terminal only, rewritten in place once a second.

``puzzlesat count jig zhurgut_9x9.jig`` used to sit a minute without a word. A command's worker now
shows, on stderr when it is a terminal, what it is doing and for how long ("count: solve phase, 1,234
solutions so far, 12 s": the phase, and how far it has come where the work says so),
from the second second on; a quick command shows nothing. Never in a pipe, never with ``--json``,
``--jsonl`` or ``--list`` (their output is the record), and not in bench, which has a bar of its own.
The line is wiped before anything else is written to stdout or stderr (the streams are wrapped), so it
never mixes with the output, and drawn again at its next turn once the output has ended its line (a
cross-check's rows come one by one, the line below them saying which method is awaited). It costs
nothing at start-up: one thread, started only on a terminal.

For a program that shows the progress itself (``puzzlesat serve``'s page), ``--progress-json`` writes the
same facts as JSON lines on stderr (:func:`reported_while`), from the first half second on, whatever
stderr is: ``{"progress": {"command": "count", "phase": "solve", "done": "1,234 solutions so far",
"seconds": 3.5}}``. Such a line never looks like the command's one-line error, which starts with
``puzzlesat:``.
"""
from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any, TextIO

#: how long a command runs before its status line appears, and how often the line is rewritten
FIRST, EVERY = 2.0, 1.0
#: how often ``--progress-json`` writes a line (the first after this long too)
JSON_EVERY = 0.5


class StatusLine:
    """The line itself, written by a daemon thread until :meth:`clear` is called."""

    def __init__(self, stream: TextIO, command: str, doing: Any) -> None:
        self.stream, self.command, self.doing = stream, command, doing
        self.start = time.monotonic()
        self.shown = False
        #: whether the terminal's cursor is at the start of a line (the output's last write ended one)
        self.at_line_start = True
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
                if self.at_line_start:
                    seconds = time.monotonic() - self.start
                    self.stream.write(f"\r{self.command}: {self.doing()}, {seconds:.0f} s (Ctrl-C stops)\x1b[K")
                    self.stream.flush()
                    self.shown = True
            if self.done.wait(EVERY):
                return

    def clear(self) -> None:
        """Stop for good, and wipe the line if it was drawn."""
        with self.lock:
            self._wipe()
            self.done.set()

    def _wipe(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    def written(self, stream: TextIO, text: str, on_terminal: bool) -> int:
        """Write ``text`` to ``stream`` with the line wiped first (drawn again at its next turn, once the
        terminal's line has ended)."""
        with self.lock:
            self._wipe()
            count = stream.write(text)
            if on_terminal and text:
                stream.flush()
                self.at_line_start = text.endswith("\n")
            return count


class _Clearing:
    """A text stream that wipes the status line before each write."""

    def __init__(self, stream: TextIO, status: StatusLine) -> None:
        self._stream, self._status = stream, status
        self._on_terminal = stream.isatty()

    def write(self, text: str) -> int:
        return self._status.written(self._stream, text, self._on_terminal)

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


def reported_while(command: str, phase: Any, done: Any) -> threading.Event:
    """Write ``{"progress": {...}}`` lines on stderr every :data:`JSON_EVERY` seconds (``phase()`` and
    ``done()`` say the phase and how far it has come) until the returned event is set."""
    stream, start, finished = sys.stderr, time.monotonic(), threading.Event()

    def run() -> None:
        while not finished.wait(JSON_EVERY):
            line = json.dumps({"progress": {"command": command, "phase": phase(), "done": done(),
                                            "seconds": round(time.monotonic() - start, 1)}})
            try:
                stream.write(line + "\n")  # one write, so a line is never split by the command's own
                stream.flush()
            except (OSError, ValueError):  # stderr closed: nobody is reading
                return
    threading.Thread(target=run, daemon=True).start()
    return finished
