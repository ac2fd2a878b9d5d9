"""``puzzlesat explain``: why the solution is the solution, step by step, each step replayed and checked."""
from __future__ import annotations

import click

from ..core.errors import EndedEarly
from ..core.files import write_bytes_atomic, write_text_atomic
from ..core.reporting import report_phase
from ..core.timing import Deadline
from ..deduction.picture import steps_picture
from ..encoders import get_puzzle
from ..formats.picture import to_png, to_svg
from ..pipeline.explaining import explain_instance
from ..pipeline.steps import load
from .declared import PuzzleCommand, reading_given
from .options import (
    check_picture_outputs,
    common,
    echo_json,
    instance_input,
    json_option,
    puzzle_argument,
    timeout_option,
)


@click.command("explain", cls=PuzzleCommand, inputs=("file",))
@common(puzzle_argument, instance_input)
@json_option
@click.option("--svg", type=click.Path(dir_okay=False), default=None,
              help="Draw every step into an SVG picture: a small grid each, titled with its facts.")
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="The same picture as PNG.")
@click.option("--certify", is_flag=True,
              help="Back every step's UNSAT answers with DRAT proofs, checked by puzzlesat's own checker.")
@timeout_option
def command(puzzle: str, file: str, as_json: bool, svg: str | None, png: str | None, certify: bool,
            timeout: Deadline) -> None:
    """Explain FILE's solution (aquarium, jigsaw, jig): steps from the empty grid to the solution, each
    fixing cells by the fewest puzzle facts that force them ("row 3 count", "region 7 fills level by
    level", "r2c3 and r2c4 fit"), found as small unsatisfiable cores over the facts the encoder labels.
    A tiling starts from the placements left after arc consistency, with its symmetry broken as when
    solving (one arrangement of each class).

    Every step is replayed from scratch (only its facts and the cells fixed before it; one solver call
    per cell, which must be UNSAT with the cell set otherwise) and the solution is checked by the
    independent checker. A puzzle that is not unique is said to be so, with what is forced and two
    solutions that differ; one with no solution, with a minimal set of facts that cannot hold together.
    The difficulty is the number of steps and the most facts one step needs. --svg / --png draw every
    step: the cells fixed before it in blue (water, placed) and grey (dry), the cells it fixes in orange.

    \b
    Example:
      puzzlesat explain aquarium instances/aquarium/pa-6x6-hard-1001841.txt --svg steps.svg
      puzzlesat explain aquarium instances/aquarium/pa-15x15-hard-1013539.txt --json --certify
    """
    spec = get_puzzle(puzzle)
    check_picture_outputs(png, svg)
    instance = load(spec, file, None, **reading_given(spec))
    report_phase("explain")  # what a limit that strikes from here on names (it said 'parse')
    explained = explain_instance(spec, instance, certify=certify, deadline=timeout)
    if png or svg:
        picture = steps_picture(explained.explanation)
        if png:
            write_bytes_atomic(png, to_png(picture))
        if svg:
            write_text_atomic(svg, to_svg(picture))
    if as_json:
        echo_json(explained.to_json() | {"source": file}, "explain")
    else:
        click.echo(explained.render())
    if explained.stopped is not None:  # the steps found are printed: the stop's line and exit code
        raise EndedEarly(f"{explained.stopped.message}; by then: {explained.progress()}", explained.stopped.exit_code)
    if not explained.explanation.solved:
        raise SystemExit(1)
