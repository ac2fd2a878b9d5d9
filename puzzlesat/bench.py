"""Benchmarking: instances x methods (backends and the solver-free reference), each run in its own process.

Every run is a forked child, so that a run past its time limit can be killed (most PySAT solvers cannot be
interrupted) and a crash costs one row, not the benchmark. Runs are timed inside the child with the
pipeline's own :class:`Stopwatch`, so encode and solve are measured separately and process start-up is
not counted. Repeats are separate runs; rows report medians. With several jobs, runs share the cores:
fine for a quick survey, but quote single-job numbers.
"""
from __future__ import annotations

import csv
import io
import multiprocessing
import os
import signal
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import partial
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .backends import get_backend
from .core.errors import PuzzlesatError
from .core.files import read_text
from .core.processes import die_with_parent
from .core.puzzle import Puzzle
from .core.timing import Stopwatch
from .request import request
from .solving import load, solve

if TYPE_CHECKING:
    from .executors import Executor

REFERENCE = "reference"


@dataclass(frozen=True)
class Run:
    """One measurement to make: a method on an instance (repeat number ``repeat``)."""

    puzzle: str
    instance: str
    method: str
    repeat: int


@dataclass
class Sample:
    """What one run measured; ``status`` is SAT/UNSAT/TIMEOUT/ERROR."""

    run: Run
    status: str
    times: dict[str, float] = field(default_factory=dict)
    size: dict[str, int] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    error: str = ""

    @property
    def total(self) -> float:
        return sum(self.times.values())


@dataclass
class Row:
    """Medians of the repeats of one method on one instance, and its speed against the reference."""

    puzzle: str
    instance: str
    method: str
    status: str
    runs: int
    encode: float | None
    solve: float | None
    total: float | None
    variables: int | None
    clauses: int | None
    reference_ratio: float | None = None
    error: str = ""


def instance_files(puzzle: Puzzle[Any, Any, Any], directory: Path) -> list[Path]:
    """The instance files of ``puzzle`` in ``directory`` (its suffix; answer and solution files skipped)."""
    if not directory.is_dir():
        raise PuzzlesatError(f"{directory}: no such directory of instances")
    files = sorted(p for p in directory.iterdir() if p.suffix == puzzle.instance_suffix and p.is_file())
    if not files:
        raise PuzzlesatError(f"{directory}: no {puzzle.instance_suffix} instance files for {puzzle.name}")
    return files


#: where each puzzle's bundled instances live, relative to the project root (the default directory)
BUNDLED = {"aquarium": "instances/aquarium", "jigsaw": "instances/aoc/2020-20", "jig": "instances/jig",
           "amphipod": "instances/aoc/2021-23", "dice": "instances/aoc/2021-21"}


def plan(puzzles: list[Puzzle[Any, Any, Any]], directory: str | None, backends: list[str] | None,
         repeat: int) -> list[Run]:
    """Every run to make: each instance file x (the reference + each backend, default: the puzzle's own)
    x ``repeat``. Backend names are resolved here, so an unknown one fails before any run starts."""
    runs = []
    for puzzle in puzzles:
        name = puzzle.name
        files = instance_files(puzzle, Path(directory or BUNDLED[name]))
        methods = [REFERENCE] + [get_backend(b).name for b in backends or [request(puzzle).backend.name]]
        runs += [Run(name, str(f), method, k) for f in files for method in methods for k in range(repeat)]
    return runs


def measure(puzzles: dict[str, Puzzle[Any, Any, Any]], run: Run, text: str | None = None) -> Sample:
    """Do one run in this process: parse (the file, or its ``text`` when given), then the reference or
    ``solve`` with the named backend (``puzzles``: the puzzle of each name the runs use)."""
    puzzle = puzzles[run.puzzle]
    watch = Stopwatch()
    try:
        instance = load(puzzle, run.instance, watch, text=text)
        if run.method == REFERENCE:
            with watch.phase("solve"):
                found = puzzle.reference(instance, puzzle.task.reference_limit)
            return Sample(run, "SAT" if found else "UNSAT", watch.times, answers=_answers(found[:1]))
        report = solve(request(puzzle, run.method), instance, watch)
        return Sample(run, report.status, watch.times, report.size, report.answers)
    except PuzzlesatError as exc:
        return Sample(run, "ERROR", watch.times, error=str(exc))


