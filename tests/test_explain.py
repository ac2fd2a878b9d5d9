"""``explain`` (puzzlesat/explain, issue 37): every bundled aquarium and jigsaw explained and replayed,
its solution the published one; planted faults caught by the replay; not-unique and unsolvable puzzles said to be
so; and on random small aquariums, the explanation's verdict matches brute force."""
from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations

import pytest

from puzzlesat.core.errors import CheckFailed, PuzzlesatError
from puzzlesat.deduction import Step
from puzzlesat.deduction.replay import replay
from puzzlesat.encoders import get_puzzle
from puzzlesat.pipeline.explaining import explain_instance
from puzzlesat.pipeline.steps import load

from .brute import aquarium as brute
from .conftest import INSTANCES
from .test_schemas import valid

AQUARIUMS = sorted((INSTANCES / "aquarium").glob("*.txt"))
AQUARIUM = get_puzzle("aquarium")


def random_aquariums(seed: int, cases: int, smallest: int, largest: int):
    """(case, task string, instance) of random aquariums from the differential tests' generator, sides
    from ``smallest`` to ``largest``; those whose counts cannot be (the parser refuses them) are left out."""
    rng = random.Random(seed)
    for case in range(cases):
        text = brute.random_aquarium(rng, rng.randint(smallest, largest))
        try:
            instance = AQUARIUM.parse(text, "x")
        except PuzzlesatError:
            continue
        yield case, text, instance


def explained(text: str):
    return explain_instance(AQUARIUM, AQUARIUM.parse(text, "x"))


@pytest.mark.parametrize("path", AQUARIUMS, ids=lambda path: path.stem)
def test_every_bundled_aquarium_is_explained_to_its_solution(path):
    result = explain_instance(AQUARIUM, load(AQUARIUM, str(path)))
    assert result.explanation.solved and result.explanation.steps
    assert result.solution.lines() == path.with_suffix(".solution").read_text().split()
    difficulty = result.explanation.difficulty
    assert difficulty["steps"] == len(result.explanation.steps) and difficulty["widest"] >= 1


@pytest.mark.parametrize("name", ["example", "generated-1", "generated-2"])
def test_every_bundled_jigsaw_is_explained_to_its_solution(name):
    """One arrangement of each class (symmetry broken, as in solving), every step replayed, the tiles
    where the solver puts them."""
    jigsaw = get_puzzle("jigsaw")
    instance = load(jigsaw, str(INSTANCES / "aoc" / "2020-20" / f"{name}.txt"))
    result = explain_instance(jigsaw, instance)
    assert result.explanation.solved
    part1 = (INSTANCES / "aoc" / "2020-20" / f"{name}.answers").read_text().split()[0]
    assert str(result.solution.answers()["part1"]) == part1


def test_a_step_that_claims_too_much_fails_its_replay():
    result = explained((INSTANCES / "aquarium" / "pa-6x6-hard-1001841.txt").read_text())
    explanation = result.explanation
    replay(explanation)
    first = explanation.steps[0]
    # the first step's cells, flipped: its facts do not force them
    flipped = replace(explanation, steps=(Step(first.facts, tuple(-lit for lit in first.forced)),) + explanation.steps[1:])
    with pytest.raises(CheckFailed, match="explanation step 1: row 6 count"):
        replay(flipped)
    # a step's facts dropped, the second step's kept: the first fact alone never forces every cell of a wider step
    wide = next(number for number, step in enumerate(explanation.steps) if len(step.facts) > 1)
    narrowed = list(explanation.steps)
    narrowed[wide] = Step(narrowed[wide].facts[:1], narrowed[wide].forced)
    with pytest.raises(CheckFailed, match=f"explanation step {wide + 1}:"):
        replay(replace(explanation, steps=tuple(narrowed)))
    # the last cell of a step flipped, after cells it does force
    many = next(number for number, step in enumerate(explanation.steps) if len(step.forced) > 1)
    last = explanation.steps[many].forced[-1]
    spoilt = list(explanation.steps)
    spoilt[many] = Step(spoilt[many].facts, (*spoilt[many].forced[:-1], -last))
    with pytest.raises(CheckFailed, match=rf"explanation step {many + 1}: .* do not force literal {-last}$"):
        replay(replace(explanation, steps=tuple(spoilt)))


