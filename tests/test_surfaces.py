"""One answer, every surface: the conformance matrix.

For every built-in puzzle, ``cnf``, ``wcnf`` and the Sudoku plug-in, on bundled instances and generated
cases of the hard shapes (a non-square jig with flat inner edges, a burrow with no plan, dice on other
dice and targets, a formula past the reference's size), each surface that applies must give the answer
the command line's ``solve`` and ``count`` give: the Python API, API encode -> the caller's own PySAT
solver -> decode, crosscheck (local, and in parallel on local processes), bench, ``count --cubes``, and
export -> a solver nobody here wrote -> decode. A surface that does not apply refuses in one line, and
The table of what works where in docs/getting-started.md is this test's table.
"""
from __future__ import annotations

import atexit
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import puzzlesat

from .brute.tiling import random_jig
from .conftest import INSTANCES
from .test_round_trip import RC2, _dimacs, _ganak, tool

ROOT = Path(__file__).resolve().parent.parent
SUDOKU = ROOT / "examples" / "puzzlesat-sudoku" / "puzzles"
#: answers that say how an answer is backed, not what it is: the cross-check's rows leave them out
PROOF_KEYS = ("optimal", "exact")


@dataclass(frozen=True)
class Case:
    puzzle: str
    #: a bundled file, or the text of a generated one
    path: str = ""
    text: str = ""
    #: reading options, as the command line takes them and as the API takes them
    flags: tuple[str, ...] = ()
    reading: dict[str, Any] = field(default_factory=dict, hash=False)
    suffix: str = ".txt"

    def file(self, directory: Path) -> str:
        if self.path:
            return self.path
        target = directory / f"case{self.suffix}"
        target.write_text(self.text)
        return str(target)


def _cnf(num_vars: int, clauses: int, seed: int) -> str:
    rng = random.Random(seed)
    lines = [f"p cnf {num_vars} {clauses}"]
    for _ in range(clauses):
        chosen = rng.sample(range(1, num_vars + 1), 3)
        lines.append(" ".join(str(v if rng.random() < 0.5 else -v) for v in chosen) + " 0")
    return "\n".join(lines) + "\n"


STUCK = "#########\n#.......#\n###A#B###\n  #B#A#\n  #B#A#\n  #B#A#\n  #####\n"
TINY_BURROW = "#########\n#.......#\n###B#A###\n  #A#B#\n  #####\n"

CASES = {
    "aquarium": Case("aquarium", str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")),
    "jigsaw": Case("jigsaw", str(INSTANCES / "aoc" / "2020-20" / "example.txt")),
    "jig": Case("jig", str(INSTANCES / "jig" / "matt5x5.jig"), suffix=".jig"),
    # a 2x3 grid with flat inner edges and pieces alike after a turn: 32 layouts, 16 up to rotation
    "jig-2x3-flat": Case("jig", text=random_jig(random.Random(4), 2, 3), suffix=".jig"),
    "amphipod": Case("amphipod", text=TINY_BURROW, flags=("--no-unfold",), reading={"unfold": False}),
    "amphipod-stuck": Case("amphipod", text=STUCK, flags=("--no-unfold",), reading={"unfold": False}),
    "dice": Case("dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), flags=("--target", "6", "--sides", "2"),
                 reading={"target": 6, "sides": 2}),
    "dice-track8": Case("dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"),
                        flags=("--track", "8", "--target", "5", "--sides", "2"), reading={"track": 8, "target": 5, "sides": 2}),
    "cnf": Case("cnf", text=_cnf(12, 40, 1), suffix=".cnf"),
    "cnf-40-vars": Case("cnf", text=_cnf(40, 120, 2), suffix=".cnf"),
    "wcnf": Case("wcnf", text="p wcnf 4 6 9\n9 1 2 0\n9 -1 -2 0\n9 3 4 0\n1 -1 0\n2 -3 0\n3 -4 0\n", suffix=".wcnf"),
    "sudoku": Case("sudoku", str(SUDOKU / "small-4x4.txt")),
}


# ----- the table in docs/getting-started.md -------------------------------------------------------

def readme_table() -> dict[str, dict[str, bool]]:
    """surface -> puzzle -> whether docs/getting-started.md says it works."""
    text = (ROOT / "docs" / "getting-started.md").read_text()
    block = re.search(r"\| surface \| (.*?) \|\n\|[-|]+\n((?:\|.*\|\n)+)", text)
    assert block, "docs/getting-started.md has its table of what works where"
    puzzles = [name.strip() for name in block.group(1).split("|")]
    table = {}
    for line in block.group(2).splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        table[cells[0].strip("`")] = {p: c == "yes" for p, c in zip(puzzles, cells[1:])}
    return table


