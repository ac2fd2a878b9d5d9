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
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..backends import get_backend
from ..core.bundled import located
from ..core.errors import PuzzlesatError
from ..core.files import instance_text
from ..core.puzzle import Puzzle
from ..core.timing import Stopwatch, since_start
from ..processes.runner import Outcome, run_each
from .request import request
from .steps import load
from .stop import STOPPING, Stop
from .tasks import solve

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
    """What one run measured; ``status`` is SAT/UNSAT/PARTIAL (answers) or TIMEOUT/ERROR (none)."""

    run: Run
    status: str
    times: dict[str, float] = field(default_factory=dict)
    size: dict[str, int] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    #: where the input leaves the puzzle's stated assumptions (:attr:`.Report.warnings`)
    warnings: list[str] = field(default_factory=list)

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
    """The instance files of ``puzzle`` in ``directory`` (its suffix, also compressed: ``.cnf.gz``, read
    as solvers read them; answer and solution files skipped)."""
    if not directory.is_dir():
        raise PuzzlesatError(f"{directory}: no such directory of instances")
    suffixes = [puzzle.instance_suffix + packed for packed in ("", ".gz", ".bz2", ".xz", ".lzma")]
    files = sorted(p for p in directory.iterdir() if p.name.endswith(tuple(suffixes)) and p.is_file())
    if not files:
        raise PuzzlesatError(f"{directory}: no {puzzle.instance_suffix} instance files for {puzzle.name}")
    return files


def plan(puzzles: list[Puzzle[Any, Any, Any]], directory: str | None, backends: list[str] | None,
         repeat: int) -> list[Run]:
    """Every run to make: each instance file x (the reference + each backend, default: the puzzle's own)
    x ``repeat``. Backend names are resolved here, so an unknown one fails before any run starts."""
    runs = []
    for puzzle in puzzles:
        name = puzzle.name
        where = directory or puzzle.bundled
        if where is None:
            raise PuzzlesatError(f"--puzzle {name} needs --instances DIR (a directory of {puzzle.instance_suffix} files)")
        files = instance_files(puzzle, Path(located(where)))
        methods = [REFERENCE] + [get_backend(b).name for b in backends or [request(puzzle).backend.name]]
        runs += [Run(name, str(f), method, k) for f in files for method in methods for k in range(repeat)]
    return runs


def measure(puzzles: dict[str, Puzzle[Any, Any, Any]], run: Run, text: str | None = None) -> Sample:
    """Do one run in this process: parse (the file, or its ``text`` when given), then the task's reference
    or its ``solve`` with the named backend (``puzzles``: the puzzle of each name the runs use). A
    reference that refuses the instance by design (too big for its plain walk) is a SKIPPED sample."""
    puzzle = puzzles[run.puzzle]
    watch = Stopwatch()
    try:
        instance = load(puzzle, run.instance, watch, text)
        if run.method == REFERENCE:
            with watch.phase("solve"):
                status, answers, error = puzzle.task.reference(request(puzzle), instance)
            return Sample(run, "ERROR" if error and status not in ("SKIPPED",) else status, watch.times,
                          answers=answers or {}, error=error)
        report = solve(request(puzzle, run.method), instance, watch)
        return Sample(run, report.status.value, watch.times, dict(report.size), dict(report.answers),
                      warnings=report.warnings)
    except PuzzlesatError as exc:
        return Sample(run, "ERROR", watch.times, error=str(exc))


def run_all(runs: list[Run], work: Callable[[Run], Sample], jobs: int, timeout: float | None,
            on_done: Callable[[Sample], None] = lambda sample: None) -> tuple[list[Sample], Stop | None]:
    """Run ``work`` on every run in its own killable process (:func:`~puzzlesat.processes.runner.run_each`),
    at most ``jobs`` at a time; a run still going after ``timeout`` seconds is killed and recorded as
    TIMEOUT (and the method's remaining repeats on that instance are dropped), one that dies as ERROR.
    The samples, and why the runs stopped before the last (a signal), the samples then those finished."""
    timed_out: set[tuple[str, str]] = set()
    samples: list[Sample] = []

    def dropped(number: int) -> bool:  # its other repeats would time out too: not worth the wait
        return (runs[number].instance, runs[number].method) in timed_out

    started = time.monotonic()
    try:
        for number, outcome in run_each([partial(work, run) for run in runs], jobs, timeout, dropped, fresh=True):
            run = runs[number]
            if outcome.status == "TIMEOUT":
                timed_out.add((run.instance, run.method))
            sample = _sample(run, outcome, f"killed after {timeout:g} s" if timeout else "")
            samples.append(sample)
            on_done(sample)
    except STOPPING as stop:
        return samples, Stop.of(stop, since_start(started))
    return samples, None


def _sample(run: Run, outcome: Outcome[Sample], timeout_error: str) -> Sample:
    """The sample a run's outcome holds, or the TIMEOUT or ERROR sample its end means."""
    if outcome.status == "OK" and outcome.value is not None:
        return outcome.value
    return Sample(run, outcome.status, error=timeout_error if outcome.status == "TIMEOUT" else outcome.error)


def run_on(executor: Executor, runs: list[Run], puzzles: dict[str, Puzzle[Any, Any, Any]], timeout: float | None,
           on_done: Callable[[Sample], None] = lambda sample: None) -> tuple[list[Sample], Stop | None]:
    """Every run as one task on ``executor`` (a Dask cluster), each under ``timeout``: a run past it is a
    TIMEOUT sample, one that fails or whose worker dies an ERROR sample. The instances travel as text,
    so the workers need not see this machine's files. Stopped by a signal, as :func:`run_all`."""
    texts = {run.instance: instance_text(puzzles[run.puzzle], run.instance) for run in runs}
    samples = []
    started = time.monotonic()
    try:
        for number, outcome in executor.run([partial(measure, puzzles, run, texts[run.instance]) for run in runs],
                                            timeout):
            sample = _sample(runs[number], outcome, outcome.error)
            samples.append(sample)
            on_done(sample)
    except STOPPING as stop:
        return samples, Stop.of(stop, since_start(started))
    return samples, None


