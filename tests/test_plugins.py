"""Puzzles and backends from other packages, found through entry points (puzzlesat.core.plugins).

Each test installs a tiny distribution by hand (a ``*.dist-info`` directory with ``entry_points.txt``,
which is all ``importlib.metadata`` reads) into a temporary directory and runs the real console script
with that directory on ``PYTHONPATH``, so nothing leaks into the other tests' processes."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

INSTANCE = str(Path(__file__).resolve().parent.parent / "instances" / "aquarium" / "pa-6x6-easy-681742.txt")
PUZZLESAT = str(Path(sys.executable).parent / "puzzlesat")

PLUGIN = '''
from puzzlesat.backends.pysat_backend import PysatBackend


class Mine(PysatBackend):
    """MiniSat under a name of its own: what a third-party backend package would register."""

    def __init__(self) -> None:
        super().__init__("minisat22")
        self.name = "mysolver"


NOT_A_PUZZLE = object()
'''

ENTRY_POINTS = """[puzzlesat.backends]
mysolver = fakeplugin:Mine

[puzzlesat.puzzles]
missing = no_such_module:PUZZLE
notapuzzle = fakeplugin:NOT_A_PUZZLE
"""


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "fakeplugin.py").write_text(PLUGIN)
    info = tmp_path / "fakeplugin-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    env = os.environ | {"PYTHONPATH": str(tmp_path)}
    return subprocess.run([PUZZLESAT, *args], capture_output=True, text=True, env=env, timeout=120)


def test_a_backend_from_another_package_solves_and_is_listed(tmp_path):
    solved = run(tmp_path, "solve", "aquarium", INSTANCE, "--backend", "mysolver")
    assert solved.returncode == 0, solved.stderr
    assert "SAT with mysolver" in solved.stdout and "unique: yes" in solved.stdout
    listed = run(tmp_path, "backends")
    assert any(line.startswith("mysolver ") for line in listed.stdout.splitlines())


def test_a_puzzle_that_fails_to_load_is_one_line_naming_the_entry_point(tmp_path):
    result = run(tmp_path, "solve", "missing", INSTANCE)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "puzzlesat.puzzles entry point 'missing' (no_such_module:PUZZLE) failed to load" in result.stderr


def test_an_entry_point_that_is_not_a_puzzle_is_refused(tmp_path):
    result = run(tmp_path, "solve", "notapuzzle", INSTANCE)
    assert result.returncode == 2
    assert result.stderr == "puzzlesat: error: puzzle 'notapuzzle' is a object, not a puzzlesat Puzzle\n"


def test_plugins_are_offered_in_help_and_a_built_in_name_costs_no_metadata_scan(tmp_path):
    helped = " ".join(run(tmp_path, "solve", "--help").stdout.split())  # as read, not as wrapped
    assert "solve [OPTIONS] PUZZLE FILE" in helped
    assert re.search(r"or a plug-in, installed separately: missing( \(from [\w-]+\))?, notapuzzle( \(from [\w-]+\))?[,.]",
                     helped), helped
    code = ("import sys; from puzzlesat.encoders import get_puzzle; get_puzzle('aquarium'); "
            "from puzzlesat.backends import get_backend; get_backend('cadical'); "
            "print('importlib.metadata' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "False\n"


# --- plug-ins are guests (issue 69, item 4) ----------------------------------------------------------

BROKEN = '''
import os
import sys
import time

from puzzlesat_sudoku import Sudoku

if os.environ.get("BROKEN_IMPORT") == "sleeps":
    time.sleep(20)
elif os.environ.get("BROKEN_IMPORT") == "allocates":
    hoard = [bytearray(1 << 20) for _ in range(4000)]
elif os.environ.get("BROKEN_IMPORT") == "exits":
    sys.exit(0)


class Raises(Sudoku):
    name = "raises"

    def parse(self, text, path, **reading):
        raise ValueError("a bug in the plug-in")


class NoInstance(Sudoku):
    name = "noinstance"

    def parse(self, text, path, **reading):
        return None


class BadDecode(Sudoku):
    name = "baddecode"

    def decode(self, instance, encoding, model):
        raise KeyError(17)


class BadCheck(Sudoku):
    name = "badcheck"

    def check(self, instance, solution):
        return None


class Exits(Sudoku):
    name = "exits"

    def check(self, instance, solution):
        sys.exit(0)


RAISES, NO_INSTANCE, BAD_DECODE, BAD_CHECK, EXITS = Raises(), NoInstance(), BadDecode(), BadCheck(), Exits()
'''

BROKEN_POINTS = """[puzzlesat.puzzles]
raises = brokenplugin:RAISES
noinstance = brokenplugin:NO_INSTANCE
baddecode = brokenplugin:BAD_DECODE
badcheck = brokenplugin:BAD_CHECK
exits = brokenplugin:EXITS
"""
SUDOKU = str(Path(__file__).resolve().parent.parent / "examples" / "puzzlesat-sudoku" / "puzzles" / "small-4x4.txt")


def run_broken(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "brokenplugin.py").write_text(BROKEN)
    info = tmp_path / "brokenplugin-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: brokenplugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(BROKEN_POINTS)
    return subprocess.run([PUZZLESAT, *args], capture_output=True, text=True, timeout=120,
                          env=os.environ | {"PYTHONPATH": str(tmp_path)} | (env or {}))


@pytest.mark.parametrize("puzzle, said", [
    ("raises", "parse() raised ValueError: a bug in the plug-in"),
    ("noinstance", "parse() returned None, not an instance"),
    ("baddecode", "decode() raised KeyError: 17"),
    ("badcheck", "check() returned a NoneType, not a list of sentences"),
    ("exits", "check() raised SystemExit"),
])
def test_a_plugin_method_that_fails_is_one_line_naming_it(tmp_path, puzzle, said):
    """Each was 'internal error' (exit 3) naming no plug-in; sys.exit(0) in a method ended the command
    silently with exit 0."""
    pytest.importorskip("puzzlesat_sudoku")
    result = run_broken(tmp_path, "solve", puzzle, SUDOKU, "--backend", "glucose4")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result
    assert f"puzzlesat.puzzles entry point '{puzzle}' (brokenplugin:" in result.stderr and said in result.stderr


@pytest.mark.parametrize("broken, args, code, said", [
    ("sleeps", ["solve", "raises", SUDOKU, "--timeout", "2"], 4, "its import ran past the time limit"),
    ("allocates", ["solve", "raises", SUDOKU, "--max-memory", "500M"], 5, "its import ran out of memory"),
    ("exits", ["solve", "raises", SUDOKU], 2, "it called sys.exit(0) while imported"),
    ("exits", ["bench", "--puzzle", "raises", "--instances", "."], 2, "it called sys.exit(0) while imported"),
])
def test_a_plugin_import_runs_inside_the_limits(tmp_path, broken, args, code, said):
    """An import that slept 20 s ran 20 s under --timeout 2; one that allocated reached 3.1 GB under
    --max-memory 500M; sys.exit(0) at import made solve and bench exit 0 silently."""
    pytest.importorskip("puzzlesat_sudoku")
    started = time.monotonic()
    result = run_broken(tmp_path, *args, env={"BROKEN_IMPORT": broken})
    assert result.returncode == code and result.stderr.count("\n") == 1, result
    assert said in result.stderr and "entry point 'raises'" in result.stderr
    assert time.monotonic() - started < 15


def test_a_command_that_does_not_use_a_slow_plugin_does_not_wait_for_it(tmp_path):
    pytest.importorskip("puzzlesat_sudoku")
    started = time.monotonic()
    result = run_broken(tmp_path, "solve", "aquarium", INSTANCE, env={"BROKEN_IMPORT": "sleeps"})
    assert result.returncode == 0 and time.monotonic() - started < 15


def test_generate_help_lists_plugins_without_importing_them(tmp_path):
    """generate --help waited for every plug-in's import (20 s for one that sleeps)."""
    pytest.importorskip("puzzlesat_sudoku")
    started = time.monotonic()
    result = run_broken(tmp_path, "generate", "--help", env={"BROKEN_IMPORT": "sleeps"})
    assert result.returncode == 0 and "raises" in result.stdout and time.monotonic() - started < 15
