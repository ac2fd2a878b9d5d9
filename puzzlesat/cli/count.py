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
    certified_note,
    certify_option,
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
@certify_option
@click.option("--list", "list_all", is_flag=True, help="Print every solution.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Stop once this many solutions are found (the count then means 'at least').")
@click.option("--jsonl", is_flag=True,
              help="Stream the solutions of the first count as JSON lines while they are found, then one line "
                   "with the count (enumeration, in this process).")
@click.option("--cubes", default=None, metavar="DEPTH|auto",
              help="Cube and conquer: split each count into cubes by DEPTH binary splits on shown variables "
                   "(disjoint, covering everything; auto: about 8 cubes per worker), count the cubes on the "
                   "executor and add them up; --timeout is then each cube's limit.")
@click.option("--executor", default=None, metavar="SPEC",
              help="Where --cubes' cubes run: local (default: one process per core), local:N, or "
                   "dask://HOST:PORT (a running Dask scheduler; pip install 'puzzlesat[dist]').")
def command(
    puzzle: str,
    file: str,
    backend: str | None,
    cardinality: str | None,
    pb: str | None,
    timeout: float | None,
    as_json: bool,
    certify: str | None,
    list_all: bool,
    limit: int | None,
    jsonl: bool,
    cubes: str | None,
    executor: str | None,
    **read: Any,
) -> None:
    """Count all solutions of FILE (tiling puzzles: also up to the grid's symmetries; dice: the universes
    each player wins), by enumeration or with an exact counter (--backend ganak).

    \b
    Example:
      puzzlesat count jig instances/jig/matt5x5.jig --list
      puzzlesat count dice instances/aoc/2021-21/example.txt --target 10 --backend ganak
      puzzlesat count jig instances/jig/zhurgut_8x8.jig --cubes 6 --executor local:2
    """
    spec = get_puzzle(puzzle)
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading(read))
    counting = request(spec, backend, None, timeout, certify=certify, **encoder_options(cardinality, pb))
    exact = "count" in counting.backend.capabilities
    if exact and (limit or jsonl):
        raise PuzzlesatError(f"{counting.backend.name} counts without enumerating: --limit and --jsonl need an "
                             "enumerating backend")
    if jsonl:
        stream(counting, instance, watch, limit)
        return
    if executor is not None and cubes is None:
        raise PuzzlesatError("--executor runs the cubes of --cubes: give --cubes DEPTH too")
    if cubes is not None:
        if certify:
            raise PuzzlesatError("--cubes counts cube by cube, each ending in its own UNSAT answer: --certify "
                                 "checks the proof of one search, so count without --cubes")
        if list_all or limit:
            raise PuzzlesatError("--cubes counts cube by cube: --list and --limit count in one search")
        if cubes != "auto" and not (cubes.isdigit() and int(cubes) <= 30):
            raise PuzzlesatError(f"--cubes {cubes}: expected a depth 0..30 or auto")
        by_cubes(counting, file, instance, watch, None if cubes == "auto" else int(cubes), executor, as_json)
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
        click.echo(f"{label}: {'at least ' if cut else ''}{value} "
                   f"({'stopped at --limit' if cut else how + certified_note(report, label)})")
    click.echo("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in watch.times.items()))


def stream(counting: Request, instance: Any, watch: Stopwatch, limit: int | None) -> None:
    """The first count's solutions as JSON lines as they are found, each checked, then its total."""
    label, options = counting.puzzle.count_variants(counting.options)[0]

    def line(solution: Solution) -> None:
        click.echo(json.dumps(solution.answers() | {"layout": solution.render()}))

    report = Report(counting.puzzle.name, "", counting.backend.name, counting.encoding, "UNKNOWN", times=watch.times)
    found = count(replace(counting, options=options), instance, watch, on_solution=line, limit=limit, report=report,
                  claim=label)
    certified = {"certified": report.certified()} if report.certificates else {}
    click.echo(json.dumps({"schema": "puzzlesat/count-end/1", "version": __version__, label: found,
                           "complete": limit is None or found < limit} | certified))


def by_cubes(counting: Request, file: str, instance: Any, watch: Stopwatch, depth: int | None, executor: str | None,
             as_json: bool) -> None:
    """Every count as the sum of its cubes' counts (:mod:`puzzlesat.cubes`), with the cubes' times."""
    from ..cubes import count_variants_by_cubes
    from ..executors import executor_for

    engine = executor_for(executor)
    with watch.phase("solve"):
        counted = count_variants_by_cubes(counting, instance, depth, engine, counting.timeout)
    report = Report(counting.puzzle.name, file, counting.backend.name,
                    counting.encoding, "UNKNOWN", checked="count" not in counting.backend.capabilities,
                    times=watch.times)
    report.answers = {label: total for label, (total, _) in counted.items()}
    report.status = "SAT" if next(iter(report.answers.values())) else "UNSAT"
    report.cubes = {label: {"executor": engine.name, "workers": engine.workers, "cubes": len(cubed.cubes),
                            "refuted": cubed.refuted, "seconds": [round(t, 4) for t in cubed.seconds],
                            "slowest": [{"seconds": round(t, 4), "cube": list(cube)} for t, cube in cubed.slowest()]}
                    for label, (_, cubed) in counted.items()}
    if as_json:
        echo_json(report.to_json() | {"method": "cube and conquer", "complete": True}, "report")
        return
    for label, (total, cubed) in counted.items():
        slowest = ", ".join(format_seconds(t) for t, _ in cubed.slowest())
        click.echo(f"{label}: {total} (the sum over {len(cubed.cubes)} cubes on {engine.name} x{engine.workers}, "
                   f"{cubed.refuted} more refuted by propagation; slowest cubes {slowest})")
    click.echo("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in watch.times.items()))
