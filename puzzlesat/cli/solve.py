"""``puzzlesat solve``: one instance, one backend, a checked solution."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from ..core.result import Status
from ..core.timing import Deadline, Stopwatch
from ..encoders import get_puzzle
from ..pipeline.request import request
from ..pipeline.steps import load
from ..pipeline.tasks import solve
from .options import (
    backend_option,
    certified_note,
    certify_option,
    cnf_options,
    common,
    echo_json,
    encoder_options,
    encoding_option,
    format_seconds,
    instance_input,
    json_option,
    method_option,
    picture_options,
    puzzle_argument,
    reading,
    timeout_option,
    write_pictures,
)
from .supervised import SupervisedCommand


@click.command("solve", cls=SupervisedCommand)
@common(puzzle_argument, instance_input, backend_option, encoding_option, cnf_options, timeout_option, json_option)
@picture_options
@method_option
@certify_option
@click.option("--steps", is_flag=True, help="Amphipod: print the burrow after every move.")
def command(
    puzzle: str,
    file: str,
    backend: str | None,
    kind: str | None,
    cardinality: str | None,
    pb: str | None,
    timeout: Deadline,
    as_json: bool,
    png: str | None,
    svg: str | None,
    method: str | None,
    certify: str | None,
    steps: bool,
    **read: Any,
) -> None:
    """Solve FILE, check the solution independently, and (aquarium) prove it unique.

    \b
    Example:
      puzzlesat solve aquarium instances/aquarium/pa-10x10-hard-2865115.txt --backend z3 --encoding smt
      puzzlesat solve amphipod instances/aoc/2021-23/example.txt --method rc2 --steps --svg plan.svg
      puzzlesat solve aquarium instances/aquarium/pa-15x15-hard-1013539.txt --certify
    """
    spec = get_puzzle(puzzle)
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading(read))
    spec.task.refuse_options(spec, steps=steps)
    report = solve(request(spec, backend, kind, timeout, method, certify, **encoder_options(cardinality, pb)),
                   instance, watch)
    if report.solution is not None:
        write_pictures(spec, instance, report.solution, png, svg)
    if as_json:
        echo_json(report.to_json(), "report")
    else:
        sizes = ", ".join(f"{v} {k}" for k, v in report.size.items())
        unsat_note = f" ({certified_note(report, 'unsat')[2:]})" if report.status == Status.UNSAT and report.certificates else ""
        click.echo(f"{puzzle} {file}: {report.status.value} with {report.backend} ({report.encoding}: {sizes}){unsat_note}")
        if any(name != report.backend for name in report.solved_by):
            click.echo("answered by: " + ", ".join(report.solved_by) + " (first to finish each solver call)")
        if report.solution is not None:
            shown = {"steps": True} if steps else {}
            colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")  # https://no-color.org
            click.echo(report.solution.render(colour=colour, **shown))
            extra = {k: v for k, v in report.answers.items() if k not in ("grid", "unique", "optimal")}
            for key, value in extra.items():
                click.echo(f"{key}: {value}")
            click.echo("checked: yes (independent checker)")
            if report.answers.get("optimal"):
                click.echo("optimal: yes (proven by the solver: nothing cheaper exists"
                           f"{certified_note(report, 'optimal')})")
            if "unique" in report.answers:
                unique = report.answers["unique"]
                click.echo(
                    "unique: "
                    + {
                        True: f"yes (solver: no second solution, UNSAT{certified_note(report, 'unique')})",
                        False: "no (the solver found a second solution)",
                        None: "unknown (second search gave no answer)",
                    }[unique]
                )
        click.echo("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in report.times.items()))
    if report.status != Status.SAT:
        raise SystemExit(1)
