"""Weighted model counting (issue 71, item 4): the model counting competition's ``c t wmc`` / ``c t pwmc``
files counted with their weights, exactly, by the enumeration, the frontier counter and the reference's
own reader, each held to the published answers of Ganak's tests and to a brute force written here."""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

import puzzlesat
from puzzlesat.core.weights import parse_weight, weight_text
from puzzlesat.encoders import get_puzzle

#: Ganak's README (projected, one literal of variable 1 weighted both ways): 19/10
README = "c t pwmc\np cnf 3 2\nc p weight 1 0.3 0\nc p weight -1 0.8 0\n1 2 3 0\n-1 2 0\nc p show 1 2 0\n"
#: Ganak's tests/cnf-files: wmc_rational.cnf (every variable weighted on its positive literal alone)
CLAUSES = "1 2 0\n-1 3 0\n-2 -3 4 0\n3 5 -6 0\n-4 -5 0\n6 1 0\n"
WEIGHTS = "".join(f"c p weight {v} {w} 0\n" for v, w in enumerate(["1/2", "1/3", "2/5", "3/7", "1/4", "5/6"], 1))
WMC_RATIONAL = "p cnf 6 6\nc t wmc\n" + WEIGHTS + CLAUSES
#: wpmc_rational.cnf: the weights of variables the projection does not show do not enter the product
WPMC_RATIONAL = "p cnf 6 6\nc t pwmc\nc p show 1 2 3 0\n" + WEIGHTS + CLAUSES
#: weight_defaults.cnf: a positive weight alone (its negative 1 - w), both given, none given
WEIGHT_DEFAULTS = "p cnf 3 2\nc t wmc\nc p weight 1 1/3 0\nc p weight 2 2/7 0\nc p weight -2 1/7 0\n-1 0\n2 3 0\n"

PUBLISHED = [(README, "1.9", False), (WMC_RATIONAL, "143/840", True), (WPMC_RATIONAL, "11/30", False),
             (WEIGHT_DEFAULTS, "10/21", True)]


@pytest.mark.parametrize("text, expected, unprojected", PUBLISHED)
def test_the_published_answers(run_cli, tmp_path, text, expected, unprojected):
    """Every surface gives the competition's answer, exact: the raced count, the enumeration, the
    frontier counter where every variable is shown, the reference, JSON as a string."""
    path = tmp_path / "w.cnf"
    path.write_text(text)
    backends = [None, "cadical195"] + (["frontier"] if unprojected else [])
    for backend in backends:
        report = puzzlesat.count("cnf", puzzlesat.read("cnf", str(path)), backend=backend)
        assert report.answers["weighted count"] == parse_weight(expected), backend
    code, out, _ = run_cli("count", "cnf", str(path), "--json")
    assert code == 0 and json.loads(out)["answers"]["weighted count"] == expected
    code, out, _ = run_cli("count", "cnf", str(path), "--quiet")
    assert f"weighted count: {expected}\n" in out
    checked = puzzlesat.crosscheck("cnf", puzzlesat.read("cnf", str(path)), ["cadical195", "frontier"], by_count=True)
    assert checked.agree
    assert {row.method: row.answers["weighted count"] for row in checked.rows if row.answers} == {
        method: parse_weight(expected) for method in ["reference", "pysat:cadical195 [cnf]"]
        + (["frontier [cnf]"] if unprojected else [])}


