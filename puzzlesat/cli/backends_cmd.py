"""``puzzlesat backends``: what solvers exist, what they can do, and whether they work here."""
from __future__ import annotations

import shutil
from typing import Any

import click

from ..backends import DEFAULT_BACKEND, aliases, all_backends
from ..backends.external import ExternalBackend
from .options import echo_json, json_option
from .verbosity import QUIET, VERBOSE, VerboseCommand, level, note

#: DIMACS solver binaries worth probing for on the PATH (any other works as external:NAME too)
KNOWN_BINARIES = ("cadical", "kissat", "cryptominisat5", "picosat", "glucose", "lingeling")


@click.command("backends", cls=VerboseCommand)
@json_option
def command(as_json: bool) -> None:
    """List every backend with its capabilities and whether it is available here.

    \b
    Example:
      puzzlesat backends --json
    """
    backends = all_backends() + [ExternalBackend(b) for b in KNOWN_BINARIES if shutil.which(b)]
    short: dict[str, list[str]] = {}
    for name, full in aliases().items():
        short.setdefault(full, []).append(name)
    rows: list[dict[str, Any]] = []
    for b in backends:
        reason = b.missing()
        rows.append({"name": b.name, "available": reason is None, "capabilities": sorted(b.capabilities),
                     "aliases": sorted(short.get(b.name, [])), "default": b.name == DEFAULT_BACKEND,
                     "description": b.description, **({"reason": reason} if reason else {})})
    if as_json:
        echo_json({"backends": rows}, "backends")
        return
    name_width = max(len(row["name"]) for row in rows)
    capability_width = max(len(",".join(row["capabilities"])) for row in rows)
    for row in rows:
        if level() == QUIET:  # the names that work here, one a line
            if row["available"]:
                click.echo(row["name"])
            continue
        state = "yes" if row["available"] else f"no ({row['reason']})"
        extra = f"  aliases: {', '.join(row['aliases'])}" if row["aliases"] else ""
        default = "  (default)" if row["default"] else ""
        click.echo(f"{row['name']:<{name_width}}  {','.join(row['capabilities']):<{capability_width}}  "
                   f"available: {state}{extra}{default}")
        if level() == VERBOSE:
            click.echo(f"{'':<{name_width}}  {row['description']}")
    note("Any DIMACS solver binary on the PATH works as external:BINARY; portfolio:NAME,NAME,... races "
               "several backends in separate processes and keeps the first answer.")
