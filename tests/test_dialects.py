"""Formula files in every dialect their authors write (issue 44), read as the solvers of each dialect
read them: the corpus in ``tests/formulas`` (its README says where each spelling comes from) answered by
puzzlesat on every surface the same as by outside tools on the original file, and each reader fault the
audit found kept fixed."""
from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path

import pytest

from puzzlesat.formats import dimacs
from tests.test_round_trip import tool

CORPUS = Path(__file__).parent / "formulas"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
FILES = sorted(EXPECTED)


@pytest.fixture(autouse=True, params=["line reader", "bulk reader"])
def reader(request, monkeypatch):
    """Every test twice: files read line by line (as small files are), and read in bulk where they can
    be (as files from a megabyte are: :func:`puzzlesat.formats.dimacs._bulk_clauses`), so that every
    surface meets both kinds of clause list."""
    if request.param == "bulk reader":
        monkeypatch.setattr(dimacs, "BULK_SIZE", 0)
    return request.param


def as_the_tools_read_it(path: Path, tmp_path: Path) -> Path:
    """The file as the format defines it, for tools that refuse three of its spellings: the text after
    SATLIB's ``%`` line cut (it ends the formula), ``c p show`` spelled ``c ind``, and a clause that
    spans lines put on one (CryptoMiniSat refuses the last two)."""
    text = re.split(r"^%.*$", path.read_text(), maxsplit=1, flags=re.M)[0]
    kept = [line.replace("c p show ", "c ind ", 1) for line in text.splitlines() if line.startswith(("c", "p"))]
    tokens = " ".join(line for line in text.splitlines() if not line.startswith(("c", "p"))).split()
    clauses = " ".join(tokens).replace(" 0 ", " 0\n").replace(" 0", " 0\n") if tokens else ""
    out = tmp_path / path.name
    out.write_text("\n".join(kept) + "\n" + "\n".join(line.strip() for line in clauses.splitlines() if line.strip()) + "\n")
    return out


def outside_answers(path: Path, tmp_path: Path) -> dict:
    """The file's answers by outside tools alone: rc2.py for a WCNF's optimum, MiniSat for
    satisfiability and CryptoMiniSat's enumeration for the (projected) count of a CNF."""
    if path.suffix == ".wcnf":
        out = subprocess.run([tool("rc2.py"), "-vv", str(path)], capture_output=True, text=True, timeout=60).stdout
        return {"cost": int(re.search(r"^o (\d+)", out, re.M).group(1))}
    given = as_the_tools_read_it(path, tmp_path)
    subprocess.run([tool("minisat"), str(given), str(tmp_path / "result")], capture_output=True, timeout=60)
    satisfiable = (tmp_path / "result").read_text().startswith("SAT")
    if re.search(r"^c ind 0", given.read_text(), re.M):
        return {"satisfiable": satisfiable, "solutions": int(satisfiable)}  # projected on nothing: 0 or 1
    enumerated = subprocess.run([tool("cryptominisat5"), "--verb", "0", "--maxsol", "100000", str(given)],
                                capture_output=True, text=True, timeout=60).stdout
    return {"satisfiable": satisfiable, "solutions": enumerated.count("s SATISFIABLE")}


@pytest.mark.parametrize("name", FILES)
def test_the_outside_tools_give_the_expected_answers(name, tmp_path):
    """The manifest is what the outside tools say of the original file (recomputed here)."""
    assert outside_answers(CORPUS / name, tmp_path) == EXPECTED[name]


@pytest.mark.parametrize("name", FILES)
def test_puzzlesat_answers_as_the_outside_tools(run_cli, name):
    expected, path = EXPECTED[name], str(CORPUS / name)
    puzzle = "wcnf" if name.endswith(".wcnf") else "cnf"
    code, out, _ = run_cli("solve", puzzle, path, "--json", "-q")
    report = json.loads(out)
    if puzzle == "wcnf":
        assert code == 0 and report["answers"]["cost"] == expected["cost"] and report["answers"]["optimal"]
        return
    assert (report["status"] == "SAT") == expected["satisfiable"]
    for backend in ("glucose4", "ganak", None):
        code, out, _ = run_cli("count", "cnf", path, "-q", *(["--backend", backend] if backend else []))
        assert out.splitlines()[0] == f"solutions: {expected['solutions']}", (backend, out)


@pytest.mark.parametrize("name", [n for n in FILES if n.endswith(".cnf")])
def test_crosscheck_of_the_corpus_agrees_with_an_own_reading(run_cli, name):
    """Every method agrees, and the reference's own reader is among them (the file read twice)."""
    code, out, _ = run_cli("crosscheck", "cnf", str(CORPUS / name), "--backends", "glucose4,cadical195", "--json")
    report = json.loads(out)
    readers = {row["reader"] for row in report["rows"] if row["agrees"]}
    assert code == 0 and report["agree"] and "the reference's own reader" in readers, report