def test_the_readme_table_names_every_surface_and_puzzle():
    table = readme_table()
    assert set(table) == {"solve", "solve --forced", "count", "count --cubes", "export", "export --format url",
                          "decode", "crosscheck", "bench", "generate", "puzzlesat.solve", "puzzlesat.count",
                          "puzzlesat.encode", "explain", "puzzlesat.explain"}
    assert all(set(row) == {case.puzzle for case in CASES.values()} for row in table.values())


def works(surface: str, puzzle: str) -> bool:
    return readme_table()[surface][puzzle]


def one_line_refusal(code: int, err: str) -> None:
    assert code == 2 and err.startswith("puzzlesat: error: ") and err.count("\n") == 1, err


# ----- the answers of the command line, which every other surface must give ------------------------

@cache
def cli_json(name: str, command: str, *extra: str) -> tuple[int, dict[str, Any], str]:
    from click.testing import CliRunner

    from puzzlesat.cli import main

    case = CASES[name]
    directory = Path(tempfile.mkdtemp(prefix="surfaces-"))
    atexit.register(shutil.rmtree, directory, True)  # the suite leaves nothing in /tmp (issue 46)
    result = CliRunner().invoke(main, [command, case.puzzle, case.file(directory), *case.flags, *extra, "--json"],
                                catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout) if result.stdout.startswith("{") else {}, result.stderr


def solved(name: str) -> dict[str, Any]:
    code, report, err = cli_json(name, "solve")
    assert code in (0, 1), err
    return report


def counted(name: str) -> dict[str, Any]:
    code, report, err = cli_json(name, "count")
    assert code == 0, err
    return report


def without_proofs(answers: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answers.items() if k not in PROOF_KEYS}


def instance_of(name: str, directory: Path) -> Any:
    case = CASES[name]
    return puzzlesat.read(case.puzzle, case.file(directory), **case.reading)


# ----- the surfaces -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(CASES))
def test_api_solve_gives_the_command_lines_answer(name, tmp_path):
    report = puzzlesat.solve(CASES[name].puzzle, instance_of(name, tmp_path))
    assert report.status == solved(name)["status"] and dict(report.answers) == solved(name)["answers"]


@pytest.mark.parametrize("name", list(CASES))
def test_count_on_the_command_line_and_the_api(name, tmp_path, run_cli):
    puzzle = CASES[name].puzzle
    code, report, err = cli_json(name, "count")
    if not works("count", puzzle):
        one_line_refusal(code, err)
        with pytest.raises(puzzlesat.core.errors.PuzzlesatError):
            puzzlesat.count(puzzle, instance_of(name, tmp_path))
        return
    assert code == 0, err
    api = puzzlesat.count(puzzle, instance_of(name, tmp_path))
    assert dict(api.answers) == report["answers"]
    # the default count races enumeration against a counter once enumeration has run a while: on a formula
    # near that while, either may answer, on either surface (the answer is the same, as asserted above)
    raced = {"enumeration", "probabilistically exact counter"}
    assert api.counted_by == report["method"] or {api.counted_by, report["method"]} <= raced
    first = next(iter(report["answers"].values()))
    assert (first > 0) == (solved(name)["status"] == "SAT")


