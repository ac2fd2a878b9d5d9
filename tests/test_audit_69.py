"""The fourth hostile-input audit's cases (issue 69): files read as the solvers read them, exports that
say the same thing as what was read, outside tools named for what they did, and messages that are true.
Each test failed on the code before the fix."""
from __future__ import annotations

import json
import signal
import subprocess

import pytest

from puzzlesat.core.text import lines_of
from puzzlesat.formats.answers import read_answer
from puzzlesat.formats.dimacs import parse_dimacs
from puzzlesat.proofs.reading import read_proof

#: every character that str.splitlines() ends a line at but a solver does not
NOT_LINE_ENDS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("odd", NOT_LINE_ENDS, ids=ascii)
def test_a_comment_is_not_split_at_a_character_solvers_do_not_end_lines_at(run_cli, tmp_path, odd):
    """'c page break\\f-1 0' was split at the form feed and '-1 0' read as a clause: UNSAT, certified,
    counted 0, where minisat, picosat and cadical say SAT."""
    path = tmp_path / "f.cnf"
    path.write_text(f"p cnf 2 1\nc page break{odd}-1 0\n1 0\n", encoding="utf-8")
    assert parse_dimacs(path.read_text(encoding="utf-8"), "f.cnf").clauses == ((1,),)
    code, out, _ = run_cli("solve", "cnf", str(path), "--competition")
    assert code == 10 and out.startswith("s SATISFIABLE\n"), out
    code, out, _ = run_cli("count", "cnf", str(path), "-q", "--backend", "glucose4")
    assert out == "solutions: 2\n"


@pytest.mark.parametrize("odd", NOT_LINE_ENDS, ids=ascii)
def test_every_reader_ends_lines_at_newline_only(odd):
    """Solver outputs, proofs and puzzle texts share the rule (each used str.splitlines())."""
    assert lines_of(f"a{odd}b\r\nc\n") == [f"a{odd}b", "c"]
    answer = read_answer(f"c solver said{odd}s UNSATISFIABLE\ns SATISFIABLE\nv 1 0\n", "out")
    assert answer.status.value == "SAT" and answer.literals == [1]
    assert [step.literals for step in read_proof(f"c note{odd}1 0\n-1 2 0\n")] == [(-1, 2)]


def test_a_wcnf_comment_is_not_split_either(run_cli, tmp_path):
    path = tmp_path / "f.wcnf"
    path.write_text("c note\x0c3 -1 0\nh 1 2 0\n5 -2 0\n")
    code, out, _ = run_cli("solve", "wcnf", str(path), "--competition")
    assert "o 0\n" in out, out  # the hidden soft clause 3 -1 would have cost 3 or 5


@pytest.mark.parametrize("text, clauses", [
    ("p cnf 2 2\n1 c a comment\n2 0\n-1 0\n", ((1, 2), (-1,))),  # kissat and CaDiCaL read this
    ("p cnf 2 1\n1 0comment\n", ((1,),)),  # kissat and MiniSat
    ("p cnf 2 1\n1 0comment", ((1,),)),  # the same at the end of the file
    ("p cnf 2 1\n1 2c a note\n0\n", ((1, 2),)),  # CaDiCaL
])
def test_a_comment_after_literals_is_read_as_the_solvers_read_it(run_cli, tmp_path, text, clauses):
    """Refused before ("'c' is not an integer"); the reference's own reader agrees."""
    from puzzlesat.encoders.cnf import reference

    assert parse_dimacs(text, "f.cnf").clauses == clauses
    assert tuple(map(tuple, reference.read(text).hard)) == clauses
    path = tmp_path / "f.cnf"
    path.write_text(text)
    code, out, _ = run_cli("crosscheck", "cnf", str(path), "--backends", "glucose4,minisat22", "--json")
    assert code == 0 and json.loads(out)["agree"], out


@pytest.mark.parametrize("text", ["p cnf 2 1\n1 -c 0\n", "p cnf 2 1\n1 2x 0\n", "p cnf 2 1\n1\x1c2 0\n"])
def test_what_every_solver_refuses_is_refused_in_one_line(run_cli, tmp_path, text):
    path = tmp_path / "f.cnf"
    path.write_text(text)
    code, _, err = run_cli("solve", "cnf", str(path))
    assert code == 2 and err.count("\n") == 1 and "f.cnf:2:" in err, err


