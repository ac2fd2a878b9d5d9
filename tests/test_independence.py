"""The reference of every puzzle works from the parsed instance and the rules alone: it runs, and gives
its answer, in a process where every encoder module (and every solver) cannot be imported. The puzzle
packages' ``__init__`` (which wire the encoders in) are replaced by empty packages for the run, so only
what the reference itself imports is loaded."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import INSTANCES

PACKAGE = Path(__file__).resolve().parent.parent / "puzzlesat"
#: never needed by a reference
EVERYWHERE = ["pysat", "z3", "pyganak", "d4solver", "puzzlesat.backends", "puzzlesat.pipeline",
              "puzzlesat.encoders.tiling"]
#: puzzle -> (instance, its encoder modules, code that runs the reference and prints its answer)
CASES = {
    "aquarium": ("aquarium/pa-6x6-easy-681742.txt", ["cnf", "smt", "generate"],
                 ("from puzzlesat.encoders.aquarium.reference import solve_reference\n"
                 "answer = len(solve_reference(instance, 2))")),
    "jigsaw": ("aoc/2020-20/example.txt", ["tiles", "grids", "generate"],
               ("from puzzlesat.encoders.jigsaw.reference import assemblies, symmetry_class\n"
               "found = list(assemblies(instance))\n"
               "answer = [len(found), len({symmetry_class(instance, a) for a in found})]")),
    "jig": ("jig/matt5x5.jig", ["generate"],
            ("from puzzlesat.encoders.jig.reference import layouts, rotation_class\n"
            "found = list(layouts(instance))\n"
            "answer = [len(found), len({rotation_class(instance, a) for a in found})]")),
    # the second count from the rules shares nothing with the reference either
    "jig exact cover": ("jig/matt5x5.jig", ["generate", "reference"],
                        ("from puzzlesat.encoders.jig.cover_counting import count_layouts\n"
                         "answer = [count_layouts(instance), count_layouts(instance, up_to_rotation=True)]")),
    "amphipod": ("aoc/2021-23/example.txt", ["events", "unroll", "smt", "movers", "generate"],
                 ("from puzzlesat.encoders.amphipod.reference import cheapest_plan\n"
                 "answer = cheapest_plan(instance.burrows[0][1])[0]")),
    "dice": ("aoc/2021-21/example.txt", ["cnf", "split", "smt", "rules", "generate"],
             ("from puzzlesat.encoders.dice.reference import deterministic_game, dirac_wins\n"
             "rolled, scores = deterministic_game(instance)\n"
             "answer = [rolled * min(scores), max(dirac_wins(instance))]")),
}
EXPECTED = {"aquarium": 1, "jigsaw": [8, 1], "jig": [8, 2], "jig exact cover": [8, 2],
            "amphipod": 12521, "dice": [739785, 444356092776315]}

SCRIPT = """
import importlib.abc, json, sys, types
FORBIDDEN = {forbidden!r}

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
            raise ImportError(f"the reference imported {{name}}")

sys.meta_path.insert(0, Refuse())
for name, where in (("puzzlesat.encoders", {encoders!r}), ("puzzlesat.encoders.{puzzle}", {package!r})):
    stub = types.ModuleType(name)
    stub.__path__ = [where]
    sys.modules[name] = stub
from puzzlesat.encoders.{puzzle}.instance import parse
instance = parse(open({path!r}).read(), {path!r})
{run}
print(json.dumps(answer))
"""


@pytest.mark.parametrize("case", list(CASES))
def test_reference_runs_without_any_encoder(case):
    instance, encoders, run = CASES[case]
    puzzle = case.split()[0]
    forbidden = EVERYWHERE + [f"puzzlesat.encoders.{puzzle}.{module}" for module in encoders]
    script = SCRIPT.format(forbidden=forbidden, encoders=str(PACKAGE / "encoders"), puzzle=puzzle,
                           package=str(PACKAGE / "encoders" / puzzle), path=str(INSTANCES / instance), run=run)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == EXPECTED[case]