def test_not_unique_and_unsolvable_are_said_to_be_so(run_cli):
    several = explained("1_1_1_1;1,2,3,4")
    assert not several.explanation.solved and len(several.explanation.differing) == 2
    first, second = several.explanation.differing
    assert first != second
    none = explained("1_1_2_0;1,2,1,2")  # water in the right column's top row, dry below it: impossible
    assert none.explanation.conflict and not none.explanation.steps
    labels = {none.explanation.facts.facts[i].label for i in none.explanation.conflict}
    assert labels == {"region 2 fills level by level", "row 2 count (0)", "column 2 count (1)"}


def test_random_aquariums_against_brute_force():
    """Solved exactly when brute force finds one solution (and then to it); not unique when it finds
    several; a contradiction when it finds none."""
    for case, text, instance in random_aquariums(37, 300, 1, 4):
        found = brute.solutions(text)
        result = explain_instance(AQUARIUM, instance)
        explanation = result.explanation
        if len(found) == 1:
            assert explanation.solved, (case, text)
            assert tuple(result.solution.lines()) == found[0], (case, text)
        elif found:
            assert not explanation.solved and not explanation.conflict and explanation.differing, (case, text)
        else:
            assert explanation.conflict and not explanation.solved, (case, text)


def test_random_jigs_against_brute_force():
    """A jig's explanation ends as brute force says: solved exactly when the jig has one class of
    solutions, two differing solutions when it has more, a contradiction when it has none. The jigs are
    non-square and in lines, with flat inner edges, identical pieces and one side changed now and then
    (usually no solution), so the joined models (:mod:`puzzlesat.deduction.alone`) and the bounded
    core search meet every shape; each explanation is replayed and its solutions checked on the way."""
    from .brute import tiling

    jig = get_puzzle("jig")
    shapes = [(1, 2), (2, 1), (1, 3), (2, 2), (1, 4), (2, 3), (3, 2), (1, 5)]
    endings = set()
    for seed in range(60):
        rng = random.Random(seed)
        rows, cols = rng.choice(shapes)
        text = tiling.random_jig(rng, rows, cols)
        _, classes = tiling.jig_brute(text)
        explanation = explain_instance(jig, jig.parse(text, f"jig-seed-{seed}")).explanation
        ending = "solved" if explanation.solved else "conflict" if explanation.conflict else "differing"
        expected = "solved" if classes == 1 else "conflict" if classes == 0 else "differing"
        assert ending == expected, (seed, classes, text)
        endings.add(ending)
    assert endings == {"solved", "conflict", "differing"}


def test_explain_on_the_command_line(run_cli, tmp_path):
    path = str(INSTANCES / "aquarium" / "pa-6x6-hard-1001841.txt")
    code, out, _ = run_cli("explain", "aquarium", path)
    assert code == 0 and out.startswith("step 1: row 6 count (5): water r6c2 r6c3")
    assert "solved in 18 steps; the widest uses 2 facts; every step replayed, the solution checked" in out
    code, out, _ = run_cli("explain", "aquarium", path, "--json", "--certify")
    payload = valid(json.loads(out))
    assert code == 0 and payload["solved"] and payload["difficulty"] == {"steps": 18, "widest": 2}
    assert payload["certificate"]["by"] == "glucose4"
    code, _, _ = run_cli("explain", "aquarium", path, "--svg", str(tmp_path / "s.svg"), "--png", str(tmp_path / "s.png"))
    assert code == 0 and (tmp_path / "s.svg").read_text().startswith("<svg")
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG") and "18. row 1: 4" in (tmp_path / "s.svg").read_text()
    # a jig has a solution in each of its classes: the explanation stops where the classes part
    code, out, _ = run_cli("explain", "jig", str(INSTANCES / "jig" / "zhurgut_4x4.jig"))
    assert code == 1 and "not unique: after" in out and "two solutions differ at piece" in out
    code, _, err = run_cli("explain", "amphipod", str(INSTANCES / "aoc" / "2021-23" / "example.txt"))
    assert code == 2 and "explain is not offered for amphipod" in err


