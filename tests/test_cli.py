"""The command line: output shapes, the export -> external solver -> decode round trip, bad input."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlesat

from .conftest import INSTANCES

SMALL = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")
HARD = str(INSTANCES / "aquarium" / "pa-15x15-hard-1013539.txt")


def test_solve_json_shape(run_cli):
    code, out, _ = run_cli("solve", "aquarium", HARD, "--json")
    assert code == 0
    data = json.loads(out)
    assert {"puzzle", "backend", "status", "answers", "checked", "times"} <= set(data)
    assert data["status"] == "SAT" and data["checked"] is True and data["answers"]["unique"] is True
    assert set(data["times"]) == {"parse", "encode", "solve", "decode", "check"}
    assert data["answers"]["grid"] == (INSTANCES / "aquarium" / "pa-15x15-hard-1013539.solution").read_text().split()


def test_solve_text_and_stdin(run_cli):
    code, out, _ = run_cli("solve", "aquarium", "-", input=open(SMALL).read())
    assert code == 0 and "unique: yes" in out and ". . # # # #" in out


@pytest.mark.parametrize("binary", [b for b in ("cadical", "picosat") if shutil.which(b)])
def test_export_external_decode_round_trip(run_cli, tmp_path, binary):
    cnf = tmp_path / "a.cnf"
    code, _, _ = run_cli("export", "aquarium", HARD, "-o", str(cnf))
    assert code == 0
    varmap = json.loads((tmp_path / "a.cnf.vars.json").read_text())
    assert varmap["variables"]["1"].startswith("fill(")
    assert "c var 1 fill(" in cnf.read_text()
    out = subprocess.run([binary, str(cnf)], capture_output=True, text=True).stdout
    (tmp_path / "a.out").write_text(out)
    code, stdout, _ = run_cli("decode", "aquarium", HARD, "--model", str(tmp_path / "a.out"), "--json")
    assert code == 0
    data = json.loads(stdout)
    assert data["checked"] is True
    assert data["answers"]["grid"] == (INSTANCES / "aquarium" / "pa-15x15-hard-1013539.solution").read_text().split()


def _model_lines(cnf_path) -> list[int]:
    """A true model of an exported DIMACS, from a PySAT solver (no binary needed)."""
    from pysat.formula import CNF
    from pysat.solvers import Solver
    with Solver(name="glucose4", bootstrap_with=CNF(from_file=str(cnf_path)).clauses) as solver:
        assert solver.solve()
        return solver.get_model()


@pytest.mark.parametrize("case,message", [
    ("both values", "is given both values (also at line 2)"),
    ("after the end", "after the model's closing 0"),
    ("violates a clause", "the model violates clause"),
    # it named the file only: the line is where a user looks in a solver's output of many 'v' lines
    ("past the export", "a.out:3: literal 9999 is beyond the encoding's 95 variables"),
])
def test_decode_checks_the_model_against_the_clauses(run_cli, tmp_path, case, message):
    """Before the puzzle checker, decode refuses what is not a model of the export at all."""
    cnf = tmp_path / "a.cnf"
    assert run_cli("export", "aquarium", SMALL, "-o", str(cnf))[0] == 0
    model = _model_lines(cnf)
    body = {"both values": "v " + " ".join(map(str, model)) + f"\nv {-model[0]} 0\n",
            "after the end": "v " + " ".join(map(str, model)) + " 0\nv 3\n",
            "violates a clause": "v " + " ".join(map(str, [-model[0]] + model[1:])) + " 0\n",
            "past the export": "v " + " ".join(map(str, model)) + "\nv 9999 0\n"}[case]
    (tmp_path / "a.out").write_text("s SATISFIABLE\n" + body)
    code, out, err = run_cli("decode", "aquarium", SMALL, "--model", str(tmp_path / "a.out"))
    assert code == 2 and not out and message in err and "a.out" in err and len(err.strip().splitlines()) == 1


def test_export_smt2_is_readable_by_z3(run_cli, tmp_path):
    import z3

    out = tmp_path / "a.smt2"
    assert run_cli("export", "aquarium", SMALL, "-o", str(out), "--format", "smt2")[0] == 0
    solver = z3.Solver()
    solver.from_string(out.read_text())
    assert solver.check() == z3.sat


def test_crosscheck_agrees(run_cli):
    code, out, _ = run_cli("crosscheck", "aquarium", SMALL, "--backends", "cadical,kissat,z3,glucose3")
    # reference, cnf (3 PySAT solvers and z3) and smt: three methods that share no code, in six runs
    assert code == 0 and "3 independent methods agree (6 runs)" in out


def test_backends_json(run_cli):
    code, out, _ = run_cli("backends", "--json")
    payload = json.loads(out)
    assert payload["schema"] == "puzzlesat/backends/1"
    rows = payload["backends"]
    names = {r["name"]: r for r in rows}
    for required in ("pysat:cadical195", "pysat:cadical153", "pysat:kissat404", "pysat:glucose4", "pysat:glucose3",
                     "pysat:minisat22", "pysat:maplechrono", "pysat:lingeling", "pysat:cryptominisat", "z3"):
        assert names[required]["available"] is True, required
    assert "smt" in names["z3"]["capabilities"]


def test_generate_writes_a_unique_puzzle(run_cli, tmp_path):
    out = tmp_path / "g.txt"
    assert run_cli("generate", "aquarium", "--size", "7", "--seed", "3", "-o", str(out))[0] == 0
    code, stdout, _ = run_cli("solve", "aquarium", str(out), "--json")
    assert code == 0 and json.loads(stdout)["answers"]["unique"] is True


BAD_INPUTS = {
    "odd-counts.txt": ("1_2_3;1,1,1,1", "3 counts: expected 2n"),
    "not-a-number.txt": ("1_x_1_1;1,1,1,1", ":1:3: count 'x' is not a non-negative integer"),
    "short-regions.txt": ("1_1_1_1;1,2,3", "3 region ids for a 2x2 grid: expected 4"),
    "bad-region.txt": ("1_1_1_1;1,2,a,4", "region id 'a' is not"),
    "no-semicolon.txt": ("1_1_1_1", "no ';'"),
    "too-big.txt": ("3_1_1_1;1,2,3,4", "column 0 count 3 exceeds the grid size 2"),
    "empty.txt": ("", "empty file"),
    "two-lines.txt": ("1_1_1_1;1,2,3,4\nmore", ":2:1: unexpected second line"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gives_one_line_error(run_cli, tmp_path, name):
    text, message = BAD_INPUTS[name]
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run_cli("solve", "aquarium", str(path))
    assert code == 2
    assert err.count("\n") == 1 and message in err and str(path) in err
    assert "Traceback" not in out + err


def test_missing_file_unknown_backend_missing_binary_timeout(run_cli, tmp_path):
    code, _, err = run_cli("solve", "aquarium", str(tmp_path / "nope.txt"))
    assert code == 2 and "no such file" in err
    code, _, err = run_cli("solve", "aquarium", SMALL, "--backend", "nosuch")
    assert code == 2 and "unknown backend 'nosuch'" in err
    code, _, err = run_cli("solve", "aquarium", SMALL, "--backend", "external:no-such-binary")
    assert code == 2 and "not on the PATH" in err
    big = tmp_path / "big.txt"
    assert run_cli("generate", "aquarium", "--size", "30", "--seed", "2", "-o", str(big))[0] == 0
    code, _, err = run_cli("solve", "aquarium", str(big), "--timeout", "0.0001")
    assert code == 4 and "time limit" in err and err.count("\n") == 1


def test_failed_export_leaves_no_file(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1_1_1;1")
    out = tmp_path / "out.cnf"
    code, _, err = run_cli("export", "aquarium", str(bad), "-o", str(out))
    assert code == 2 and not out.exists() and list(tmp_path.iterdir()) == [bad]


def test_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    from puzzlesat.core import files

    target = tmp_path / "out.txt"
    original = files.os.replace

    def boom(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        files.write_text_atomic(str(target), "x" * 1000)
    monkeypatch.setattr(files.os, "replace", original)
    assert list(tmp_path.iterdir()) == []


def test_count_aquarium(run_cli):
    code, out, _ = run_cli("count", "aquarium", "-", "--json", input="1_1_1_1;1,2,3,4\n")
    assert code == 0 and json.loads(out)["answers"] == {"solutions": 2}
    code, out, _ = run_cli("count", "aquarium", SMALL, "--json")
    assert code == 0 and json.loads(out)["answers"] == {"solutions": 1}


SHAPE = ["schema", "version", "puzzle", "source", "backend", "encoding", "status", "answers", "checked", "solved_by",
         "size", "times"]


@pytest.mark.parametrize("args", [
    ("solve", "aquarium", "aquarium/pa-6x6-easy-681742.txt"),
    ("solve", "jigsaw", "aoc/2020-20/example.txt"),
    ("solve", "jig", "jig/matt5x5.jig"),
    ("solve", "amphipod", "aoc/2021-23/example.txt", "--no-unfold"),
    ("solve", "dice", "aoc/2021-21/example.txt", "--target", "6"),
    ("count", "jig", "jig/matt5x5.jig"),
    ("count", "dice", "aoc/2021-21/example.txt", "--target", "6"),
])
def test_json_has_one_top_level_shape(run_cli, args):
    command, puzzle, path, *rest = args
    code, out, _ = run_cli(command, puzzle, str(INSTANCES / path), *rest, "--json")
    assert code == 0
    payload = json.loads(out)
    assert list(payload)[:len(SHAPE)] == SHAPE
    assert payload["puzzle"] == puzzle and payload["status"] == "SAT"
    assert payload["schema"] == "puzzlesat/report/1" and payload["version"] == puzzlesat.__version__
    assert payload["solved_by"]  # and by whom; what was solved, unless the jig's own search won the count's race
    assert payload["size"].get("variables", 0) > 0 or payload["backend"] == "none"  # no formula: the search


GENERATED = [
    ("aquarium", ["--size", "8"], []),
    ("jigsaw", ["--size", "3"], []),
    ("jig", ["--rows", "4", "--cols", "4", "--types", "3"], []),
    ("amphipod", ["--rooms", "3", "--depth", "2"], ["--no-unfold"]),
    ("dice", ["--track", "7"], ["--track", "7", "--target", "8", "--player", "2"]),
]


@pytest.mark.skipif(shutil.which("cadical") is None, reason="needs the cadical binary (make solvers)")
@pytest.mark.parametrize("puzzle,making,reading", GENERATED)
@pytest.mark.parametrize("seed", ["1", "2"])
def test_generated_instances_round_trip_through_an_external_solver(run_cli, tmp_path, puzzle, making, reading, seed):
    """generate -> export DIMACS -> the cadical binary -> decode -> independent checker, for every puzzle."""
    source, cnf, out, svg = (str(tmp_path / name) for name in ("in.txt", "a.cnf", "a.out", "a.svg"))
    assert run_cli("generate", puzzle, *making, "--seed", seed, "-o", source)[0] == 0
    assert run_cli("export", puzzle, source, *reading, "-o", cnf)[0] == 0
    solved = subprocess.run(["cadical", "-q", cnf], capture_output=True, text=True)
    assert solved.returncode == 10  # SAT
    (tmp_path / "a.out").write_text(solved.stdout)
    code, stdout, stderr = run_cli("decode", puzzle, source, *reading, "--model", out, "--json", "--svg", svg)
    assert code == 0, stderr
    assert json.loads(stdout)["checked"] is True
    assert (tmp_path / "a.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("args,flag", [
    (["solve", "jigsaw", "instances/aoc/2020-20/example.txt", "--pb", "bdd"], "--pb"),
    (["count", "jig", "instances/jig/matt5x5.jig", "--pb", "adder"], "--pb"),
    (["solve", "amphipod", "instances/aoc/2021-23/example.txt", "--cardinality", "totalizer"], "--cardinality"),
    (["export", "amphipod", "instances/aoc/2021-23/example.txt", "-o", "-", "--pb", "bdd"], "--pb"),
])
def test_an_encoder_option_the_puzzle_lacks_is_refused(run_cli, args, flag):
    """Each puzzle declares its options (a frozen dataclass); one it lacks used to reach the encoder as
    a keyword it did not take (an internal error) or be dropped without a word."""
    code, out, err = run_cli(*args)
    assert code == 2 and out == "" and err.strip().endswith(f"{flag} does not apply to {args[1]}")


def test_crosscheck_by_count_is_the_tasks_to_allow(run_cli):
    """Counts compare wherever the task lists solutions (aquarium's reference now lists all of them);
    an optimisation or universe-counting puzzle refuses in one line."""
    code, out, _ = run_cli("crosscheck", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "--count",
                           "--backends", "cadical,z3")
    assert code == 0 and "solutions=1" in out and "3 independent methods agree" in out
    for puzzle, path in (("amphipod", "instances/aoc/2021-23/example.txt"), ("dice", "instances/aoc/2021-21/example.txt")):
        code, out, err = run_cli("crosscheck", puzzle, path, "--count")
        assert code == 2 and err.strip().endswith(f"{puzzle} has no solution count to compare")


def test_version_and_no_color(run_cli, tmp_path):
    """--version prints the package's version; on a terminal the solution is coloured unless NO_COLOR
    (https://no-color.org) is set."""
    code, out, _ = run_cli("--version")
    assert code == 0 and out == f"puzzlesat {puzzlesat.__version__}\n"

    def on_a_terminal(**env: str) -> bytes:
        main, secondary = os.openpty()
        exe = str(Path(sys.executable).parent / "puzzlesat")
        subprocess.run([exe, "solve", "aquarium", SMALL], stdout=secondary, env=os.environ | env, timeout=60)
        os.close(secondary)
        output = b""
        while chunk := _read(main):
            output += chunk
        os.close(main)
        return output

    assert b"\033[" in on_a_terminal()
    assert b"\033[" not in on_a_terminal(NO_COLOR="1")


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # the terminal's other end is closed: all read
        return b""


def test_conventions_of_a_click_cli(tmp_path):
    """A bare `puzzlesat` printed the whole help flattened into one error line (exit 2); click's own
    messages showed its layout tabs as \\x09; backend names had no completion (issue 35)."""
    exe = str(Path(sys.executable).parent / "puzzlesat")
    bare = subprocess.run([exe], capture_output=True, text=True)
    assert bare.returncode == 0 and bare.stdout.startswith("Usage: puzzlesat") and "Commands:" in bare.stdout
    assert not bare.stderr
    missing = subprocess.run([exe, "solve"], capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "\\x09" not in missing.stderr
    assert "Choose from: amphipod, aquarium, cnf, dice, jig, jigsaw, wcnf" in missing.stderr
    env = dict(os.environ, COMP_WORDS="puzzlesat crosscheck aquarium x --backends cadical,kiss", COMP_CWORD="5",
               _PUZZLESAT_COMPLETE="bash_complete")
    completed = subprocess.run([exe], capture_output=True, text=True, env=env)
    assert "plain,cadical,kissat" in completed.stdout.split(), completed.stdout


def test_no_third_party_noise_on_stderr(run_cli, capfd):
    """`backends` and a solve on every available backend leave nothing on stderr but our own lines
    (PySAT's CryptoMinisat printed 'Exception ignored in: CryptoMinisat.__del__' where its package was
    missing)."""
    from puzzlesat.backends import all_backends

    code, _, err = run_cli("backends")
    assert code == 0 and not err and not capfd.readouterr().err
    small = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")
    for backend in all_backends():
        if backend.missing() is not None or "sat" not in {str(c) for c in backend.capabilities}:
            continue
        code, _, err = run_cli("solve", "aquarium", small, "--backend", backend.name)
        noise = capfd.readouterr().err
        assert code == 0 and not err and not noise, (backend.name, err, noise)


def test_quiet_and_verbose_on_every_command(run_cli):
    """-q prints the answers only, -v adds the phases as they start (issue 35)."""
    import click

    from puzzlesat.cli import COMMANDS, main

    for name in COMMANDS:
        command = main.get_command(None, name)  # type: ignore[arg-type]
        commands = list(command.commands.values()) if isinstance(command, click.Group) else [command]
        for each in commands:
            flags = {flag for param in each.params for flag in getattr(param, "opts", [])}
            assert {"-q", "--quiet", "-v", "--verbose"} <= flags, (name, each.name)
    small = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")
    code, out, _ = run_cli("solve", "aquarium", small, "-q")
    assert code == 0 and out.splitlines()[-1] == "unique: yes (solver: no second solution, UNSAT)"
    assert "times:" not in out and "checked:" not in out and "SAT with" not in out
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "-q")
    assert (code, out) == (0, "solutions: 8\nup_to_rotation: 2\n")
    exe = str(Path(sys.executable).parent / "puzzlesat")
    loud = subprocess.run([exe, "solve", "aquarium", small, "-v"], capture_output=True, text=True)
    assert loud.returncode == 0 and [line.split("] ")[1] for line in loud.stderr.splitlines()][:3] == ["parse", "encode", "solve"]
    code, _, err = run_cli("solve", "aquarium", small, "-q", "-v")
    assert code == 2 and "exclude each other" in err


@pytest.mark.parametrize("args", [("solve", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt"),
                                  ("count", "jig", "instances/jig/matt5x5.jig", "-b", "glucose4"),
                                  ("count", "jig", "instances/jig/matt5x5.jig", "-b", "glucose4", "--timeout", "60")])
def test_verbose_says_what_the_solver_did(args):
    """-v ends each solver session with its calls and statistics (conflicts, decisions, propagations),
    also when the counts ran in forked children (side by side) or under a time limit (a forked stream);
    Kissat, whose statistics PySAT does not expose, says nothing rather than zeros (issue 35)."""
    exe = str(Path(sys.executable).parent / "puzzlesat")
    loud = subprocess.run([exe, *args, "-v"], capture_output=True, text=True, cwd=INSTANCES.parent)
    said = [line.split("] ", 1)[1] for line in loud.stderr.splitlines() if "solver call" in line]
    assert loud.returncode == 0 and len(said) == (1 if args[0] == "solve" else 2), loud.stderr
    for line in said:
        said_calls = re.fullmatch(r"pysat:\w+: ([\d,]+) solver calls?, .*[\d,]+ conflicts, .*[\d,]+ propagations", line)
        assert said_calls and int(said_calls[1]) >= 2  # a solution and the UNSAT that proves it unique or ends a count
    kissat = subprocess.run([exe, *args[:3], "-v", "-b", "kissat"], capture_output=True, text=True, cwd=INSTANCES.parent)
    assert kissat.returncode == 0 and "solver call" not in kissat.stderr



def test_help_lists_the_commands_own_options_before_the_puzzles(run_cli):
    """Every --help listed all puzzles' reading options first (dice's --det-target before --backend,
    issue 45): the command's own come first, and the named puzzle's declared options under a heading of
    their own; without a puzzle, --help says where they are and lists no puzzle's."""
    for command in ("solve", "count", "crosscheck", "export", "decode", "explain"):
        code, out, _ = run_cli(command, "dice", "--help")
        own, puzzle = out.index("\nOptions:"), out.index("\nOptions of dice:")
        assert code == 0 and own < puzzle and "--det-target" in out[puzzle:] and "--det-target" not in out[:puzzle]
        assert "--rows" not in out  # jigsaw's
        code, out, _ = run_cli(command, "jigsaw", "--help")
        assert code == 0 and "--rows" in out[out.index("\nOptions of jigsaw:"):] and "--det-target" not in out
        code, out, _ = run_cli(command, "--help")
        assert code == 0 and "--det-target" not in out and f"'puzzlesat {command} PUZZLE --help'" in " ".join(out.split())
    code, out, _ = run_cli("export", "dice", "--help")
    assert "--player" in out[out.index("\nOptions of dice:"):]
    code, out, _ = run_cli("solve", "dice", "--help")
    assert "--player" not in out  # a formula option: export and decode only