def test_satlib_end_marker_is_not_an_empty_clause(run_cli, tmp_path):
    """SATLIB's files end with '%' and '0': the 0 was read as an empty clause, so every method said
    UNSAT (and --competition exited 20) on a satisfiable formula."""
    path = tmp_path / "uf.cnf"
    path.write_text("p cnf 2 1\n1 2 0\n%\n0\n\n")
    code, out, _ = run_cli("solve", "cnf", str(path), "--competition")
    assert code == 10 and out.startswith("s SATISFIABLE\n")
    code, out, _ = run_cli("count", "cnf", str(path), "-q")
    assert out == "solutions: 3\n"


@pytest.mark.parametrize("clause", ["1 0", "10 0"])
def test_a_count_is_over_the_header_variables(run_cli, tmp_path, clause):
    """As the model-counting competition counts: 512 whichever variable the clause names (it was 1 for
    '1 0' and 512 for '10 0'); Ganak and the enumeration alike."""
    path = tmp_path / "f.cnf"
    path.write_text(f"p cnf 10 1\n{clause}\n")
    for backend in ("glucose4", "ganak", "d4"):
        code, out, _ = run_cli("count", "cnf", str(path), "-q", "--backend", backend)
        assert (code, out) == (0, "solutions: 512\n"), backend
    # the same answer on the other surfaces: cubes, the Python API, a cross-check by count
    assert run_cli("count", "cnf", str(path), "-q", "--cubes", "2", "--executor", "local:2")[1] == "solutions: 512\n"
    import puzzlesat

    assert puzzlesat.count("cnf", puzzlesat.read("cnf", str(path))).answers == {"solutions": 512}
    code, out, _ = run_cli("crosscheck", "cnf", str(path), "--count", "--backends", "glucose4,ganak", "--json")
    report = json.loads(out)
    assert code == 0 and all(row["answers"] == {"solutions": 512} for row in report["rows"]), report


def test_a_huge_header_is_counted_not_held(run_cli, tmp_path):
    """A million unused variables cost nothing: the count is 2^(10^6 - 1), multiplied, not enumerated."""
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 1000000 1\n1 0\n")
    code, out, _ = run_cli("count", "cnf", str(path), "-q", "--json")
    assert code == 0 and json.loads(out)["answers"]["solutions"] == 1 << 999_999


def test_an_empty_projection_counts_one_or_none(run_cli, tmp_path):
    """'c p show 0' projects on nothing: a satisfiable formula has one solution (it was read as no
    projection and counted 3)."""
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 2 1\nc p show 0\n1 2 0\n")
    code, out, _ = run_cli("count", "cnf", str(path), "-q", "--backend", "glucose4")
    assert out == "solutions: 1\n"
    # its export keeps the empty projection (it was dropped, so an outside counter counted 3)
    code, _, _ = run_cli("export", "cnf", str(path), "--format", "mcc", "-o", str(tmp_path / "e.cnf"))
    assert code == 0 and "c p show 0" in (tmp_path / "e.cnf").read_text().splitlines()
    assert run_cli("count", "cnf", str(tmp_path / "e.cnf"), "-q", "--backend", "ganak")[1] == "solutions: 1\n"


def test_json_model_is_a_model_of_the_file(run_cli, tmp_path):
    """With a projection the JSON model still assigns every variable, so a script can check it against
    the file; the projection's literals come apart."""
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 3 2\nc p show 1 0\n1 2 0\n-1 3 0\n")
    code, out, _ = run_cli("solve", "cnf", str(path), "--json", "-q")
    solution = json.loads(out)["solution"]
    model = set(solution["model"])
    assert len(model) == 3 and model & {1, 2} and model & {-1, 3} and solution["projection"] == [
        lit for lit in solution["model"] if abs(lit) == 1]


def test_maxsat_model_line_is_the_evaluations(run_cli):
    """Since 2021 the MaxSAT Evaluation reads 'v' and one 0/1 per variable; the old literal line on
    request."""
    path = str(CORPUS / "mse-2022.wcnf")
    code, out, _ = run_cli("solve", "wcnf", path, "--competition")
    assert code == 30 and out.splitlines()[:2] == ["o 5", "s OPTIMUM FOUND"]
    assert re.fullmatch(r"v [01]{4}", out.splitlines()[2])
    code, out, _ = run_cli("solve", "wcnf", path, "--competition", "--literal-model")
    assert re.fullmatch(r"v( -?\d)+ 0", out.splitlines()[2])


def test_weights_past_two_to_the_31(run_cli):
    code, out, _ = run_cli("solve", "wcnf", str(CORPUS / "mse-big-weights.wcnf"), "--json", "-q")
    assert code == 0 and json.loads(out)["answers"]["cost"] == 3_000_000_000


