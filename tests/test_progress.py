"""Progress in the work's own units (issue 46, item 2): what the status line says while a command works,
on a terminal only. The texts are asked of the work in-process (where they are made), and the line is
looked at on a real terminal (a pseudo-terminal as stderr) for the commands that draw it.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from pysat.examples.genhard import PHP
from pysat.solvers import Solver

import puzzlesat
from puzzlesat.core import reporting
from puzzlesat.proofs import checker
from puzzlesat.proofs.reading import read_proof

from .conftest import INSTANCES

EXE = str(Path(sys.executable).parent / "puzzlesat")


def test_pace_says_how_far_at_what_rate_and_how_long_is_left():
    started = time.monotonic() - 10.0
    assert reporting.pace(0, 208, "cubes counted", started) == "0 of 208 cubes counted"
    said = reporting.pace(52, 208, "cubes counted", started)
    assert re.fullmatch(r"52 of 208 cubes counted, 5\.\d a second, about 3\d s left", said), said
    assert reporting.pace(208, 208, "cubes counted", started).endswith("a second")  # nothing left to estimate
    assert "about 2 min left" in reporting.pace(1, 13, "parts done", started)
    assert "about 2.8 h left" in reporting.pace(1, 1001, "parts done", started)


def test_an_explanation_says_its_steps_and_the_cells_known(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr("puzzlesat.deduction.search.report_progress", said.append)
    grid = puzzlesat.read("aquarium", str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"))
    explained = puzzlesat.explain("aquarium", grid)
    steps = len(explained.explanation.steps)
    last = re.fullmatch(rf"{steps} steps found, (\d+) of (\d+) cells known", said[-1])
    found = [text for text in said if "; next step: " not in text]  # said as each step is found
    assert last and last[1] == last[2] and len(found) == steps, said
    known = [int(re.search(r", (\d+) of", text)[1]) for text in found]  # type: ignore[index]
    assert known == sorted(known) and len(set(known)) == steps  # each step knows more


def test_an_explanation_says_how_far_the_search_for_a_wide_step_has_come(monkeypatch):
    """A step of many facts can take a minute to find: until then the status line, and the message of a
    command stopped by its limit, say how many cells have been asked and how many cores found."""
    said: list[str] = []
    monkeypatch.setattr("puzzlesat.deduction.search.report_progress", said.append)
    grid = puzzlesat.read("aquarium", str(INSTANCES / "aquarium" / "ext-grilops-6x6.txt"))
    explained = puzzlesat.explain("aquarium", grid)
    widest = explained.explanation.difficulty["widest"]
    assert widest > 2, "the puzzle needs a core: a step of more facts than a pair"
    searching = [text for text in said if "; next step: " in text]
    assert any(re.fullmatch(r"\d+ steps? found, \d+ of \d+ cells known; next step: [1-9][\d,]* cells asked, "
                            r"\d cores? found", text) for text in searching), said
    assert any(text.endswith(f"next step: the cells {widest} facts force") for text in searching), said
    assert all(len(text.encode()) <= 96 for text in said)  # what one slot of the status line holds


def test_a_proof_check_says_how_far_it_has_walked_back(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(checker, "report_progress", said.append)
    monkeypatch.setattr(checker, "PROGRESS_EVERY", 16)
    with Solver(name="cadical195", bootstrap_with=PHP(6).clauses, with_proof=True) as solver:
        assert not solver.solve()
        proof = read_proof(solver.get_proof())
    checker.check_proof(PHP(6).clauses, proof, core="python")
    assert said and all(re.fullmatch(r"proof check: [\d,]+ of [\d,]+ steps walked back, [\d,]+ lemmas checked, "
                                     r"about \d+ s left", text) for text in said), said[:3]


def on_a_terminal(*args: str) -> tuple[int, str, str]:
    """Run ``puzzlesat ARGS`` with stderr a terminal (stdout a pipe): exit code, stdout, what the
    terminal showed."""
    main, secondary = os.openpty()
    proc = subprocess.run([EXE, *args], stdout=subprocess.PIPE, stderr=secondary, timeout=120)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other end is closed: all read
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return proc.returncode, proc.stdout.decode(), shown.decode(errors="replace")


def test_cube_and_conquer_shows_cubes_done_with_a_rate_and_the_time_left():
    code, _, shown = on_a_terminal("count", "jig", str(INSTANCES / "jig" / "zhurgut_9x9.jig"), "--cubes", "8",
                                   "--executor", "local:2", "--timeout", "6")
    assert code == 4
    assert re.search(r"\rcount: solve phase, [\d,]+ of [\d,]+ cubes counted, [\d.]+ a second, about [\d.]+ (s|min|h) "
                     r"left, .*\d+ s \(Ctrl-C stops\)", shown), shown[-600:]


def test_a_cross_check_shows_the_rows_done_and_the_method_awaited(tmp_path):
    """The awaited method runs into its time limit (pigeonhole 10 into 9 is beyond any solver in 4 s), so
    the line is drawn however fast the machine: a method that answers before the line's first second is
    never awaited on screen (a dice cross-check did, on CI's faster machine)."""
    hard = tmp_path / "php10.cnf"
    PHP(10).to_file(str(hard))
    code, out, shown = on_a_terminal("crosscheck", "cnf", str(hard), "--backends", "z3", "--timeout", "4")
    assert re.search(r"^reference +SKIPPED", out, re.M), out  # its row, printed between the lines
    assert re.search(r"\rcrosscheck: cross-check phase, 1 of 2 methods done, waiting for z3 \[cnf\]", shown), \
        shown[-600:]
    assert shown.endswith("\r\x1b[K")  # wiped at the end: nothing left on the terminal's line


def test_no_status_line_in_a_pipe_or_with_json(tmp_path):
    many = tmp_path / "many.cnf"
    many.write_text("p cnf 40 20\n" + "".join(f"{v} {v + 1} 0\n" for v in range(1, 40, 2)))
    piped = subprocess.run([EXE, "count", "cnf", str(many), "--backend", "glucose", "--timeout", "3"],
                           capture_output=True, text=True, timeout=60)
    assert "Ctrl-C stops" not in piped.stderr + piped.stdout
    _, _, shown = on_a_terminal("count", "cnf", str(many), "--backend", "glucose", "--timeout", "3", "--json")
    assert "Ctrl-C stops" not in shown


def test_progress_json_is_written_for_a_program_whatever_stderr_is(tmp_path):
    """``--progress-json`` (what ``puzzlesat serve`` follows): JSON lines on stderr, in a pipe too, each
    saying the phase and how far it has come; the command's output is unchanged, and its one error line
    (here: the time limit's) is not one of them."""
    formula = tmp_path / "long.cnf"
    formula.write_text("p cnf 40 20\n" + "".join(f"{v} {v + 1} 0\n" for v in range(1, 41, 2)))
    done = subprocess.run([EXE, "count", "cnf", str(formula), "--backend", "cadical", "--json", "--progress-json",
                           "--timeout", "2"], capture_output=True, text=True, timeout=60)
    lines = done.stderr.splitlines()
    progress = [json.loads(line)["progress"] for line in lines if line.startswith('{"progress": ')]
    assert progress and all(set(p) == {"command", "phase", "done", "seconds"} for p in progress)
    assert any(p["phase"] == "solve" and p["done"].endswith("solutions so far") for p in progress)
    assert lines[-1].startswith("puzzlesat: error: time limit")
    assert done.returncode == 4 and json.loads(done.stdout)["complete"] is False
