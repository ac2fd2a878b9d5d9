"""``puzzlesat crosscheck``: several backends and the reference must agree, or the command fails."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from typing import Any

import click

from ..backends import get_backend
from ..backends.base import Capability
from ..core.errors import EndedEarly
from ..encoders import get_puzzle
from ..pipeline.crosscheck import DEFAULT_BUDGET, DEFAULT_METHOD_LIMIT, Row, cross_check
from ..pipeline.report import jsonable
from ..pipeline.request import request
from ..pipeline.steps import load
from .declared import PuzzleCommand, reading_given
from .options import (
    backend_list,
    certify_option,
    cnf_options,
    command_executor,
    common,
    complete_backends,
    echo_json,
    encoder_options,
    format_seconds,
    instance_input,
    json_option,
    puzzle_argument,
)
from .supervised import escaped
from .verbosity import note


@click.command("crosscheck", cls=PuzzleCommand, deadline=None)
@common(puzzle_argument, instance_input)
@click.option(
    "--backends", default=None, shell_complete=complete_backends,
    help="Comma-separated backend names, a portfolio written portfolio:A+B (default: every available backend that fits)."
)
@click.option(
    "--count",
    "by_count",
    is_flag=True,
    help="Compare solution counts (total and per symmetry class) instead of one solution; "
    "always on for a puzzle whose solutions are not unique.",
)
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_METHOD_LIMIT,
              show_default=True, help="Time limit of each method in seconds (past it: a TIMEOUT row).")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_BUDGET,
              show_default=True, help="Time limit of the whole cross-check in seconds (methods not started "
              "by then: SKIPPED rows).")
@click.option("--executor", default=None, metavar="SPEC",
              help="Where the methods run: by default here, one after the other (each timed alone); local (one "
                   "process per core) or local:N (N processes) at the same time on this machine; or "
                   "dask://HOST:PORT on a Dask cluster's workers. Each row prints once the rows before it are in.")
@common(cnf_options, json_option)
@click.option("--jsonl", is_flag=True,
              help='Print each row as a JSON line as its method finishes ({"row": ROW}), then the --json object '
                   "on one line.")
@common(certify_option)
def command(
    puzzle: str,
    file: str,
    backends: str | None,
    by_count: bool,
    timeout: float,
    budget: float,
    executor: str | None,
    cardinality: str | None,
    pb: str | None,
    as_json: bool,
    jsonl: bool,
    certify: str | None,
) -> None:
    """Solve FILE with every backend (each of its encodings) and the reference; compare everything.

    Every method, the reference included, runs under --timeout, and all of them within --budget; each
    row is printed as its method finishes. Methods that share an encoding or a pre-processing step
    (marked e.g. [cnf, pruned]) count as one independent method in the summary. Exits 1 and names the
    culprit on any disagreement, failed check or error, and exits 1 when no method answers in time.

    \b
    Example:
      puzzlesat crosscheck aquarium instances/aquarium/pa-15x15-hard-1013539.txt --backends cadical,kissat,z3
      puzzlesat crosscheck jig instances/jig/matt5x5.jig --backends cadical,glucose,z3
      puzzlesat crosscheck amphipod instances/aoc/2021-23/example.txt --no-unfold --timeout 5
      puzzlesat crosscheck dice instances/aoc/2021-21/example.txt --target 8 --sides 2
      puzzlesat crosscheck aquarium instances/aquarium/pa-10x10-hard-2865115.txt --certify
    """
    spec = get_puzzle(puzzle)
    instance = load(spec, file, None, **reading_given(spec))
    names = backend_list(backends) if backends else spec.task.crosscheck_backends(spec)
    if certify == "strict" and not backends:  # of the defaults, the ones that can prove
        names = [name for name in names if Capability.PROOF in get_backend(name).capabilities]
    base = replace(request(spec, None, None, timeout, **encoder_options(cardinality, pb)), certify=certify)
    methods = spec.task.plan_crosscheck(base, instance, names, by_count)
    width = max(len(m.label) for m in methods)
    if as_json and jsonl:
        raise click.UsageError("--json and --jsonl exclude each other: --jsonl's last line is --json's object")
    as_json = as_json or jsonl
    if not as_json:
        note(f"limit: {format_seconds(timeout)} per method, {format_seconds(budget)} in all")
        note(f"{'method':<{width}}  {'status':<7} {'time':>10}  {'answer':<34} agrees"
             + (" [reader of the file]" if spec.solvers_independent else ""))
    engine = command_executor(executor) if executor is not None else None

    def show(row: Row) -> None:
        if jsonl:
            click.echo(json.dumps({"row": _row_json(row)}))
        elif not as_json:
            note(escaped(_line(row, width)).replace("\n", " "))  # a row's reason may quote the input

    verdict = cross_check(methods, timeout, budget, engine, show)
    rows = list(verdict.rows)
    stopped = {"stopped": verdict.stopped.to_json(), "methods_planned": len(methods)} if verdict.stopped else {}
    if as_json:
        echo_json(
            {
                "puzzle": puzzle,
                "source": file,
                "agree": verdict.agree,
                "independent_methods_agreeing": verdict.independent_methods,
                "complete": verdict.stopped is None,
            } | stopped | {
                "limit": {"method": timeout, "budget": budget},
                "rows": [_row_json(r) for r in rows],
            },
            "crosscheck",
            indent=None if jsonl else 1,
        )
    else:
        for warning, givers in _warnings(rows).items():
            named = ", ".join(givers[:2]) + (f" and {len(givers) - 2} more" if len(givers) > 2 else "")
            click.echo(escaped(f"warning: {warning} ({named})"))
        click.echo(verdict.summary(formula_file=spec.solvers_independent))
    if verdict.stopped is not None:
        raise EndedEarly(f"{verdict.stopped.message}; by then: {verdict.summary()}", verdict.stopped.exit_code)
    if not verdict.agree:
        raise SystemExit(1)


def _row_json(r: Row) -> dict[str, Any]:
    """A row as the JSON output gives it."""
    return {"method": r.method, "family": r.family} | ({"reader": r.reader} if r.reader else {}) | {
        "status": r.status,
        "seconds": round(r.seconds, 6),
        "answers": None if r.answers is None else jsonable(r.answers),
        "agrees": r.agrees,
        "error": r.error,
    } | ({"at_least": jsonable(r.at_least)} if r.at_least is not None else {}) | (
        {"certified": r.certified} if r.certified is not None else {}) | ({"warnings": r.warnings} if r.warnings else {})


def _line(row: Row, width: int) -> str:
    mark = ("yes" if row.agrees else f"NO ({row.error})" if row.overcounted
            else "- (timed out)" if row.status == "TIMEOUT"
            else f"- ({row.error.removeprefix(row.method + ': ')})" if row.status in ("SKIPPED", "MEMOUT")
            else f"NO {row.error}".rstrip())
    if row.certified:
        doubtful = [claim for claim, proven in row.certified.items() if not proven]
        mark += f", not certified: {', '.join(doubtful)}" if doubtful else ", certified"
    read = f" [{row.reader}]" if row.reader else ""
    answer = _numbers(row.at_least, ">=") if row.at_least and any(row.at_least.values()) else _numbers(row.answers)
    return f"{row.method:<{width}}  {row.status:<7} {format_seconds(row.seconds):>10}  {answer:<34} {mark}{read}"


def _warnings(rows: list[Row]) -> dict[str, list[str]]:
    """Each warning the methods gave, once, with the methods that gave it."""
    said: dict[str, list[str]] = {}
    for row in rows:
        for warning in row.warnings:
            said.setdefault(warning, []).append(row.method)
    return said


def _numbers(answers: dict[Any, Any] | None, relation: str = "=") -> str:
    """The scalar answers (counts, weighted counts, parts, uniqueness) for the table, or a stopped count's
    lower bounds (``relation`` ">="; a weighted sum so far bounds nothing: weights may be negative); grids
    and layouts are left out."""
    if not answers:
        return "-"
    return " ".join(f"{k}{relation}{v}" for k, v in jsonable(answers).items()
                    if isinstance(v, (int, bool)) or relation == "=" and isinstance(answers[k], Fraction))
