"""The round trip with tools nobody here wrote: export, solve elsewhere, decode with the variable map.

Each export format is run through at least two third-party tools (`make solvers` installs the
binaries from Debian; rc2.py comes with python-sat, the counters with the test extra) and the answer,
read back by `decode --map`, must be the known solution. With PUZZLESAT_REQUIRE_TOOLS=1 (set by
`make test`, so in CI) a missing tool fails its test instead of skipping it.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import INSTANCES

AQUARIUM = str(INSTANCES / "aquarium" / "pa-15x15-hard-1013539.txt")
AQUARIUM_GRID = (INSTANCES / "aquarium" / "pa-15x15-hard-1013539.solution").read_text().split()
JIGSAW = str(INSTANCES / "aoc" / "2020-20" / "example.txt")
JIGSAW_ANSWERS = [int(x) for x in (INSTANCES / "aoc" / "2020-20" / "example.answers").read_text().split()]
JIG = str(INSTANCES / "jig" / "matt5x5.jig")
AMPHIPOD = str(INSTANCES / "aoc" / "2021-23" / "example.txt")
AMPHIPOD_ANSWERS = [int(x) for x in (INSTANCES / "aoc" / "2021-23" / "example.answers").read_text().split()]
DICE = str(INSTANCES / "aoc" / "2021-21" / "example.txt")
RC2 = str(Path(sys.executable).parent / "rc2.py")


def tool(name: str) -> str:
    """The path of a third-party binary; missing, it skips the test (fails it under make test)."""
    found = shutil.which(name) or (RC2 if name == "rc2.py" and Path(RC2).exists() else None)
    if found is None:
        if os.environ.get("PUZZLESAT_REQUIRE_TOOLS"):
            pytest.fail(f"{name} is not installed ('make solvers' installs it)")
        pytest.skip(f"{name} is not installed")
    return found


def export(run_cli, tmp_path: Path, puzzle: str, path: str, fmt: str, *extra: str) -> Path:
    out = tmp_path / f"export.{fmt}"
    code, _, err = run_cli("export", puzzle, path, "--format", fmt, "-o", str(out), *extra)
    assert code == 0, err
    return out


def decode(run_cli, tmp_path: Path, puzzle: str, path: str, exported: Path, output: str) -> dict:
    answer = tmp_path / "answer.txt"
    answer.write_text(output)
    code, out, err = run_cli("decode", puzzle, path, "--model", str(answer), "--map", f"{exported}.vars.json",
                             "--json")
    assert code == 0, err
    return json.loads(out)


def run(*command: str, timeout: float = 120) -> str:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout).stdout


# DIMACS: every binary the way people run it
DIMACS_RUNS = {
    "cadical": lambda cnf: run(tool("cadical"), "-q", str(cnf)),
    "picosat": lambda cnf: run(tool("picosat"), str(cnf)),
    "cryptominisat5": lambda cnf: run(tool("cryptominisat5"), "--verb", "0", str(cnf)),
    "z3": lambda cnf: run(tool("z3"), "-dimacs", str(cnf)),  # Debian's z3 4.8: no closing 0
    "minisat": lambda cnf: (run(tool("minisat"), "-verb=0", str(cnf), f"{cnf}.result"),
                            Path(f"{cnf}.result").read_text())[1],  # MiniSat's result file
}


@pytest.mark.parametrize("binary", list(DIMACS_RUNS))
def test_dimacs_through_sat_solvers(run_cli, tmp_path, binary):
    cnf = export(run_cli, tmp_path, "aquarium", AQUARIUM, "dimacs")
    assert "\nc p show " in cnf.read_text() and "\nc ind " in cnf.read_text()
    data = decode(run_cli, tmp_path, "aquarium", AQUARIUM, cnf, DIMACS_RUNS[binary](cnf))
    assert data["checked"] and data["answers"]["grid"] == AQUARIUM_GRID


@pytest.mark.parametrize("binary", ["cadical", "minisat"])
def test_jigsaw_dimacs_decodes_to_the_known_answers(run_cli, tmp_path, binary):
    cnf = export(run_cli, tmp_path, "jigsaw", JIGSAW, "dimacs")
    data = decode(run_cli, tmp_path, "jigsaw", JIGSAW, cnf, DIMACS_RUNS[binary](cnf))
    assert [data["answers"]["part1"], data["answers"]["part2"]] == JIGSAW_ANSWERS


@pytest.mark.parametrize("how", ["rc2.py", "rc2.py --vnew", "z3 -wcnf"])
def test_wcnf_through_maxsat_solvers(run_cli, tmp_path, how):
    """RC2's command line reads the 2022 format (model as literals or as a 0/1 string); z3 reads the
    older 'p wcnf' one and prints its model SMT-style (k!N for variable N)."""
    if how.startswith("z3"):
        wcnf = export(run_cli, tmp_path, "amphipod", AMPHIPOD, "wcnf-old")
        assert "\np wcnf " in wcnf.read_text()
        output = run(tool("z3"), "-wcnf", "-model", str(wcnf))
    else:
        wcnf = export(run_cli, tmp_path, "amphipod", AMPHIPOD, "wcnf")
        output = run(tool("rc2.py"), "-vv", "-x", "-m", *(["--vnew"] if "vnew" in how else []), str(wcnf))
    data = decode(run_cli, tmp_path, "amphipod", AMPHIPOD, wcnf, output)
    assert data["checked"] and [data["answers"]["part1"], data["answers"]["part2"]] == AMPHIPOD_ANSWERS
    if how.startswith("rc2"):  # its cost line, plus the fixed part, is the optimum
        assert data["optimal_claimed"] and data["answers"]["cost"] == sum(AMPHIPOD_ANSWERS)


@pytest.mark.parametrize("solver", ["cvc5", "z3"])
@pytest.mark.parametrize("puzzle,path", [("aquarium", AQUARIUM), ("jigsaw", JIGSAW), ("dice", DICE)])
def test_smt2_through_smt_solvers(run_cli, tmp_path, solver, puzzle, path):
    smt2 = export(run_cli, tmp_path, puzzle, path, "smt2")
    text = smt2.read_text()
    assert "(set-option :produce-models true)\n(set-logic QF_" in text and "pbeq" not in text
    data = decode(run_cli, tmp_path, puzzle, path, smt2, run(tool(solver), str(smt2)))
    assert data["checked"]
    if puzzle == "aquarium":
        assert data["answers"]["grid"] == AQUARIUM_GRID


def test_amphipod_smt2_carries_the_objective(run_cli, tmp_path):
    """z3 minimises the objective the file carries; cvc5, which has no (minimize), solves the hard part
    (the same file without that line) into a legal plan."""
    smt2 = export(run_cli, tmp_path, "amphipod", AMPHIPOD, "smt2")
    optimum = decode(run_cli, tmp_path, "amphipod", AMPHIPOD, smt2, run(tool("z3"), str(smt2)))
    assert [optimum["answers"]["part1"], optimum["answers"]["part2"]] == AMPHIPOD_ANSWERS
    hard = tmp_path / "hard.smt2"
    hard.write_text("".join(line for line in smt2.read_text().splitlines(True) if not line.startswith("(minimize")))
    legal = decode(run_cli, tmp_path, "amphipod", AMPHIPOD, smt2, run(tool("cvc5"), str(hard)))
    assert legal["checked"] and legal["answers"]["part1"] >= AMPHIPOD_ANSWERS[0]


def _dimacs(path: Path) -> tuple[list[list[int]], list[int]]:
    """Clauses and the 'c p show' projection of a file, read the way a counter reads it."""
    clauses, show = [], []
    for line in path.read_text().splitlines():
        if line.startswith("c p show "):
            show = [int(v) for v in line.split()[3:-1]]
        elif line and line[0] not in "cp":
            clauses.append([int(v) for v in line.split()[:-1]])
    return clauses, show


def _ganak(clauses: list[list[int]], show: list[int]) -> int:
    from pyganak import Counter

    counter = Counter()
    counter.add_clauses(clauses)
    counter.set_sampling_set(show)
    return int(counter.count())


def _approxmc(clauses: list[list[int]], show: list[int]) -> int:
    """ApproxMC is exact below its threshold (it then reports no hashing): small counts only."""
    from pyapproxmc import Counter

    counter = Counter(seed=1)
    for clause in clauses:
        counter.add_clause(clause)
    cells, hashes = counter.count(show)
    assert hashes == 0, "count above ApproxMC's exact threshold"
    return int(cells)


APPROXMC_UNDERCOUNTS = pytest.mark.xfail(strict=True, reason=(
    "pyapproxmc 4.4.0 counts 1 where enumeration with three SAT solvers and Ganak count 2 (docs/design-notes/what-was-tried.md)"))


@pytest.mark.parametrize("counter,extra,expected", [
    (_ganak, (), 8), (_approxmc, (), 8), (_ganak, ("--break-symmetry",), 2),
    pytest.param(_approxmc, ("--break-symmetry",), 2, marks=APPROXMC_UNDERCOUNTS)])
def test_mcc_counts_every_solution_unless_asked(run_cli, tmp_path, counter, extra, expected):
    """The model-counting export of a jig counts all 8 layouts (2 up to rotation on request)."""
    mcc = export(run_cli, tmp_path, "jig", JIG, "mcc", *extra)
    assert mcc.read_text().startswith("c t pmc\n")
    assert counter(*_dimacs(mcc)) == expected


def test_mcc_counter_output_is_read_back(run_cli, tmp_path):
    """Both model-counting competition outputs decode to the count."""
    mcc = export(run_cli, tmp_path, "jig", JIG, "mcc")
    for output in ("s mc 8\n", "c o a counter\ns SATISFIABLE\nc s type pmc\nc s exact arb int 8\n"):
        assert decode(run_cli, tmp_path, "jig", JIG, mcc, output)["answers"] == {"count": 8}


def test_a_model_of_another_instance_or_version_is_refused(run_cli, tmp_path):
    cnf = export(run_cli, tmp_path, "aquarium", AQUARIUM, "dimacs")
    answer = tmp_path / "answer.txt"
    answer.write_text(DIMACS_RUNS["picosat"](cnf))
    other = str(INSTANCES / "aquarium" / "pa-15x15-hard-2243092.txt")
    code, _, err = run_cli("decode", "aquarium", other, "--model", str(answer), "--map", f"{cnf}.vars.json")
    assert code == 2 and "exported from another instance" in err and err.count("\n") == 1
    varmap = json.loads(Path(f"{cnf}.vars.json").read_text())
    varmap["options"]["cardinality"] = "totalizer"  # as if another version had made other clauses
    Path(f"{cnf}.vars.json").write_text(json.dumps(varmap))
    code, _, err = run_cli("decode", "aquarium", AQUARIUM, "--model", str(answer), "--map", f"{cnf}.vars.json")
    assert code == 2 and "builds another formula" in err


def test_an_outside_maxsat_solver_is_a_backend(run_cli, tmp_path):
    """external-maxsat: solves the optimisation puzzle on its own; its answer is checked (hard clauses,
    cost line against the broken soft clauses, the decoded plan) and it takes part in a cross-check."""
    rc2 = f"external-maxsat:{tool('rc2.py')} -vv -x -m"
    code, out, err = run_cli("solve", "amphipod", AMPHIPOD, "--backend", rc2, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert [report["answers"]["part1"], report["answers"]["part2"]] == AMPHIPOD_ANSWERS and report["checked"]
    code, out, err = run_cli("crosscheck", "amphipod", AMPHIPOD, "--no-unfold", "--backends", f"glucose,{rc2}")
    assert code == 0 and "maxsat on " in out, out + err
    liar = tmp_path / "liar.sh"  # the same solver with a cost line that lies
    liar.write_text(f"#!/bin/sh\n{tool('rc2.py')} -vv -x -m \"$@\" | sed 's/^o .*/o 1/'\n")
    liar.chmod(0o755)
    code, _, err = run_cli("solve", "amphipod", AMPHIPOD, "--backend", f"external-maxsat:{liar}")
    assert code == 2 and "its cost line says 1" in err


def test_an_outside_model_counter_is_a_backend(run_cli, tmp_path):
    """external-count: gets the model-counting file and must print an exact count (here a small
    command line around Ganak, tests/tools/mc_counter.py)."""
    counter = tmp_path / "counter"
    counter.write_text(f"#!/bin/sh\nexec {sys.executable} {Path(__file__).parent / 'tools' / 'mc_counter.py'} \"$@\"\n")
    counter.chmod(0o755)
    code, out, err = run_cli("count", "jig", JIG, "--backend", f"external-count:{counter}", "--json")
    assert code == 0, err
    assert json.loads(out)["answers"] == {"solutions": 8, "up_to_rotation": 2}
    code, out, err = run_cli("count", "dice", DICE, "--target", "6", "--backend", f"external-count:{counter}")
    reference = json.loads(run_cli("count", "dice", DICE, "--target", "6", "--backend", "ganak", "--json")[1])
    assert code == 0 and f"player1_wins: {reference['answers']['player1_wins']}" in out
