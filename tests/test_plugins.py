"""Puzzles and backends from other packages, found through entry points (puzzlesat.core.plugins).

Each test installs a tiny distribution by hand (a ``*.dist-info`` directory with ``entry_points.txt``,
which is all ``importlib.metadata`` reads) into a temporary directory and runs the real console script
with that directory on ``PYTHONPATH``, so nothing leaks into the other tests' processes."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
    usage = "".join(run(tmp_path, "solve", "--help").stdout.split())  # help wraps the list anywhere
    assert "|wcnf|missing|notapuzzle" in usage
    code = ("import sys; from puzzlesat.encoders import get_puzzle; get_puzzle('aquarium'); "
            "from puzzlesat.backends import get_backend; get_backend('cadical'); "
            "print('importlib.metadata' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "False\n"
