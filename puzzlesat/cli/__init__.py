"""The ``puzzlesat`` command line (click). Each command lives in its own module."""
from __future__ import annotations

import importlib
import sys

import click

from ..core import plugins
from ..core.errors import did_you_mean
from ..core.version import __version__
from .supervised import fail_usage, import_limits, run_reported


class _Group(click.Group):
    """Turns every expected failure into one line on stderr and its exit code (docs/limits.md, "Limits, signals and exit codes");
    loads a command's module when the command is run (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        command: click.Command = importlib.import_module(f"{__name__}.{COMMANDS[name][0]}").command
        return command

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """A misspelt command is named with the closest one ("puzzlesat slove")."""
        if args and not args[0].startswith("-") and args[0] not in COMMANDS:
            raise click.UsageError(f"No such command '{args[0]}'.{did_you_mean(args[0], COMMANDS)}", ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in sorted(COMMANDS.items())])

    def invoke(self, ctx: click.Context) -> None:
        # a count over a formula file's header variables may have more digits than Python prints by
        # default (4,300: 'p cnf 20000 0' has 2^20000 models, 6,021 digits), as counters print them
        sys.set_int_max_str_digits(0)
        sys.exit(run_reported(lambda: super(_Group, self).invoke(ctx)))

    def main(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """Click's own usage errors too are one line, with the arguments they quote escaped."""
        given = list(args[0]) if args and args[0] is not None else kwargs.get("args") or sys.argv[1:]
        plugins.IMPORT_LIMITS = import_limits(given)
        try:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.NoArgsIsHelpError as exc:  # a bare 'puzzlesat' asks what there is
            assert exc.ctx is not None, "click raises it with the group's context"
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.ClickException as exc:
            sys.exit(fail_usage(exc))
        except click.exceptions.Abort:
            sys.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="puzzlesat", message="%(prog)s %(version)s")
def main() -> None:
    """Logic puzzles as SAT and SMT problems: encode, solve with any backend, decode, check.

    \b
    Example:
      puzzlesat solve aquarium instances/aquarium/pa-15x15-hard-1013539.txt
      puzzlesat crosscheck aquarium instances/aquarium/pa-6x6-easy-681742.txt --backends cadical,kissat,z3
    """


#: command -> (its module, the one-line summary 'puzzlesat --help' lists): the commands are imported
#: only when run, so that listing them imports no solver (tests/test_startup.py checks both)
COMMANDS = {
    "backends": ("backends_cmd", "List every backend with its capabilities and whether it is available here."),
    "bench": ("bench_cmd", "Time every instance with every backend and the solver-free reference."),
    "compile": ("compile_cmd", "Compile the numba kernels ahead (the proof checker, the puzzles' searches)."),
    "count": ("count", "Count all solutions of FILE, by enumeration or with an exact counter."),
    "crosscheck": ("crosscheck", "Solve FILE with every backend (each of its encodings) and the reference."),
    "decode": ("decode", "Decode a solver's answer to the export of FILE, and check it."),
    "explain": ("explain", "Explain FILE's solution step by step, in puzzle terms, each step checked."),
    "export": ("export", "Write the encoding of FILE for an external solver, with a variable map."),
    "generate": ("generate", "Generate puzzle instances."),
    "serve": ("serve_cmd", "Serve puzzlesat in a browser on this machine: solve, check and hint from a page."),
    "solve": ("solve", "Solve FILE, check the solution independently, and prove it unique where it should be."),
}
