"""Hard limits and clean ends, on real processes (the supervisor forks only when stdout and stderr are
file descriptors, so these tests run the ``puzzlesat`` executable): the documented exit codes, the
whole-command time limit and the memory cap on small hostile inputs, signals that end the whole process
tree without leftovers, outputs that are devices, links or the command's own input, and terminal-safe
error messages."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlesat.core.timing import Deadline
from puzzlesat.processes.children import alive, descendants

from .conftest import INSTANCES

EXE = str(Path(sys.executable).parent / "puzzlesat")
SMALL = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")
JIG_9 = str(INSTANCES / "jig" / "zhurgut_9x9.jig")
JIG_10 = str(INSTANCES / "jig" / "zhurgut_10x10.jig")
needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical binary not installed (make solvers)")


def run(*args: str, tmp: Path, timeout: float = 60, **kwargs) -> tuple[int, str, str, float]:
    """Run ``puzzlesat ARGS`` with its temporary files under ``tmp``; (exit code, stdout, stderr, seconds)."""
    env = dict(os.environ, TMPDIR=str(tmp))
    start = time.perf_counter()
    proc = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=timeout, env=env, **kwargs)
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A TMPDIR that must be empty again when the command has ended."""
    path = tmp_path / "tmp"
    path.mkdir()
    return path


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and err.startswith("puzzlesat: error: ") and "internal error" not in err


def unsolvable_jig(tmp_path: Path) -> str:
    path = tmp_path / "bad.jig"
    path.write_text("1 2\n1 0 5 0 0\n2 0 0 0 3\n")
    return str(path)


# --- exit codes ------------------------------------------------------------------------------------

def test_exit_codes(tmp_path, scratch):
    """The table of docs/limits.md: solved 0, no solution 1, bad input 2, time limit 4, out of memory 5,
    disk full 6 (interrupted 130 and terminated 143 below; broken pipe 141 in its own test)."""
    assert run("solve", "aquarium", SMALL, tmp=scratch)[0] == 0
    assert run("solve", "jig", unsolvable_jig(tmp_path), tmp=scratch)[0] == 1
    code, _, err, _ = run("solve", "aquarium", str(tmp_path / "missing.txt"), tmp=scratch)
    assert code == 2 and one_line(err) and "no such file" in err, (code, err)
    code, _, err, _ = run("count", "jig", JIG_10, "--timeout", "1", tmp=scratch)
    assert code == 4 and one_line(err) and "time limit of 1 s (--timeout)" in err, (code, err)
    code, _, err, _ = run("solve", "aquarium", _aquarium_200(tmp_path), "--max-memory", "200M", tmp=scratch)
    # when the allocation that fails is a native one (PySAT's C++ encoders), libstdc++'s own two lines
    # ("terminate called after throwing an instance of 'std::bad_alloc'") came before ours in about one
    # run in ten: the worker's descriptor 2 now goes nowhere, its Python stderr to the terminal
    assert code == 5 and one_line(err) and "out of memory" in err and "--max-memory 200M" in err, (code, err)
    code, _, err, _ = run("export", "aquarium", SMALL, "-o", "/dev/full", tmp=scratch)
    assert code == 6 and one_line(err) and "no space left" in err, (code, err)
    assert not list(scratch.iterdir())


