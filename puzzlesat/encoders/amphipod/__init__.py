"""Amphipod (AoC 2021 day 23): the least energy to sort amphipods into their rooms, proven optimal."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.declared import Generator, Option
from ...core.encoding import Encoding
from ...core.model import CnfModel, SmtModel
from ...core.options import EncoderOptions
from ...core.puzzle import Puzzle
from ...pipeline.tasks import Optimize
from .check import check as _check
from .instance import MAX_DEPTH, AmphipodInstance
from .instance import parse as _parse
from .solution import AmphipodSolution, Plan

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from ...formats.picture import Picture


def _generate(seed: int, deadline: Any, rooms: int, depth: int) -> str:
    from .generate import generate

    return generate(rooms, depth, seed)


class Amphipod(Puzzle[AmphipodInstance, AmphipodSolution, EncoderOptions]):
    name = "amphipod"
    options_type = EncoderOptions
    encodings = ("events", "unroll", "smt")
    #: every encoding takes each mover's options (stops, paths, costs) from movers.py
    shared_steps: ClassVar[dict[str, str]] = {"events": "movers", "unroll": "movers", "smt": "movers"}
    reading_options = (Option("unfold", bool, "Solve the drawing as it is, without part 2's unfolding.", default=True,
                              flag="--no-unfold"),)
    bundled = "instances/aoc/2021-23"
    generator = Generator(
        "A random amphipod burrow, solvable: a plan walked backwards from the sorted one.",
        "Solve it with --no-unfold unless it has 4 rooms (then part 2's unfolded burrow is proven solvable "
        "too, by the SAT solver).\n\n\b\nExample:\n"
        "  puzzlesat generate amphipod --rooms 5 --depth 3 --seed 1 -o burrow.txt",
        (Option("rooms", int, "Rooms (types A, B, ...).", default=4, minimum=1, maximum=10),
         Option("depth", int, "Slots per room.", default=2, minimum=1, maximum=MAX_DEPTH)),
        _generate)
    #: RC2 raced on two solvers, whole computations in two processes: glucose4 is faster on the AoC
    #: burrows and up to 6 rooms x 4 (6x4: 0.44 s against 0.66 s), CaDiCaL on 6 x 6 (1.7 s against 2.7 s);
    #: the race costs about 20 ms and takes the better of the two (a one-core machine pays for both)
    default_backend = "portfolio:glucose4,cadical195"
    #: RC2 on CNF encodings; the unrolling's optimum comes fastest from the SAT descent on CaDiCaL
    #: (BENCHMARKS.md)
    task = Optimize("rc2", {"unroll": ("descent", "pysat:cadical195")})

    def parse(self, text: str, path: str, unfold: bool = True, **reading: Any) -> AmphipodInstance:
        return _parse(text, path, unfold)

    def build(self, instance: AmphipodInstance, kind: str, options: EncoderOptions, vpool: IDPool) -> Encoding:
        if kind == "events":
            from .events import encode_events
            return encode_events(instance.burrows, vpool)
        if kind == "unroll":
            from .unroll import encode_unroll
            return encode_unroll(instance.burrows, vpool)
        from .smt import encode_smt
        return encode_smt(instance.burrows)

    def decode(self, instance: AmphipodInstance, encoding: Encoding, model: CnfModel | SmtModel) -> AmphipodSolution:
        if encoding.name == "unroll":
            from .unroll import decode_unroll as decoder
        else:
            from .events import decode_events as decoder
        plans = decoder(instance.burrows, encoding, model)
        return AmphipodSolution(tuple(Plan(label, burrow, tuple(moves), energy)
                                      for (label, burrow), (moves, energy) in zip(instance.burrows, plans)))

    def check(self, instance: AmphipodInstance, solution: AmphipodSolution) -> list[str]:
        return _check(instance, solution)

    def parts(self, instance: AmphipodInstance) -> tuple[tuple[str, AmphipodInstance], ...]:
        """Part 1's and part 2's burrows share no amphipod: each is solved alone (one can be stuck while
        the other has a plan); a drawing read with ``--no-unfold`` is one whole."""
        if len(instance.burrows) < 2:
            return ()
        return tuple((label, AmphipodInstance(((label, burrow),), instance.source)) for label, burrow in instance.burrows)

    def joined(self, instance: AmphipodInstance, solutions: Sequence[AmphipodSolution]) -> AmphipodSolution:
        return AmphipodSolution(tuple(plan for solution in solutions for plan in solution.plans))

    def reference(self, instance: AmphipodInstance, limit: int | None,
                  options: EncoderOptions | None = None) -> list[AmphipodSolution]:
        from .reference import cheapest_plan
        plans = []
        for label, burrow in instance.burrows:
            found = cheapest_plan(burrow)
            if found is None:
                return []  # one part without a plan: the instance has no solution
            energy, moves = found
            plans.append(Plan(label, burrow, tuple(moves), energy))
        return [AmphipodSolution(tuple(plans))]

    def picture(self, instance: AmphipodInstance, solution: AmphipodSolution) -> Picture:
        from .picture import picture
        return picture(solution)


PUZZLE = Amphipod()
