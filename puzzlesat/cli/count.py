"""``puzzlesat count``: every solution, found by enumeration with blocking clauses, each one checked."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import click

from .. import __version__
from ..core.errors import PuzzlesatError
from ..core.puzzle import Solution
from ..core.timing import Stopwatch
from ..encoders import get_puzzle
from ..request import Request, request
from ..solving import Report, count, load
from .options import (
    backend_option,
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
from .supervised import SupervisedCommand


@click.command("count", cls=SupervisedCommand)
@common(puzzle_argument, instance_input, backend_option, cnf_options, timeout_option, json_option)
@click.option("--list", "list_all", is_flag=True, help="Print every solution.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Stop once this many solutions are found (the count then means 'at least').")
@click.option("--jsonl", is_flag=True,
              help="Stream the solutions of the first count as JSON lines while they are found, then one line "
                   "with the count (enumeration, in this process).")
def command(
    puzzle: str,
    file: str,
    backend: str | None,
    cardinality: str | None,
    pb: str | None,
    timeout: float | None,
    as_json: bool,
    list_all: bool,
    limit: int | None,
    jsonl: bool,
    **read: Any,
) -> None:
    """Count all solutions of FILE (tiling puzzles: also up to the grid's symmetries; dice: the universes
    each player wins), by enumeration or with an exact counter (--backend ganak).

    \b
    Example:
      puzzlesat count jig instances/jig/matt5x5.jig --list
      puzzlesat count dice instances/aoc/2021-21/example.txt --target 10 --backend ganak
    """
    spec = get_puzzle(puzzle)
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading(read))
    counting = request(spec, backend, None, timeout, **encoder_options(cardinality, pb))
    exact = "count" in counting.backend.capabilities
    if exact and (limit or jsonl):
        raise PuzzlesatError(f"{counting.backend.name} counts without enumerating: --limit and --jsonl need an "
                             "enumerating backend")
    if jsonl:
        stream(counting, instance, watch, limit)
        return
    # the same top-level shape as solve and decode; enumeration checks every solution it counts,
    # an exact counter proves the number instead
    report = Report(puzzle, file, counting.backend.name, counting.encoding, "UNKNOWN", checked=not exact,
                    times=watch.times)
    answers, listed = spec.task.count(counting, instance, watch, report, list_all, limit)
    total = next(iter(answers.values()))
    report.answers, report.status = answers, "SAT" if total else "UNSAT"
    if as_json:
        payload = report.to_json() | {"method": "exact counter" if exact else "enumeration",
                                      "complete": limit is None or all(v < limit for v in answers.values())}
        if list_all:
            payload["solutions"] = [s.answers() | {"layout": s.render()} for s in listed]
        echo_json(payload, "report")
        return
    for number, solution in enumerate(listed, 1):
        click.echo(f"-- solution {number}\n{solution.render()}")
    how = "exact projected model count" if exact else "every one checked; the last search was UNSAT"
    for label, value in answers.items():
        cut = limit is not None and value >= limit
        click.echo(f"{label}: {'at least ' if cut else ''}{value} ({'stopped at --limit' if cut else how})")
    click.echo("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in watch.times.items()))


def stream(counting: Request, instance: Any, watch: Stopwatch, limit: int | None) -> None:
    """The first count's solutions as JSON lines as they are found, each checked, then its total."""
    label, options = counting.puzzle.count_variants(counting.options)[0]

    def line(solution: Solution) -> None:
        click.echo(json.dumps(solution.answers() | {"layout": solution.render()}))

    found = count(replace(counting, options=options), instance, watch, on_solution=line, limit=limit)
    click.echo(json.dumps({"schema": "puzzlesat/count-end/1", "version": __version__, label: found,
                           "complete": limit is None or found < limit}))
