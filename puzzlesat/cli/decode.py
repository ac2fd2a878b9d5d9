"""``puzzlesat decode``: read an external solver's answer to an exported DIMACS, decode and check it."""

from __future__ import annotations

from typing import Any

import click

from ..core.errors import PuzzlesatError
from ..core.files import read_text
from ..core.model import CnfModel
from ..core.result import Status
from ..core.timing import Stopwatch
from ..encoders import get_puzzle
from ..formats.dimacs import parse_solver_output, violated_clause
from ..solving import Report, checked_solution, load
from .export import export_options, exported_kind, player_option
from .options import (
    cnf_options,
    common,
    echo_json,
    encoding_option,
    instance_input,
    json_option,
    picture_options,
    puzzle_argument,
    reading,
    timeout_option,
    write_pictures,
)
from .supervised import SupervisedCommand


@click.command("decode", cls=SupervisedCommand, inputs=("file", "model_path"))
@common(puzzle_argument, instance_input)
@click.option(
    "--model",
    "model_path",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="What the solver printed (SAT-competition format: 's ...' and 'v ... 0' lines).",
)
@encoding_option
@player_option
@cnf_options
@json_option
@picture_options
@timeout_option
def command(
    puzzle: str,
    file: str,
    model_path: str,
    kind: str | None,
    player: int,
    cardinality: str | None,
    pb: str | None,
    as_json: bool,
    png: str | None,
    svg: str | None,
    timeout: float | None,
    **read: Any,
) -> None:
    """Decode a solver's model of the DIMACS exported from FILE (same options as the export), and check it.

    For amphipod the exported DIMACS holds the hard clauses only: a model is a legal plan, checked, but
    not proven cheapest (optimise with a MaxSAT solver on --format wcnf, or with puzzlesat solve). For
    dice a model is one universe won by --player.

    \b
    Example:
      puzzlesat decode aquarium instances/aquarium/pa-6x6-easy-681742.txt --model cadical.out
    """
    spec = get_puzzle(puzzle)
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading(read))
    with watch.phase("encode"):
        kind = exported_kind(spec, "dimacs", kind)
        encoding = spec.encode(instance, kind, export_options(spec, "dimacs", player, cardinality, pb))
    with watch.phase("parse"):
        status, literals = parse_solver_output(read_text(model_path), model_path)
    report = Report(puzzle, file, f"decode:{model_path}", kind, status.value, size=encoding.size(), times=watch.times)
    if status == Status.SAT:
        bad = [lit for lit in literals if abs(lit) > encoding.num_vars]
        if bad:
            raise PuzzlesatError(
                f"{model_path}: literal {bad[0]} is beyond the encoding's "
                f"{encoding.num_vars} variables: not a model of this export"
            )
        broken = violated_clause(encoding.clauses, literals)
        if broken is not None:
            raise PuzzlesatError(f"{model_path}: the model violates clause {broken + 1} of the export "
                                 f"({' '.join(map(str, encoding.clauses[broken][:8]))}"
                                 f"{' ...' if len(encoding.clauses[broken]) > 8 else ''} 0)")
        solution = checked_solution(
            spec, instance, encoding, CnfModel.from_literals(literals, encoding.num_vars), model_path, watch
        )
        report.answers, report.checked = dict(solution.answers()), True
        write_pictures(spec, instance, solution, png, svg)
    if as_json:
        echo_json(report.to_json())
    elif status == Status.SAT:
        click.echo(solution.render())
        click.echo("checked: yes (independent checker)")
    else:
        click.echo(f"the solver says {status.value}")
    if status != Status.SAT:
        raise SystemExit(1)
