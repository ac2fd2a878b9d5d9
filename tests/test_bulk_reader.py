"""The bulk DIMACS reader (``formats.dimacs._bulk_clauses``, for large files) reads every file exactly as
the line-by-line reader does: the same formula, or, for a file it cannot take, the same error, because it
hands every file it is unsure of to the line reader. Random files of every spelling the line reader
knows, good and broken, read both ways."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from puzzlesat.core.errors import PuzzleFormatError
from puzzlesat.formats import dimacs

SPELLINGS = ["plain", "comment_head", "comment_body", "percent", "spanning", "plus", "glued_minus",
             "long_number", "open_clause", "empty_clause", "tabs_crlf", "clause_before_header", "two_headers",
             "projection", "unicode_digit", "beyond_header", "float", "trailing_blank", "no_clauses"]


def random_file(rng: random.Random, spelling: str) -> str:
    variables = rng.randint(1, 30)
    clauses = [[rng.choice((-1, 1)) * rng.randint(1, variables) for _ in range(rng.randint(1, 4))]
               for _ in range(rng.randint(0 if spelling == "no_clauses" else 1, 40))]
    if spelling == "no_clauses":
        clauses = []
    lines = [" ".join(map(str, clause)) + " 0" for clause in clauses]
    head = [f"p cnf {variables} {len(clauses)}"]
    if spelling == "comment_head":
        head.insert(0, "c made by hand")
    if spelling == "projection":
        head.insert(0, f"c p show {' '.join(str(v) for v in range(1, variables + 1, 2))} 0")
    if spelling == "comment_body" and lines:
        lines.insert(rng.randrange(len(lines) + 1), "c in the middle")
    if spelling == "percent":
        lines += ["%", "0", ""]
    if spelling == "spanning" and lines:
        lines[0] = lines[0].replace(" ", "\n", 1)
    if spelling == "empty_clause":
        lines.insert(rng.randrange(len(lines) + 1), "0")
    if spelling == "trailing_blank":
        lines += ["", "   "]
    broken = {"plus": ("1 ", "+1 "), "glued_minus": (" -", "-"), "long_number": ("1 ", "12345678901 "),
              "unicode_digit": ("1 ", "\u0661 "), "float": (" 0", " 0.0"),
              "beyond_header": ("1 ", f"{variables + 5} ")}
    if spelling in broken and lines:
        old, new = broken[spelling]
        at = rng.randrange(len(lines))
        lines[at] = lines[at].replace(old, new, 1) if old in lines[at] else new + lines[at]
    if spelling == "open_clause" and lines:
        lines[-1] = lines[-1].removesuffix(" 0")
    if spelling == "clause_before_header":
        head.insert(0, "1 -2 0")
    if spelling == "two_headers":
        lines.append(head[-1])
    text = "\n".join(head + lines) + "\n"
    return text.replace("\n", "\r\n").replace(" ", "\t") if spelling == "tabs_crlf" else text


def read(text: str) -> object:
    """The file as read, its clauses as tuples whichever way they are kept; or the error."""
    try:
        formula = dimacs.parse_dimacs(text, "f.cnf")
    except PuzzleFormatError as error:
        return f"error: {error}"
    return replace(formula, clauses=tuple(map(tuple, formula.clauses)))


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_bulk_and_line_readers_agree(monkeypatch, spelling):
    rng = random.Random(spelling)
    for _ in range(40):
        text = random_file(rng, spelling)
        monkeypatch.setattr(dimacs, "BULK_SIZE", 1 << 62)
        by_line = read(text)
        monkeypatch.setattr(dimacs, "BULK_SIZE", 0)
        assert read(text) == by_line, text


def test_the_bulk_reader_takes_plain_files_and_hands_on_the_rest():
    """It must be used where it can be (else this test and the speed are for nothing), and never where
    a fault needs its line and column."""
    assert dimacs._bulk_clauses("c x\np cnf 3 2\n1 -2 0\n3 0\n") is not None
    for text in ("p cnf 3 1\n1 +2 0\n", "p cnf 3 1\n1 -2\n", "p cnf 3 1\nc mid\n1 0\n", "p cnf 3 1\n1-2 0\n",
                 "1 0\np cnf 3 1\n", "p cnf 3 1\n99999999999999999999 0\n"):
        assert dimacs._bulk_clauses(text) is None, text


@pytest.mark.parametrize("backend", ["cadical195", "glucose4", "z3", "external:cadical", "kissat"])
def test_a_file_read_in_bulk_is_solved_by_every_kind_of_backend(run_cli, monkeypatch, tmp_path, backend):
    """Solvers are given the flat clauses as read (tuples made as they are asked for), and the checker
    tests the model on the arrays: a satisfiable and an unsatisfiable random file, each answered as the
    line reader's copy is."""
    monkeypatch.setattr(dimacs, "BULK_SIZE", 0)
    rng = random.Random(backend)
    for clauses, expected in ((60, "SAT"), (400, "UNSAT")):
        path = tmp_path / f"r{clauses}.cnf"
        lines = [" ".join(str(rng.choice((-1, 1)) * rng.randint(1, 20)) for _ in range(3)) + " 0"
                 for _ in range(clauses)]
        path.write_text(f"p cnf 20 {clauses}\n" + "\n".join(lines) + "\n")
        code, out, err = run_cli("solve", "cnf", str(path), "--backend", backend, "--json", "-q")
        assert json.loads(out)["status"] == expected, (backend, err)


