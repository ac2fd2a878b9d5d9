"""``puzzlesat export``: the encoding as DIMACS (with a variable map) or SMT-LIB2, for any solver."""

from __future__ import annotations

from typing import Any

import click

from ..core.files import write_text_atomic
from ..encoders import get_puzzle
from ..formats.dimacs import to_dimacs, variable_map_json
from ..formats.smt2 import to_smt2
from ..solving import load
from .options import (
    cnf_options,
    common,
    encoder_options,
    instance_input,
    puzzle_argument,
    reading,
)


@click.command("export")
@common(puzzle_argument, instance_input)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Output file ('-' for stdout). DIMACS also writes OUT.vars.json beside it.",
)
@click.option("--format", "fmt", type=click.Choice(["dimacs", "smt2"]), default="dimacs", show_default=True)
@cnf_options
def command(
    puzzle: str,
    file: str,
    output: str,
    fmt: str,
    cardinality: str | None,
    pb: str | None,
    **read: Any,
) -> None:
    """Write the encoding of FILE for an external solver.

    \b
    Example:
      puzzlesat export aquarium instances/aquarium/pa-6x6-easy-681742.txt -o a.cnf
      cadical a.cnf > a.out; puzzlesat decode aquarium instances/aquarium/pa-6x6-easy-681742.txt --model a.out
    """
    spec = get_puzzle(puzzle)
    instance = load(spec, file, None, **reading(read))
    title = f"puzzlesat {puzzle} {file}"
    if fmt == "dimacs":
        encoding = spec.encode(instance, "cnf", **encoder_options(cardinality, pb))
        text = to_dimacs(encoding, title)
        if output != "-":
            write_text_atomic(output + ".vars.json", variable_map_json(encoding, puzzle, file))
    else:
        encoding = spec.encode(instance, "smt")
        text = to_smt2(encoding, title)
    write_text_atomic(output, text)
    if output != "-":
        sizes = ", ".join(f"{v} {k}" for k, v in encoding.size().items())
        click.echo(f"wrote {output} ({fmt}: {sizes})", err=True)
