"""``puzzlesat generate PUZZLE``: new instances, one subcommand per puzzle (their parameters differ)."""
from __future__ import annotations

import click

from ..core.files import write_text_atomic
from ..core.supervisor import report_phase
from ..core.timing import Deadline
from .options import timeout_option
from .supervised import SupervisedCommand

output_option = click.option("-o", "--output", default="-", type=click.Path(dir_okay=False, allow_dash=True),
                             help="Output file (default: stdout).")
seed_option = click.option("--seed", type=int, default=0, show_default=True, help="Random seed (same seed, same puzzle).")


class _Generators(click.Group):
    command_class = SupervisedCommand

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """A puzzle with no generator is named and refused in one line, with the ones that have one."""
        from ..core.errors import PuzzlesatError
        from ..encoders import puzzle_names

        if args and args[0] not in self.commands and args[0] in puzzle_names():
            raise PuzzlesatError(f"generate: {args[0]} has no generator (formula files and plug-in puzzles are "
                                 f"your own; generators: {', '.join(sorted(self.commands))})")
        return super().resolve_command(ctx, args)


@click.group("generate", cls=_Generators)
def command() -> None:
    """Generate puzzle instances (each subcommand has its own size options; same seed, same puzzle).

    \b
    Example:
      puzzlesat generate aquarium --size 30 --seed 7 -o a30.txt && puzzlesat solve aquarium a30.txt
      puzzlesat generate jig --rows 6 --cols 6 --types 4 --seed 2 -o six.jig && puzzlesat count jig six.jig
    """


@command.command("aquarium")
@click.option("--size", type=click.IntRange(min=2), required=True, help="Grid size N (N x N).")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default=None,
              help="Keep the first candidate (from --seed on) whose explanation's widest step needs 1 fact "
                   "(easy), 2-4 (normal) or 5 or more (hard); `puzzlesat explain` shows why.")
@seed_option
@output_option
@timeout_option
def aquarium(size: int, difficulty: str | None, seed: int, output: str, timeout: Deadline) -> None:
    """An N x N aquarium with exactly one solution (proven by the SAT solver).

    \b
    Example:
      puzzlesat generate aquarium --size 50 --seed 1 -o big.txt
      puzzlesat generate aquarium --size 15 --difficulty hard --seed 3 -o hard.txt
    """
    from ..encoders.aquarium.generate import generate

    report_phase("generate")
    write_text_atomic(output, generate(size, seed, difficulty))


@command.command("jigsaw")
@click.option("--size", type=click.IntRange(1, 60), required=True, help="Tiles per side (N x N tiles).")
@click.option("--tile", type=click.IntRange(3, 30), default=10, show_default=True, help="Tile side in cells.")
@click.option("--ambiguity", type=click.IntRange(min=0), default=0, show_default=True,
              help="Edges that copy another edge's border (false leads for greedy matching).")
@seed_option
@output_option
@timeout_option
def jigsaw(size: int, tile: int, ambiguity: int, seed: int, output: str, timeout: Deadline) -> None:
    """A Jurassic Jigsaw input whose assembly is unique up to symmetry (proven by the solver).

    \b
    Example:
      puzzlesat generate jigsaw --size 12 --ambiguity 20 --seed 1 -o tiles.txt
    """
    from ..encoders.jigsaw.generate import generate

    report_phase("generate")
    write_text_atomic(output, generate(size, tile, ambiguity, seed, timeout))


@command.command("jig")
@click.option("--rows", type=click.IntRange(min=1), required=True)
@click.option("--cols", type=click.IntRange(min=1), required=True)
@click.option("--types", type=click.IntRange(min=1), default=6, show_default=True, help="Tab types.")
@click.option("--flat", type=click.FloatRange(0, 1, max_open=True), default=0.0, show_default=True,
              help="Chance that an inner edge is flat on both sides (flat sides inside make look-alike pieces).")
@seed_option
@output_option
@timeout_option
def jig(rows: int, cols: int, types: int, flat: float, seed: int, output: str, timeout: Deadline) -> None:
    """A random jig puzzle (it has at least the solution it was cut from).

    \b
    Example:
      puzzlesat generate jig --rows 6 --cols 6 --types 4 --seed 2 -o six.jig
      puzzlesat generate jig --rows 4 --cols 7 --types 2 --flat 0.25 --seed 5 -o flat.jig
    """
    from ..encoders.jig.generate import generate

    report_phase("generate")
    write_text_atomic(output, generate(rows, cols, types, seed, flat))


@command.command("amphipod")
@click.option("--rooms", type=click.IntRange(min=1, max=10), default=4, show_default=True, help="Rooms (types A, B, ...).")
@click.option("--depth", type=click.IntRange(min=1), default=2, show_default=True, help="Slots per room.")
@seed_option
@output_option
@timeout_option
def amphipod(rooms: int, depth: int, seed: int, output: str, timeout: Deadline) -> None:
    """A random amphipod burrow with a plan (solvability proven by the SAT solver). Solve it with
    --no-unfold unless it has 4 rooms.

    \b
    Example:
      puzzlesat generate amphipod --rooms 5 --depth 3 --seed 1 -o burrow.txt
    """
    from ..encoders.amphipod.generate import generate

    report_phase("generate")
    write_text_atomic(output, generate(rooms, depth, seed))


@command.command("dice")
@click.option("--track", type=click.IntRange(min=1), default=10, show_default=True,
              help="Track length (starts are drawn from 1..track; solve with the same --track).")
@seed_option
@output_option
@timeout_option
def dice(track: int, seed: int, output: str, timeout: Deadline) -> None:
    """Random starting positions for Dirac Dice (the game's other parameters are options of solve).

    \b
    Example:
      puzzlesat generate dice --seed 3 -o dice.txt
    """
    from ..encoders.dice.generate import generate

    report_phase("generate")
    write_text_atomic(output, generate(track, seed))