def test_a_header_that_miscounts_its_clauses_is_read_as_written(run_cli, tmp_path):
    """Read as written, and said with every answer: a model, a count, and an UNSAT answer too."""
    code, out, _ = run_cli("solve", "cnf", str(CORPUS / "competition-understated.cnf"))
    assert code == 0 and "warning: " in out and "the header says 3 clauses and the file has 4" in out
    path = tmp_path / "u.cnf"
    path.write_text("p cnf 2 5\n1 0\n-1 0\n")
    said = "warning: " + str(path) + ": the header says 5 clauses and the file has 2 (read as written)"
    code, out, _ = run_cli("solve", "cnf", str(path))
    assert code == 1 and said in out.splitlines()
    code, out, _ = run_cli("count", "cnf", str(path), "-q")
    assert out.splitlines() == ["solutions: 0", said]


def test_zero_padded_and_many_member_gzip(run_cli, tmp_path):
    """gzip files padded with zeros (tape blocks) are read as gzip reads them, and a file of thousands of
    members in linear time (the member loop copied the rest of the file once per member)."""
    padded = tmp_path / "padded.cnf.gz"
    padded.write_bytes(gzip.compress(b"p cnf 2 1\n1 2 0\n") + bytes(512))
    assert run_cli("count", "cnf", str(padded), "-q")[1] == "solutions: 3\n"
    members = tmp_path / "members.cnf.gz"
    members.write_bytes(gzip.compress(b"p cnf 2 20000\n") + b"".join(gzip.compress(b"1 2 0\n") for _ in range(20000)))
    assert run_cli("count", "cnf", str(members), "-q")[1] == "solutions: 3\n"


def test_a_formula_file_has_no_size_cap_but_memory(run_cli, tmp_path):
    """Past the 64 MiB that caps puzzle inputs, a formula file is read (it was refused as 'far beyond any
    puzzle input')."""
    path = tmp_path / "big.cnf"
    with path.open("w") as handle:
        handle.write("p cnf 3 350000\n")
        handle.writelines("1 -2 3 0" + " " * 200 + "\n" for _ in range(350_000))
    assert path.stat().st_size > 64 << 20
    code, out, _ = run_cli("solve", "cnf", str(path), "-q", "--backend", "glucose4")
    assert code == 0 and "satisfiable: yes" in out


@pytest.mark.parametrize("fault", ["drop", "add"])
def test_a_planted_reader_fault_is_caught_by_crosscheck(run_cli, monkeypatch, tmp_path, fault):
    """Every solver reads through puzzlesat's reader, so a fault there fooled them all alike ('22
    independent methods agree' on a misread file); the reference's own reader and an outside solver
    given the file itself read it apart, and disagree."""
    from dataclasses import replace

    import puzzlesat.encoders.cnf as cnf
    from puzzlesat.formats.dimacs import parse_dimacs

    def faulty(text, path, weighted=False):
        formula = parse_dimacs(text, path, weighted)
        clauses = tuple(formula.clauses)[:-1] if fault == "drop" else (*formula.clauses, ())
        return replace(formula, clauses=clauses)

    monkeypatch.setattr(cnf, "parse_dimacs", faulty)
    path = tmp_path / "f.cnf"  # dropped: unsatisfiable, and satisfiable without its last clause
    path.write_text("p cnf 2 3\n1 0\n2 0\n-1 -2 0\n" if fault == "drop" else "p cnf 2 1\n1 2 0\n")
    code, out, _ = run_cli("crosscheck", "cnf", str(path), "--backends", "glucose4,external:cadical", "--json")
    report = json.loads(out)
    rows = {row["method"]: row for row in report["rows"]}
    assert code == 1 and not report["agree"]
    truth = "UNSAT" if fault == "drop" else "SAT"  # what the file says; the misread formula says the other
    assert rows["reference"]["status"] == truth and rows["pysat:glucose4 [cnf]"]["status"] != truth
    assert rows["external:cadical [cnf]"]["reader"] == "cadical's own reader"
    cadical = rows["external:cadical [cnf]"]
    # given the file, cadical answers as the file says; a model of the file that breaks the misread
    # formula is refused where puzzlesat checks it (an ERROR row: a disagreement too)
    assert cadical["status"] == truth or (fault == "add" and "violates clause" in cadical["error"]), cadical


def test_a_cube_is_not_the_original_file(run_cli, tmp_path):
    """An outside solver is given the original file only while the formula is that file: a cube's
    formula (its literals as unit clauses) is written out for it."""
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 4 2\n1 2 0\n-1 3 0\n")
    code, out, err = run_cli("count", "cnf", str(path), "-q", "--cubes", "2", "--executor", "local:2",
                             "--backend", "external:cadical")
    assert (code, out) == (0, "solutions: 8\n"), err
