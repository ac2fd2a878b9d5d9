"""The ``puzzlesat`` command line (click). Each command lives in its own module."""
from __future__ import annotations

import os
import sys

import click

from ..core.errors import PuzzlesatError


class _Group(click.Group):
    """Turns every expected failure into one line on stderr and a non-zero exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PuzzlesatError as exc:
            _fail(str(exc), 2)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(1)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as exc:  # a bug: still one line, with PUZZLESAT_DEBUG=1 for the traceback
            if os.environ.get("PUZZLESAT_DEBUG"):
                raise
            _fail(f"internal error: {type(exc).__name__}: {exc} (set PUZZLESAT_DEBUG=1 for details)", 3)


def _fail(message: str, code: int) -> None:
    click.echo(f"puzzlesat: error: {message}", err=True)
    sys.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
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