def test_a_model_names_every_declared_variable(run_cli, tmp_path):
    """kissat's ite8-like files: 'p cnf 5 1' with '1 0' printed 'v 1 0'; cadical and kissat print every
    declared variable (the unused ones false), as docs/formulas.md says puzzlesat does."""
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 5 1\n1 0\n")
    code, out, _ = run_cli("solve", "cnf", str(path), "--competition")
    assert out == "s SATISFIABLE\nv 1 -2 -3 -4 -5 0\n"
    code, out, _ = run_cli("solve", "cnf", str(path), "--json")
    assert json.loads(out)["solution"]["model"] == [1, -2, -3, -4, -5]
    wcnf = tmp_path / "f.wcnf"
    wcnf.write_text("p wcnf 4 2 10\n10 1 0\n3 -2 0\n")
    code, out, _ = run_cli("solve", "wcnf", str(wcnf), "--competition", "--literal-model")
    assert out.endswith("v 1 -2 -3 -4 0\n"), out


def test_a_huge_header_names_its_used_variables_and_says_so(run_cli, tmp_path):
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 2000000 1\n1 0\n")
    code, out, err = run_cli("solve", "cnf", str(path), "--competition")
    assert code == 10 and out.endswith("v 1 0\n") and "c warning: the header declares 2,000,000 variables" in out


def test_count_labels_say_what_was_computed(run_cli, tmp_path):
    """Every exact count was 'an exact projected model count', also with no projection; ganak on a plain
    file said 'probabilistically exact projected'."""
    plain, projected = tmp_path / "plain.cnf", tmp_path / "projected.cnf"
    plain.write_text("p cnf 3 1\n1 2 0\n")
    projected.write_text("p cnf 3 1\nc p show 1 0\n1 2 0\n")
    code, out, _ = run_cli("count", "cnf", str(plain), "--backend", "d4")
    assert out.startswith("solutions: 6 (exact model count)\n")
    code, out, _ = run_cli("count", "cnf", str(plain), "--backend", "ganak")
    assert out.startswith("solutions: 6 (probabilistically exact model count: ")
    code, out, _ = run_cli("count", "cnf", str(projected), "--backend", "ganak")
    assert out.startswith("solutions: 2 (probabilistically exact projected model count: ")


@pytest.mark.parametrize("text, count", [
    ("p cnf 4 1\n1 -3 1 -3 0\n", 12),  # a repeated literal crashed d4 (SIGSEGV)
    ("p cnf 4 0\n", 16),  # no clause, no used variable: SIGFPE
    ("p cnf 0 0\n", 1),
])
def test_d4_gets_formulas_in_the_shape_it_takes(run_cli, tmp_path, text, count):
    path = tmp_path / "f.cnf"
    path.write_text(text)
    code, out, err = run_cli("count", "cnf", str(path), "--backend", "d4")
    assert code == 0 and out.startswith(f"solutions: {count} (exact model count)\n"), err


@pytest.mark.parametrize("died, said", [
    (-signal.SIGFPE, "crashed (SIGFPE"),
    (-signal.SIGSEGV, "crashed (SIGSEGV"),
    (-signal.SIGKILL, "killed by SIGKILL"),
])
def test_a_crash_far_from_the_memory_limit_is_a_crash(monkeypatch, died, said):
    """'its process died (exit code -8)'; a SIGSEGV under a cap and an outside kill -9 said 'out of
    memory?' whatever the memory used."""
    from puzzlesat.processes import runner

    monkeypatch.setattr(runner, "near_memory_limit", lambda: False)
    assert not runner.died_of_memory(died) and runner.death_message(died).startswith(said)
    monkeypatch.setattr(runner, "near_memory_limit", lambda: True)
    assert runner.died_of_memory(died) == (died != -signal.SIGFPE)


# --- what is written is what was read -------------------------------------------------------------

def test_a_url_is_not_written_for_a_region_in_separate_pieces(run_cli, tmp_path):
    """'1_0_1_0;1,2,3,1' (region 1 in two diagonal pieces: no solution) was written as a URL of another
    puzzle, one with a solution, exit 0."""
    path = tmp_path / "two.txt"
    path.write_text("1_0_1_0;1,2,3,1\n")
    code, _, err = run_cli("export", "aquarium", str(path), "--format", "url", "-o", str(tmp_path / "out.url"))
    assert code == 2 and "region 1 is in 2 separate pieces" in err and err.count("\n") == 1
    assert not (tmp_path / "out.url").exists()


