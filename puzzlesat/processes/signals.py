"""The signals that end a command, and how its one line names each: the exit code is 128 + the number.
A module of its own that imports only :mod:`signal`, so that the console script installs its handlers
before anything else is imported (:mod:`puzzlesat.entry`)."""
from __future__ import annotations

import signal

ENDING_SIGNALS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}