def test_a_broken_pipe_ends_quietly_with_its_own_code(scratch):
    """`puzzlesat ... | head`: the reader went away with what it wanted; Unix tools end silently with
    128 + SIGPIPE (issue 46: a one-line error was printed)."""
    env = dict(os.environ, TMPDIR=str(scratch))
    proc = subprocess.Popen([EXE, "export", "jig", JIG_9, "-o", "-"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()  # the reader goes away after 10 bytes of some 2 MB
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 141 and err == ""


# --- the whole-command time limit and the memory cap on hostile inputs ------------------------------

def _aquarium_200(tmp_path: Path) -> str:
    """200x200, each row one region of count 100: parsing and encoding alone take seconds."""
    counts = "_".join(["100"] * 200)
    path = tmp_path / "aq200.txt"
    path.write_text(f"{counts}_{counts};" + ",".join(str(r + 1) for r in range(200) for _ in range(200)) + "\n")
    return str(path)


def _hostile(tmp_path: Path, puzzle: str) -> list[str]:
    """A small file per puzzle that used to run unbounded, and the arguments that read it."""
    if puzzle == "aquarium":
        return ["solve", "aquarium", _aquarium_200(tmp_path)]
    if puzzle == "jigsaw":  # 16 blank tiles: all fit all (7 GB in the anchoring, once)
        path = tmp_path / "blank.txt"
        path.write_text("\n\n".join(f"Tile {1000 + i}:\n" + "\n".join(["#" * 10] * 10) for i in range(16)) + "\n")
        return ["count", "jigsaw", str(path)]
    if puzzle == "jig":  # 20x20 with a single tab type: every piece fits everywhere (4.2 GB, once)
        from puzzlesat.encoders.jig.generate import generate

        path = tmp_path / "one-type.jig"
        path.write_text(generate(20, 20, 1, 0))
        return ["count", "jig", str(path)]
    if puzzle == "amphipod":
        path = tmp_path / "wide.txt"
        rooms = "#".join("JIHGFEDCBA")
        path.write_text("#" * 23 + "\n#" + "." * 21 + "#\n###" + rooms + "###\n  #" + "#".join("ABCDEFGHIJ")
                        + "#\n  " + "#" * 21 + "\n")
        return ["solve", "amphipod", str(path)]
    return ["solve", "dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), "--target", "300", "--track", "100"]


@pytest.mark.parametrize("puzzle", ["aquarium", "jigsaw", "jig", "amphipod", "dice"])
def test_hostile_input_holds_the_time_limit(tmp_path, scratch, puzzle):
    """--timeout 1 ends the command, refused at once or stopped in whatever phase it was: each input runs
    for minutes without the limit. (The promise of the limit + 1 s is measured, under 4x
    oversubscription, in the design notes of issue 44; asserted here with room for any loaded machine.)"""
    code, _, err, seconds = run(*_hostile(tmp_path, puzzle), "--timeout", "1", tmp=scratch)
    assert code in (2, 4) and one_line(err), err
    assert seconds < 15
    assert not list(scratch.iterdir())


# --- signals ---------------------------------------------------------------------------------------

COMMANDS = {
    "solve": (["solve", "dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), "--target", "40", "--timeout", "60"], 3),
    "count": (["count", "jig", JIG_9, "-b", "external:cadical"], 4),
    "crosscheck": (["crosscheck", "jig", JIG_9, "--backends", "external:cadical,glucose"], 3),
    "bench": (["bench", "--puzzle", "jig", "--instances", str(INSTANCES / "jig"), "--backends", "external:cadical",
               "--repeat", "1"], 3),
    "portfolio": (["count", "jig", JIG_9, "-b", "portfolio:glucose,cadical"], 5),
}


@needs_cadical
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_signal_ends_the_whole_tree(tmp_path, scratch, command, number):
    """Mid-run (its solver processes started), the signal ends the command with 128 + the signal,
    every descendant dies, and no temporary file is left (scratch, or beside an output)."""
    args, processes = COMMANDS[command]
    if command == "bench":
        args = [*args, "--out", str(tmp_path / "out")]
    proc = subprocess.Popen([EXE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(scratch)), cwd=tmp_path)
    end = time.monotonic() + 30
    tree: set[int] = set()
    while len(tree) < processes and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
        tree |= descendants(proc.pid)
    assert len(tree) >= processes, f"the run never reached {processes} processes: {proc.poll()}"
    proc.send_signal(number)
    assert proc.wait(30) == 128 + number
    assert proc.stderr is not None
    err = proc.stderr.read()
    # bench's progress bar prints its label first when stderr is not a terminal
    assert one_line(err.removeprefix("bench\n")), err
    end = time.monotonic() + 5  # children die with their parent: the kernel signals them at once
    while any(alive(pid) for pid in tree) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [pid for pid in tree if alive(pid)]
    assert not list(scratch.iterdir())
    assert not list(tmp_path.rglob(".puzzlesat-*"))


# --- files -----------------------------------------------------------------------------------------

def test_outputs_that_are_not_regular_files_are_written_through(tmp_path, scratch):
    """A device stays a device (an atomic rename would replace /dev/null with a plain file), and
    /dev/stdout reaches stdout."""
    code, _, _, _ = run("solve", "aquarium", SMALL, "--svg", "/dev/null", tmp=scratch)
    assert code == 0 and Path("/dev/null").is_char_device()
    code, out, _, _ = run("generate", "aquarium", "--size", "4", "-o", "/dev/stdout", tmp=scratch)
    assert code == 0 and ";" in out


def test_a_link_is_written_through_and_an_input_never_overwritten(tmp_path, scratch):
    target = tmp_path / "real.cnf"
    link = tmp_path / "link.cnf"
    link.symlink_to(target)
    assert run("export", "aquarium", SMALL, "-o", str(link), tmp=scratch)[0] == 0
    assert link.is_symlink() and target.read_text().startswith("c ")
    source = tmp_path / "in.txt"
    source.write_text(Path(SMALL).read_text())
    code, _, err, _ = run("export", "aquarium", str(source), "-o", str(source), tmp=scratch)
    assert code == 2 and one_line(err) and "is an input of this command" in err
    assert source.read_text() == Path(SMALL).read_text()


def test_an_export_and_its_map_are_published_together(tmp_path, scratch):
    """The map of an earlier export is replaced with the file, never left beside a newer file."""
    out = tmp_path / "a.cnf"
    (tmp_path / "a.cnf.vars.json").write_text("stale")
    assert run("export", "aquarium", SMALL, "-o", str(out), tmp=scratch)[0] == 0
    assert (tmp_path / "a.cnf.vars.json").read_text().startswith("{")
    assert not list(tmp_path.glob(".puzzlesat-*"))


def test_concurrent_exports_to_one_path_leave_a_matching_pair(tmp_path, scratch):
    """Ten exports of different instances to one -o path: the file and its map are one writer's, never
    one of each (two renames were interleaved in 2 of 40 rounds before the directory lock; issue 34)."""
    instances = sorted(str(p) for p in (INSTANCES / "aquarium").glob("pa-*.txt"))[:10]
    out = tmp_path / "one.cnf"
    env = dict(os.environ, TMPDIR=str(scratch))
    for _ in range(5):
        writers = [subprocess.Popen([EXE, "export", "aquarium", path, "-o", str(out)], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for path in instances]
        assert all(writer.wait(60) == 0 for writer in writers)
        first_line = out.read_text().splitlines()[0]
        source = json.loads((tmp_path / "one.cnf.vars.json").read_text())["source"]
        assert first_line == f"c puzzlesat aquarium {source}"
        assert not list(tmp_path.glob(".puzzlesat-*"))


def test_crosscheck_keeps_its_limits_and_its_memory_cap(tmp_path, scratch):
    """crosscheck encoded in its own process, outside --timeout and --budget: a 20x20 one-type jig with
    --timeout 1 --budget 4 ran past 90 s, and under --max-memory its children printed "Process
    ForkProcess-1:" and std::bad_alloc lines (issue 34). Every method now runs in a child killed at its
    limit; one past the memory cap is a MEMOUT row, which contradicts no one."""
    jig = tmp_path / "big.jig"
    assert run("generate", "jig", "--rows", "20", "--cols", "20", "--types", "1", "-o", str(jig), tmp=scratch)[0] == 0
    code, out, err, seconds = run("crosscheck", "jig", str(jig), "--timeout", "1", "--budget", "4", tmp=scratch)
    assert code == 1 and "NOTHING COMPARED" in out and not err, (out, err)
    assert seconds < 30  # the budget of 4 s held (it ran past 90 s), with room for a loaded machine
    code, out, err, _ = run("crosscheck", "jig", str(jig), "--timeout", "5", "--budget", "15", "--max-memory", "400M",
                            "--json", tmp=scratch)
    assert code == 1 and not err, err
    rows = json.loads(out)["rows"]
    assert {row["status"] for row in rows} <= {"MEMOUT", "TIMEOUT", "SKIPPED"} and any(r["status"] == "MEMOUT" for r in rows)


def test_bench_checks_its_output_directory_before_the_runs(tmp_path, scratch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err, seconds = run("bench", "--puzzle", "aquarium", "--out", str(blocker / "out"), tmp=scratch)
    assert code == 2 and one_line(err) and str(blocker) in err
    assert seconds < 30  # refused before any run, not after all of them (minutes)


def test_out_of_memory_is_said_even_when_the_worker_cannot_say_it(tmp_path):
    """A worker out of memory could run out again while making its one-line message, and ended with
    exit 3 and nothing on stderr (issue 34): now it makes nothing and its supervisor says it."""
    script = tmp_path / "oom.py"
    script.write_text(
        "import sys\n"
        "from puzzlesat.core.reporting import Limits, report_phase\n"
        "from puzzlesat.processes.supervisor import supervise\n"
        "def run():\n"
        "    report_phase('encode')\n"
        "    raise MemoryError  # as if the handler itself had failed: it escapes the command\n"
        "sys.exit(supervise(run, Limits(memory=1 << 30), lambda m: print('puzzlesat: error: ' + m, file=sys.stderr)))\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 5, proc
    assert proc.stderr == ("puzzlesat: error: out of memory in the encode phase "
                           "(--max-memory 1G: raise it, or try a smaller instance)\n")


def test_a_signal_after_the_workers_own_line_adds_no_second(tmp_path):
    """The worker printed its timeout line and, as it ended, a SIGTERM made the supervisor print
    "terminated" too (soak, 1 run in 1,000; issue 34): the worker now says its line is out."""
    script = tmp_path / "said.py"
    script.write_text(
        "import sys, time\n"
        "from puzzlesat.cli.supervised import fail\n"
        "from puzzlesat.core.reporting import Limits\n"
        "from puzzlesat.processes.supervisor import supervise\n"
        "def run():\n"
        "    fail('time limit of 1 s (--timeout) reached while solving')\n"
        "    time.sleep(30)  # as if ending took long\n"
        "    return 4\n"
        "sys.exit(supervise(run, Limits(), fail))\n")
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and err == "puzzlesat: error: time limit of 1 s (--timeout) reached while solving\n", err


# --- terminal safety -------------------------------------------------------------------------------

def test_control_characters_in_errors_are_escaped(tmp_path, scratch):
    evil = tmp_path / "evil.txt"
    evil.write_text("\x1b]0;owned\x07\x1b[2J\r12_x;1\n")
    for args in (["solve", "aquarium", str(evil)], ["solve", "aquarium", "\x1b[31mmissing\r"],
                 ["solve", "aquarium", SMALL, "--backend", "\x1b[2Jnope"]):
        code, _, err, _ = run(*args, tmp=scratch)
        assert code == 2 and "\x1b" not in err and "\r" not in err and "\x07" not in err, err
        assert "\\x1b" in err


def test_bench_and_crosscheck_escape_what_they_quote(tmp_path, scratch):
    """bench's "N run(s) failed, first: ..." line printed an input's ESC and NUL bytes raw (issue 34)."""
    (tmp_path / "in").mkdir()
    evil = tmp_path / "in" / "evil.cnf"
    evil.write_text("p cnf 2 1\n1 \x1b[2J\x00 0\n")
    for args in (["bench", "--puzzle", "cnf", "--instances", str(tmp_path / "in"), "--out", str(tmp_path / "out")],
                 ["crosscheck", "cnf", str(evil)]):
        code, out, err, _ = run(*args, tmp=scratch)
        assert code != 0 and "\x1b" not in out + err and "\x00" not in out + err, (args[0], out, err)
        assert "\\x1b" in out + err, (args[0], out, err)


# --- inputs that used to end in an internal error (exit 3) -------------------------------------------

def test_inputs_that_were_internal_errors(tmp_path, run_cli):
    """Each of these ended in a traceback's last line with exit 3; now a one-line error with exit 2."""
    dice = str(INSTANCES / "aoc" / "2021-21" / "example.txt")
    huge = tmp_path / "huge.txt"
    huge.write_text("Player 1 starting position: 1" + "0" * 5000 + "\nPlayer 2 starting position: 3\n")
    eleven = tmp_path / "eleven.txt"
    eleven.write_text("#" * 27 + "\n#" + "." * 25 + "#\n###" + "#".join("ABCDEFGHIJK") + "###\n  #"
                      + "#".join("KJIHGFEDCBA") + "#\n  " + "#" * 23 + "\n")
    blank = tmp_path / "blank.txt"
    blank.write_text("\n\n".join(f"Tile {1000 + i}:\n" + "\n".join(["#" * 10] * 10) for i in range(16)) + "\n")
    model = tmp_path / "model.txt"
    model.write_text("s SATISFIABLE\nv " + "1" * 5000 + " 0\n")
    cases = {
        "a 5,000-digit number": ["solve", "dice", str(huge)],
        "a 5,000-digit literal": ["decode", "aquarium", SMALL, "--model", str(model)],
        "11 rooms": ["solve", "amphipod", str(eleven), "--no-unfold"],
        "--target 1000000": ["solve", "dice", dice, "--target", "1000000"],
        "--sides 1000": ["solve", "dice", dice, "--sides", "1000"],
        "generate jigsaw --size 100": ["generate", "jigsaw", "--size", "100"],
        "generate jigsaw --tile 100": ["generate", "jigsaw", "--size", "2", "--tile", "100"],
        "16 blank tiles": ["count", "jigsaw", str(blank)],
    }
    for name, args in cases.items():
        code, out, err = run_cli(*args)
        assert code == 2 and not out, f"{name}: {code} {err}"
        assert err.count("\n") == 1 and "internal error" not in err, f"{name}: {err}"


def test_crafted_maps_models_and_options_are_one_line(tmp_path, run_cli):
    """Second round (issue 34): each of these was an internal error (exit 3); the map's and the API's
    values are now checked against the option's type where they come in."""
    import json

    dice = str(INSTANCES / "aoc" / "2021-21" / "example.txt")
    assert run_cli("export", "aquarium", SMALL, "-o", str(tmp_path / "aq.cnf"))[0] == 0
    assert run_cli("export", "dice", dice, "--target", "6", "--sides", "2", "-o", str(tmp_path / "d.cnf"))[0] == 0
    model = tmp_path / "model.txt"
    model.write_text("s SATISFIABLE\nv 1 0\n")

    def crafted(base: str, change: dict, raw: str | None = None) -> str:
        payload = json.loads((tmp_path / f"{base}.vars.json").read_text())
        for key, value in change.items():
            (payload[key[0]] if isinstance(key, tuple) else payload)[key[-1] if isinstance(key, tuple) else key] = value
        path = tmp_path / "crafted.json"
        path.write_text(raw if raw is not None else json.dumps(payload))
        return str(path)

    maps = {
        "unknown cardinality": ("aq.cnf", {("options", "cardinality"): "foo"}, None, "--cardinality takes one of"),
        "reading 'path'": ("aq.cnf", {("reading", "path"): "/etc/passwd"}, None, "--path does not apply"),
        "reading 'text'": ("aq.cnf", {("reading", "text"): "x"}, None, "--text does not apply"),
        "target as a string": ("d.cnf", {("reading", "target"): "6"}, None, "--target takes int, not '6'"),
        "target as a float": ("d.cnf", {("reading", "target"): 6.5}, None, "--target takes int"),
        "target as a list": ("d.cnf", {("reading", "target"): [6]}, None, "--target takes int"),
        "options not an object": ("aq.cnf", {"options": [1]}, None, "'options' is not a JSON object"),
        "deep nesting": ("aq.cnf", {}, "[" * 100000 + "]" * 100000, "nested too deeply"),
        "a 5,000-digit number": ("aq.cnf", {}, '{"format": "puzzlesat variable map", "version": ' + "9" * 5000 + "}",
                                 "a number too long"),
    }
    for name, (base, change, raw, message) in maps.items():
        puzzle = "dice" if base.startswith("d") else "aquarium"
        instance = dice if puzzle == "dice" else SMALL
        code, out, err = run_cli("decode", puzzle, instance, "--model", str(model), "--map", crafted(base, change, raw))
        assert code == 2 and not out and message in err and err.count("\n") == 1, f"{name}: {code} {err}"
    cost = tmp_path / "cost.txt"
    cost.write_text("o " + "9" * 5000 + "\ns OPTIMUM FOUND\nv 1 0\n")
    smt = tmp_path / "smt.txt"
    smt.write_text("sat\n(model (define-fun level_1 () Int " + "9" * 5000 + "))\n")
    assert run_cli("export", "aquarium", SMALL, "--format", "smt2", "-o", str(tmp_path / "aq.smt2"))[0] == 0
    for name, args in {
        "a 5,000-digit cost line": ["decode", "aquarium", SMALL, "--model", str(cost)],
        "a 5,000-digit SMT Int": ["decode", "aquarium", SMALL, "--model", str(smt), "--map", str(tmp_path / "aq.smt2.vars.json")],
        "an unclosed quote": ["solve", "aquarium", SMALL, "--backend", 'external:"x'],
        "local:2000": ["count", "aquarium", SMALL, "--cubes", "2", "--executor", "local:2000"],
    }.items():
        code, out, err = run_cli(*args)
        assert code == 2 and not out and err.count("\n") == 1 and "internal error" not in err, f"{name}: {code} {err}"


def test_the_api_checks_option_values():
    import puzzlesat
    from puzzlesat.core.errors import PuzzlesatError

    instance = puzzlesat.read("aquarium", SMALL)
    with pytest.raises(PuzzlesatError, match="--cardinality takes one of"):
        puzzlesat.encode("aquarium", instance, cardinality="foo")
    with pytest.raises(PuzzlesatError, match="--target takes int"):
        puzzlesat.read("dice", str(INSTANCES / "aoc" / "2021-21" / "example.txt"), target="6")


def test_a_solver_that_prints_bytes_that_are_not_utf8(tmp_path, run_cli):
    solver = tmp_path / "liar.sh"
    solver.write_text("#!/bin/sh\nprintf 's SATISFIABLE\\nv 1 \\377 0\\n'\nexit 10\n")
    solver.chmod(0o755)
    formula = tmp_path / "f.cnf"
    formula.write_text("p cnf 2 1\n1 2 0\n")
    code, out, err = run_cli("solve", "cnf", str(formula), "--backend", f"external:{solver}")
    assert code == 2 and "'\\xff' is not a literal" in err and err.count("\n") == 1, err


def test_an_outside_solver_writes_nowhere_another_user_can_predict(tmp_path, monkeypatch):
    """Through the API (no supervisor) the formula for external:minisat was /tmp/puzzlesat-XXXX.cnf and
    its result PATH.out, a name anyone could derive once the .cnf existed: a symlink planted there made
    the solve write through it (issue 34). The files now live in a private directory (mode 0700)."""
    import glob
    import tempfile
    import threading

    import puzzlesat

    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    solver = tmp_path / "bin" / "minisat"  # a MiniSat stand-in: writes its result to its second argument
    solver.parent.mkdir()
    solver.write_text("#!/bin/sh\nstat -c %a \"$(dirname \"$1\")\" > " + str(tmp_path / "mode") +
                      "\nsleep 0.5\nprintf 'SAT\\n1 2 0\\n' > \"$2\"\nexit 10\n")
    solver.chmod(0o755)
    planted: list[str] = []
    stop = threading.Event()

    def attacker() -> None:  # another user, watching the shared directory for the old names
        while not stop.is_set():
            for formula in glob.glob(str(shared / "puzzlesat-*.cnf")):
                if not os.path.lexists(formula + ".out"):
                    os.symlink(victim, formula + ".out")
                    planted.append(formula)
            time.sleep(0.005)

    watcher = threading.Thread(target=attacker)
    watcher.start()
    try:
        instance = puzzlesat.read("cnf", str(_write(tmp_path / "f.cnf", "p cnf 2 1\n1 2 0\n")))
        report = puzzlesat.solve("cnf", instance, backend=f"external:{solver}")
    finally:
        stop.set()
        watcher.join()
    assert str(report.status) == "SAT" and report.checked
    assert victim.read_text() == "precious\n" and not planted
    assert (tmp_path / "mode").read_text().strip() == "700"
    assert not list(shared.iterdir())  # the private directory is gone with everything in it


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_z3_reads_an_empty_clause_as_false():
    from puzzlesat.backends import get_backend
    from puzzlesat.core.encoding import Encoding
    from puzzlesat.core.result import Status

    with get_backend("z3").open(Encoding("cnf", clauses=[[1, 2], []])) as session:
        assert session.solve().status == Status.UNSAT
    with get_backend("z3").open(Encoding("cnf", clauses=[[1, 2]])) as session:
        session.add_clause([])
        assert session.solve().status == Status.UNSAT


def test_a_deep_dice_game_within_the_limits_does_not_overflow_the_stack(run_cli):
    """A track of 1 and a die of 1 take 300 turns a player: no recursion limit is hit."""
    from puzzlesat.encoders import get_puzzle
    from puzzlesat.encoders.dice.instance import Game
    from puzzlesat.encoders.dice.rules import max_turns

    assert max_turns(Game(track=1, sides=1, rolls=1, target=300)) == 300
    dice = get_puzzle("dice")
    instance = dice.parse("Player 1 starting position: 1\nPlayer 2 starting position: 1\n", "deep",
                          track=1, sides=1, rolls=1, target=300)
    assert dice.reference(instance, 1)[0].answers()["wins"] == [1, 0]


def test_a_bug_is_exit_code_3_in_one_line(run_cli, monkeypatch):
    """No user input reaches this (that is the point of the tests above); a bug does."""
    def broken(*args: object) -> str:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("puzzlesat.pipeline.steps.instance_text", broken)
    code, _, err = run_cli("solve", "aquarium", SMALL)
    assert code == 3 and err == "puzzlesat: error: internal error: ZeroDivisionError: a bug (set PUZZLESAT_DEBUG=1 for details)\n"


@needs_cadical
def test_sighup_is_exit_code_129(tmp_path, scratch):
    args, processes = COMMANDS["count"]
    proc = subprocess.Popen([EXE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(scratch)))
    end = time.monotonic() + 30
    while len(descendants(proc.pid)) < processes and time.monotonic() < end:
        time.sleep(0.05)
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(30) == 129 and proc.stderr is not None and "hung up (SIGHUP)" in proc.stderr.read()
    assert not list(scratch.iterdir())


def _times_out() -> int:
    from puzzlesat.core.errors import SolverTimeout

    raise SolverTimeout("pysat:glucose4", 0.43)


def test_a_timeout_inside_a_forked_call_stays_a_timeout():
    """A forked call's own deadline (the command's, inherited) can fire before the parent's: its
    SolverTimeout came back as a plain error, so `count jig ... --timeout 1` now and then exited 2
    ('no answer within 0.43 s') instead of 4."""
    from puzzlesat.backends.forking import run_forked
    from puzzlesat.core.errors import SolverTimeout

    with pytest.raises(SolverTimeout, match="0.43 s"):
        run_forked([_times_out], Deadline.after(10), "pysat:glucose4")


def stderr_on_a_terminal(args: list[str], scratch: Path) -> tuple[int, str]:
    """Run ``puzzlesat ARGS`` with its stderr on a pseudo-terminal: (exit code, all it wrote there)."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([EXE, *args], stdout=subprocess.PIPE, stderr=slave, env=dict(os.environ, TMPDIR=str(scratch)))
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        seen += chunk
    code = proc.wait(30)
    os.close(master)
    return code, seen.decode()


def test_long_work_shows_a_status_line_on_a_terminal_only(tmp_path, scratch):
    """`count --cubes 4` on zhurgut_9x9 ran 61 s without a line (issue 35): on a terminal, the phase and
    the time, rewritten in place and wiped before any other output; nothing in a pipe or with --json."""
    code, text = stderr_on_a_terminal(["count", "jig", JIG_10, "--timeout", "3.5"], scratch)
    # the search's parts done join the line once it reports one (on a slow or loaded machine, by then)
    assert code == 4 and re.search(r"\rcount: \w+ phase(, [^\r]*)?, 2 s \(Ctrl-C stops\)", text), text
    assert text.endswith("\r\x1b[Kpuzzlesat: error: " + text.rsplit("puzzlesat: error: ", 1)[1]), text
    code, _, err, _ = run("count", "jig", JIG_10, "--timeout", "3.5", tmp=scratch)
    assert code == 4 and "phase," not in err and "\r" not in err


def test_the_status_line_counts_what_is_found(tmp_path, scratch):
    """A count by enumeration says how many solutions each of its side-by-side searches has found
    (issue 35): a 5x5 jig of one tab type has far too many to count in 3.5 s."""
    from puzzlesat.encoders.jig.generate import generate

    (tmp_path / "one-type.jig").write_text(generate(5, 5, 1, 1))
    code, seen = stderr_on_a_terminal(["count", "jig", str(tmp_path / "one-type.jig"), "--timeout", "3.5"], scratch)
    line = seen.split("\r")[1]
    assert code == 4 and re.match(r"count: solve phase, [\d,]+ solutions so far, [\d,]+ up_to_rotation so far, "
                                             r"2 s \(Ctrl-C stops\)", line), seen


def _sleeps_then(seconds: float, answer: object) -> object:
    time.sleep(seconds)
    if isinstance(answer, Exception):
        raise answer
    return answer


def test_a_race_ends_with_its_first_finisher(capfd):
    """`first_forked` (count's race): the first child to answer answers and the others are killed at
    once; one that fails or dies leaves the race to the others, said on stderr with its own name (issue
    44: a dead Ganak ended the race, blamed on cadical); when all fail, the first failure is raised,
    named after its method; past the limit, a timeout."""
    import os
    import signal
    from functools import partial

    from puzzlesat.backends.forking import first_forked
    from puzzlesat.core.errors import PuzzlesatError, SolverTimeout

    start = time.perf_counter()
    assert first_forked([partial(_sleeps_then, 30, "slow"), partial(_sleeps_then, 0.1, "quick")], Deadline.after(60),
                        "x") == (1, "quick", True)
    assert time.perf_counter() - start < 20  # not the slow one's 30 s
    assert first_forked([partial(_sleeps_then, 0.1, RuntimeError("crashed")), partial(_sleeps_then, 0.5, "late")],
                        Deadline.after(60), "cadical", names=["ganak", "enumeration"]) == (1, "late", True)
    assert "ganak: solver failed: RuntimeError: crashed; the race goes on without it" in capfd.readouterr().err
    assert first_forked([lambda: os.kill(os.getpid(), signal.SIGKILL), partial(_sleeps_then, 0.5, "late")],
                        Deadline.after(60), "cadical", names=["ganak", "enumeration"]) == (1, "late", True)
    assert "ganak: " in capfd.readouterr().err
    with pytest.raises(PuzzlesatError, match="^first: .*wrong"):
        first_forked([partial(_sleeps_then, 0.1, RuntimeError("wrong")), partial(_sleeps_then, 0.2, RuntimeError("too"))],
                     Deadline.after(60), "x", names=["first", "second"])
    with pytest.raises(SolverTimeout):
        first_forked([partial(_sleeps_then, 30, "late")], Deadline.after(0.3), "x")
    assert time.perf_counter() - start < 25  # no wait for a 30-s sleeper
