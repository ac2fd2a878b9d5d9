"""How a command's ``--help`` lists its options: the command's own first, then, under a heading of their
own, the options the puzzle named declares (:class:`~puzzlesat.cli.declared.DeclaredOption`, which
carries its ``heading``). Only click here, so that every command (and ``puzzlesat --help``) can use it
without importing the puzzles."""
from __future__ import annotations

import click


def format_grouped_options(command: click.Command, ctx: click.Context, formatter: click.HelpFormatter) -> None:
    """A command's options for ``--help``: its own first, then each puzzle's declared ones apart."""
    sections: dict[str, list[tuple[str, str]]] = {"Options": []}
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx) if isinstance(param, click.Option) else None  # arguments: in Usage
        if record is not None:
            sections.setdefault(getattr(param, "heading", "Options"), []).append(record)
    for heading, records in sections.items():
        if records:
            with formatter.section(heading):
                formatter.write_dl(records)
