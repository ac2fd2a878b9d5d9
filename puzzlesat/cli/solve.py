"""``puzzlesat solve``: one instance, one backend, a checked solution."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import click

from ..core.errors import EndedEarly, PuzzlesatError, SolverTimeout
from ..core.puzzle import Puzzle
from ..core.reporting import limit_message
from ..core.result import Status
from ..core.timing import Deadline, Stopwatch, since_start
from ..encoders import get_puzzle
from ..pipeline.report import NO_BACKEND, Report
from ..pipeline.request import Request, request
from ..pipeline.steps import load
from ..pipeline.stop import STOPPING, Stop
from ..pipeline.tasks import Satisfy, solve
from .declared import PuzzleCommand, reading_given
from .options import (
    backend_option,
    certified_note,
    certify_option,
    check_picture_outputs,
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
    timeout_option,
    write_pictures,
)
from .supervised import fail
from .verbosity import QUIET, level, note


def answer_text(value: bool | int | float | str) -> str:
    """An answer as a person reads it: yes or no for a boolean, the value itself otherwise. Answers that
    are structures (a grid, a layout, the wins of both players) are what the solution's own rendering
    above them shows, and ``--json`` gives them whole."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def competition_output(spec: Puzzle[Any, Any, Any], asked: Request, instance: Any, watch: Stopwatch,
                       literal_model: bool = False) -> int:
    """Solve and print as a competition solver does; the exit code it ends with. Every model printed
    passed the checker (it is the same solve); no answer in time is 's UNKNOWN' and 0, with the
    one-line reason on stderr. A MaxSAT model is the MaxSAT Evaluation's line since 2021, ``v`` and
    one 0 or 1 per variable (``v 0101``); ``literal_model`` prints the older literal lines instead."""
    try:
        report = solve(asked, instance, watch)
    except SolverTimeout as exc:
        fail(limit_message(exc.backend, str(exc)))
        click.echo("s UNKNOWN")
        return 0
    for warning in report.warnings:  # as comments, which every reader of 's' and 'v' lines skips
        click.echo(f"c warning: {warning}")
    if report.stopped is not None:  # the best model found, as an evaluation's solver prints it at its limit
        fail(f"{report.stopped.message}; the best model found is printed, not proven optimal")
    if report.status == Status.UNSAT:
        click.echo("s UNSATISFIABLE")
        return 20
    if report.status != Status.SAT or report.solution is None:
        click.echo("s UNKNOWN")
        return 0
    from ..encoders.cnf import CnfSolution
    from ..encoders.wcnf import WcnfSolution

    assert isinstance(report.solution, (CnfSolution, WcnfSolution)), "a formula file's solution"
    literals = report.solution.literals
    if "cost" in report.answers:  # MaxSAT evaluation: the cost, the status, the model
        optimal = bool(report.answers.get("optimal"))
        click.echo(f"o {report.answers['cost']}\ns {'OPTIMUM FOUND' if optimal else 'SATISFIABLE'}")
        if not literal_model:
            click.echo("v " + "".join("1" if lit > 0 else "0" for lit in literals))
            return 30 if optimal else 10
        code = 30 if optimal else 10
    else:
        click.echo("s SATISFIABLE")
        code = 10
    click.echo("\n".join(_value_lines(literals)))
    return code


def solved_or_stopped(asked: Request, instance: Any, watch: Stopwatch, as_json: bool) -> Report:
    """The solve's report; stopped before it found anything (a time limit, a signal, the memory cap),
    with ``as_json`` the record of that all the same (UNKNOWN, ``stopped``), printed before the stop's
    one line: a JSON reader always gets a record."""
    started = time.monotonic()
    try:
        return solve(asked, instance, watch)
    except STOPPING as exc:
        if as_json:
            stop = Stop.of(exc, since_start(started))
            echo_json(Report(asked.puzzle.name, getattr(instance, "source", ""), asked.backend.name, asked.encoding,
                             Status.UNKNOWN, times=watch.times, stopped=stop).to_json(), "report")
        raise


def _value_lines(literals: tuple[int, ...], width: int = 78) -> list[str]:
    """``v`` lines of at most ``width`` characters (some readers take short lines only), ending in 0."""
    lines, line = [], "v"
    for word in [*map(str, literals), "0"]:
        if len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "v"
        line += " " + word
    return [*lines, line]


def _unknown_at_the_limit(params: dict[str, Any]) -> tuple[str, int] | None:
    """A competition solver answers 's UNKNOWN' and exits 0 when its time is up, wherever that is
    (reading a slow stdin included), not only while solving."""
    return ("s UNKNOWN", 0) if params.get("competition") else None


@click.command("solve", cls=PuzzleCommand, limit_answer=_unknown_at_the_limit)
@common(puzzle_argument, instance_input, backend_option, encoding_option, cnf_options, timeout_option, json_option)
@picture_options
@method_option
@certify_option
@click.option("--steps", is_flag=True, help="Print the state after every move (a puzzle whose solution is a plan).")
@click.option("--forced", is_flag=True,
              help="Also find what every solution shares, the cells forced whatever the solution (a puzzle that "
                   "says so: 'solve --help' per puzzle); the pictures draw it, the cells that differ grey.")
@click.option("--competition", is_flag=True,
              help="A formula file: print what a SAT-competition / MaxSAT-evaluation solver prints ('s SATISFIABLE', "
                   "'o COST', 'v ... 0') and exit as one does: 10 SAT, 20 UNSAT, 30 optimum, 0 unknown (no answer "
                   "in time).")
