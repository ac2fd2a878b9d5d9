"""Start-up stays near the floor: 'puzzlesat --help' imports neither the solvers nor the commands, and
a command imports only what it uses (speed itself is measured in bench/, not here)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from puzzlesat.cli import COMMANDS, main

from .conftest import INSTANCES

ROOT = INSTANCES.parent

#: what listing the commands must not import: solvers, the commands, and heavy standard modules
NOT_FOR_HELP = ("pysat", "z3", "pyganak", "py_d4", "multiprocessing", "xml", "urllib.request", "email",
                "puzzlesat.backends.pysat_backend", "puzzlesat.encoders.", "puzzlesat.pipeline.steps", "puzzlesat.cli.solve",
                "puzzlesat.pipeline.bench", "puzzlesat.formats.picture")


def imported_by(*args: str) -> set[str]:
    """The modules a fresh interpreter holds after running the command line with ``args`` (in this
    process: with a stdout that has no file descriptor the supervisor runs the command in place)."""
    code = ("import io, sys\nfrom puzzlesat.cli import main\nsys.stdout = io.StringIO()\n"
            f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
            "sys.__stdout__.write('\\n'.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(done.stdout.split())


def test_help_imports_no_solver_and_no_command():
    loaded = imported_by("--help")
    assert not [m for m in loaded if m.startswith(NOT_FOR_HELP)], sorted(m for m in loaded if m.startswith(NOT_FOR_HELP))


def test_solving_an_aquarium_needs_no_portfolio_bench_or_other_puzzle():
    loaded = imported_by("solve", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    assert "pysat.solvers" in loaded
    unwanted = ("xml", "urllib.request", "multiprocessing", "puzzlesat.backends.portfolio", "puzzlesat.pipeline.bench",
                "puzzlesat.encoders.jigsaw", "puzzlesat.cli.count")
    assert not [m for m in loaded if m.startswith(unwanted)]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_listed_command_loads_under_its_name(name):
    command = main.get_command(None, name)  # type: ignore[arg-type]
    assert command is not None and command.name == name and COMMANDS[name][1]


#: each puzzle's bundled instance for a default solve (a plain install: no `count` extra)
DEFAULT_SOLVES = {
    "aquarium": "instances/aquarium/pa-6x6-easy-681742.txt",
    "jigsaw": "instances/aoc/2020-20/example.txt",
    "jig": "instances/jig/matt5x5.jig",
    "amphipod": "instances/aoc/2021-23/example.txt",
    "dice": "instances/aoc/2021-21/example.txt",
}


@pytest.mark.parametrize("puzzle", sorted(DEFAULT_SOLVES))
def test_a_plain_install_solves_every_bundled_puzzle_with_its_defaults(puzzle):
    """Without the `count` extra (pyganak, d4solver unimportable), `solve PUZZLE FILE` with no option
    answers: dice's default counter needed numpy, which was in the extra (issue 35)."""
    code = ("import sys\nsys.modules['pyganak'] = sys.modules['py_d4'] = None  # not installed\n"
            "from puzzlesat.cli import main\n"
            f"main(['solve', {puzzle!r}, {DEFAULT_SOLVES[puzzle]!r}])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and "checked: yes" in done.stdout, done.stderr
