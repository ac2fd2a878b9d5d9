"""Dirac Dice (AoC 2021 day 21): part 1 by unrolling the deterministic game in Z3, part 2 by counting the
universes each player wins (Ganak, enumeration, or Z3 on the recurrence)."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.declared import Generator, Option
from ...core.encoding import Encoding
from ...core.errors import PuzzlesatError
from ...core.model import CnfModel, SmtModel
from ...core.puzzle import Puzzle
from .check import check_part1, check_universe
from .instance import MAXIMA, DiceInstance, Game
from .instance import parse as _parse
from .options import DiceOptions
from .solution import DiceSolution, Part1, Universe
from .task import CountUniverses

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from ...core.timing import Deadline
    from ...formats.picture import Picture

#: the game's rules, each an option of every command that reads a dice input (the puzzle's defaults)
GAME_OPTIONS = (Option("track", int, "Track length (default 10).", minimum=1),
                Option("sides", int, "Sides of the Dirac die (default 3).", minimum=1),
                Option("rolls", int, "Rolls per turn (default 3).", minimum=1),
                Option("target", int, "Winning score of the Dirac game (default 21).", minimum=1),
                Option("det_sides", int, "Sides of part 1's deterministic die (default 100).", minimum=1),
                Option("det_target", int, "Winning score of part 1 (default 1000).", minimum=1))


def _generate(seed: int, deadline: Any, track: int) -> str:
    from .generate import generate

    return generate(track, seed)


#: what a dice decoder or the reference gives: part 1, one universe won, or both parts
DiceAnswer = Part1 | DiceSolution | Universe


class Dice(Puzzle[DiceInstance, DiceAnswer, DiceOptions]):
    name = "dice"
    options_type = DiceOptions
    #: ``count``: the model-counting CNF of one player's wins (option ``winner``); ``split``: one player's
    #: track (option ``winner`` names the player), counted under queries (:mod:`.split`); ``smt``: part 1
    encodings = ("count", "split", "smt")
    #: every counting method (both CNFs, the Z3 recurrence) takes the game's moves from rules.py
    shared_steps: ClassVar[dict[str, str]] = {"count": "rules", "split": "rules", "smt": "rules"}
    reading_options = GAME_OPTIONS
    #: an export's counting formula describes one player's winning universes
    formula_options = (Option("player", int, "Whose winning universes the counting formula describes (default 1).",
                              choices=(1, 2), keyword="winner", convert=lambda player: player - 1),)
    bundled = "instances/aoc/2021-21"
    generator = Generator(
        "Random starting positions for Dirac Dice (the game's other parameters are options of solve).",
        "\b\nExample:\n  puzzlesat generate dice --seed 3 -o dice.txt",
        (Option("track", int, "Track length (starts are drawn from 1..track; solve with the same --track).",
                default=10, minimum=1, maximum=MAXIMA["track"]),),
        _generate)
    #: the frontier sweep along the turn order counts the split tracks fastest: 0.06 s a player at target
    #: 21 (D4 0.8-1.0 s), 2.2 s at target 100 (D4: none in 600 s at 50)
    default_backend = "frontier"
    task = CountUniverses()

    def count_variants(self, options: DiceOptions) -> tuple[tuple[str, DiceOptions], ...]:
        return (("player1_wins", replace(options, winner=0)), ("player2_wins", replace(options, winner=1)))

    def parse(self, text: str, path: str, **game: Any) -> DiceInstance:
        return _parse(text, path, Game(**game))

    def build(self, instance: DiceInstance, kind: str, options: DiceOptions, vpool: IDPool) -> Encoding:
        if kind == "count":
            from .cnf import encode_count
            return encode_count(instance, options.winner, vpool)
        if kind == "split":
            from .split import encode_track
            return encode_track(instance, options.winner, vpool)
        from .smt import encode_part1
        return encode_part1(instance, options.horizon)

    def decode(self, instance: DiceInstance, encoding: Encoding, model: CnfModel | SmtModel) -> DiceAnswer:
        if encoding.name == "split":
            raise PuzzlesatError("a model of the split encoding is one player's rolls, not a universe: "
                                 "decode the count encoding instead")
        if encoding.name == "count":
            from .cnf import DiceEncoding

            assert isinstance(encoding, DiceEncoding), "the count encoding is dice's own"
            game = instance.game
            rolls = tuple(tuple(next((v for v in range(1, game.sides + 1)
                                      if model.value(encoding.variables.id(("roll", t + 1, r + 1, v)))), 0)
                                for r in range(game.rolls)) for t in range(encoding.horizon))
            assert isinstance(encoding.options, DiceOptions)
            return Universe(rolls, encoding.options.winner + 1)
        return Part1(model.value(encoding.terms["turns"]),
                     (model.value(encoding.terms["score1"]), model.value(encoding.terms["score2"])),
                     instance.game.rolls)

    def check(self, instance: DiceInstance, solution: DiceAnswer) -> list[str]:
        if isinstance(solution, Universe):
            return check_universe(instance, solution)
        part1 = solution.part1 if isinstance(solution, DiceSolution) else solution
        return check_part1(instance, part1)

    def reference(self, instance: DiceInstance, limit: int | None,
                  options: DiceOptions | None = None) -> list[DiceAnswer]:
        from .reference import deterministic_game, dirac_wins
        rolled, scores = deterministic_game(instance)
        return [DiceSolution(Part1(rolled // instance.game.rolls, scores, instance.game.rolls), dirac_wins(instance))]

    def picture(self, instance: DiceInstance, solution: DiceAnswer) -> Picture:
        from .picture import picture
        if isinstance(solution, Part1):
            raise PuzzlesatError("dice: part 1 alone has no picture")
        return picture(instance, solution)

    def split_wins(self, instance: DiceInstance, counts: list[list[int]]) -> tuple[int, int]:
        """Both players' wins from the query counts of both players' ``split`` tracks."""
        from .split import wins_from_tracks
        return wins_from_tracks(instance, counts)

    def recurrence_wins(self, instance: DiceInstance, deadline: Deadline) -> tuple[int, int]:
        """Universe counts from Z3 solving the recurrence equations (the third oracle), block by block
        (:func:`.smt.recurrence_blocks`)."""
        import z3

        from ...core.errors import SolverTimeout
        from .smt import block_smt2, mover_name, other_name, reachable_states, recurrence_blocks
        moves = reachable_states(instance)
        known: dict[str, int] = {}
        for block in recurrence_blocks(moves):
            solver = z3.Then("simplify", "propagate-values", "smt").solver()  # measured: far faster than solve-eqs or qflia
            left = deadline.left()
            if left is not None:
                solver.set("timeout", max(1, int(left * 1000)))
            solver.from_string(block_smt2(block, moves, known))
            if solver.check() != z3.sat:
                raise SolverTimeout("z3", deadline.seconds or 0)
            model = solver.model()
            known.update((declared.name(), model[declared].as_long()) for declared in model.decls())
        start = (instance.starts[0], instance.starts[1], 0, 0)
        return known[mover_name(start)], known[other_name(start)]


PUZZLE = Dice()