@click.option("--literal-model", is_flag=True,
              help="A MaxSAT file with --competition: print the model as literals ('v -1 2 -3 0', MaxSAT Evaluations before "
                   "2021) instead of one 0 or 1 per variable ('v 010').")
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
    forced: bool,
    competition: bool,
    literal_model: bool,
) -> None:
    """Solve FILE, check the solution independently, and (aquarium; jigsaw, up to the grid's symmetries)
    prove it unique. Exits 1 when there is no solution, or when one part has none (amphipod: status
    PARTIAL, the other part's answer printed).

    \b
    Example:
      puzzlesat solve aquarium instances/aquarium/pa-10x10-hard-2865115.txt --backend z3 --encoding smt
      puzzlesat solve amphipod instances/aoc/2021-23/example.txt --method rc2 --steps --svg plan.svg
      puzzlesat solve aquarium instances/aquarium/pa-15x15-hard-1013539.txt --certify
      puzzlesat solve cnf formula.cnf.gz --competition --backend kissat
    """
    spec = get_puzzle(puzzle)
    check_picture_outputs(png, svg)
    if competition and not spec.solvers_independent:
        raise PuzzlesatError(f"--competition: a solver's output is for formula files, not {puzzle}")
    if literal_model and not competition:
        raise PuzzlesatError("--literal-model says how --competition prints a MaxSAT model: give --competition")
    watch = Stopwatch()
    instance = load(spec, file, watch, **reading_given(spec))
    spec.task.refuse_options(spec, steps=steps)
    asked = request(spec, backend, kind, timeout, method, certify, forced, **encoder_options(cardinality, pb))
    if competition:
        raise SystemExit(competition_output(spec, asked, instance, watch, literal_model))
    report = solved_or_stopped(asked, instance, watch, as_json)
    if report.solution is not None:
        write_pictures(spec, instance, report.solution if report.forced is None else report.forced, png, svg)
    if as_json:
        echo_json(report.to_json(), "report")
    else:
        sizes = ", ".join(f"{v} {k}" for k, v in report.size.items())
        unsat_note = f" ({certified_note(report, 'unsat')[2:]})" if report.status == Status.UNSAT and report.certificates else ""
        if report.backend == NO_BACKEND:  # the puzzle's own search answered (raced against the backend)
            raced = f", the first to finish of {len(report.raced)} raced: {', '.join(report.raced)}" if report.raced else ""
            note(f"{puzzle} {file}: {report.status.value} by the solver-free {', '.join(report.solved_by)}{raced}")
        else:
            note(f"{puzzle} {file}: {report.status.value} with {report.backend} ({report.encoding}: {sizes}){unsat_note}")
        if report.backend != NO_BACKEND and any(name != report.backend for name in report.solved_by):
            note("answered by: " + ", ".join(report.solved_by) + " (first to finish each solver call)")
        up_to = f" up to {spec.task.up_to}" if isinstance(spec.task, Satisfy) and spec.task.up_to else ""
        if report.solution is not None:
            shown = {"steps": True} if steps else {}
            colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")  # https://no-color.org
            click.echo(report.solution.render(colour=colour, **shown))
            for key, value in report.answers.items():
                if key not in ("unique", "optimal") and isinstance(value, (bool, int, float, str)):
                    click.echo(f"{key}: {answer_text(value)}")
            note("checked: yes (independent checker)")
            if report.answers.get("optimal"):
                click.echo("optimal: yes (proven by the solver: nothing cheaper exists"
                           f"{certified_note(report, 'optimal')})")
            elif report.stopped is not None and "optimal" in report.answers:
                click.echo(f"optimal: not proven ({report.stopped.said()}: the best plan found, its cost an upper "
                           "bound)")
            if "unique" in report.answers:
                unique = report.answers["unique"]
                click.echo(
                    "unique: "
                    + {
                        True: f"yes{up_to} (solver: no second solution, UNSAT{certified_note(report, 'unique')})",
                        False: f"no{up_to} (the solver found a second solution)",
                        None: "unknown (second search gave no answer)",
                    }[unique]
                )
        if report.forced is not None:
            shared = report.forced.to_json()
            backed = certified_note(report, "unique" if report.answers.get("unique") else "forced")
            click.echo(f"forced in every solution{up_to}: {shared['forced']} of {shared['cells']} cells ('?': differs"
                       f"{backed})")
            click.echo(report.forced.render())
        elif forced and report.stopped is not None:
            click.echo(f"forced in every solution: not decided ({report.stopped.said()})")
        for label, status in report.parts.items():
            if status == Status.UNSAT:
                click.echo(f"{label}: no solution (proven by the solver: UNSAT{certified_note(report, 'unsat')})")
            elif status == Status.UNKNOWN and report.stopped is not None:
                click.echo(f"{label}: not solved ({report.stopped.said()} before its turn)")
        for warning in report.warnings:  # whatever the answer: a file read past a fault, an UNSAT one too
            click.echo(f"warning: {warning}")
        note("times: " + ", ".join(f"{k} {format_seconds(v)}" for k, v in report.times.items()))
        if report.status != Status.SAT and level() == QUIET:  # the answer, when there is no solution
            click.echo(report.status.value)
    if report.stopped is not None and forced:  # the solution it had is printed
        raise EndedEarly(f"{report.stopped.message}; by then: a solution, checked; what every solution shares "
                         "(--forced) was not decided", report.stopped.exit_code)
    if report.stopped is not None:
        found = ", ".join(f"{key} {value}" for key, value in report.answers.items()
                          if isinstance(value, int) and not isinstance(value, bool))
        raise EndedEarly(f"{report.stopped.message}; by then: the best plan found ({found or 'none'}), checked, not "
                         "proven optimal", report.stopped.exit_code)
    if report.status != Status.SAT:
        raise SystemExit(1)
