"""``puzzlesat crosscheck``: several backends and the reference must agree, or the command fails."""

from __future__ import annotations

from typing import Any

import click

from ..core.errors import PuzzlesatError
from ..crosscheck import (
    crosscheck,
    crosscheck_counts,
    crosscheck_optima,
    crosscheck_universes,
    default_backends,
)
from ..encoders import get_puzzle
from ..solving import load
from .options import (
    backend_list,
    cnf_options,
    common,
    echo_json,
    encoder_options,
    format_seconds,
    instance_input,
    json_option,
    puzzle_argument,
    reading,
    timeout_option,
)


@click.command("crosscheck")
@common(puzzle_argument, instance_input)
@click.option(
    "--backends", default=None, help="Comma-separated backend names, a portfolio written portfolio:A+B "
    "(default: every available backend that fits)."
)
@click.option(
    "--count",
    "by_count",
    is_flag=True,
    help="Compare solution counts (total and per symmetry class) instead of one solution; "
    "always on for jig, whose solutions are not unique.",
)
@common(cnf_options, timeout_option, json_option)
def command(
    puzzle: str,
    file: str,
    backends: str | None,
    by_count: bool,
    cardinality: str | None,
    pb: str | None,
    timeout: float | None,
    as_json: bool,
    **read: Any,
) -> None:
    """Solve FILE with every backend (each of its encodings) and the reference; compare everything.

    Every method, the reference included, runs under --timeout. Exits 1 and names the culprit on any
    disagreement, failed check or error, and exits 1 when no method answers in time.

    \b
    Example:
      puzzlesat crosscheck aquarium instances/aquarium/pa-15x15-hard-1013539.txt --backends cadical,kissat,z3
      puzzlesat crosscheck jig instances/jig/matt5x5.jig --backends cadical,glucose,z3
      puzzlesat crosscheck amphipod instances/aoc/2021-23/example.txt --timeout 20
      puzzlesat crosscheck dice instances/aoc/2021-21/example.txt --target 8 --sides 2
    """
    spec = get_puzzle(puzzle)
    instance = load(spec, file, None, **reading(read))
    names = backend_list(backends) if backends else default_backends(spec)
    by_count = by_count or getattr(spec, "crosscheck_by_count", False)
    if by_count and not hasattr(spec, "count_labels"):
        raise PuzzlesatError(f"{puzzle} has no solution count to compare")
    run = (crosscheck_counts if by_count else crosscheck_optima if spec.optimizes
           else crosscheck_universes if spec.counts_universes else crosscheck)
    rows = run(spec, instance, names, timeout, encoder_options(cardinality, pb))
    culprits = [row for row in rows if not row.agrees and row.status not in ("TIMEOUT", "SKIPPED")]
    timeouts = [row for row in rows if row.status in ("TIMEOUT", "SKIPPED")]
    if as_json:
        echo_json(
            {
                "puzzle": puzzle,
                "source": file,
                "agree": not culprits and len(timeouts) < len(rows),
                "rows": [
                    {
                        "method": r.method,
                        "status": r.status,
                        "seconds": round(r.seconds, 6),
                        "answers": r.answers,
                        "agrees": r.agrees,
                        "error": r.error,
                    }
                    for r in rows
                ],
            }
        )
    else:
        width = max(len(r.method) for r in rows)
        click.echo(f"{'method':<{width}}  {'status':<7} {'time':>10}  {'answer':<34} agrees")
        for r in rows:
            mark = ("yes" if r.agrees else "- (timed out)" if r.status == "TIMEOUT"
                    else f"- ({r.error})" if r.status == "SKIPPED" else f"NO {r.error}".rstrip())
            click.echo(
                f"{r.method:<{width}}  {r.status:<7} {format_seconds(r.seconds):>10}  {_numbers(r.answers):<34} {mark}"
            )
        click.echo(_summary(len(rows) - len(timeouts), len(timeouts), culprits))
    if culprits or len(timeouts) == len(rows):
        raise SystemExit(1)


def _summary(agreeing: int, timeouts: int, culprits: list) -> str:
    """The verdict line: the culprits, or how many methods agree (none answering compares nothing)."""
    if culprits:
        return "DISAGREEMENT: " + ", ".join(r.method for r in culprits)
    if not agreeing:
        return f"NOTHING COMPARED: all {timeouts} methods timed out or were skipped"
    counted = f"{agreeing} method agrees" if agreeing == 1 else f"{agreeing} methods agree"
    return counted + (f", {timeouts} timed out or skipped" if timeouts else "")


def _numbers(answers: dict | None) -> str:
    """The scalar answers (counts, parts, uniqueness) for the table; grids and layouts are left out."""
    if not answers:
        return "-"
    return " ".join(f"{k}={v}" for k, v in answers.items() if isinstance(v, (int, bool)))
