"""The ``puzzlesat`` console script: signal handlers first, then the imports and the command line.

Importing click, PySAT and the commands takes a tenth of a second; a SIGINT in that window would print
a traceback, and a SIGTERM end the process by the signal. Nothing has started yet then (no child, no
file), so the handlers here only end the process with the documented exit code (128 + the signal) and
one line; the supervisor installs its own for the command's run.
"""
from __future__ import annotations

import signal
import time

#: when the process started (near enough: this is its first line), which a --timeout counts from, so
#: that the interpreter's start-up and imports are inside the limit, not added to it
STARTED = time.monotonic()

# until the handlers below are in place, a SIGINT ends the process as SIGTERM does, without Python's
# KeyboardInterrupt traceback (soak: one run in 1,000 was interrupted while this module imported)
signal.signal(signal.SIGINT, signal.SIG_DFL)

import os  # noqa: E402  (after the line above, on purpose)
import sys  # noqa: E402

from .core.errors import ENDING_SIGNALS  # noqa: E402


def _end(number: int, frame: object) -> None:
    name = signal.Signals(number)
    os.write(2, f"puzzlesat: error: {ENDING_SIGNALS[name]} ({name.name})\n".encode())
    os._exit(128 + number)


# installed as this module is imported, before the supervisor's imports (about 35 ms): the window in
# which a signal ends the process the interpreter's way is the interpreter's own start-up
for _number in ENDING_SIGNALS:
    signal.signal(_number, _end)


def _reopen_closed_streams() -> None:
    """A stdout or stderr closed by the caller (``>&-``) is /dev/null for the run: Python leaves it as
    None, so the command ran unsupervised (no time limit) and ended in a traceback. The answers or
    messages it would have printed go nowhere, as the caller asked."""
    for number, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:
            descriptor = os.open(os.devnull, os.O_WRONLY)  # the lowest free descriptor: the closed one
            if descriptor != number:
                os.dup2(descriptor, number)
                os.close(descriptor)
            setattr(sys, name, open(number, "w", buffering=1, closefd=False))  # noqa: SIM115 (for the run)


def main() -> None:
    """Run the command line, then leave at once: the interpreter's own shutdown puts the default signal
    handlers back, and a signal in that window would end the process by the signal, not the code."""
    _reopen_closed_streams()
    from .cli import main as command_line
    from .core import timing

    timing.PROCESS_START = STARTED

    try:
        code = command_line()
    except SystemExit as exc:
        code = exc.code
    if not isinstance(code, int):
        code = 0 if code is None else 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a closed or full stdout was reported by the command already
            pass
    os._exit(code)