def summarize(samples: Iterable[Sample]) -> list[Row]:
    """One row per (instance, method): medians over the repeats that answered; a method with any run
    that timed out or failed is reported as such. Ratios are reference time / method time."""
    groups: dict[tuple[str, str, str], list[Sample]] = {}
    for sample in samples:
        groups.setdefault((sample.run.puzzle, sample.run.instance, sample.run.method), []).append(sample)
    rows = []
    for (puzzle, instance, method), group in groups.items():
        good = [s for s in group if s.status in ("SAT", "UNSAT", "PARTIAL")]
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


def to_json(rows: list[Row], samples: list[Sample], stopped: Stop | None = None) -> dict[str, Any]:
    """bench.json: the summary rows and every run, led by its schema and puzzlesat's version; ``stopped``
    when a signal ended the runs early (the rows are then those of the runs finished)."""
    from ..core.version import __version__

    return {"schema": "puzzlesat/bench/1", "version": __version__, "rows": [asdict(r) for r in rows],
            "samples": [{**asdict(s.run), "status": s.status, "times": s.times, "size": s.size,
                         "answers": s.answers, "error": s.error} | ({"warnings": s.warnings} if s.warnings else {})
                        for s in samples]} | ({"stopped": stopped.to_json()} if stopped is not None else {})


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


#: instances a puzzle's panel shows bar by bar; past it, each method's times as a column of points
PLOT_BARS = 8


def require_plotting() -> None:
    """Refuse ``--plot`` at once where matplotlib is not installed (before the runs, not after them)."""
    from importlib.util import find_spec

    try:
        missing = find_spec("matplotlib") is None
    except ValueError:  # a module set to None (made unimportable on purpose) has no spec either
        missing = True
    if missing:
        raise PuzzlesatError("--plot needs matplotlib (pip install 'puzzlesat[plot]')")


def plot(rows: list[Row], timeout: float | None) -> bytes:
    """Median total time per method (log scale), one panel per puzzle, two panels a row, so the picture
    keeps its size whatever the number of instances: up to :data:`PLOT_BARS` instances a panel shows one
    bar group per instance, more show each method's times as a column of points (one per instance) with
    its median marked. Runs that timed out are drawn at the time limit (hatched bars, crosses). Returns
    PNG bytes (the caller writes them atomically)."""
    require_plotting()
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    puzzles = list(dict.fromkeys(r.puzzle for r in rows))
    columns = 1 if len(puzzles) == 1 else 2
    lines = -(-len(puzzles) // columns)
    figure, panels = pyplot.subplots(lines, columns, figsize=(6.0 * columns, 3.6 * lines), squeeze=False)
    for panel, puzzle in zip(panels.flat, puzzles):
        _plot_panel(panel, [r for r in rows if r.puzzle == puzzle], timeout)
        panel.set_title(puzzle, fontsize=10)
    for panel in list(panels.flat)[len(puzzles):]:
        panel.set_visible(False)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    pyplot.close(figure)
    return buffer.getvalue()


def _plot_panel(axes: Any, rows: list[Row], timeout: float | None) -> None:
    """One puzzle's panel (see :func:`plot`)."""
    instances = list(dict.fromkeys(Path(r.instance).stem for r in rows))
    methods = list(dict.fromkeys(r.method for r in rows))

    def seconds(row: Row) -> float | None:
        return row.total if row.total is not None else (float(timeout) if timeout else None)

    if len(instances) <= PLOT_BARS:
        width = 0.8 / len(methods)
        for m, method in enumerate(methods):
            chosen = [(i, r) for i, name in enumerate(instances) for r in rows
                      if Path(r.instance).stem == name and r.method == method and seconds(r) is not None]
            bars = axes.bar([i + m * width for i, _ in chosen], [seconds(r) for _, r in chosen], width, label=method)
            for bar, (_, row) in zip(bars, chosen):
                bar.set_hatch("" if row.total is not None else "//")
        axes.set_xticks([i + 0.4 - width / 2 for i in range(len(instances))])
        axes.set_xticklabels(instances, rotation=20, ha="right", fontsize=7)
    else:
        for m, method in enumerate(methods):
            times = [(r, seconds(r)) for r in rows if r.method == method and seconds(r) is not None]
            finished = [r.total for r, _ in times if r.total is not None]
            spread = [m + 0.3 * ((k * 0.618) % 1 - 0.5) for k in range(len(times))]  # spread out, same each run
            axes.scatter([x for x, (r, _) in zip(spread, times) if r.total is not None], finished, s=10, label=method)
            axes.scatter([x for x, (r, _) in zip(spread, times) if r.total is None],
                         [t for r, t in times if r.total is None], marker="x", color="black", s=14)
            if finished:
                axes.hlines(sorted(finished)[len(finished) // 2], m - 0.3, m + 0.3, colors="black")
        axes.set_xticks(range(len(methods)))
        axes.set_xticklabels([f"{method}\n({len(instances)} instances)" for method in methods], fontsize=7)
    axes.set_yscale("log")
    axes.set_ylabel("median seconds (timed out: at the limit)", fontsize=7)
    axes.legend(fontsize=7)