def test_generate_keeps_a_candidate_of_the_difficulty_asked(run_cli, tmp_path):
    """The kept puzzle's own explanation rates as asked; a difficulty no candidate reaches is refused in
    one line."""
    for difficulty, widest in (("easy", range(1, 2)), ("normal", range(2, 5))):
        out = tmp_path / f"{difficulty}.txt"
        code, _, err = run_cli("generate", "aquarium", "--size", "6", "--difficulty", difficulty, "--seed", "3",
                               "-o", str(out))
        assert code == 0, err
        result = explain_instance(AQUARIUM, load(AQUARIUM, str(out)))
        assert result.explanation.solved and result.explanation.difficulty["widest"] in widest
    code, _, err = run_cli("generate", "aquarium", "--size", "6", "--difficulty", "hard", "--seed", "3")
    assert code == 2 and err.strip().endswith("no hard 6x6 aquarium among 40 candidates (seeds 3-42): try another "
                                              "--seed or --size")


def test_the_endings_are_replayed_and_certified():
    """'no solution' and 'not unique' were claimed unreplayed while the JSON said 'replayed': true (issue
    44). The conflict's facts alone are refuted from scratch (with a checked proof under certify), the
    two solutions are each a model of every fact, and a claim that does not hold is caught."""
    from puzzlesat.deduction.replay import replay_ending

    none = explained("1_1_2_0;1,2,1,2")
    (certificate,) = replay_ending(none.explanation, certify_ending=True)
    assert certificate.checked >= 0 and certificate.by == "glucose4"
    with pytest.raises(CheckFailed, match="cannot hold together have a solution"):
        replay_ending(replace(none.explanation, conflict=none.explanation.conflict[:1]))
    several = explained("1_1_1_1;1,2,3,4")
    assert replay_ending(several.explanation) == []
    first, second = several.explanation.differing
    with pytest.raises(CheckFailed, match="are the same"):
        replay_ending(replace(several.explanation, differing=(first, first)))
    broken = tuple(abs(lit) for lit in first)  # every cell water: no row holds 2
    with pytest.raises(CheckFailed, match="breaks a fact"):
        replay_ending(replace(several.explanation, differing=(broken, second)))


def test_explain_pictures_and_limits_say_what_they_do(run_cli, tmp_path):
    """--svg X --png X kept only one picture and --json --svg - mixed two documents on stdout: both are
    refused before any work; a limit that strikes while explaining names the explain phase (it said
    'parse')."""
    path = str(INSTANCES / "aquarium" / "pa-6x6-hard-1001841.txt")
    same = str(tmp_path / "x.svg")
    code, out, err = run_cli("explain", "aquarium", path, "--svg", same, "--png", same)
    assert code == 2 and out == "" and "--png and --svg name the same file" in err
    code, out, err = run_cli("explain", "aquarium", path, "--json", "--svg", "-")
    assert code == 2 and out == "" and "stdout carries the command's report" in err
    code, out, err = run_cli("solve", "aquarium", path, "--svg", "-")
    assert code == 2 and out == ""


def test_a_long_explanation_is_drawn_square_with_titles_a_person_can_read():
    """A 15 x 15 puzzle's 77 steps were a strip 402 x 1330 pixels with 3-pixel titles that overlapped
    (issue 46): the panels now fill a picture about as wide as it is tall, drawn large enough for its
    titles, and no title reaches past its panel."""
    import io

    from PIL import Image

    from puzzlesat.deduction.picture import steps_picture
    from puzzlesat.formats.picture import CHARACTER_WIDTH, fitted, to_png

    spec = get_puzzle("aquarium")
    instance = load(spec, str(INSTANCES / "aquarium" / "pa-15x15-hard-1013539.txt"))
    picture = steps_picture(explain_instance(spec, instance).explanation)
    width, height = Image.open(io.BytesIO(to_png(picture))).size
    assert max(width, height) / min(width, height) < 1.5, (width, height)
    scale = width / picture.width
    titles = [label for label in picture.labels if label.start and label.text[0].isdigit()]  # not the legend's
    assert titles and min(fitted(label, picture) for label in titles) * scale >= 9
    panel = 16  # a 15-column grid and its margin
    assert all((label.x % panel) + len(label.text) * CHARACTER_WIDTH * fitted(label, picture) <= panel + 0.5
               for label in titles)