def _answers(solutions: list[Any]) -> dict[str, Any]:
    return dict(solutions[0].answers()) if solutions else {}


def run_all(runs: list[Run], work: Callable[[Run], Sample], jobs: int, timeout: float | None,
            on_done: Callable[[Sample], None] = lambda sample: None) -> list[Sample]:
    """Run ``work`` on every run in forked children, at most ``jobs`` at a time; a child still running
    after ``timeout`` seconds is killed and recorded as TIMEOUT (and the method's remaining repeats on
    that instance are dropped), one that dies as ERROR."""
    ctx = multiprocessing.get_context("fork")
    queue = list(runs)
    running: dict[Connection, tuple[Run, Any, float]] = {}
    samples: list[Sample] = []

    def finish(sample: Sample) -> None:
        samples.append(sample)
        on_done(sample)

    try:
        while queue or running:
            while queue and len(running) < jobs:
                run = queue.pop(0)
                receiver, sender = ctx.Pipe(duplex=False)
                # not a daemon: a run may start processes of its own (portfolio members, timeouts)
                process = ctx.Process(target=_child, args=(sender, work, run))
                process.start()
                sender.close()
                running[receiver] = (run, process, time.perf_counter())
            now = time.perf_counter()
            waits = [start + timeout - now for _, _, start in running.values()] if timeout else []
            for answered in wait(list(running), max(0.0, min(waits)) if waits else None):
                conn = cast(Connection, answered)
                run, process, _ = running.pop(conn)
                try:
                    sample: Sample | None = conn.recv()
                except EOFError:
                    sample = None
                process.join()
                conn.close()
                finish(sample or Sample(run, "ERROR", error=f"the run died (exit code {process.exitcode})"))
            now = time.perf_counter()
            for conn, (run, process, start) in list(running.items()):
                if timeout and now - start >= timeout:
                    _kill_group(process)
                    conn.close()
                    del running[conn]
                    finish(Sample(run, "TIMEOUT", error=f"killed after {timeout:g} s"))
                    # its other repeats would time out too: not worth the wait
                    queue = [q for q in queue if (q.instance, q.method) != (run.instance, run.method)]
    finally:
        for _, process, _ in running.values():
            _kill_group(process)
    return samples


def run_on(executor: Executor, runs: list[Run], puzzles: dict[str, Puzzle[Any, Any, Any]], timeout: float | None,
           on_done: Callable[[Sample], None] = lambda sample: None) -> list[Sample]:
    """Every run as one task on ``executor`` (a Dask cluster), each under ``timeout``: a run past it is a
    TIMEOUT sample, one that fails or whose worker dies an ERROR sample. The instances travel as text,
    so the workers need not see this machine's files."""
    texts = {run.instance: read_text(run.instance) for run in runs}
    samples = []
    for number, outcome in executor.run([partial(measure, puzzles, run, texts[run.instance]) for run in runs],
                                        timeout):
        run = runs[number]
        sample = outcome.value if outcome.status == "OK" and outcome.value is not None else \
            Sample(run, outcome.status, error=outcome.error)
        samples.append(sample)
        on_done(sample)
    return samples


def _child(sender: Connection, work: Callable[[Run], Sample], run: Run) -> None:
    die_with_parent()
    os.setpgid(0, 0)  # its own process group, so that a kill also reaches its solver processes (portfolio)
    try:
        sample = work(run)
    except Exception as exc:  # noqa: BLE001  (a bug in one run is that run's ERROR row, with its reason)
        sample = Sample(run, "ERROR", error=f"{type(exc).__name__}: {exc}")
    sender.send(sample)


def _kill_group(process: multiprocessing.process.BaseProcess) -> None:
    try:
        if process.pid is None:  # never started
            return
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # not yet its own group leader: kill it alone
        process.kill()
    process.join()


