"""Dirac dice: AoC answers, the counting oracles agree with the DP on small games, counting is generic,
exports, and one-line errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlesat.backends import get_backend
from puzzlesat.core.errors import BackendError, PuzzleFormatError, PuzzlesatError
from puzzlesat.core.timing import UNLIMITED, Stopwatch
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.dice import PUZZLE
from puzzlesat.encoders.dice.instance import DiceInstance, Game, parse
from puzzlesat.encoders.dice.reference import dirac_wins
from puzzlesat.encoders.dice.split import encode_track, wins_from_tracks
from puzzlesat.encoders.dice.task import count_universes
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions, load
from puzzlesat.pipeline.tasks import solve

from .conftest import INSTANCES, aoc_inputs

AOC = INSTANCES / "aoc" / "2021-21"


def expected(name: str) -> tuple[int, int]:
    part1, part2 = map(int, Path(f"{name}.answers").read_text().split())
    return part1, part2


@pytest.mark.parametrize("name", aoc_inputs("2021-21"))
def test_part1_by_z3_and_part2_of_the_reference(name):
    """Part 1 through the solver on every input; part 2 of the reference DP against the answer (the
    solver paths for target 21 are tested on the example below, they take a minute)."""
    instance = load(PUZZLE, f"{name}.txt", target=3)  # a tiny Dirac game keeps this fast
    report = solve(request(PUZZLE, "ganak"), instance)
    assert report.checked and report.answers["part1"] == expected(name)[0]
    full = load(PUZZLE, f"{name}.txt")
    assert max(dirac_wins(full)) == expected(name)[1]


@pytest.mark.parametrize("name,kind", [pytest.param(str(AOC / "example"), "count", id="example-count")]
                         + [pytest.param(*given.values, "split", id=f"{given.id}-split", marks=given.marks)
                            for given in aoc_inputs("2021-21")])
def test_part2_for_target_21_by_d4_counting(run_cli, name, kind):
    """The real game, both players, counted exactly by D4 (seconds, not minutes): split by game length
    (the default) and as the whole-game formula."""
    code, out, _ = run_cli("solve", "dice", f"{name}.txt", "--backend", "d4", "--encoding", kind, "--json")
    assert code == 0
    report = json.loads(out)
    assert report["encoding"] == kind
    answers = report["answers"]
    assert (answers["part1"], answers["part2"]) == expected(name)
    assert sum(answers["wins"]) == sum(dirac_wins(load(PUZZLE, f"{name}.txt")))


@pytest.mark.parametrize("counter", ["d4", "frontier"])
def test_counters_without_projection_refuse_free_auxiliary_variables(counter):
    jig = get_puzzle("jig")
    matt = load(jig, str(INSTANCES / "jig" / "matt5x5.jig"))
    with pytest.raises(BackendError, match=f"{counter} counts all models.*count it with ganak"):
        count_solutions(request(jig, counter), matt)


@pytest.mark.parametrize("target", [21, 50])
def test_frontier_counts_the_split_along_the_turns_at_scale(target):
    """The default counter: both tracks swept in turn order, every query from one sweep, against the DP
    (D4 needs 5 s at target 30 and has no answer at 50; the sweep takes 0.4 s a player at 50)."""
    instance = DiceInstance((4, 8), Game(target=target), "scale")
    request_ = request(PUZZLE, encoding="split")
    assert request_.backend.name == "frontier"
    assert count_universes(request_, instance, Stopwatch())[1] == dirac_wins(instance)


def test_example_part2_by_z3_recurrence(run_cli):
    code, out, _ = run_cli("solve", "dice", str(AOC / "example.txt"), "--backend", "z3", "--json")
    assert code == 0
    answers = json.loads(out)["answers"]
    assert (answers["part1"], answers["part2"]) == expected(str(AOC / "example"))
    assert answers["wins"] == [444356092776315, 341960390180808]


@pytest.mark.parametrize("block_states", [1, 300, 10**6])
def test_the_recurrence_gives_the_same_counts_in_any_blocks(monkeypatch, block_states):
    """Blocks of one total score each (Z3 only evaluates), of a few, and the whole system at once."""
    from puzzlesat.encoders.dice import smt
    monkeypatch.setattr(smt, "BLOCK_STATES", block_states)
    instance = DiceInstance((4, 8), Game(target=12), "small")
    moves = smt.reachable_states(instance)
    blocks = smt.recurrence_blocks(moves)
    totals = {state[2] + state[3] for state in moves}
    assert sorted(state for block in blocks for state in block) == sorted(moves)
    assert len(blocks) == len(totals) if block_states == 1 else \
        1 < len(blocks) < len(totals) if block_states == 300 else len(blocks) == 1
    assert PUZZLE.recurrence_wins(instance, UNLIMITED) == dirac_wins(instance)


GAMES = [((4, 8), Game(target=6)), ((1, 1), Game(target=7, sides=2)), ((3, 9), Game(target=8, sides=4, rolls=2)),
         ((7, 2), Game(target=10, sides=2, track=7)), ((10, 5), Game(target=6, sides=3, rolls=1))]


@pytest.mark.parametrize("starts,game", GAMES, ids=lambda g: str(g))
def test_three_oracles_agree_with_the_dp(starts, game):
    instance = DiceInstance(starts, game, "small")
    wins = dirac_wins(instance)
    assert tuple(PUZZLE.recurrence_wins(instance, UNLIMITED)) == wins
    for winner in (0, 1):
        for counter in ("ganak", "d4", "frontier"):
            assert count_solutions(request(PUZZLE, counter, "count", winner=winner), instance) == wins[winner]
    # the split: conditional counts of both tracks, one compilation or sweep each (ganak's split, one
    # count per query, is checked by the crosscheck test below: here it would take a minute)
    for counter in ("d4", "frontier"):
        assert count_universes(request(PUZZLE, counter, "split"), instance, Stopwatch())[:2] == ("split", wins)
    if sum(wins) <= 50_000:
        for winner in (0, 1):
            assert count_solutions(request(PUZZLE, "pysat:glucose4", "count", winner=winner), instance) == wins[winner]


def test_counting_is_generic_with_ganak():
    """Ganak counts jig and jigsaw assemblies and aquarium solutions through the same `count`."""
    jig = get_puzzle("jig")
    matt = load(jig, str(INSTANCES / "jig" / "matt5x5.jig"))
    assert [count_solutions(request(jig, "ganak", break_symmetry=b), matt) for b in (False, True)] == [8, 2]
    jigsaw = get_puzzle("jigsaw")
    example = load(jigsaw, str(INSTANCES / "aoc" / "2020-20" / "example.txt"))
    assert count_solutions(request(jigsaw, "ganak", break_symmetry=False), example) == 8
    aquarium = get_puzzle("aquarium")
    small = load(aquarium, str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"))
    assert count_solutions(request(aquarium, "ganak"), small) == 1


def test_count_and_crosscheck_commands(run_cli):
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--backend", "ganak", "--json")
    assert code == 0 and json.loads(out)["answers"] == {"solutions": 8, "up_to_rotation": 2}
    code, out, _ = run_cli("crosscheck", "dice", str(AOC / "example.txt"), "--target", "6", "--sides", "2", "--json")
    report = json.loads(out)
    assert code == 0 and report["agree"]
    assert [row["method"] for row in report["rows"]] == [
        "reference", "frontier (exact count, split, rules)", "frontier (exact count, count, rules)",
        "d4 (exact count, split, rules)", "d4 (exact count, count, rules)",
        "ganak (prob. exact count, split, rules)", "ganak (prob. exact count, count, rules)", "z3 (recurrence, rules)",
        "pysat:glucose4 (enumeration, rules)"]
    assert report["independent_methods_agreeing"] == 2  # the DP, and the encodings sharing rules.py


def test_count_by_enumeration_names_each_player_once(run_cli):
    """``count dice --backend cadical`` passed the encoding twice to encode (TypeError, exit 3)."""
    code, out, err = run_cli("count", "dice", str(AOC / "example.txt"), "--target", "4", "--backend", "cadical",
                             "--json")
    assert code == 0, err
    code, exact, _ = run_cli("count", "dice", str(AOC / "example.txt"), "--target", "4", "--json")
    assert json.loads(out)["answers"] == json.loads(exact)["answers"]


def test_export_mcc_counts_with_ganak(tmp_path, run_cli):
    out = tmp_path / "p2.cnf"
    code, _, _ = run_cli("export", "dice", str(AOC / "example.txt"), "--target", "6", "--format", "mcc",
                         "--player", "2", "-o", str(out))
    assert code == 0
    text = out.read_text()
    assert text.startswith("c t mc\n") and "c p show " in text and "c ind " in text and "c var " in text
    from pyganak import Counter
    clauses = [list(map(int, line.split()))[:-1] for line in text.splitlines() if line and line[0] not in "cp"]
    show = [int(v) for v in text.split("c p show ")[1].split("\n")[0].split()[:-1]]
    counter = Counter()
    counter.add_clauses(clauses)
    counter.set_sampling_set(show)
    assert counter.count() == dirac_wins(parse((AOC / "example.txt").read_text(), "x", Game(target=6)))[1]


@pytest.mark.parametrize("text,message", [
    ("Player 1 starting position: 4\nPlayer 2 starting position: 11\n", "off the track"),
    ("Player 1 starting position: 4\n", "missing the line for player 2"),
    ("Player 1 starting position: 4\nPlayer 1 starting position: 5\n", "once each"),
    ("Player 1 starting position: four\nPlayer 2 starting position: 8\n", "expected 'Player N"),
])
def test_bad_inputs(text, message, tmp_path, run_cli):
    with pytest.raises(PuzzleFormatError, match=message):
        parse(text, "bad.txt")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, out, err = run_cli("solve", "dice", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1


def test_non_positive_parameters(run_cli):
    with pytest.raises(PuzzlesatError, match="--target must be positive"):
        parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n", "x", Game(target=0))
    code, _, err = run_cli("solve", "dice", str(AOC / "example.txt"), "--sides", "0")
    assert code == 2 and "--sides" in err


def test_split_rejects_counts_that_cannot_come_from_the_tracks():
    """Every query leaves the later turns free, so its count is a multiple of 27^(turns - k): a counter
    that answers otherwise is caught instead of producing a plausible wrong total."""
    instance = DiceInstance((4, 8), Game(target=6), "small")
    tracks = [encode_track(instance, player) for player in (0, 1)]
    counts = [get_backend("d4").count_each(track, track.queries) for track in tracks]
    assert wins_from_tracks(instance, counts) == dirac_wins(instance)
    counts[1][2] += 1
    with pytest.raises(PuzzlesatError, match="player 2's track counts cannot be right"):
        wins_from_tracks(instance, counts)


def test_split_needs_an_exact_counter(run_cli):
    code, _, err = run_cli("solve", "dice", str(AOC / "example.txt"), "--target", "5", "--backend", "glucose",
                           "--encoding", "split")
    assert code != 0 and "only the count encoding's models are universes" in err
    code, _, err = run_cli("solve", "dice", str(AOC / "example.txt"), "--encoding", "smt")
    assert code != 0 and "part 1 always uses the smt unrolling" in err


@pytest.mark.parametrize("executor", [None, "local:2"])
def test_enumeration_too_big_is_skipped_wherever_the_methods_run(run_cli, executor):
    """The reference's row told the enumeration method, through a closure, how many universes there are:
    once every method ran in a child of its own (issue 34) it no longer could, and enumerated until its
    limit. The enumeration method asks the DP itself."""
    import json

    example = str(INSTANCES / "aoc" / "2021-21" / "example.txt")
    args = ["crosscheck", "dice", example, "--target", "10", "--backends", "pysat:glucose4,frontier", "--json"]
    code, out, err = run_cli(*args, *(["--executor", executor] if executor else []))
    rows = {row["method"]: row for row in json.loads(out)["rows"]}
    assert code == 0, err
    assert rows["pysat:glucose4 (enumeration, rules)"]["status"] == "SKIPPED"
    assert "31630691 universes: too many to enumerate" in rows["pysat:glucose4 (enumeration, rules)"]["error"]
