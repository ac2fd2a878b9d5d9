"""The ``puzzlesat`` console script: signal handlers first, then the imports and the command line.

Importing click, PySAT and the commands takes a tenth of a second; a SIGINT in that window would print
a traceback, and a SIGTERM end the process by the signal. Nothing has started yet then (no child, no
file), so the handlers here only end the process with the documented exit code (128 + the signal) and
one line; the supervisor installs its own for the command's run.
"""
from __future__ import annotations

import os
import signal

ENDING = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


def _end(number: int, frame: object) -> None:
    os.write(2, f"puzzlesat: error: {ENDING[signal.Signals(number)]} ({signal.Signals(number).name})\n".encode())
    os._exit(128 + number)


def main() -> object:
    for number in ENDING:
        signal.signal(number, _end)
    from .cli import main as command_line

    return command_line()
