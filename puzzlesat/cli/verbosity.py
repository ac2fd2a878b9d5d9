"""``-q/--quiet`` and ``-v/--verbose``: how much a command says, the same way on every command.

Quiet prints the answers only (the solution, its answers, a count, a cross-check's verdict), so that a
script reads them without the commentary; verbose adds each phase as it starts, with the time since the
command began, on stderr. Errors are one line on stderr whatever the level. The level lives in click's
context (``meta``), set once by :class:`SupervisedCommand` or :class:`VerboseCommand` before the command
runs; the commands ask :func:`note` to print commentary, which quiet drops.
"""
from __future__ import annotations

import time
from typing import Any

import click

QUIET, NORMAL, VERBOSE = -1, 0, 1
_KEY = "puzzlesat.verbosity"


def add_options(command: click.Command) -> None:
    """Give ``command`` its ``-q/--quiet`` and ``-v/--verbose`` flags."""
    command.params.append(click.Option(["-q", "--quiet"], is_flag=True,
                                       help="Print the answers only (no commentary, no times)."))
    command.params.append(click.Option(["-v", "--verbose"], is_flag=True,
                                       help="Also print each phase as it starts, with the time so far, on stderr."))


def take(ctx: click.Context) -> int:
    """Move the flags out of the command's parameters into the context; the level they set."""
    quiet, verbose = ctx.params.pop("quiet", False), ctx.params.pop("verbose", False)
    if quiet and verbose:
        raise click.UsageError("--quiet and --verbose exclude each other", ctx)
    ctx.meta[_KEY] = QUIET if quiet else VERBOSE if verbose else NORMAL
    return int(ctx.meta[_KEY])


def level() -> int:
    ctx = click.get_current_context(silent=True)
    return int(ctx.meta.get(_KEY, NORMAL)) if ctx is not None else NORMAL


def note(text: str, err: bool = False) -> None:
    """Commentary: printed unless ``--quiet``."""
    if level() > QUIET:
        click.echo(text, err=err)


def phase_printer() -> Any:
    """For ``--verbose``: a function that prints a phase's name with the time since now, on stderr."""
    start = time.monotonic()

    def started(name: str) -> None:
        click.echo(f"[{time.monotonic() - start:7.2f} s] {name}", err=True)
    return started


class VerboseCommand(click.Command):
    """A command that is not supervised (``backends``) with the same flags."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_options(self)

    def invoke(self, ctx: click.Context) -> Any:
        take(ctx)
        return super().invoke(ctx)
