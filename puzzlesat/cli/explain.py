"""``puzzlesat explain``: why the solution is the solution, step by step, each step replayed and checked."""
from __future__ import annotations

from typing import Any

import click

from ..core.errors import EndedEarly
from ..core.files import read_text, write_bytes_atomic, write_text_atomic
from ..core.puzzle import Puzzle
from ..core.reporting import report_phase
from ..core.timing import Deadline
from ..deduction.picture import hint_picture, steps_picture
from ..encoders import get_puzzle
from ..formats.picture import to_png, to_svg
from ..pipeline.explaining import explain_instance
from ..pipeline.hinting import hint_instance
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


@click.command("explain", cls=PuzzleCommand, inputs=("file", "marks"))
@common(puzzle_argument, instance_input)
@json_option
@click.option("--svg", type=click.Path(dir_okay=False), default=None,
              help="Draw every step into an SVG picture: a small grid each, titled with its facts.")
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="The same picture as PNG.")
@click.option("--certify", is_flag=True,
              help="Back every step's UNSAT answers with DRAT proofs, checked by puzzlesat's own checker.")
@click.option("--from", "marks", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="MARKS",
              help="A hint from a player's marks instead: MARKS (a file, - for stdin) is the grid in the solution's "
                   "text format with ? for a cell not marked (# water and . dry, or a piece's ID/ORIENTATION per "
                   "cell). Says each mark no solution has, with the facts that refute it; with none wrong, the "
                   "next step from the marks.")
@timeout_option
def command(puzzle: str, file: str, as_json: bool, svg: str | None, png: str | None, certify: bool,
            marks: str | None, timeout: Deadline) -> None:
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

    With --from MARKS it gives a hint from a player's marks instead: each mark no solution has, with the
    facts that refute it; with none wrong, the next step from the marks (every claim replayed the same
    way; --svg / --png draw the marks, the wrong ones ringed in red, the next step in orange).

    \b
    Example:
      puzzlesat explain aquarium instances/aquarium/pa-6x6-hard-1001841.txt --svg steps.svg
      puzzlesat explain aquarium instances/aquarium/pa-15x15-hard-1013539.txt --json --certify
      puzzlesat explain aquarium instances/aquarium/pa-6x6-easy-681742.txt --from instances/aquarium/pa-6x6-easy-681742.marks
    """
    spec = get_puzzle(puzzle)
    check_picture_outputs(png, svg)
    instance = load(spec, file, None, **reading_given(spec))
    if marks is not None:
        hint(spec, instance, marks, as_json, certify, timeout, file, png, svg)
        return
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


def hint(spec: Puzzle[Any, Any, Any], instance: Any, marks: str, as_json: bool, certify: bool, timeout: Deadline,
         source: str, png: str | None, svg: str | None) -> None:
    """``explain --from MARKS``: the hint, as text or JSON; exit 1 where the puzzle has no solution or the
    marks leave several with nothing forced (as ``explain`` where it does not solve)."""
    text = read_text(marks)
    report_phase("explain")
    hinted = hint_instance(spec, instance, text, marks, certify=certify, deadline=timeout)
    if png or svg:
        picture = hint_picture(hinted.hint, hinted.marked)
        if png:
            write_bytes_atomic(png, to_png(picture))
        if svg:
            write_text_atomic(svg, to_svg(picture))
    if as_json:
        echo_json(hinted.to_json() | {"source": source}, "hint")
    else:
        click.echo(hinted.render())
    if hinted.stopped is not None:
        raise EndedEarly(f"{hinted.stopped.message}; by then: {hinted.progress()}", hinted.stopped.exit_code)
    if hinted.hint.conflict or hinted.hint.differing:
        raise SystemExit(1)
