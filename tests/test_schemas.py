"""Every JSON object a command prints is valid against the JSON Schema its ``schema`` field names
(docs/schemas/NAME-1.json): solve, count, decode, crosscheck, backends, bench.json and count --jsonl's
last line, on every built-in puzzle and the formula files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import INSTANCES

jsonschema = pytest.importorskip("jsonschema")

SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schemas"
AOC = INSTANCES / "aoc"
SOLVES = {
    "aquarium": [str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")],
    "jigsaw": [str(AOC / "2020-20" / "example.txt")],
    "jig": [str(INSTANCES / "jig" / "matt5x5.jig")],
    "amphipod": [str(AOC / "2021-23" / "example.txt"), "--no-unfold"],
    "dice": [str(AOC / "2021-21" / "example.txt"), "--target", "6", "--sides", "2"],
}


def valid(payload: dict) -> dict:
    """``payload`` checked against the schema it names; returned for further asserts."""
    name = payload["schema"].removeprefix("puzzlesat/").replace("/", "-")
    schema = json.loads((SCHEMAS / f"{name}.json").read_text())
    jsonschema.validate(payload, schema, cls=jsonschema.Draft202012Validator)
    return payload


def test_the_schemas_are_schemas():
    for path in SCHEMAS.glob("*.json"):
        jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text()))


@pytest.mark.parametrize("puzzle", sorted(SOLVES))
def test_solve_and_count_reports(run_cli, puzzle):
    code, out, err = run_cli("solve", puzzle, *SOLVES[puzzle], "--json")
    report = valid(json.loads(out))
    assert code == 0 and report["checked"] and "solution" in report, err
    if puzzle == "amphipod":  # the plan, move by move, adds up to the energy
        for plan in report["solution"]["plans"].values():
            assert sum(move["energy"] for move in plan["moves"]) == plan["energy"]
    if puzzle == "jigsaw":
        assert len(report["solution"]["layout"]) == 3 and len(report["solution"]["corners"]) == 4
    if puzzle != "amphipod":
        code, out, err = run_cli("count", puzzle, *SOLVES[puzzle], "--json")
        assert code == 0 and valid(json.loads(out))["method"], err


def test_formula_files_decode_crosscheck_backends_bench_and_jsonl(run_cli, tmp_path):
    formula = tmp_path / "f.cnf"
    formula.write_text("p cnf 3 2\n1 2 0\n-1 3 0\n")
    valid(json.loads(run_cli("solve", "cnf", str(formula), "--json")[1]))
    lines = run_cli("count", "cnf", str(formula), "--jsonl")[1].splitlines()
    assert all(isinstance(json.loads(line)["solution"]["model"][0], int) for line in lines[:-1])
    assert valid(json.loads(lines[-1]))["solutions"] == 4
    weighted = tmp_path / "f.wcnf"
    weighted.write_text("h 1 2 0\n3 -1 0\n5 -2 0\n")
    valid(json.loads(run_cli("solve", "wcnf", str(weighted), "--json")[1]))
    whole = valid(json.loads(run_cli("crosscheck", "cnf", str(formula), "--backends", "cadical,z3", "--json")[1]))
    # --jsonl: each row as its method finishes, then --json's object on one line, with the same rows
    streamed = [json.loads(line) for line in run_cli("crosscheck", "cnf", str(formula), "--backends", "cadical,z3",
                                                     "--jsonl")[1].splitlines()]
    last = valid(streamed[-1])
    assert [line["row"] for line in streamed[:-1]] == last["rows"]
    assert [row["method"] for row in last["rows"]] == [row["method"] for row in whole["rows"]]
    assert "exclude each other" in run_cli("crosscheck", "cnf", str(formula), "--json", "--jsonl")[2]
    valid(json.loads(run_cli("backends", "--json")[1]))
    aquarium = SOLVES["aquarium"][0]
    assert run_cli("export", "aquarium", aquarium, "-o", str(tmp_path / "a.cnf"))[0] == 0
    (tmp_path / "model.txt").write_text(_model(run_cli, aquarium))
    code, out, err = run_cli("decode", "aquarium", aquarium, "--model", str(tmp_path / "model.txt"),
                             "--map", str(tmp_path / "a.cnf.vars.json"), "--json")
    assert code == 0, err
    valid(json.loads(out))
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "f.cnf").write_text(formula.read_text())
    code, _, err = run_cli("bench", "--puzzle", "cnf", "--instances", str(tmp_path / "in"), "--backends", "cadical",
                           "--repeat", "1", "--out", str(tmp_path / "out"))
    assert code == 0, err
    valid(json.loads((tmp_path / "out" / "bench.json").read_text()))


def _model(run_cli, aquarium: str) -> str:
    """A SAT-competition answer to the aquarium's export, from puzzlesat itself as a solver."""
    import os
    import subprocess
    import sys

    exe = str(Path(sys.executable).parent / "puzzlesat")
    exported = subprocess.run([exe, "export", "aquarium", aquarium, "-o", "-"], capture_output=True, text=True,
                              check=True).stdout
    done = subprocess.run([exe, "solve", "cnf", "-", "--competition"], input=exported, capture_output=True, text=True,
                          env=dict(os.environ))
    assert done.returncode == 10, done.stderr
    return done.stdout