def test_the_api_counts_dice_universes_as_the_command_line_does(tmp_path):
    """The API used to count the split encoding's roll sequences (3^30 on the example), not universes."""
    instance = puzzlesat.read("dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"))
    assert puzzlesat.count("dice", instance).answers == {"player1_wins": 444356092776315,
                                                         "player2_wins": 341960390180808}
    small = puzzlesat.read("dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), target=6, sides=2)
    assert puzzlesat.count("dice", small).answers["player1_wins"] == 8
    assert puzzlesat.count("dice", small, backend="ganak").answers["player1_wins"] == 8


@pytest.mark.parametrize("name", list(CASES))
def test_cubes_count_what_count_counts(name, run_cli, tmp_path):
    case = CASES[name]
    code, out, err = run_cli("count", case.puzzle, case.file(tmp_path), *case.flags, "--cubes", "2",
                             "--executor", "local:2", "--json")
    if not works("count --cubes", case.puzzle):
        one_line_refusal(code, err)
        return
    assert code == 0, err
    assert json.loads(out)["answers"] == counted(name)["answers"]


@pytest.mark.parametrize("name", list(CASES))
def test_encode_into_my_own_solver_and_decode_a_copy(name, tmp_path):
    """The caller's PySAT solver on the API's formula; decode reads a copy of it as well as the original."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF, IDPool
    from pysat.solvers import Solver

    case = CASES[name]
    instance = instance_of(name, tmp_path)
    formula = puzzlesat.encode(case.puzzle, instance, vpool=IDPool(), **({"encoding": "count"} if case.puzzle == "dice"
                                                                         else {}))
    expected = solved(name)
    if isinstance(formula, WCNF):  # optimisation: the MaxSAT optimum is the whole cost
        with RC2(formula.copy()) as rc2:
            model = rc2.compute()
            if expected["status"] != "SAT":
                assert model is None
                return
            solution = puzzlesat.decode(formula.copy(), model)
            assert rc2.cost == sum(v for v in without_proofs(expected["answers"]).values())
    else:
        with Solver(name="glucose4", bootstrap_with=formula.copy()) as solver:
            if not solver.solve():
                assert expected["status"] == "UNSAT" or case.puzzle == "dice"  # no universe won by player 1
                return
            solution = puzzlesat.decode(formula.copy(), solver.get_model())
    assert puzzlesat.check(case.puzzle, instance, solution) == []


@pytest.mark.parametrize("executor", [None, "local:2"])
@pytest.mark.parametrize("name", list(CASES))
def test_crosscheck_agrees_with_solve(name, executor, run_cli, tmp_path):
    """Every method agrees (or has no answer by design: SKIPPED), with the answers solve gives."""
    case = CASES[name]
    backends = {"dice": "frontier,ganak,z3", "amphipod": "glucose"}.get(case.puzzle, "cadical,glucose")
    code, out, err = run_cli("crosscheck", case.puzzle, case.file(tmp_path), *case.flags, "--backends", backends,
                             "--timeout", "20", "--json", *(["--executor", executor] if executor else []))
    assert code == 0, err
    report = json.loads(out)
    assert report["agree"] and report["independent_methods_agreeing"] >= 2, report
    expected = counted(name)["answers"] if get_puzzle_attr(case.puzzle, "crosscheck_by_count") \
        else without_proofs(solved(name)["answers"])
    for row in report["rows"]:
        if row["status"] == "SKIPPED":
            assert row["error"] and not row["agrees"]
            continue
        assert row["agrees"], row
        if expected and row["answers"]:
            keys = set(row["answers"]) & set(expected)
            assert {k: row["answers"][k] for k in keys} == {k: expected[k] for k in keys}, row


def get_puzzle_attr(puzzle: str, attribute: str) -> Any:
    from puzzlesat.encoders import get_puzzle

    return getattr(get_puzzle(puzzle), attribute)


@pytest.mark.parametrize("name", list(CASES))
def test_bench_runs_the_tasks_solve_and_reference(name, run_cli, tmp_path):
    case = CASES[name]
    directory = tmp_path / "instances"
    directory.mkdir()
    source = Path(case.file(tmp_path))
    suffix = get_puzzle_attr(case.puzzle, "instance_suffix")
    (directory / f"one{suffix}").write_text(source.read_text())
    if case.reading:  # bench reads files as they are: its puzzles' bundled shapes only
        pytest.skip("bench reads instances without reading options")
    code, out, err = run_cli("bench", "--puzzle", case.puzzle, "--instances", str(directory), "--repeat", "1",
                             "--out", str(tmp_path / "out"), "--timeout", "60")
    assert code == 0, err
    samples = json.loads((tmp_path / "out" / "bench.json").read_text())["samples"]
    by_method = {sample["method"]: sample for sample in samples}
    reference, = (by_method.pop("reference"),)
    solver, = by_method.values()
    expected = solved(name)
    if get_puzzle_attr(case.puzzle, "crosscheck_by_count"):  # one of several solutions, each checked: bench
        # names the backend, the CLI may be answered by the puzzle's own search (another layout)
        assert solver["status"] == expected["status"] and solver["answers"].keys() == expected["answers"].keys()
    else:
        assert solver["status"] == expected["status"] and solver["answers"] == expected["answers"]
    assert reference["status"] in ("SAT", "UNSAT", "SKIPPED"), reference
    if reference["status"] != "SKIPPED" and not get_puzzle_attr(case.puzzle, "crosscheck_by_count"):
        assert reference["answers"] == without_proofs(expected["answers"])


@pytest.mark.parametrize("name", list(CASES))
def test_export_to_an_outside_tool_and_decode(name, run_cli, tmp_path):
    case = CASES[name]
    file = case.file(tmp_path)
    expected = solved(name)
    optimising = case.puzzle in ("amphipod", "wcnf")
    fmt = "wcnf" if optimising else "mcc" if case.puzzle == "dice" else "dimacs"
    exported = tmp_path / f"export.{fmt}"
    code, _, err = run_cli("export", case.puzzle, file, *case.flags, "--format", fmt, "-o", str(exported))
    assert code == 0, err
    if fmt == "mcc":  # a model counter nobody here wrote: player 1's universes
        assert _ganak(*_dimacs(exported)) == counted(name)["answers"]["player1_wins"]
        return
    if optimising:
        output = subprocess.run([sys.executable, RC2, "-vv", "-x", "-m", str(exported)], capture_output=True,
                                text=True, timeout=120).stdout
    else:
        output = subprocess.run([tool("cadical"), "-q", str(exported)], capture_output=True, text=True,
                                timeout=120).stdout
    answer = tmp_path / "answer.txt"
    answer.write_text(output)
    code, out, err = run_cli("decode", case.puzzle, file, *case.flags, "--model", str(answer), "--map",
                             f"{exported}.vars.json", "--json")
    decoded = json.loads(out) if out.startswith("{") else {}
    if expected["status"] != "SAT":
        assert code == 1 and decoded.get("status") == "UNSAT", err
        return
    assert code == 0 and decoded["checked"], err
    if optimising:
        assert decoded["answers"]["cost"] == sum(without_proofs(expected["answers"]).values())
    elif get_puzzle_attr(case.puzzle, "task").reference_limit > 1:  # one solution: the same one
        assert decoded["answers"] == {k: v for k, v in expected["answers"].items() if k != "unique"}


@pytest.mark.parametrize("puzzle", sorted({case.puzzle for case in CASES.values()}))
def test_generate_where_the_table_says(puzzle, run_cli):
    code, out, err = run_cli("generate", puzzle, "--help")
    if works("generate", puzzle):
        assert code == 0 and "Example" in out
    else:
        one_line_refusal(code, err)


@pytest.mark.parametrize("name", list(CASES))
def test_forced_cells_where_the_table_says(name, tmp_path):
    """``solve --forced`` (and ``puzzlesat.solve(forced=True)``): what every solution shares; on a unique
    puzzle, its whole solution."""
    code, report, err = cli_json(name, "solve", "--forced")
    if not works("solve --forced", CASES[name].puzzle):
        one_line_refusal(code, err)
        return
    assert code == 0 and 0 <= report["forced"]["forced"] <= report["forced"]["cells"], err
    if report["answers"].get("unique"):  # the answer key: every cell
        assert report["forced"]["forced"] == report["forced"]["cells"]
    api = puzzlesat.solve(CASES[name].puzzle, instance_of(name, tmp_path), forced=True)
    assert api.forced.to_json() == report["forced"]


@pytest.mark.parametrize("puzzle", sorted({case.puzzle for case in CASES.values()}))
def test_solve_help_says_whether_forced_is_offered(puzzle, run_cli):
    """``solve PUZZLE --help`` answers what the shared ``--forced`` help leaves to each puzzle."""
    code, out, _ = run_cli("solve", puzzle, "--help")
    said = "offered: what every solution shares" if works("solve --forced", puzzle) else "not offered"
    assert code == 0 and any(line.split()[:1] == ["--forced"] and said in line for line in out.splitlines())


@pytest.mark.parametrize("name", list(CASES))
def test_url_export_where_the_table_says(name, tmp_path, run_cli):
    """``export --format url``: the puzzle as puzz.link spells it, which reads back to the same answers."""
    case = CASES[name]
    out = tmp_path / "url.txt"
    code, _, err = run_cli("export", case.puzzle, case.file(tmp_path), *case.flags, "--format", "url", "-o", str(out))
    if not works("export --format url", case.puzzle):
        assert code == 2 and "'url' is not one of" in err
        return
    assert code == 0, err
    again = puzzlesat.solve(case.puzzle, puzzlesat.read(case.puzzle, out.read_text().strip()))
    assert dict(again.answers) == solved(name)["answers"]


# ----- defects the matrix found -----------------------------------------------------------------

def test_a_formula_past_the_references_size_is_skipped_not_a_disagreement(run_cli, tmp_path):
    """crosscheck cnf on a formula over 16 variables said 'DISAGREEMENT: reference' and exited 1."""
    path = tmp_path / "big.cnf"
    path.write_text(_cnf(40, 120, 2))
    code, out, err = run_cli("crosscheck", "cnf", str(path), "--backends", "cadical,glucose,minisat")
    assert code == 0, out + err
    reference = next(line for line in out.splitlines() if line.startswith("reference"))
    assert "SKIPPED" in reference and "at most 16 variables" in reference
    # the three solvers read puzzlesat's copy, and the verdict says that one reader is all they share
    assert "3 independent methods agree" in out and "read the file through one reader" in out


def test_crosscheck_on_local_processes_runs_methods_at_the_same_time(tmp_path):
    """--executor local:N runs the methods side by side: two that each wait for the other both finish."""
    import time

    from puzzlesat.pipeline.crosscheck import Method, run_methods
    from puzzlesat.pipeline.executors import executor_for

    def meeting(me: str, other: str, limit: float | None) -> tuple[str, dict[str, Any], str]:
        (tmp_path / me).write_text("here")
        end = time.time() + 20
        while not (tmp_path / other).exists():  # only a method running at the same time can write it
            assert time.time() < end, "the other method never ran alongside"
            time.sleep(0.01)
        return "SAT", {"x": 1}, ""

    methods = [Method("a", "a", lambda limit: meeting("a", "b", limit)),
               Method("b", "b", lambda limit: meeting("b", "a", limit))]
    rows = list(run_methods(methods, 30, None, executor_for("local:2")))
    assert [(row.method, row.status, row.agrees) for row in rows] == [("a", "SAT", True), ("b", "SAT", True)]


def test_the_packages_help_lists_its_functions():
    out = subprocess.run([sys.executable, "-c", "import puzzlesat; help(puzzlesat); print(dir(puzzlesat))"],
                         capture_output=True, text=True, check=True).stdout
    for name in ("read", "encode", "decode", "check", "solve", "count"):
        assert f"    {name}(" in out and f"'{name}'" in out


def test_an_unsat_agreement_on_a_formula_file_is_certified(run_cli, tmp_path):
    """Pigeonhole 5 into 4 (30 variables, past the reference): independent solvers agree on UNSAT, and
    with --certify each proof-writing solver's UNSAT answer comes with its checked proof."""
    from pysat.examples.genhard import PHP

    path = tmp_path / "php5.cnf"
    PHP(5).to_file(str(path))
    code, out, err = run_cli("crosscheck", "cnf", str(path), "--backends", "cadical,glucose", "--certify", "--json")
    assert code == 0, err
    rows = {row["method"]: row for row in json.loads(out)["rows"]}
    assert rows["reference"]["status"] == "SKIPPED"
    for name in ("pysat:cadical195 [cnf]", "pysat:glucose4 [cnf]"):
        assert rows[name]["status"] == "UNSAT" and rows[name]["agrees"] and rows[name]["certified"] == {"unsat": True}


@pytest.mark.parametrize("name", sorted(CASES))
def test_explain_reaches_solves_answer_or_refuses(name, tmp_path, run_cli):
    """The command line's and the API's explanations are the same steps; one that reaches a solution
    reaches the answers ``solve`` gives; a puzzle that cannot explain itself refuses in one line."""
    case = CASES[name]
    path = case.file(tmp_path)
    code, out, err = run_cli("explain", case.puzzle, path, *case.flags, "--json")
    if not works("explain", case.puzzle):
        one_line_refusal(code, err)
        with pytest.raises(puzzlesat.core.errors.PuzzlesatError, match="explain is not offered"):
            puzzlesat.explain(case.puzzle, puzzlesat.read(case.puzzle, path, **case.reading))
        return
    payload = json.loads(out)
    api = puzzlesat.explain(case.puzzle, puzzlesat.read(case.puzzle, path, **case.reading))
    assert code == (0 if payload["solved"] else 1) and payload["difficulty"] == api.explanation.difficulty
    assert payload["steps"] == api.to_json()["steps"]
    if payload["solved"]:
        _, solved, _ = cli_json(name, "solve")
        wanted = {key: value for key, value in solved["answers"].items() if key != "unique"}
        assert {key: api.solution.answers()[key] for key in wanted} == wanted