def brute_force(variables: int, clauses: list[list[int]], weights: dict[int, Fraction],
                shown: list[int] | None) -> tuple[int, Fraction]:
    """Models (one per projection) and their weights, from the definitions alone: every assignment, a
    literal weighed by its own weight, else 1 minus its complement's, else 1."""
    counted = shown if shown is not None else list(range(1, variables + 1))
    seen = set()
    total = Fraction(0)
    for values in itertools.product([False, True], repeat=variables):
        if not all(any(values[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            continue
        key = tuple(values[v - 1] for v in counted)
        if key in seen:
            continue
        seen.add(key)
        weight = Fraction(1)
        for v in counted:
            literal = v if values[v - 1] else -v
            weight *= weights.get(literal, 1 - weights[-literal] if -literal in weights else Fraction(1))
        total += weight
    return len(seen), total


def random_weighted_file(rng: random.Random) -> tuple[str, int, list[list[int]], dict[int, Fraction], list[int] | None]:
    """A small weighted file of every shape: weights as decimals, exponents and fractions, negative and
    zero ones, a literal weighted alone (either sign), variables in no clause, a projection or none,
    unsatisfiable ones."""
    variables = rng.randint(1, 7)
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, variables + 1), rng.randint(1, min(3, variables)))]
               for _ in range(rng.randint(0, 2 * variables))]
    weights: dict[int, Fraction] = {}
    lines = []
    for v in range(1, variables + 1):
        for literal in rng.choice([[], [v], [-v], [v, -v]]):
            token = rng.choice([f"{rng.randint(-3, 9)}/{rng.randint(1, 9)}", f"{rng.randint(0, 99) / 10}",
                                f"{rng.randint(1, 9)}e-{rng.randint(0, 3)}", "0", f"-0.{rng.randint(1, 9)}"])
            weights[literal] = Fraction(token)
            lines.append(f"c p weight {literal} {token} 0")
    shown = sorted(rng.sample(range(1, variables + 1), rng.randint(0, variables))) if rng.random() < 0.4 else None
    head = [f"c t {'p' if shown is not None else ''}wmc", f"p cnf {variables} {len(clauses)}"]
    if shown is not None:
        head.append("c p show " + " ".join(map(str, shown + [0])))
        weights = {lit: w for lit, w in weights.items() if abs(lit) in shown}
    text = "\n".join(head + lines + [" ".join(map(str, clause + [0])) for clause in clauses]) + "\n"
    return text, variables, clauses, weights, shown


def test_weighted_counts_against_brute_force(tmp_path):
    """200 random files: the enumeration, the frontier counter (every variable shown) and the reference
    (its own reader) against a brute force written from the definitions."""
    rng = random.Random(71)
    for number in range(200):
        text, variables, clauses, weights, shown = random_weighted_file(rng)
        path = tmp_path / f"w{number}.cnf"
        path.write_text(text)
        expected = brute_force(variables, clauses, weights, shown)
        instance = puzzlesat.read("cnf", str(path))
        methods = ["cadical195"] + (["frontier"] if shown is None else [])
        for backend in methods:
            answers = puzzlesat.count("cnf", instance, backend=backend).answers
            assert (answers["solutions"], answers["weighted count"]) == expected, (text, backend)
        puzzle = get_puzzle("cnf")
        reference = puzzle.reference_counts(instance, puzzle.options())
        assert (reference["solutions"], reference["weighted count"]) == expected, text


def test_an_unweighted_file_has_no_weighted_count(run_cli, tmp_path):
    """Only a file of the weighted formats is weighted: ``c t mc`` and a comment that mentions weights
    are not."""
    path = tmp_path / "mc.cnf"
    path.write_text("c t mc\nc the weights come later\nc p weighted 1 0\np cnf 2 1\n1 2 0\n")
    code, out, err = run_cli("count", "cnf", str(path), "--quiet")
    assert (code, out) == (0, "solutions: 3\n"), err


@pytest.mark.parametrize("text, exported", [(WMC_RATIONAL, "c t wmc"), (WPMC_RATIONAL, "c t pwmc"), (README, "c t pwmc")])
def test_export_writes_the_weights_back_and_they_read_the_same(run_cli, tmp_path, text, exported):
    path = tmp_path / "w.cnf"
    path.write_text(text)
    before = puzzlesat.count("cnf", puzzlesat.read("cnf", str(path))).answers
    for fmt in ("mcc", "dimacs"):
        out = tmp_path / f"out-{fmt}.cnf"
        code, _, err = run_cli("export", "cnf", str(path), "--format", fmt, "-o", str(out))
        assert code == 0, err
        written = out.read_text()
        assert (written.startswith(exported + "\n")) == (fmt == "mcc")
        assert puzzlesat.count("cnf", puzzlesat.read("cnf", str(out))).answers == before


