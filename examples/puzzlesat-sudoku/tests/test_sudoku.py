"""The example puzzle's tests: only its own package, through puzzlesat's public interface."""
from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from puzzlesat_sudoku import PUZZLE
from puzzlesat_sudoku.instance import SudokuInstance, parse
from puzzlesat_sudoku.solution import SudokuSolution

from puzzlesat.encoders import get_puzzle, puzzle_names
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions, load
from puzzlesat.pipeline.tasks import solve

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
#: the console script installed beside this interpreter
PUZZLESAT = str(Path(sys.executable).parent / "puzzlesat")


def test_registered_through_its_entry_point():
    """puzzlesat hands out a guarded copy of a plug-in's puzzle (its faults named as the plug-in's)."""
    assert "sudoku" in puzzle_names() and isinstance(get_puzzle("sudoku"), type(PUZZLE))
    assert get_puzzle("sudoku").name == PUZZLE.name and get_puzzle("sudoku").generator is not None


@pytest.mark.parametrize("backend,kind", [("cadical", "cnf"), ("glucose", "cnf"), ("z3", "smt")])
@pytest.mark.parametrize("name", ["easy-9x9.txt", "small-4x4.txt"])
def test_solved_unique_and_as_the_reference_says(name, backend, kind):
    instance = load(PUZZLE, str(PUZZLES / name))
    report = solve(request(PUZZLE, backend, kind), instance)
    assert report.checked and report.answers["unique"] is True
    assert [s.answers()["grid"] for s in PUZZLE.reference(instance, 2)] == [report.answers["grid"]]


def all_4x4_grids() -> list[tuple[tuple[int, ...], ...]]:
    """Every filled 4x4 Sudoku, by brute force over row permutations (the rules, nothing else)."""
    rows = list(itertools.permutations(range(1, 5)))
    return [grid for grid in itertools.product(rows, repeat=4)
            if not PUZZLE.check(SudokuInstance(((0,) * 4,) * 4), SudokuSolution(grid))]


def test_brute_force_counts_agree_with_enumeration_and_reference():
    grids = all_4x4_grids()
    assert len(grids) == 288  # the known number of 4x4 Sudokus
    rng = random.Random(7)
    for case in range(30):
        solution = rng.choice(grids)
        givens = tuple(tuple(d if rng.random() < 0.3 else 0 for d in row) for row in solution)
        instance = SudokuInstance(givens, f"case {case}")
        expected = sum(all(g in (0, d) for gs, ds in zip(givens, grid) for g, d in zip(gs, ds)) for grid in grids)
        assert count_solutions(request(PUZZLE, "cadical"), instance) == expected, case
        assert count_solutions(request(PUZZLE, "z3", "smt"), instance) == expected, case
        assert len(PUZZLE.reference(instance, None)) == expected, case


def test_the_command_line_finds_it_and_reports_bad_input_in_one_line(tmp_path):
    ok = subprocess.run([PUZZLESAT, "solve", "sudoku", str(PUZZLES / "easy-9x9.txt")],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "unique: yes" in ok.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("1...\n..2.\n.x..\n...4\n")
    failed = subprocess.run([PUZZLESAT, "solve", "sudoku", str(bad)],
                            capture_output=True, text=True)
    assert failed.returncode == 2 and failed.stdout == ""
    assert failed.stderr == f"puzzlesat: error: {bad}:3:2: 'x' is neither a digit 1-4 nor '.'\n"


def test_its_declared_flag_reaches_every_command_that_reads_a_file(tmp_path):
    """--blank is declared by this package alone (reading_options); the command line offers it."""
    underscored = tmp_path / "underscored.txt"
    underscored.write_text((PUZZLES / "small-4x4.txt").read_text().replace(".", "_"))
    for command in (["solve"], ["count"], ["export", "-o", str(tmp_path / "s.cnf")]):
        done = subprocess.run([PUZZLESAT, *command[:1], "sudoku", str(underscored), "--blank", "_", *command[1:]],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    refused = subprocess.run([PUZZLESAT, "solve", "sudoku", str(underscored)], capture_output=True, text=True)
    assert refused.returncode == 2 and "'_' is neither a digit" in refused.stderr
    shown = subprocess.run([PUZZLESAT, "solve", "sudoku", "--help"], capture_output=True, text=True).stdout
    assert "Options of sudoku:" in shown and "--blank" in shown.split("Options of sudoku:")[1]


@pytest.mark.parametrize("size", [4, 6, 9])
def test_its_declared_generator_makes_unique_sudokus(tmp_path, size):
    """`puzzlesat generate sudoku` is built from this package's declaration; each puzzle it makes has one
    solution, by the reference search (which shares no code with the generator's SAT calls)."""
    out = tmp_path / "made.txt"
    done = subprocess.run([PUZZLESAT, "generate", "sudoku", "--size", str(size), "--seed", "5", "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    instance = parse(out.read_text(), str(out))
    assert instance.n == size and len(PUZZLE.reference(instance, 2)) == 1
    again = subprocess.run([PUZZLESAT, "generate", "sudoku", "--size", str(size), "--seed", "5"],
                           capture_output=True, text=True)
    assert again.stdout == out.read_text()  # same seed, same puzzle