def forced_by_the_whole_solver(guarded, chosen, known, cells) -> list[int] | None:
    """What ``_Guarded.forced`` answers, asked the plain way: the whole solver (every fact behind its
    selector), the chosen selectors and the known cells assumed, each cell's two values in turn."""
    assumptions = [guarded.selectors[i] for i in chosen] + list(known)
    if not guarded.solver.solve(assumptions=assumptions):
        return None
    forced = []
    for var in sorted(cells):
        can = [guarded.solver.solve(assumptions=[*assumptions, literal]) for literal in (var, -var)]
        assert any(can)
        if not all(can):
            forced.append(var if can[0] else -var)
    return forced


def questions_of(puzzle, cases, seed: int):
    """(case, facts, chosen, known, cells): every fact and every pair of facts of each instance, asked with
    the cells of one solution partly known (some cases: known cells that contradict the facts), in a
    random order, so that the kept models of earlier questions are in play."""
    from puzzlesat.deduction.search import _Guarded

    rng = random.Random(seed)
    for case, instance in cases:
        facts = puzzle.facts(instance, puzzle.options(**getattr(puzzle.task, "solving", {})))
        whole = _Guarded(facts, "cadical195")
        solution = whole.model(range(len(facts.facts)), [])
        whole.close()
        known = [] if solution is None else [cell if cell in solution else -cell for cell in facts.cells
                                             if rng.random() < 0.3]
        if known and rng.random() < 0.2:
            known[0] = -known[0]
        pairs = list(combinations(range(len(facts.facts)), 2))
        chosen = [(i,) for i in range(len(facts.facts))] + rng.sample(pairs, min(len(pairs), 150))
        rng.shuffle(chosen)
        yield case, facts, chosen, known