def summarize(samples: Iterable[Sample]) -> list[Row]:
    """One row per (instance, method): medians over the repeats that answered; a method with any run
    that timed out or failed is reported as such. Ratios are reference time / method time."""
    groups: dict[tuple[str, str, str], list[Sample]] = {}
    for sample in samples:
        groups.setdefault((sample.run.puzzle, sample.run.instance, sample.run.method), []).append(sample)
    rows = []
    for (puzzle, instance, method), group in groups.items():
        good = [s for s in group if s.status in ("SAT", "UNSAT")]
        bad = [s for s in group if s not in good]

        size = good[0].size if good else {}
        rows.append(Row(puzzle, instance, method, bad[0].status if bad else good[0].status, len(group),
                        _median(good, "encode"), _median(good, "solve"),
                        statistics.median(s.total for s in good) if good else None,
                        size.get("variables"), size.get("clauses", size.get("assertions")),
                        error=bad[0].error if bad else ""))
    by_instance = {(r.puzzle, r.instance): r for r in rows if r.method == REFERENCE}
    for row in rows:
        ref = by_instance.get((row.puzzle, row.instance))
        if ref and ref.total and row.total:
            row.reference_ratio = ref.total / row.total
    return rows


def _median(samples: list[Sample], phase: str) -> float | None:
    values = [s.times.get(phase, 0.0) for s in samples]
    return statistics.median(values) if values else None


def to_json(rows: list[Row], samples: list[Sample]) -> dict[str, Any]:
    """bench.json: the summary rows and every run, led by its schema and puzzlesat's version."""
    from . import __version__

    return {"schema": "puzzlesat/bench/1", "version": __version__, "rows": [asdict(r) for r in rows],
            "samples": [{**asdict(s.run), "status": s.status, "times": s.times, "size": s.size,
                         "answers": s.answers, "error": s.error} for s in samples]}


CSV_COLUMNS = ("puzzle", "instance", "method", "status", "runs", "encode", "solve", "total", "variables", "clauses",
               "reference_ratio", "error")


def to_csv(rows: list[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(["" if getattr(row, c) is None else getattr(row, c) for c in CSV_COLUMNS])
    return out.getvalue()


def to_markdown(rows: list[Row]) -> str:
    """The table ``puzzlesat bench`` prints, as Markdown (for BENCHMARKS.md)."""
    lines = [("| puzzle | instance | method | status | encode s | solve s | total s | variables | clauses "
             "| reference / method |"), "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        cells = [r.puzzle, Path(r.instance).stem, r.method, r.status, _s(r.encode), _s(r.solve), _s(r.total),
                 _n(r.variables), _n(r.clauses), f"{r.reference_ratio:.2f}x" if r.reference_ratio else "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _s(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.4f}"


def _n(number: int | None) -> str:
    return "-" if number is None else str(number)


def plot(rows: list[Row], timeout: float | None) -> bytes:
    """A bar chart of median total time per method on each instance (log scale); runs that timed out are
    drawn hatched at the time limit. Returns PNG bytes (the caller writes them atomically)."""
    try:
        import matplotlib
    except ImportError:
        raise PuzzlesatError("--plot needs matplotlib (pip install 'puzzlesat[plot]')") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    instances = list(dict.fromkeys((r.puzzle, Path(r.instance).stem) for r in rows))
    methods = list(dict.fromkeys(r.method for r in rows))
    width = 0.8 / len(methods)
    figure, axes = pyplot.subplots(figsize=(max(6.0, 0.6 * len(instances) * len(methods) + 2), 4.5))
    for m, method in enumerate(methods):
        xs: list[float] = []
        heights: list[float] = []
        hatches: list[str] = []
        for i, key in enumerate(instances):
            row = next((r for r in rows if (r.puzzle, Path(r.instance).stem) == key and r.method == method), None)
            if row is None or (row.total is None and not timeout):
                continue
            xs.append(i + m * width)
            heights.append(row.total if row.total is not None else float(timeout or 0))
            hatches.append("" if row.total is not None else "//")
        bars = axes.bar(xs, heights, width, label=method)
        for bar, hatch in zip(bars, hatches):
            bar.set_hatch(hatch)
    axes.set_yscale("log")
    axes.set_ylabel("median total seconds (hatched: timed out)")
    axes.set_xticks([i + 0.4 - width / 2 for i in range(len(instances))])
    axes.set_xticklabels([f"{p}\n{name}" for p, name in instances], rotation=30, ha="right", fontsize=8)
    axes.legend(fontsize=8)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    pyplot.close(figure)
    return buffer.getvalue()
