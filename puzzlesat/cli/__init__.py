"""The ``puzzlesat`` command line (click). Each command lives in its own module."""
from __future__ import annotations

import sys

import click

from .. import __version__
from .supervised import fail_usage, run_reported


class _Group(click.Group):
    """Turns every expected failure into one line on stderr and its exit code (README, "Exit codes")."""

    def invoke(self, ctx: click.Context) -> None:
        sys.exit(run_reported(lambda: super(_Group, self).invoke(ctx)))

    def main(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """Click's own usage errors too are one line, with the arguments they quote escaped."""
        try:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
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


def _register() -> None:
    from . import (
        backends_cmd,
        bench_cmd,
        count,
        crosscheck,
        decode,
        export,
        generate,
        solve,
    )

    for module in (solve, count, export, decode, crosscheck, generate, backends_cmd, bench_cmd):
        main.add_command(module.command)


_register()
