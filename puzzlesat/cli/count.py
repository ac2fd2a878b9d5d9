"""``puzzlesat count``: every solution, found by enumeration with blocking clauses, each one checked."""

from __future__ import annotations

from typing import Any

import click

from ..core.timing import Stopwatch
from ..encoders import get_puzzle
from ..solving import backend_for, count, load
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


@click.command("count")
@common(puzzle_argument, instance_input, backend_option, cnf_options, timeout_option, json_option)
@click.option("--list", "list_all", is_flag=True, help="Print every solution.")
def command(
    puzzle: str,
    file: str,
    backend: str | None,
    cardinality: str | None,
    pb: str | None,
    timeout: float | None,
    as_json: bool,
    list_all: bool,
    **read: Any,
) -> None:
    """Count all solutions of FILE, and the count up to the whole grid's symmetries.

    \b
    Example:
      puzzlesat count jig instances/jig/matt5x5.jig --list
    """
    spec = get_puzzle(puzzle)
    # tiling puzzles also count one solution per symmetry class of the grid; others count solutions only
    labels = getattr(spec, "count_labels", ("solutions",))
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading(read))
    listed: list = []
    options = encoder_options(cardinality, pb)
    symmetric = len(labels) == 2
    total = count(
        spec,
        instance,
        backend,
        timeout,
        watch,
        listed.append if list_all else None,
        **({"break_symmetry": False} if symmetric else {}),
        **options,
    )
    answers = {labels[0]: total}
    if symmetric:
        answers[labels[1]] = count(spec, instance, backend, timeout, watch, None, break_symmetry=True, **options)
    if as_json:
        payload = {
            "puzzle": puzzle,
            "source": file,
            "backend": backend_for(spec, backend),
            "encoding": "cnf",
            "status": "SAT" if total else "UNSAT",
            "answers": answers,
            "checked": True,
            "times": {k: round(v, 6) for k, v in watch.times.items()},
        }
        if list_all:
            payload["solutions"] = [s.answers() | {"layout": s.render()} for s in listed]
        echo_json(payload)
        return
    for number, solution in enumerate(listed, 1):
        click.echo(f"-- solution {number}\n{solution.render()}")
    click.echo(f"{labels[0]}: {total} (every one checked; the last search was UNSAT)")
    if symmetric:
        click.echo(f"{labels[1]}: {answers[labels[1]]}")
    click.echo("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in watch.times.items()))
