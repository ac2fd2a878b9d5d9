"""``puzzlesat generate PUZZLE``: new instances. Each puzzle that declares a generator
(:class:`~puzzlesat.core.declared.Generator`) is a subcommand with the parameters it declares, built
here; a plug-in's generator is one like a built-in's."""
from __future__ import annotations

from typing import Any

import click

from ..core.declared import Generator
from ..core.errors import PuzzlesatError, did_you_mean
from ..core.files import write_text_atomic
from ..core.reporting import report_phase
from ..core.timing import Deadline
from .declared import DeclaredOption
from .options import timeout_option
from .supervised import SupervisedCommand

output_option = click.option("-o", "--output", default="-", type=click.Path(dir_okay=False, allow_dash=True),
                             help="Output file (default: stdout).")
seed_option = click.option("--seed", type=int, default=0, show_default=True, help="Random seed (same seed, same puzzle).")


def generator_of(name: str) -> Generator | None:
    """The generator the puzzle of that name declares (None: it has none, or there is no such puzzle)."""
    from ..encoders import get_puzzle

    try:
        return get_puzzle(name).generator
    except PuzzlesatError:
        return None


def generator_command(name: str, generator: Generator) -> click.Command:
    """The subcommand of one puzzle's generator: its declared parameters, then --seed, -o and --timeout."""

    from ..encoders import get_puzzle

    spellings = get_puzzle(name).spellings

    def make(seed: int, output: str, timeout: Deadline, spelling: str | None = None, **parameters: Any) -> None:
        report_phase("generate")
        given = {key.split("__", 1)[1]: value for key, value in parameters.items()}
        text = generator.make(seed=seed, deadline=timeout, **given)
        if spelling is not None:  # the puzzle as another tool spells it
            puzzle = get_puzzle(name)
            text = puzzle.spell(puzzle.parse(text, "generated"), spelling) + "\n"
        write_text_atomic(output, text)

    command: click.Command = SupervisedCommand(
        name, callback=make, help=f"{generator.summary}\n\n{generator.description}", short_help=generator.summary,
        params=[DeclaredOption(option, "generator", f"Options of {name}") for option in generator.parameters])
    extra = [click.option("--format", "spelling", type=click.Choice(spellings),
                          help="Write the puzzle in this spelling for other tools (url: a puzz.link URL) instead of "
                               "the puzzle's own file format.")] if spellings else []
    for decorate in (seed_option, output_option, timeout_option, *extra):
        command = decorate(command)
    return command


class _Generators(click.Group):
    """The puzzles that declare a generator, each a subcommand made when it is named."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from ..encoders import builtin_names

        return [name for name in builtin_names() if generator_of(name) is not None]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The built-in generators, then the plug-in puzzles by name: listing them does not import them
        (a plug-in's import may be slow, and a help that lists it should not wait for it)."""
        super().format_commands(ctx, formatter)
        from ..encoders import builtin_names, puzzle_names

        others = [name for name in puzzle_names() if name not in builtin_names()]
        if others:
            with formatter.section("Plug-in puzzles"):
                formatter.write_text(f"{', '.join(others)}: 'puzzlesat generate NAME --help' says whether NAME "
                                     "declares a generator.")

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        generator = generator_of(name)
        return generator_command(name, generator) if generator is not None else None

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """A puzzle with no generator is named and refused in one line, with the ones that have one."""
        from ..encoders import puzzle_names

        if args and args[0] in puzzle_names() and generator_of(args[0]) is None:
            raise PuzzlesatError(f"generate: {args[0]} has no generator (generators: "
                                 f"{', '.join(self.list_commands(ctx))})")
        if args and not args[0].startswith("-") and args[0] not in puzzle_names():
            raise click.UsageError(f"No such puzzle '{args[0]}'.{did_you_mean(args[0], puzzle_names())}", ctx)
        return super().resolve_command(ctx, args)


@click.group("generate", cls=_Generators)
def command() -> None:
    """Generate puzzle instances (each puzzle's generator has its own parameters; same seed, same puzzle).

    \b
    Example:
      puzzlesat generate aquarium --size 30 --seed 7 -o a30.txt && puzzlesat solve aquarium a30.txt
      puzzlesat generate jig --rows 6 --cols 6 --types 4 --seed 2 -o six.jig && puzzlesat count jig six.jig
    """
