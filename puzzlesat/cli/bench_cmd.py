"""``puzzlesat bench``: instances x backends (and the reference), medians, files and an optional chart."""
from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from functools import partial
from pathlib import Path

import click

from ..core.errors import EndedEarly, PuzzlesatError
from ..core.files import check_writable, write_bytes_atomic, write_text_atomic
from ..core.reporting import report_phase
from ..encoders import get_puzzle, puzzle_names
from ..pipeline.bench import (
    Row,
    measure,
    plan,
    plot,
    require_plotting,
    run_all,
    run_on,
    summarize,
    to_csv,
    to_json,
    to_markdown,
)
from .options import PuzzleName, backend_list, command_executor, complete_backends, format_seconds
from .supervised import SupervisedCommand, escaped


def bundled_puzzles() -> list[str]:
    """The puzzles that bundle instances (each declares where), built-in or plug-in: bench's default."""
    names = []
    for name in puzzle_names():
        try:
            if get_puzzle(name).bundled is not None:
                names.append(name)
        except PuzzlesatError:  # a plug-in that does not load is not benchmarked by default
            continue
    return names


@click.command("bench", cls=SupervisedCommand, deadline=None, inputs=(), progress=False)
@click.option("--puzzle", type=PuzzleName(), default=None,
              help="Only this puzzle (default: every puzzle with bundled instances); one without them needs "
                   "--instances. 'puzzlesat solve --help' lists the puzzles, the plug-ins marked.")
@click.option("--backends", default=None, shell_complete=complete_backends,
              help="Comma-separated backends, a portfolio written portfolio:A+B (default: each puzzle's default "
                   "backend); the reference always runs, and is a SKIPPED row where it refuses an instance by design "
                   "(a formula file's of more than 16 variables).")
@click.option("--instances", "directory", type=click.Path(file_okay=False), default=None,
              help="Directory of instance files (needs --puzzle; default: the bundled instances).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Runs at the same time, each in its own process (more than 1 shares the cores: survey only).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              help="Seconds per run; a run past it is killed and reported as TIMEOUT.")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Runs per instance and method; the table shows medians.")
@click.option("--out", type=click.Path(file_okay=False), default="bench/out", show_default=True,
              help="Directory for bench.json (every run) and bench.csv (the table).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Also draw median times as a PNG bar chart (needs matplotlib).")
@click.option("--markdown", is_flag=True, help="Print the table as Markdown (as BENCHMARKS.md shows it).")
@click.option("--executor", default=None, metavar="SPEC",
              help="Where the runs go: forked processes here (local, the default: --jobs at a time; local:N = "
                   "--jobs N), or dask://HOST:PORT (every run a task on a Dask cluster's workers, the instances "
                   "sent as text).")
