"""Plain DIMACS and WCNF files as puzzles ('cnf', 'wcnf'): every model checked against the file, counts
and optima against a walk over every assignment, on random small formulas."""
from __future__ import annotations

import json
import random

import pytest

from puzzlesat.encoders import get_puzzle
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions
from puzzlesat.pipeline.tasks import solve

CNF, WCNF = get_puzzle("cnf"), get_puzzle("wcnf")


def random_cnf(rng: random.Random, variables: int, clauses: int, projected: bool) -> str:
    lines = [f"p cnf {variables} {clauses}"]
    if projected:
        lines.append("c p show " + " ".join(map(str, rng.sample(range(1, variables + 1), variables // 2))) + " 0")
    for _ in range(clauses):
        lits = [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, variables + 1), 3)]
        lines.append(" ".join(map(str, lits)) + " 0")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(40))
def test_random_cnf_counts_agree_with_every_assignment(seed):
    rng = random.Random(seed)
    variables = rng.randint(3, 10)
    text = random_cnf(rng, variables, rng.randint(1, 5 * variables), projected=seed % 2 == 1)
    instance = CNF.parse(text, f"random-{seed}.cnf")
    expected = len(CNF.reference(instance, None))
    assert count_solutions(request(CNF, "cadical"), instance) == expected
    assert count_solutions(request(CNF, "ganak"), instance) == expected
    report = solve(request(CNF, "glucose"), instance)
    assert report.status == ("SAT" if expected else "UNSAT") and (report.checked or not expected)


@pytest.mark.parametrize("seed", range(20))
def test_random_wcnf_optimum_agrees_with_every_assignment(seed):
    rng = random.Random(100 + seed)
    variables = rng.randint(3, 9)
    hard = random_cnf(rng, variables, rng.randint(0, 2 * variables), projected=False).splitlines()[1:]
    soft = [f"{rng.randint(1, 9)} {v if rng.random() < 0.5 else -v} 0" for v in range(1, variables + 1)]
    text = "\n".join(["h " + line for line in hard] + soft) + "\n"
    instance = WCNF.parse(text, f"random-{seed}.wcnf")
    expected = WCNF.reference(instance, 1)
    for method in ("rc2", "descent"):
        report = solve(request(WCNF, "cadical", method=method), instance)
        if not expected:
            assert report.status == "UNSAT"
        else:
            assert report.checked and report.answers["cost"] == expected[0].cost


def test_both_wcnf_formats_read_the_same(tmp_path):
    new = WCNF.parse("c 2022\nh 1 2 0\n3 -1 0\n5 -2 0\n", "new.wcnf")
    old = WCNF.parse("p wcnf 2 3 9\n9 1 2 0\n3 -1 0\n5 -2 0\n", "old.wcnf")
    assert new.formula == old.formula
    assert solve(request(WCNF), new).answers["cost"] == 3


@pytest.mark.parametrize("text,message", [
    ("p cnf 2 1\n1 x 0\n", "bad.cnf:2:3: 'x' is not an integer"),
    ("1 2 0\n", "bad.cnf: no 'p cnf VARIABLES CLAUSES' header"),
    ("p cnf 2 1\n1 3 0\n", "bad.cnf:2:3: variable 3 is beyond the header's 2"),
    ("p cnf 3 2\n-1 2\n  3 -4 0\n", "bad.cnf:3:5: variable 4 is beyond the header's 3"),
    ("p cnf 2 1\n1 2\n", "bad.cnf:2: the last clause does not end with 0"),
    ("p cnf 2 1\np cnf 2 1\n", "bad.cnf:2:1: expected one header"),
    # a literal in the projection made count --list print one model again and again (issue 34)
    ("c p show -1 2 0\np cnf 2 1\n1 2 0\n", "bad.cnf:1:10: the projection names variables, not literals: '-1'"),
    ("p cnf 2 1\nc ind 1 7 0\n1 2 0\n", "bad.cnf:2:9: projected variable 7 is beyond the header's 2"),
])
def test_malformed_files_are_one_line(run_cli, tmp_path, text, message):
    (tmp_path / "bad.cnf").write_text(text)
    code, out, err = run_cli("solve", "cnf", str(tmp_path / "bad.cnf"))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_variable_beyond_the_header_is_named_where_it_is(run_cli, tmp_path):
    """The error named the file only: in a file of 200,000 clauses (read in bulk, which keeps no
    positions) a user had no line to look at. A WCNF clause's weight is not a variable."""
    big = tmp_path / "big.cnf"
    big.write_text("p cnf 100 200000\n" + "1 2 3 0\n" * 199_998 + "1 -101 0\n" + "2 0\n")
    code, out, err = run_cli("solve", "cnf", str(big))
    assert code == 2 and out == "" and err.strip().endswith("big.cnf:200000:3: variable 101 is beyond the header's 100")
    weighted = tmp_path / "w.wcnf"
    weighted.write_text("p wcnf 3 2 10\n4 1 2 0\n10 -1 4 0\n")
    code, out, err = run_cli("solve", "wcnf", str(weighted))
    assert code == 2 and err.strip().endswith("w.wcnf:3:7: variable 4 is beyond the header's 3")


def test_command_line_on_a_plain_cnf(run_cli, tmp_path):
    path = tmp_path / "three.cnf"
    path.write_text("p cnf 3 2\nc p show 1 2 0\n1 2 0\n-1 3 0\n")
    code, out, _ = run_cli("count", "cnf", str(path), "--jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 4 and lines[-1]["solutions"] == 3 and lines[-1]["complete"]
    # each model as integers (it was the text "v 1 -2 ... 0"; issue 35): the projection's literals apart,
    # and the model a whole model of the file, so a script can check it clause by clause (issue 44)
    assert sorted(line["solution"]["projection"] for line in lines[:-1]) == [[-1, 2], [1, -2], [1, 2]]
    for line in lines[:-1]:
        model = set(line["solution"]["model"])
        assert len(model) == 3 and {1, 2} & model and ({-1, 3} & model)
    code, out, _ = run_cli("count", "cnf", str(path), "--limit", "2", "--json")
    payload = json.loads(out)
    assert payload["answers"] == {"solutions": 2} and payload["complete"] is False
    code, out, _ = run_cli("crosscheck", "cnf", str(path), "--backends", "cadical,kissat,z3,portfolio:glucose+minisat")
    assert code == 0 and "independent methods agree" in out
    (tmp_path / "none.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    code, out, _ = run_cli("solve", "cnf", str(tmp_path / "none.cnf"))
    assert code == 1 and "UNSAT" in out


def test_bench_takes_a_directory_of_cnf_files(run_cli, tmp_path):
    rng = random.Random(5)
    (tmp_path / "in").mkdir()
    for number in range(3):
        (tmp_path / "in" / f"f{number}.cnf").write_text(random_cnf(rng, 8, 30, projected=False))
    code, out, err = run_cli("bench", "--puzzle", "cnf", "--instances", str(tmp_path / "in"), "--backends",
                             "cadical,minisat", "--repeat", "1", "--out", str(tmp_path / "out"))
    assert code == 0, err
    rows = json.loads((tmp_path / "out" / "bench.json").read_text())["rows"]
    assert len(rows) == 9 and {row["status"] for row in rows} <= {"SAT", "UNSAT"}
    for name in ("f0", "f1", "f2"):  # every method agrees on each file
        assert len({row["status"] for row in rows if row["instance"].endswith(f"{name}.cnf")}) == 1


def test_a_header_larger_than_the_formula_costs_nothing(run_cli, tmp_path):
    """'p cnf 999999999 1' used to allocate per declared variable (12 GB in a cross-check, 'out of memory'
    for 2147483647): the formula holds the variables its clauses and projection use, and counts the
    header's others (issue 44), past 2^20 of them refusing in one line (the count would have hundreds of
    millions of digits) rather than spending hours printing it."""
    for declared in (999999999, 2147483647):
        (tmp_path / "big.cnf").write_text(f"p cnf {declared} 1\n1 2 0\n")
        code, out, err = run_cli("solve", "cnf", str(tmp_path / "big.cnf"), "--json")
        assert code == 0 and json.loads(out)["size"]["variables"] == declared, err
        code, out, err = run_cli("count", "cnf", str(tmp_path / "big.cnf"))
        assert code == 2 and err.count("\n") == 1 and "puzzlesat counts with up to 1,048,576 of them" in err, err


@pytest.mark.parametrize("packer", ["gzip", "bz2", "xz", "lzma"])
def test_compressed_formula_files_are_read_as_solvers_read_them(run_cli, tmp_path, packer):
    """.cnf.gz and friends were refused as 'not a UTF-8 text file' (issue 35); told by their first bytes,
    so stdin and any name work too."""
    import bz2
    import gzip
    import lzma

    pack = {"gzip": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress,
            "lzma": lambda data: lzma.compress(data, format=lzma.FORMAT_ALONE)}[packer]
    path = tmp_path / f"f.cnf.{packer}"
    path.write_bytes(pack(b"p cnf 3 2\n1 2 0\n-1 3 0\n"))
    code, out, err = run_cli("count", "cnf", str(path), "--json")
    assert code == 0 and json.loads(out)["answers"] == {"solutions": 4}, err
    code, out, err = run_cli("count", "cnf", "-", "--json", input=path.read_bytes())
    assert code == 0 and json.loads(out)["answers"] == {"solutions": 4}, err
    path.write_bytes(pack(b"p cnf 3 2\n1 2 0\n-1 x 0\n"))
    code, _, err = run_cli("solve", "cnf", str(path))
    assert code == 2 and f"f.cnf.{packer}:3:4: 'x' is not an integer" in err
    path.write_bytes(pack(b"p cnf 3 2\n1 2 0\n-1 3 0\n")[:12])
    code, _, err = run_cli("solve", "cnf", str(path))
    assert code == 2 and err.count("\n") == 1 and f"f.cnf.{packer}" in err, err


def test_competition_output_and_exit_codes(run_cli, tmp_path):
    """`--competition` prints what a competition solver prints and exits 10 / 20 / 30 / 0."""
    (tmp_path / "sat.cnf").write_text("p cnf 3 2\n1 2 0\n-1 3 0\n")
    (tmp_path / "unsat.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (tmp_path / "opt.wcnf").write_text("h 1 2 0\n3 -1 0\n5 -2 0\n4 0\n")
    code, out, _ = run_cli("solve", "cnf", str(tmp_path / "sat.cnf"), "--competition")
    assert code == 10 and out.startswith("s SATISFIABLE\nv ") and out.endswith(" 0\n")
    assert run_cli("solve", "cnf", str(tmp_path / "unsat.cnf"), "--competition")[:2] == (20, "s UNSATISFIABLE\n")
    code, out, _ = run_cli("solve", "wcnf", str(tmp_path / "opt.wcnf"), "--competition")
    # -1 broken (3), and the empty clause (4); the model as the MaxSAT Evaluation reads it since 2021
    assert (code, out) == (30, "o 7\ns OPTIMUM FOUND\nv 10\n")
    code, out, _ = run_cli("solve", "wcnf", str(tmp_path / "opt.wcnf"), "--competition", "--literal-model")
    assert (code, out) == (30, "o 7\ns OPTIMUM FOUND\nv 1 -2 0\n")
    code, _, err = run_cli("solve", "aquarium", str(tmp_path / "sat.cnf"), "--competition")
    assert code == 2 and "for formula files" in err
    pigeons, holes = 12, 11  # pigeonhole: far beyond a tenth of a second for CDCL
    var = {(p, h): p * holes + h + 1 for p in range(pigeons) for h in range(holes)}
    clauses = [[var[p, h] for h in range(holes)] for p in range(pigeons)]
    clauses += [[-var[p, h], -var[q, h]] for h in range(holes) for p in range(pigeons) for q in range(p)]
    body = "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    (tmp_path / "php.cnf").write_text(f"p cnf {len(var)} {len(clauses)}\n{body}")
    code, out, err = run_cli("solve", "cnf", str(tmp_path / "php.cnf"), "--competition", "--timeout", "0.2")
    assert (code, out) == (0, "s UNKNOWN\n") and "time limit" in err


def test_puzzlesat_is_a_solver_binary_for_others(tmp_path):
    """Run as a solver by its own external: backends, and by a shell harness that judges a solver by
    its exit code and its 's' line under coreutils' timeout (as competition scripts do)."""
    import subprocess
    import sys
    from pathlib import Path

    exe = str(Path(sys.executable).parent / "puzzlesat")
    (tmp_path / "sat.cnf").write_text("p cnf 3 2\n1 2 0\n-1 3 0\n")
    (tmp_path / "unsat.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (tmp_path / "opt.wcnf").write_text("h 1 2 0\n3 -1 0\n5 -2 0\n")
    own = subprocess.run([exe, "solve", "cnf", str(tmp_path / "sat.cnf"), "--backend",
                          f"external:{exe} solve cnf --competition --backend glucose"], capture_output=True, text=True)
    assert own.returncode == 0 and "checked: yes" in own.stdout, own.stderr
    maxsat = subprocess.run([exe, "solve", "wcnf", str(tmp_path / "opt.wcnf"), "--json", "--backend",
                             f"external-maxsat:{exe} solve wcnf --competition"], capture_output=True, text=True)
    assert maxsat.returncode == 0 and json.loads(maxsat.stdout)["answers"]["cost"] == 3, maxsat.stderr
    harness = tmp_path / "harness.sh"
    harness.write_text('timeout 60 "$1" solve cnf --competition "$2" > out.txt\n'
                       'code=$?\nstatus=$(grep "^s " out.txt)\n'
                       'case "$code:$status" in\n  "10:s SATISFIABLE"|"20:s UNSATISFIABLE") echo "$code" ;;\n'
                       '  *) echo "bad $code $status" ;;\nesac\n')
    for name, expected in (("sat.cnf", "10"), ("unsat.cnf", "20")):
        judged = subprocess.run(["bash", str(harness), exe, str(tmp_path / name)], capture_output=True, text=True,
                                cwd=tmp_path)
        assert judged.stdout.strip() == expected, judged.stdout + judged.stderr


def test_a_large_file_holds_no_copy_of_its_text():
    """A formula file past the reference's walk keeps no copy of its text (10^6 clauses held 24 MB that
    nothing read) and no tuple of every variable id (36 MB more); the reference still refuses it in
    one line, and a small file keeps its text for the reference's own reader."""
    from puzzlesat.core.errors import NotApplicable

    cnf = get_puzzle("cnf")
    rng = random.Random(7)
    large = "p cnf 40 60\n" + "".join(f"{rng.choice([-1, 1]) * rng.randint(1, 40)} "
                                      f"{rng.choice([-1, 1]) * rng.randint(1, 40)} 0\n" for _ in range(60))
    instance = cnf.parse(large, "large.cnf")
    assert instance.text == "" and isinstance(instance.shown, range) and list(instance.shown) == list(range(1, 41))
    with pytest.raises(NotApplicable, match="at most 16 variables"):
        cnf.reference(instance, 1)
    small = cnf.parse("p cnf 3 2\n1 -2 0\n2 3 0\n", "small.cnf")
    assert small.text and len(cnf.reference(small, None)) == 4
    assert solve(request(cnf, "cadical195"), instance).checked