def test_the_questions_of_an_explanation_are_answered_as_the_whole_solver_answers_them():
    """``_Guarded.forced`` answers from the facts' own models joined (:mod:`puzzlesat.deduction.alone`),
    from the models earlier questions found, then in a small solver of the chosen facts' own clauses
    (renumbered, with the known cells among their variables). Asked of every fact and of pairs of facts,
    with a random solution's cells partly known, and then more of them, it must give what the whole
    solver gives when each cell is asked both ways: on random aquariums, and on random jigs (flat edges,
    look-alike pieces, changed sides that leave no solution)."""
    from puzzlesat.deduction.search import _Guarded

    from .brute import tiling

    rng = random.Random(48)
    jig = get_puzzle("jig")
    aquariums = [(f"aquarium {case}: {text}", instance) for case, text, instance in random_aquariums(48, 40, 2, 5)]
    jigs = []
    for case in range(25):
        text = tiling.random_jig(rng, rng.randint(1, 3), rng.randint(2, 4))
        jigs.append((f"jig {case}: {text}", jig.parse(text, "x")))
    asked = 0
    for puzzle, cases in ((AQUARIUM, aquariums), (jig, jigs)):
        for case, facts, chosen, known in questions_of(puzzle, cases, 48):
            keeping, plain = _Guarded(facts, "cadical195"), _Guarded(facts, "cadical195")
            # the known cells grow in two steps, as a search learns them: the facts' own models found
            # under the first must be dropped where they break the second
            half = known[:len(known) // 2]
            for learnt, now in ((half, half), (known[len(half):], known)):
                keeping.learn(learnt)
                cells = set(facts.cells) - {abs(lit) for lit in now}
                for question in chosen:
                    expected = forced_by_the_whole_solver(plain, question, now, cells)
                    found = keeping.forced(question, now, sum(keeping.bit[cell] for cell in cells))
                    assert (None if found is None else sorted(found, key=abs)) == expected, (case, question, now)
                    asked += 1
            keeping.close()
            plain.close()
    assert asked > 2000


def test_two_facts_that_share_a_variable_that_is_not_a_cell_are_not_joined():
    """Models of two facts alone joined on their shared cells are a model of both only when the facts
    share no other variable. Here they share the auxiliary 3: fact a says cell 1 iff 3, fact b says cell
    2 iff 3 and one of the cells. Joined on cell 1 alone, a's model with nothing true and b's with cell 2
    true would seem to leave cell 1 free; together the facts force both cells."""
    from puzzlesat.deduction import Fact, Facts
    from puzzlesat.deduction.search import _Guarded

    facts = Facts([Fact("a", [[-1, 3], [1, -3]]), Fact("b", [[-2, 3], [2, -3], [1, 2]])],
                  {1: ("c1",), 2: ("c2",)}, {1: "c1", 2: "c2"})
    guarded, plain = _Guarded(facts, "cadical195"), _Guarded(facts, "cadical195")
    for single in ((0,), (1,)):
        assert guarded.forced(single, [], 0b11) == forced_by_the_whole_solver(plain, single, [], {1, 2}) == []
    assert sorted(guarded.forced((0, 1), [], 0b11) or []) == forced_by_the_whole_solver(plain, (0, 1), [], {1, 2}) == [1, 2]
    guarded.close()
    plain.close()


def test_the_models_kept_for_later_questions_hold_only_what_is_read():
    """A kept model is read at its facts' selectors and at the cells only. It was kept whole (every
    auxiliary variable of the counting encodings), so on a generated 20x20 the search's Python memory
    peaked at 46 MB, and on 40x40 the command took 2 GB; kept as two bit masks, 0.5 MB."""
    import tracemalloc

    from puzzlesat.deduction.search import explain
    from puzzlesat.encoders.aquarium.generate import generate

    text = generate(20, 1)
    instance = AQUARIUM.parse(text, "generated-20x20")
    facts = AQUARIUM.facts(instance, AQUARIUM.options())
    tracemalloc.start()
    try:
        explained = explain(facts)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert explained.solved and peak < 8_000_000, peak


def test_a_second_solution_with_every_cell_dry_is_a_second_solution():
    """An aquarium with no clue has the all-dry filling among its solutions; the explanation's second
    solution, a model with no true cell, was taken for "no model" and the first one given twice, which
    its own replay rejected ("the two solutions ... are the same")."""
    from puzzlesat.encoders.aquarium.instance import AquariumInstance

    for region_rule in (True, False):
        instance = AquariumInstance(1, 1, (None,), (None,), ((1,),), region_rule=region_rule)
        explanation = explain_instance(AQUARIUM, instance).explanation
        first, second = explanation.differing
        assert {first, second} == {(1,), (-1,)}


def test_an_explanation_stopped_by_a_signal_keeps_the_steps_it_found(monkeypatch):
    """The search stops at a signal's request, and its replay went on only while no signal had asked to
    stop: an explanation stopped by SIGINT after 140 steps printed "no step found yet" (under --timeout
    it printed them). The replay now has SIGNAL_REPLAY more: the steps found are kept, replayed."""
    import signal

    from puzzlesat.pipeline import explaining, stop

    asked = iter(range(10_000))
    monkeypatch.setattr(explaining, "stop_requested", lambda: signal.SIGINT if next(asked) > 40 else 0)
    monkeypatch.setattr(stop, "stop_requested", lambda: signal.SIGINT)
    result = explain_instance(AQUARIUM, load(AQUARIUM, str(INSTANCES / "aquarium" / "pa-6x6-hard-1001841.txt")))
    assert result.stopped is not None and result.stopped.by == "SIGINT"
    assert 0 < len(result.explanation.steps) < 18