def test_seeded_task_strings_and_their_urls_are_the_same_puzzle(run_cli, tmp_path):
    """Random 3x3 task strings (regions drawn at random, so often in pieces): a URL is written only
    where it reads back as the same regions and clues, and refused otherwise."""
    import random

    from puzzlesat.encoders.aquarium.instance import parse
    from puzzlesat.encoders.aquarium.url import parse_url, to_url

    rng = random.Random(69)
    written = refused = 0
    for _ in range(200):
        regions = [rng.randint(1, 3) for _ in range(9)]
        water = [[rng.random() < 0.5 for _ in range(3)] for _ in range(3)]
        counts = [sum(row[c] for row in water) for c in range(3)] + [sum(row) for row in water]
        text = "_".join(map(str, counts)) + ";" + ",".join(map(str, regions))
        instance = parse(text, "t")
        try:
            url = to_url(instance)
        except Exception as exc:  # noqa: BLE001 (the one refusal expected)
            assert "separate pieces" in str(exc)
            refused += 1
            continue
        back = parse_url(url, "u")
        same = {(a, b) for ra, rb in zip(instance.regions, back.regions) for a, b in zip(ra, rb)}
        assert len(same) == len({a for a, _ in same}) == len({b for _, b in same}), text  # one-to-one
        assert (back.cols, back.rows) == (instance.cols, instance.rows)
        written += 1
    assert written and refused


def test_a_url_argument_is_the_url_even_where_such_a_path_exists(run_cli, tmp_path, monkeypatch):
    url = "https://puzz.link/p?aquarium/r/2/2/00/1102"
    monkeypatch.chdir(tmp_path)
    same_path = tmp_path / url.replace("https://", "https:/")
    same_path.parent.mkdir(parents=True)
    same_path.write_text("1_0_1_0;1,2,3,1\n")
    code, out, _ = run_cli("solve", "aquarium", url, "--json")
    report = json.loads(out)
    assert report["source"] == url and report["status"] == "SAT", out


def test_the_old_wcnf_format_refuses_a_top_past_its_readers(run_cli, tmp_path):
    """Weights summing past 2^63 - 1 gave a TOP of 2^64 - 1 that our own reader refuses."""
    path = tmp_path / "heavy.wcnf"
    path.write_text("h 1 2 0\n9223372036854775807 -1 0\n5 -2 0\n")
    code, _, err = run_cli("export", "wcnf", str(path), "--format", "wcnf-old", "-o", str(tmp_path / "h.wcnf"))
    assert code == 2 and "past 2^63 - 1" in err and not (tmp_path / "h.wcnf").exists()
    code, _, err = run_cli("export", "wcnf", str(path), "--format", "wcnf", "-o", str(tmp_path / "h.wcnf"))
    assert code == 0
    assert parse_dimacs((tmp_path / "h.wcnf").read_text(), "h", weighted=True).soft[0][1] == (1 << 63) - 1


# --- messages ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, said", [
    (["aquarium", "--size", "5000"], "5000 is not in the range 2<=x<=200"),
    (["aquarium"], "Missing option '--size'"),  # was an internal error, exit 3
    (["jig", "--rows", "2"], "Missing option '--cols'"),
    (["amphipod", "--depth", "51"], "51 is not in the range 1<=x<=50"),
    (["dice", "--track", "101"], "101 is not in the range 1<=x<=100"),
])
def test_generate_refuses_sizes_its_readers_refuse_before_any_work(run_cli, args, said):
    code, out, err = run_cli("generate", *args)
    assert code == 2 and said in err and err.count("\n") == 1 and not out


def test_a_deeper_burrow_than_the_reader_takes_is_refused_in_one_line(run_cli, tmp_path):
    path = tmp_path / "deep.txt"
    path.write_text("#############\n#...........#\n" + "###A#B#C#D###\n" * 51 + "  #########\n")
    code, _, err = run_cli("solve", "amphipod", str(path))
    assert code == 2 and "rooms 51 deep: this toolkit's limit is 50" in err


@pytest.mark.parametrize("argument, said", [
    ("https://puzz.link/p?aquarium/10000/2/0/00", "COLS 10000 is over this toolkit's limit of 200"),
])
def test_a_url_too_large_says_so(run_cli, argument, said):
    code, _, err = run_cli("solve", "aquarium", argument)
    assert code == 2 and said in err


