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

    Exits 1 and names the culprit on any disagreement, failed check or error.

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
                "agree": not culprits,
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
        summary = (
            f"{len(rows) - len(timeouts)} methods agree" + (f", {len(timeouts)} timed out or skipped" if timeouts else "")
            if not culprits else "DISAGREEMENT: " + ", ".join(r.method for r in culprits)
        )
        click.echo(summary)
    if culprits:
        raise SystemExit(1)


def _numbers(answers: dict | None) -> str:
    """The scalar answers (counts, parts, uniqueness) for the table; grids and layouts are left out."""
    if not answers:
        return "-"
    return " ".join(f"{k}={v}" for k, v in answers.items() if isinstance(v, (int, bool)))