@pytest.mark.parametrize("line, problem", [
    ("c p weight 1 abc 0", "'abc' is not a weight"),
    ("c p weight 1 1/0 0", "'1/0' divides by zero"),
    ("c p weight 0 0.5 0", "a weight is given to a literal, not to 0"),
    ("c p weight 1 0.5 7", "expected 'c p weight LITERAL WEIGHT 0'"),
    ("c p weight 9 0.5 0", "weighted variable 9 is beyond the header's 2"),
    ("c p weight 1 0.5 0\nc p weight 1 0.25 0", "literal 1 is weighted 0.5 on line 3 and 0.25 here"),
])
def test_a_bad_weight_line_is_one_line_naming_it(run_cli, tmp_path, line, problem):
    path = tmp_path / "w.cnf"
    path.write_text(f"c t wmc\np cnf 2 1\n{line}\n1 2 0\n")
    code, out, err = run_cli("count", "cnf", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"puzzlesat: error: {path}:") and problem in err and err.count("\n") == 1, err


def test_a_weight_read_twice_the_same_and_a_trailing_zero_left_out_are_read(run_cli, tmp_path):
    path = tmp_path / "w.cnf"
    path.write_text("c t wmc\np cnf 2 1\nc p weight 1 0.5 0\nc p weight 1 1/2\n1 2 0\n")
    code, out, _ = run_cli("count", "cnf", str(path), "--quiet")
    assert (code, out) == (0, "solutions: 3\nweighted count: 1.5\n")


def test_what_cannot_count_weights_says_so(run_cli, tmp_path):
    """Counters that would give an unweighted or a rounded count refuse (SKIPPED in a cross-check, one
    line on their own); --cubes adds up counts of models, so it refuses too."""
    path = tmp_path / "w.cnf"
    path.write_text(WMC_RATIONAL)
    for backend in ("ganak", "d4"):
        code, out, err = run_cli("count", "cnf", str(path), "--backend", backend)
        if "not installed" in err:
            continue
        assert (code, out) == (2, "") and "does not count weights exactly" in err, err
    code, _, err = run_cli("count", "cnf", str(path), "--cubes", "2")
    assert code == 2 and "--cubes adds up counts of models, not their weights" in err
    code, _, err = run_cli("count", "cnf", str(path), "--backend", "external-count:true")
    assert code == 2 and "an outside counter's weighted count is not read" in err, err
    projected = tmp_path / "p.cnf"
    projected.write_text(README)
    code, _, err = run_cli("count", "cnf", str(projected), "--backend", "frontier")
    assert code == 2 and "count it by enumeration (no --backend)" in err


def test_a_stopped_weighted_count_is_no_bound(run_cli, tmp_path):
    path = tmp_path / "w.cnf"
    path.write_text(WMC_RATIONAL)
    code, out, _ = run_cli("count", "cnf", str(path), "--limit", "3", "--backend", "cadical195")
    assert code == 0
    assert "so far: the weights of the 3 models found by then (the rest are not known)" in out


@pytest.mark.parametrize("value, text", [(Fraction(19, 10), "1.9"), (Fraction(143, 840), "143/840"),
                                         (Fraction(-3, 2000), "-0.0015"), (Fraction(12), "12"), (Fraction(0), "0"),
                                         (Fraction(1, 2 ** 40), "1/1099511627776")])
def test_a_weight_is_written_exactly_and_reads_back(value, text):
    assert weight_text(value) == text and parse_weight(text) == value


def test_the_json_of_a_weighted_count_fits_its_schemas(run_cli, tmp_path):
    from .test_schemas import valid

    path = tmp_path / "w.cnf"
    path.write_text(WMC_RATIONAL)
    code, out, _ = run_cli("count", "cnf", str(path), "--json")
    assert code == 0 and valid(json.loads(out))["answers"] == {"solutions": 10, "weighted count": "143/840"}
    code, out, _ = run_cli("count", "cnf", str(path), "--jsonl")
    assert code == 0 and valid(json.loads(out.splitlines()[-1]))["weighted count"] == "143/840"
    code, out, _ = run_cli("crosscheck", "cnf", str(path), "--count", "--backends", "cadical195,frontier", "--json")
    rows = valid(json.loads(out))["rows"]
    assert code == 0 and [row["answers"]["weighted count"] for row in rows] == ["143/840"] * 3
