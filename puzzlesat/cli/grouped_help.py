"""How a command's ``--help`` lists its options: the command's own first, then, under a heading of their
own, the options that say how one puzzle's input is read (:class:`ReadingOption`). Only click here, so
that every command (and ``puzzlesat --help``) can use it without importing the puzzles."""
from __future__ import annotations

import click


class ReadingOption(click.Option):
    """An option that says how one puzzle's input is read (a jigsaw's rows, the dice game's rules): a
    command's ``--help`` lists these under a heading of their own, after the command's own options."""


#: the heading they are listed under
READING_HEADING = "Reading options (each puzzle takes its own)"


def format_grouped_options(command: click.Command, ctx: click.Context, formatter: click.HelpFormatter) -> None:
    """A command's options for ``--help``: its own first, then the puzzles' reading options apart."""
    own: list[tuple[str, str]] = []
    puzzles: list[tuple[str, str]] = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx) if isinstance(param, click.Option) else None  # arguments: in Usage
        if record is not None:
            (puzzles if isinstance(param, ReadingOption) else own).append(record)
    for heading, records in (("Options", own), (READING_HEADING, puzzles)):
        if records:
            with formatter.section(heading):
                formatter.write_dl(records)