def command(puzzle: str | None, backends: str | None, directory: str | None, jobs: int, timeout: float,
            repeat: int, out: str, plot_path: str | None, markdown: bool, executor: str | None) -> None:
    """Time every instance with every backend and the solver-free reference; encode and solve apart.

    Exits 1 when a run failed (timeouts and skipped runs are reported, not failures).

    \b
    Example:
      puzzlesat bench --puzzle aquarium --backends cadical,glucose,z3 --repeat 3 --plot aquarium.png
      puzzlesat bench --puzzle dice --instances instances/aoc/2021-21 --timeout 10 --jobs 2
      puzzlesat bench --puzzle cnf --instances my-cnfs --backends cadical,kissat,external:minisat
    """
    if directory and not puzzle:
        raise PuzzlesatError("--instances needs --puzzle (which puzzle the files are)")
    if puzzle and get_puzzle(puzzle).bundled is None and not directory:
        suffix = get_puzzle(puzzle).instance_suffix
        raise PuzzlesatError(f"--puzzle {puzzle} needs --instances DIR (a directory of {suffix} files)")
    # the outputs' places are checked before the runs, so that no result is lost at the end
    check_writable(out)
    if plot_path:
        require_plotting()
        check_writable(str(Path(plot_path).parent))
    puzzles = {name: get_puzzle(name) for name in ([puzzle] if puzzle else bundled_puzzles())}
    runs = plan(list(puzzles.values()), directory, backend_list(backends) if backends else None, repeat)
    engine = None
    if executor is not None:  # local and local:N are this machine's runner (local:N = --jobs N)
        from ..pipeline.executors import DASK, LocalExecutor

        chosen = command_executor(executor)
        if isinstance(chosen, LocalExecutor):
            jobs = chosen.workers if executor.startswith("local:") else jobs
        elif executor.startswith(DASK):
            engine = chosen
    # a bar on a terminal only: in a pipe click's bar prints its label alone, a stray "bench" line
    bar = (click.progressbar(length=len(runs), label="bench", file=sys.stderr, show_pos=True) if sys.stderr.isatty()
           else nullcontext(None))
    report_phase("bench")
    with bar as shown:
        def done(sample: object) -> None:
            if shown is not None:
                shown.update(1)
        if engine is not None:
            samples, stopped = run_on(engine, runs, puzzles, timeout, done)
        else:
            samples, stopped = run_all(runs, partial(measure, puzzles), jobs, timeout, done)
    if shown is not None:  # the finished bar is wiped (click leaves it on the terminal, its line ended)
        sys.stderr.write("\x1b[1A\r\x1b[2K")
    rows = summarize(samples)
    write_text_atomic(str(Path(out) / "bench.json"), json.dumps(to_json(rows, samples, stopped), indent=1) + "\n")
    write_text_atomic(str(Path(out) / "bench.csv"), to_csv(rows))
    if plot_path:
        write_bytes_atomic(plot_path, plot(rows, timeout))
    if markdown:
        click.echo(to_markdown(rows), nl=False)
    elif rows:  # (none: stopped before its first run ended)
        _print_table(rows)
    click.echo(f"wrote {Path(out) / 'bench.json'} and {Path(out) / 'bench.csv'}" + (f" and {plot_path}" if plot_path else ""))
    said = dict.fromkeys((Path(s.run.instance).name, warning) for s in samples for warning in s.warnings)
    for name, warning in said:
        click.echo(escaped(f"warning: {name}: {warning}"))
    if stopped is not None:  # the rows of the runs finished are printed and written: the stop's line and code
        raise EndedEarly(f"{stopped.message}; by then: {len(samples):,} of {len(runs):,} runs done (the table and "
                         f"{Path(out) / 'bench.json'} hold them)", stopped.exit_code)
    if any(row.status == "ERROR" for row in rows):
        failed = [f"{Path(r.instance).name} / {r.method}: {r.error}" for r in rows if r.status == "ERROR"]
        first = escaped(failed[0]).replace("\n", " ")  # an error may quote an input's bytes
        click.echo(f"puzzlesat: {len(failed)} run(s) failed, first: {first}", err=True)
        raise SystemExit(1)


def _print_table(rows: list[Row]) -> None:
    def cell(seconds: float | None) -> str:
        return "-" if seconds is None else format_seconds(seconds)

    width = max(len(f"{r.puzzle} {Path(r.instance).stem}") for r in rows)
    method_width = max(len(r.method) for r in rows)
    click.echo(f"{'instance':<{width}}  {'method':<{method_width}}  {'status':<7} {'encode':>9} {'solve':>9} "
               f"{'total':>9} {'vars':>7} {'clauses':>8}  ref/this")
    for r in rows:
        ratio = f"{r.reference_ratio:.2f}x" if r.reference_ratio else "-"
        click.echo(f"{escaped(r.puzzle + ' ' + Path(r.instance).stem):<{width}}  {r.method:<{method_width}}  {r.status:<7} "
                   f"{cell(r.encode):>9} {cell(r.solve):>9} {cell(r.total):>9} {r.variables or '-':>7} "
                   f"{r.clauses or '-':>8}  {ratio}")
