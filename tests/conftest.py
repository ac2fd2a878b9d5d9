"""Shared fixtures: bundled instances and a CLI runner."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

INSTANCES = Path(__file__).resolve().parent.parent / "instances"
#: real Advent of Code inputs are not published with the project (their author asks people not to);
#: the tests also run them from ../shared/instances/aoc when it is beside the project, as in CI.
#: PUZZLESAT_HIDE_SHARED=1 runs the tests as a newcomer's clone, with nothing beside it (CI does both)
SHARED_AOC = (Path(__file__).resolve().parents[2] / "shared" / "instances" / "aoc"
              if not os.environ.get("PUZZLESAT_HIDE_SHARED") else Path("/nonexistent/shared/instances/aoc"))


def aoc_inputs(day: str, bundled: tuple[str, ...] = ("example", "generated-1", "generated-2"),
               real: tuple[str, ...] = ("real-1", "real-2")) -> list[Any]:
    """pytest parameters, one per input of an AoC day: the path without its suffix (NAME.txt is the
    input, NAME.answers its two answers), the bundled ones first, then the real ones found in ../shared."""
    found = [pytest.param(str(INSTANCES / "aoc" / day / name), id=name) for name in bundled]
    missing = pytest.mark.skip(reason=f"real inputs are not published: {SHARED_AOC / day} is not beside the project")
    return found + [pytest.param(str(SHARED_AOC / day / name), id=f"shared-{name}",
                                 marks=() if (SHARED_AOC / day / f"{name}.txt").exists() else missing)
                    for name in real]


def aquarium_instances() -> list[Path]:
    return sorted((INSTANCES / "aquarium").glob("*.txt"))


@pytest.fixture
def run_cli():
    """Invoke the CLI in-process; returns (exit code, stdout, stderr)."""
    from puzzlesat.cli import main

    def run(*args: str, input: str | None = None):
        result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return run


def backend_double(name: str, session: type):
    """A PySAT-based backend class whose sessions are ``session`` (a test double that sleeps, crashes or
    lies), registered by tests under ``name`` with ``monkeypatch.setitem(registry._FACTORIES, ...)``."""
    from puzzlesat.backends.pysat_backend import PysatBackend

    class Double(PysatBackend):
        def __init__(self) -> None:
            super().__init__("glucose4")
            self.name = name

        def _open(self, encoding):
            return session(self, encoding)

    return Double


#: the exact counters (the 'count' extra) have wheels for a few platforms only: where they cannot be
#: installed, the tests that name them are skipped (under make test, PUZZLESAT_REQUIRE_TOOLS=1, they fail)
COUNTER_MODULES = {"ganak": "pyganak", "d4": "py_d4", "frontier": "numpy"}


#: what a test that runs an outside solver binary (``make solvers``) says in its source or parameters
OUTSIDE_SIGNS = ("tool(", "needs_cadical", 'which("cadical")', "external:cadical", "external:minisat", "external:kissat",
                 "external:picosat", "external:cryptominisat5", "'cadical'", "'cvc5'", "'minisat'", "'picosat'")


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Marks the tests that run outside binaries ``outside`` (so that ``pytest -m 'not outside'`` runs
    without root), and skips the tests of counters whose wheels are missing here."""
    import importlib.util
    import inspect
    import os

    for item in items:
        source = inspect.getsource(item.function) + str(getattr(item, "callspec", "") and item.callspec.params)
        if any(sign in source for sign in OUTSIDE_SIGNS):
            item.add_marker(pytest.mark.outside)
    missing = [name for name, module in COUNTER_MODULES.items() if importlib.util.find_spec(module) is None]
    if not missing or os.environ.get("PUZZLESAT_REQUIRE_TOOLS"):
        return
    for item in items:
        source = inspect.getsource(item.function) + str(getattr(item, "callspec", "") and item.callspec.params)
        for name in missing:
            if f'"{name}"' in source or f"'{name}'" in source or COUNTER_MODULES[name] in source:
                item.add_marker(pytest.mark.skip(reason=f"{COUNTER_MODULES[name]} is not installed here "
                                                        "(pip install 'puzzlesat[count]')"))


#: when this test session started (time.monotonic()), for the suite's time said at the end
_STARTED: list[float] = []


def pytest_sessionstart(session: Any) -> None:
    """The suite's start; in the controlling process, numba's cache warmed first by ``puzzlesat compile``
    (a second when it is; on a fresh clone, whose sources are newer than any cached kernel, about 20 s),
    so that no test's output depends on whether it is the one that compiles: a first compilation is
    announced on stderr ("puzzlesat: note: compiling ..."), which tests that count stderr's lines would
    see only in the one process that happened to compile (tests/test_compiled_cache.py and
    tests/test_first_run.py test that note, in caches of their own)."""
    import subprocess
    import sys

    _STARTED.append(time.monotonic())
    if not hasattr(session.config, "workerinput") and not os.environ.get("NUMBA_DISABLE_JIT"):
        subprocess.run([sys.executable, "-m", "puzzlesat", "compile"], capture_output=True, timeout=600)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The suite's time and the machine's cores, said at the end (the suite is to stay under 10 minutes
    on a quiet 2-core machine; the design notes keep the measurements)."""
    if not _STARTED:
        return
    minutes, seconds = divmod(round(time.monotonic() - _STARTED[0]), 60)
    workers = getattr(terminalreporter.config.option, "numprocesses", None) or 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    terminalreporter.write_line(f"suite time: {minutes} min {seconds} s, {workers} test processes on {cores} cores")
