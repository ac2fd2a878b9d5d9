"""``puzzlesat export``: the encoding as DIMACS (with a variable map) or SMT-LIB2, for any solver."""

from __future__ import annotations

from typing import Any

import click

from ..core.errors import PuzzlesatError
from ..core.files import publish, write_text_atomic, writes_a_file
from ..core.options import EncoderOptions
from ..core.puzzle import Puzzle
from ..core.timing import Stopwatch
from ..encoders import get_puzzle
from ..formats.dimacs import to_dimacs, to_mcc, to_wcnf, variable_map_json
from ..formats.smt2 import to_smt2
from ..solving import load
from .options import (
    cnf_options,
    common,
    encoder_options,
    encoding_option,
    instance_input,
    puzzle_argument,
    reading,
    timeout_option,
)
from .supervised import SupervisedCommand


def exported_kind(spec: Puzzle[Any, Any, Any], fmt: str, kind: str | None) -> str:
    """The encoding a format carries: the one asked for, else the puzzle's first of the right formula
    kind. ``decode`` calls this too, so a model is always read against the encoding that was exported."""
    if fmt == "smt2":
        kind = kind or next((k for k in spec.encodings if spec.formula_kind(k) == "smt"), "smt")
    else:
        kind = kind or next((k for k in spec.encodings if spec.formula_kind(k) == "cnf"), spec.encodings[0])
    if kind not in spec.encodings or (spec.formula_kind(kind) == "smt") != (fmt == "smt2"):
        raise PuzzlesatError(f"--format {fmt} does not fit {spec.name}'s {kind} encoding "
                             f"(it has: {', '.join(spec.encodings)})")
    return kind


def export_options(spec: Puzzle[Any, Any, Any], fmt: str, player: int, cardinality: str | None,
                   pb: str | None) -> EncoderOptions:
    """Encoder options of an export (and of the matching decode)."""
    options = encoder_options(cardinality, pb) if fmt != "smt2" else {}
    if "player" in spec.task.options:  # dice: whose winning universes the formula describes
        options["winner"] = player - 1
    chosen: EncoderOptions = spec.options(**options)
    return chosen


player_option = click.option("--player", type=click.IntRange(1, 2), default=1, show_default=True,
                             help="Dice: whose winning universes the counting formula describes.")


@click.command("export", cls=SupervisedCommand)
@common(puzzle_argument, instance_input)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Output file ('-' for stdout). DIMACS also writes OUT.vars.json beside it.",
)
@click.option("--format", "fmt", type=click.Choice(["dimacs", "wcnf", "mcc", "smt2"]), default="dimacs",
              show_default=True, help="dimacs (SAT), wcnf (MaxSAT: amphipod's soft clauses), mcc (projected model "
                                      "counting: dice, and any puzzle's solution count), smt2.")
@encoding_option
@player_option
@cnf_options
@timeout_option
def command(
    puzzle: str,
    file: str,
    output: str,
    fmt: str,
    kind: str | None,
    player: int,
    cardinality: str | None,
    pb: str | None,
    timeout: float | None,
    **read: Any,
) -> None:
    """Write the encoding of FILE for an external solver.

    \b
    Example:
      puzzlesat export aquarium instances/aquarium/pa-6x6-easy-681742.txt -o a.cnf
      cadical a.cnf > a.out; puzzlesat decode aquarium instances/aquarium/pa-6x6-easy-681742.txt --model a.out
      puzzlesat export dice instances/aoc/2021-21/example.txt --format mcc --player 2 -o p2.cnf
      puzzlesat export amphipod instances/aoc/2021-23/example.txt --format wcnf -o burrow.wcnf
    """
    spec = get_puzzle(puzzle)
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading(read))
    title = f"puzzlesat {puzzle} {file}"
    kind = exported_kind(spec, fmt, kind)
    with watch.phase("encode"):
        encoding = spec.encode(instance, kind, export_options(spec, fmt, player, cardinality, pb))
    if fmt == "wcnf" and not encoding.soft:
        raise PuzzlesatError(f"--format wcnf: {puzzle}'s {kind} encoding has no soft clauses (nothing to optimise)")
    text = {"dimacs": to_dimacs, "wcnf": to_wcnf, "mcc": to_mcc, "smt2": to_smt2}[fmt](encoding, title)
    if fmt != "smt2" and writes_a_file(output):  # the map goes beside a file, not beside a device or pipe
        publish([(output, text.encode()), (output + ".vars.json", variable_map_json(encoding, puzzle, file).encode())])
    else:
        write_text_atomic(output, text)
    if output != "-":
        sizes = ", ".join(f"{v} {k}" for k, v in encoding.size().items())
        click.echo(f"wrote {output} ({fmt}: {sizes})", err=True)
