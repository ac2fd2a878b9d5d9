"""Aquarium (puzzle-aquarium.com): regions fill with water to one level; rows and columns are counted."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...core.declared import Generator, Option
from ...core.encoding import Encoding
from ...core.model import CnfModel, SmtModel
from ...core.puzzle import Puzzle
from ...pipeline.tasks import Satisfy
from . import check as _check
from .instance import MAX_SIDE, AquariumInstance
from .instance import parse as _parse
from .options import AquariumOptions
from .solution import AquariumForced, AquariumSolution
from .url import is_url, parse_url, to_url

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from ...deduction import Facts
    from ...formats.picture import Picture


def _generate(seed: int, deadline: Any, size: int, difficulty: str | None, hide: int | None,
              cols: int | None) -> str:
    from .generate import generate

    return generate(size, seed, difficulty, hide or 0, cols)


class Aquarium(Puzzle[AquariumInstance, AquariumSolution, AquariumOptions]):
    name = "aquarium"
    options_type = AquariumOptions
    encodings = ("cnf", "smt")
    task = Satisfy(unique=True)
    bundled = "instances/aquarium"
    generator = Generator(
        "An N x N aquarium (or N rows of --cols cells) with exactly one solution (proven by the SAT solver).",
        "Regions are merged until line reasoning alone solves the puzzle, then the SAT solver proves it has "
        "one solution.\n\n\b\nExample:\n  puzzlesat generate aquarium --size 50 --seed 1 -o big.txt\n"
        "  puzzlesat generate aquarium --size 15 --difficulty hard --seed 3 -o hard.txt\n"
        "  puzzlesat generate aquarium --size 10 --hide 8 --seed 2 -o sparse.txt\n"
        "  puzzlesat generate aquarium --size 8 --cols 12 --seed 1 -o wide.txt",
        (Option("size", int, "Grid size N (N x N).", minimum=2, maximum=MAX_SIDE, required=True),
         Option("difficulty", str, "Keep the first candidate (from --seed on) whose explanation's widest step "
                                   "needs 1 fact (easy), 2-4 (normal) or 5 or more (hard); `puzzlesat explain` "
                                   "shows why.", choices=("easy", "normal", "hard")),
         Option("hide", int, "Take away up to this many clues, each only where the solver still proves the "
                             "solution unique; the puzzle is then written as a puzz.link URL.", minimum=0),
         Option("cols", int, "Grid width, where it differs from --size (a rectangle of --size rows, written as a "
                             "puzz.link URL).", minimum=2, maximum=MAX_SIDE)),
        _generate)

    reading_options = (
        Option("rule", str, "Which water rule holds, where it is not the input's: 'region' (one level per region, "
                            "puzzle-aquarium.com's, and a puzz.link URL's with r) or 'physics' (every body of "
                            "water level on top, a puzz.link URL's without r).", choices=("region", "physics")),)

    #: puzz.link's URL, puzzle-aquarium.com's task string
    spellings = ("url", "task")

    def spell(self, instance: AquariumInstance, spelling: str) -> str:
        return to_url(instance) if spelling == "url" else instance.task_string()

    def inline(self, argument: str) -> bool:
        return is_url(argument)

    def parse(self, text: str, path: str, **reading: Any) -> AquariumInstance:
        """A puzz.link URL (on the command line or in a file) or a puzzle-aquarium.com task string; the
        ``rule`` reading option, where given, sets the water rule in place of the input's."""
        if is_url(text):  # a URL given on the command line is named "the URL" in errors, and is the source
            instance = replace(parse_url(text, "the URL" if text == path else path), source=path)
        else:
            instance = _parse(text, path)
        rule = reading.get("rule")
        return instance if rule is None else replace(instance, region_rule=rule == "region")

    def build(self, instance: AquariumInstance, kind: str, options: AquariumOptions, vpool: IDPool) -> Encoding:
        if kind == "cnf":
            from .cnf import encode_cnf
            return encode_cnf(instance, options, vpool)
        from .smt import encode_smt
        return encode_smt(instance)

    def decode(self, instance: AquariumInstance, encoding: Encoding, model: CnfModel | SmtModel) -> AquariumSolution:
        if isinstance(model, CnfModel):
            from .cnf import decode_cnf
            return AquariumSolution(decode_cnf(instance, encoding, model))
        from .smt import decode_smt
        return AquariumSolution(decode_smt(instance, encoding, model))

    def facts(self, instance: AquariumInstance, options: AquariumOptions) -> Facts:
        from pysat.formula import IDPool

        from .cnf import cnf_facts
        return cnf_facts(instance, options, IDPool())

    def read_marks(self, instance: AquariumInstance, text: str, path: str) -> dict[Any, bool]:
        """A grid of ``#`` (water), ``.`` (dry) and ``?`` (not marked), as ``solve --quiet`` prints a
        solution and ``solve --forced`` the cells every solution shares."""
        from ...formats.marks import read_grid_marks

        return read_grid_marks(text, path, instance.height, instance.width, {"#": True, ".": False})

    def forced(self, instance: AquariumInstance, encoding: Encoding, fixed: Mapping[int, bool]) -> AquariumForced:
        """Each cell's shown variable (its region's row under the region rule, its own under physics)."""
        ids = encoding.variables.obj2id
        if instance.region_rule:
            names = {(r, c): ("fill", instance.regions[r][c], r) for r in range(instance.height) for c in range(instance.width)}
        else:
            from .physics import vessels

            names = {cell: ("water", *first) for cell, first in vessels(instance)[0].items()}
        return AquariumForced(tuple(tuple(fixed.get(ids[names[r, c]]) for c in range(instance.width))
                                    for r in range(instance.height)))

    def check(self, instance: AquariumInstance, solution: AquariumSolution) -> list[str]:
        return _check.check(instance, solution)

    def reference(self, instance: AquariumInstance, limit: int | None,
                  options: AquariumOptions | None = None) -> list[AquariumSolution]:
        from .physics_reference import solve_physics_reference
        from .reference import solve_reference
        return solve_reference(instance, limit) if instance.region_rule else solve_physics_reference(instance, limit)

    def picture(self, instance: AquariumInstance, solution: AquariumSolution | AquariumForced) -> Picture:
        from .picture import picture
        return picture(instance, solution)


PUZZLE = Aquarium()
