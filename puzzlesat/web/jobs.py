"""Jobs of the web app: the command line run as a child process, under the server's limits, at most
``jobs`` at a time (the rest are refused at once: the client is told to come back, not left waiting)."""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


class Busy(Exception):
    """Every job slot is taken."""


@dataclass(frozen=True)
class Finished:
    """A job's end: its exit code, what it printed, and the files it wrote (by the name asked for)."""

    code: int
    stdout: str
    stderr: str
    files: dict[str, str]


class Jobs:
    """Runs ``puzzlesat`` commands as child processes, ``slots`` at a time, each under ``seconds`` and
    ``memory`` (the ``--timeout`` and ``--max-memory`` the server sets; a request may only lower the
    time)."""

    def __init__(self, slots: int, seconds: float, memory: str) -> None:
        self.slots, self.seconds, self.memory = slots, seconds, memory
        self.running = 0

    async def run(self, args: Sequence[str], stdin: str, inputs: dict[str, str] | None = None,
                  outputs: Sequence[str] = (), seconds: float | None = None) -> Finished:
        """``puzzlesat ARGS`` with ``stdin`` as its standard input; ``inputs`` (name -> text) are written
        to files first, and an argument that is exactly ``{name}`` becomes that file's path, as does each
        name of ``outputs`` (files the command writes, read back; nothing else of an argument is read as
        a placeholder: a request's words are data). Raise :class:`Busy` when every slot is taken."""
        if self.running >= self.slots:
            raise Busy
        self.running += 1
        try:
            with tempfile.TemporaryDirectory(prefix="puzzlesat-web-") as scratch:
                paths = {name: str(Path(scratch) / name) for name in [*(inputs or {}), *outputs]}
                for name, text in (inputs or {}).items():
                    Path(paths[name]).write_text(text)
                limit = min(self.seconds, seconds) if seconds else self.seconds
                placed = [paths.get(arg[1:-1], arg) if arg[:1] == "{" and arg[-1:] == "}" else arg for arg in args]
                command = [sys.executable, "-m", "puzzlesat", *placed,
                           "--timeout", f"{limit:g}", "--max-memory", self.memory]
                child = await asyncio.create_subprocess_exec(
                    *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, env=os.environ | {"PYTHONUNBUFFERED": "1"})
                try:
                    out, err = await child.communicate(stdin.encode())
                except asyncio.CancelledError:  # the client went away: so does its job
                    child.kill()
                    await child.wait()
                    raise
                written = {name: Path(paths[name]).read_text() for name in outputs if Path(paths[name]).exists()}
                return Finished(child.returncode or 0, out.decode(), err.decode(), written)
        finally:
            self.running -= 1
