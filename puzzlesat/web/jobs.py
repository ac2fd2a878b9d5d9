"""Jobs of the web app: the command line run as a child process, under the server's limits, at most
``slots`` at a time (the rest are refused at once: the client is told to come back, not left waiting).

A job may be followed as it runs: the JSON lines its command writes for a program to show (``{"progress":
...}`` on stderr, which ``--progress-json`` asks for, and a cross-check's ``{"row": ...}`` on stdout) are
handed to a callback as they come, and :meth:`Jobs.stop` asks a running job to stop as Ctrl-C does (the
command then prints what it had found, and that is its answer).
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: the longest line a job's output may have (a grid's row, a long error): past it the job fails
LINE_LIMIT = 16 << 20
#: how the lines a job is followed by start (on stderr and on stdout)
FOLLOWED = ('{"progress": ', '{"row": ')


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
        #: the slots taken
        self.running = 0
        #: the children running, by their job's name
        self.children: dict[str, asyncio.subprocess.Process] = {}

    def reserve(self) -> Reservation:
        """A slot for one job, taken now; raise :class:`Busy` when every slot is taken."""
        if self.running >= self.slots:
            raise Busy
        self.running += 1
        return Reservation(self)

    async def run(self, args: Sequence[str], stdin: str, inputs: dict[str, str] | None = None,
                  outputs: Sequence[str] = (), seconds: float | None = None) -> Finished:
        """A job in a slot taken now (:meth:`reserve`, :meth:`Reservation.run`)."""
        return await self.reserve().run(args, stdin, inputs, outputs, seconds)

    def kill_all(self) -> None:
        """Kill every job still running (the server is ending: nobody is left to read their answers)."""
        for child in self.children.values():
            if child.returncode is None:
                child.kill()

    def stop(self, name: str) -> bool:
        """Ask the job ``name`` to stop as Ctrl-C does; whether it was running."""
        child = self.children.get(name)
        if child is None or child.returncode is not None:
            return False
        child.send_signal(signal.SIGINT)
        return True


@dataclass
class Reservation:
    """A job slot, given back once: when its job ends, or by :meth:`release` if it never runs."""

    jobs: Jobs
    #: the job's name, for :meth:`Jobs.stop`: hard to guess, so no other page stops it
    name: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.jobs.running -= 1

    async def run(self, args: Sequence[str], stdin: str, inputs: dict[str, str] | None = None,
                  outputs: Sequence[str] = (), seconds: float | None = None,
                  heard: Callable[[dict[str, Any]], None] | None = None, whole: str = "--timeout") -> Finished:
        """``puzzlesat ARGS`` with ``stdin`` as its standard input; ``inputs`` (name -> text) are written
        to files first, and an argument that is exactly ``{name}`` becomes that file's path, as does each
        name of ``outputs`` (files the command writes, read back; nothing else of an argument is read as
        a placeholder: a request's words are data). ``heard`` is given each followed line as it comes
        (:data:`FOLLOWED`); the rest is the job's output. ``whole`` is the command's option that bounds
        all of it (a cross-check's ``--budget``). Cancelled, the job's child is killed."""
        try:
            with tempfile.TemporaryDirectory(prefix="puzzlesat-web-") as scratch:
                paths = {name: str(Path(scratch) / name) for name in [*(inputs or {}), *outputs]}
                for name, text in (inputs or {}).items():
                    Path(paths[name]).write_text(text)
                limit = min(self.jobs.seconds, seconds) if seconds else self.jobs.seconds
                placed = [paths.get(arg[1:-1], arg) if arg[:1] == "{" and arg[-1:] == "}" else arg for arg in args]
                command = [sys.executable, "-m", "puzzlesat", *placed,
                           whole, f"{limit:g}", "--max-memory", self.jobs.memory]
                child = await asyncio.create_subprocess_exec(
                    *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, env=os.environ | {"PYTHONUNBUFFERED": "1"}, limit=LINE_LIMIT)
                self.jobs.children[self.name] = child
                try:
                    out, err, _, _ = await asyncio.gather(_lines(child.stdout, heard), _lines(child.stderr, heard),
                                                          _feed(child, stdin.encode()), child.wait())
                except BaseException:  # cancelled (the client went away) or failed: so does its child
                    if child.returncode is None:
                        child.kill()
                        await child.wait()
                    raise
                finally:
                    del self.jobs.children[self.name]
                written = {name: Path(paths[name]).read_text() for name in outputs if Path(paths[name]).exists()}
                return Finished(child.returncode or 0, out, err, written)
        finally:
            self.release()


async def _feed(child: asyncio.subprocess.Process, data: bytes) -> None:
    assert child.stdin is not None
    try:
        child.stdin.write(data)
        await child.stdin.drain()
        child.stdin.close()
    except (BrokenPipeError, ConnectionResetError):  # the command ended without reading it all
        pass


async def _lines(stream: asyncio.StreamReader | None, heard: Callable[[dict[str, Any]], None] | None) -> str:
    """What ``stream`` says, but for the followed lines, which go to ``heard`` as they come."""
    assert stream is not None
    kept: list[str] = []
    async for raw in stream:
        line = raw.decode(errors="replace")
        if heard is not None and line.startswith(FOLLOWED):
            try:
                heard(json.loads(line))
                continue
            except ValueError:
                pass
        kept.append(line)
    return "".join(kept)