def test_a_weight_of_many_digits_is_named_whole(run_cli, tmp_path):
    """A 31-digit weight was quoted cut to 20 digits and called 'not a positive integer'."""
    path = tmp_path / "w.wcnf"
    path.write_text("h 1 0\n1234567890123456789012345678901 -1 0\n")
    code, _, err = run_cli("solve", "wcnf", str(path))
    assert code == 2 and "w.wcnf:2:1: a weight of 31 digits: weights go from 1 to 2^63 - 1" in err


def test_stdin_named_twice_is_refused(run_cli):
    """'decode aquarium - --model -' read stdin as the puzzle and blamed the empty model: '-: no status line'."""
    code, _, err = run_cli("decode", "aquarium", "-", "--model", "-", input="1_1;1,1\n")
    assert code == 2 and "stdin (-) is given for both FILE and --model" in err


def test_an_output_companion_that_cannot_be_written_is_named(run_cli, tmp_path):
    """'export -o X' where X.vars.json is a directory blamed X."""
    (tmp_path / "X.vars.json").mkdir()
    code, _, err = run_cli("export", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "-o",
                           str(tmp_path / "X"))
    assert code == 2 and "X.vars.json: cannot write" in err and not (tmp_path / "X").exists()


def test_the_api_names_an_instance_of_another_puzzle():
    """puzzlesat.explain('jig', <an aquarium instance>) raised AttributeError."""
    import puzzlesat

    grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    for call in (puzzlesat.explain, puzzlesat.solve, puzzlesat.count, puzzlesat.check):
        args = ("jig", grid) + ((None,) if call is puzzlesat.check else ())
        with pytest.raises(puzzlesat.PuzzlesatError, match="instance: expected JigInstance, the jig instance"):
            call(*args)


def test_an_executor_pointed_at_a_port_that_is_not_dask_is_refused(run_cli):
    """Dask's dashboard (HTTP) port: the client read the answer as a frame of 10^18 bytes and waited for
    ever (killed at 61 s)."""
    import http.server
    import threading

    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        code, _, err = run_cli("count", "jig", "instances/jig/matt5x5.jig", "--executor",
                               f"dask://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
    assert code == 2 and "something listens there, but not a Dask scheduler" in err


def test_the_slowest_cubes_of_a_stopped_count_are_cubes_that_finished():
    """A stopped --cubes count listed its unfinished cubes, at 0.0 s, among the 'slowest'."""
    from puzzlesat.pipeline.cubes import CubeCount

    counted = CubeCount(5, [(1,), (-1, 2), (-1, -2)], 0, [0.4, 0.0, 0.0], [5, None, None])
    assert counted.slowest() == [(0.4, (1,))]


def test_bench_wipes_its_finished_progress_bar(tmp_path):
    """The finished bar ('bench  [####] 12/12') was left on the terminal above the table."""
    from tests.test_limits import stderr_on_a_terminal

    code, seen = stderr_on_a_terminal(["bench", "--puzzle", "amphipod", "--backends", "glucose4", "--repeat", "1",
                                       "--out", str(tmp_path / "out")], tmp_path)
    assert code == 0 and "bench" in seen, seen
    assert seen.endswith("\x1b[1A\r\x1b[2K"), repr(seen[-80:])


@pytest.mark.parametrize("text", [
    "p cnf 2 2\nc page\x0c-1 0\n1 0\n",  # a form feed inside a comment
    "p cnf 2 2\n1 c a comment\n2 0\n-1 0\n",
    "p cnf 2 1\n1 0comment\n",
    "p cnf 2 2\n1 2c a note\n0\n-1 c\n0\n",
    "p cnf 2 2\nc \u2028 -2 0\n2 0\n-1 0\n",
])
def test_cadical_and_minisat_answer_as_puzzlesat_reads(tmp_path, text):
    """The outside solvers on the very file: where each reads it, its answer is the one of the clauses
    puzzlesat reads (MiniSat refuses '1 c note', and CaDiCaL a comment cut by the end of the file)."""
    from tests.test_round_trip import tool

    path = tmp_path / "f.cnf"
    path.write_text(text, encoding="utf-8")
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=parse_dimacs(text, "f.cnf").clauses) as ours:
        sat = ours.solve()
    answered = 0
    for name in ("cadical", "minisat"):
        ran = subprocess.run([tool(name), str(path)], capture_output=True, text=True, timeout=60)
        if ran.returncode not in (10, 20):  # this solver refuses the dialect (MiniSat: '1 c note')
            continue
        assert (ran.returncode == 10) == sat, (name, ran.stdout)
        answered += 1
    assert answered