@pytest.mark.parametrize("backend", ["d4", "ganak", "glucose4"])
def test_a_file_read_in_bulk_is_counted(run_cli, monkeypatch, tmp_path, backend):
    monkeypatch.setattr(dimacs, "BULK_SIZE", 0)
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 6 3\n1 2 0\n-3 4 0\n5 -6 1 0\n")
    code, out, err = run_cli("count", "cnf", str(path), "--backend", backend, "-q")
    assert out.splitlines()[0] == "solutions: 33", (backend, out, err)  # as brute force counts below
    assert sum(1 for bits in range(64) if all(
        any((bits >> (abs(lit) - 1) & 1) == (lit > 0) for lit in clause)
        for clause in ((1, 2), (-3, 4), (5, -6, 1)))) == 33


def test_the_checker_names_the_clauses_a_model_breaks_as_the_line_reader_does():
    text = "p cnf 4 4\n1 2 0\n-1 0\n0\n3 -4 0\n"
    monkeypatch = pytest.MonkeyPatch()
    from puzzlesat.encoders.cnf import falsified

    by_line = falsified(dimacs.parse_dimacs(text, "f").clauses, (-1, -2, -3, 4))
    monkeypatch.setattr(dimacs, "BULK_SIZE", 0)
    in_bulk = dimacs.parse_dimacs(text, "f").clauses
    monkeypatch.undo()
    assert type(in_bulk).__name__ == "FlatClauses"
    assert falsified(in_bulk, (-1, -2, -3, 4)) == by_line == [
        "clause 1 (1 2 0) is false", "clause 3 ( 0) is false", "clause 4 (3 -4 0) is false"]


def test_an_outside_model_is_checked_on_the_arrays_as_on_the_tuples():
    """``violated_clause`` (an outside solver's model, `decode`'s, before any decoding) on a large file's
    flat arrays names the same first clause as the walk over tuples: random formulas with empty and
    repeated-literal clauses, against random models that leave variables unassigned, name variables
    past the formula's, or satisfy everything."""
    from puzzlesat.core.clauses import FlatClauses

    rng = random.Random(47)
    for _ in range(400):
        variables = rng.randint(1, 8)
        clauses = [tuple(rng.choice((-1, 1)) * rng.randint(1, variables) for _ in range(rng.randint(0, 4)))
                   for _ in range(rng.randint(0, 12))]
        numbers = [lit for clause in clauses for lit in (*clause, 0)]
        import numpy as np

        flat = FlatClauses.from_dimacs_numbers(np.array(numbers, dtype=np.int64))
        chosen = rng.sample(range(1, variables + 3), rng.randint(0, variables + 2))
        model = [rng.choice((-1, 1)) * v for v in chosen]
        assert dimacs.violated_clause(flat, model) == dimacs.violated_clause(clauses, model), (clauses, model)


def test_a_large_file_of_no_clauses_is_satisfiable(run_cli, tmp_path):
    """A file past the bulk reader's size whose header comes last and no clause follows: the flat
    arrays are empty, and the checker took that for an internal error (exit 3)."""
    path = tmp_path / "none.cnf"
    path.write_text("c padding padding padding\n" * (dimacs.BULK_SIZE // 20) + "p cnf 3 0\n")
    assert path.stat().st_size > dimacs.BULK_SIZE
    code, out, err = run_cli("solve", "cnf", str(path), "--json", "-q")
    assert (code, json.loads(out)["status"]) == (0, "SAT"), err
    assert run_cli("solve", "cnf", str(path), "--backend", "external:cadical", "-q")[0] == 0
