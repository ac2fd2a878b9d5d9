"""``puzzlesat count``: every solution, found by enumeration with blocking clauses, each one checked."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Any

import click

from ..core.errors import EndedEarly, PuzzlesatError
from ..core.puzzle import Solution
from ..core.reporting import progress_texts
from ..core.timing import Deadline, Stopwatch
from ..core.version import __version__
from ..core.weights import weight_text
from ..encoders import get_puzzle
from ..pipeline.report import NO_BACKEND, Report, jsonable
from ..pipeline.request import Request, request
from ..pipeline.steps import load
from ..pipeline.tasks import Cubing, count, refuse_search_on_executor
from .declared import PuzzleCommand, reading_given
from .options import (
    backend_option,
    certified_note,
    certify_option,
    cnf_options,
    command_executor,
    common,
    echo_json,
    encoder_options,
    format_seconds,
    instance_input,
    json_option,
    puzzle_argument,
    timeout_option,
)
from .verbosity import QUIET, level, note


@click.command("count", cls=PuzzleCommand)
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
                   "executor and add them up; --timeout bounds the whole count, as on every command.")
@click.option("--executor", default=None, metavar="SPEC",
              help="Where --cubes' cubes run, or without --cubes the parts of the puzzle's own search where "
                   "it has one (not raced then): local (default: one process per core), local:N, or "
                   "dask://HOST:PORT (a running Dask scheduler; pip install 'puzzlesat[dist]').")
def command(
    puzzle: str,
    file: str,
    backend: str | None,
    cardinality: str | None,
    pb: str | None,
    timeout: Deadline,
    as_json: bool,
    certify: str | None,
    list_all: bool,
    limit: int | None,
    jsonl: bool,
    cubes: str | None,
    executor: str | None,
) -> None:
    """Count all solutions of FILE (tiling puzzles: also up to the grid's symmetries; dice: the universes
    each player wins), by enumeration or with an exact counter (--backend ganak). With no --backend, the
    enumeration starts alone and an exact counter joins it after 0.25 s (D4 or Ganak where installed, else
    the frontier counter where the formula's shown variables determine the rest; jig: the jig's own search
    instead; dice: the frontier counter alone); the first to finish answers, and the output says which.

    \b
    Example:
      puzzlesat count jig instances/jig/matt5x5.jig --list
      puzzlesat count dice instances/aoc/2021-21/example.txt --target 10 --backend ganak
      puzzlesat count jig instances/jig/zhurgut_8x8.jig --cubes 6 --executor local:2
    """
    spec = get_puzzle(puzzle)
    started = time.monotonic()
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading_given(spec))
    counting = request(spec, backend, None, timeout, certify=certify, counting=True,
                       **encoder_options(cardinality, pb))
    if jsonl:
        if cubes is not None or executor is not None:
            raise PuzzlesatError("--jsonl streams one enumeration in this process: --cubes and --executor do not apply")
        stream(counting, instance, watch, limit)
        return
    if cubes is not None and cubes != "auto" and not (cubes.isdigit() and int(cubes) <= 30):
        raise PuzzlesatError(f"--cubes {cubes}: expected a depth 0..30 or auto")
    if cubes is None and executor is not None:
        refuse_search_on_executor(counting, list_all or limit is not None)
    engine = command_executor(executor) if cubes is not None or executor is not None else None
    cubing = Cubing(None if cubes == "auto" else int(cubes), engine) if cubes is not None and engine else None
    report = count(counting, instance, watch, list_all, limit, cubes=cubing, executor=None if cubing else engine)
    if backend is None and list_all is False and limit is None:
        say_where_a_faster_count_is(report, time.monotonic() - started)
    if as_json:
        payload = report.to_json()
        if list_all:
            payload["solutions"] = [s.answers() | {"layout": s.render()} for s in report.solutions]
        echo_json(payload, "report")
        end_if_stopped(report)
        return
    for number, solution in enumerate(report.solutions, 1):
        click.echo(f"-- solution {number}\n{solution.render()}")
    for label, value in report.answers.items():
        if isinstance(value, Fraction):
            click.echo(f"{label}: {_weighed(report, value) if level() > QUIET else weight_text(value)}")
            continue
        click.echo(f"{label}: {_how(report, label, value, limit)}" if level() > QUIET
                   else f"{label}: {'at least ' if not report.complete else ''}{value}")
    for warning in report.warnings:
        click.echo(f"warning: {warning}")
    note("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in watch.times.items()))
    end_if_stopped(report)


#: an enumeration that took longer than this, where an exact counter is not installed, says where one is
SLOW_ENUMERATION = 3.0


def say_where_a_faster_count_is(report: Report, seconds: float) -> None:
    """On stderr, once: a count that listed every model for more than :data:`SLOW_ENUMERATION` seconds,
    where the exact counters that count without listing (Ganak, D4: the ``count`` extra) are not
    installed. A plain install races the frontier counter where it applies (a formula with no
    projection); a projected formula, or a puzzle's encoding with auxiliary variables, it cannot take.
    Not said of a weighted count, which those counters do not make exactly."""
    if report.counted_by != "enumeration" or seconds < SLOW_ENUMERATION:
        return
    if any(isinstance(value, Fraction) for value in report.answers.values()):
        return
    from ..backends import get_backend
    from ..pipeline.tasks import EXACT_COUNTERS

    missing = [name for name in EXACT_COUNTERS if get_backend(name).missing() is not None]
    if missing:
        note(f"puzzlesat: note: counted by listing every solution ({seconds:.0f} s); the exact counters "
             f"{' and '.join(missing)}, not installed here, count without listing: pip install 'puzzlesat[count]'",
             err=True)


def end_if_stopped(report: Report) -> None:
    """End a count that was stopped before its end, its lower bounds printed, with the stop's exit code
    and one line that says them again (stdout may be a file): what stopped it, and what it had found."""
    stop = report.stopped
    if stop is None:
        return
    found = ", ".join(f"{label} {'' if _whole(report, label) else 'at least '}{value:,}"
                      for label, value in report.answers.items() if value and not isinstance(value, Fraction))
    how = "every one checked" if report.checked else "each from a finished count"
    if not found:
        found, how = "no solution found yet", "not a proof that there is none"
    message = f"{stop.message}; by then: {found} ({how}; by {_method(report)}"
    others = [name for name in report.raced if not name.startswith(report.counted_by)]
    if others:  # what it raced, and how far the others had come (a search's parts done; its own counts are said)
        progress = ", ".join(text for text in progress_texts() if not text.endswith(" so far"))
        message += f", raced against {' and '.join(others)}" + (f": {progress}" if progress else "")
    raise EndedEarly(message + ")", stop.exit_code)


def _whole(report: Report, label: str) -> bool:
    """Whether a stopped report's count ``label`` had ended: with cubes, the counts before the stopped
    one did (their cubes carry no ``finished``); counts made side by side stopped together."""
    return bool(report.cubes) and "finished" not in report.cubes[label]


def _method(report: Report) -> str:
    """The method that was counting ("the enumeration on glucose4", "cube and conquer on local x2")."""
    if report.cubes:
        cubed = next(iter(report.cubes.values()))
        return f"cube and conquer on {cubed['executor']} x{cubed['workers']}"
    return f"the {report.counted_by} on {report.backend}"


def _weighed(report: Report, value: Fraction) -> str:
    """A weighted count as the text output says it: exact (a decimal, or a fraction with its value
    rounded beside it), and what it is the sum of."""
    text = weight_text(value)
    if "/" in text:
        try:
            text += f", about {float(value):.6g}"
        except OverflowError:  # past a float's range: the fraction alone
            pass
    models = next(iter(report.answers.values()), 0)
    if not report.complete:
        return f"{text} so far: the weights of the {models:,} models found by then (the rest are not known)"
    if report.counted_by == "enumeration":
        return f"{text} (the sum of the weights of the {models:,} models, every one checked)"
    return f"{text} (exact weighted model count; by {report.backend})"


def _how(report: Report, label: str, value: int, limit: int | None) -> str:
    """One count as the text output says it: the number and what backs it."""
    # stopped in this count (with cubes, a count before the stopped one was whole)
    if report.stopped is not None and not _whole(report, label):
        if report.cubes:
            cubed = report.cubes[label]
            if cubed.get("split_stopped"):
                return f"at least {value:,} ({report.stopped.said()}, before its split into cubes had ended)"
            return (f"at least {value:,} ({report.stopped.said()}: the sum over the {cubed['finished']:,} of "
                    f"{cubed['cubes']:,} cubes that finished)")
        found = "every one checked" if value else "none found yet"
        return f"at least {value:,} ({report.stopped.said()}; {found}, by {_method(report)})"
    if limit is not None and value >= limit:
        return f"at least {value} (stopped at --limit)"
    if report.cubes:
        cubed = report.cubes[label]
        slowest = ", ".join(format_seconds(entry["seconds"]) for entry in cubed["slowest"])
        return (f"{value} (the sum over {cubed['cubes']} cubes on {cubed['executor']} x{cubed['workers']}, "
                f"{cubed['refuted']} more refuted by propagation; slowest cubes {slowest})")
    counted = "projected model count" if "shown" in report.size else "model count"
    how = {"enumeration": "every one checked; the last search was UNSAT",
           "exact counter": f"exact {counted}",
           "probabilistically exact counter": f"probabilistically exact {counted}: right with high "
                                              "probability"}.get(report.counted_by, report.counted_by)
    if report.backend == NO_BACKEND:  # the puzzle's own solver-free method answered (tasks._searched_report)
        how = (f"{'every one checked' if report.checked else 'counted without listing them'}; by the solver-free "
               f"{report.counted_by}")
    elif report.raced:
        how += f"; by {report.backend}"
    if report.raced:
        how += f", the first to finish of {len(report.raced)} raced: {', '.join(report.raced)}"
    return f"{value} ({how}{certified_note(report, label)})"


def stream(counting: Request, instance: Any, watch: Stopwatch, limit: int | None) -> None:
    """The first count's solutions as JSON lines as they are found, each checked, then its total."""
    def line(solution: Solution) -> None:
        click.echo(json.dumps(solution.answers() | {"solution": solution.to_json()}))

    report = count(counting, instance, watch, limit=limit, on_solution=line)
    certified = {"certified": report.certified()} if report.certificates else {}
    stopped = {"stopped": report.stopped.to_json()} if report.stopped is not None else {}
    click.echo(json.dumps({"schema": "puzzlesat/count-end/1", "version": __version__, **jsonable(report.answers),
                           "complete": report.complete} | certified | stopped))
    end_if_stopped(report)
