"""One whole cube-and-conquer count, as a user runs it, summarised, and its cubes dealt out to more
workers: what the count would take on a bigger cluster, from every cube's time rather than a sample's
(a sample of 40 cubes of zhurgut_10x10's 11,211 said half of it).

    .venv/bin/python bench/cube_run.py [--jig zhurgut_10x10] [--depth 14] [--executor local:2] [--limit 3600]
    .venv/bin/python bench/cube_run.py --report RUN.json [the same options: the command RUN.json came from]

Runs ``puzzlesat count jig JIG --cubes DEPTH --executor EXECUTOR --timeout LIMIT --json`` (or reads the
report such a run wrote, ``--report``) and writes the section "Cube and conquer, one whole run" of
BENCHMARKS.md: for each count, its cubes, how many finished within the limit, their times (the sum is
core-seconds; median, 95th percentile, slowest), and, where the limit stopped the count, its core-hours
at the pace of the cubes that finished; and the finished cubes' wall time dealt out to 2 (of a complete run, a
check on the run's own wall time), 16, 64 and 256 workers.
"""
from __future__ import annotations

import argparse
import heapq
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import compile_package, update_benchmarks  # noqa: E402  (the bench's section writer)

#: the cluster sizes a run's cube times are dealt out to (:func:`makespan`)
WORKERS = (2, 16, 64, 256)


def makespan(seconds: list[float], workers: int) -> float:
    """The wall time of cubes taking ``seconds`` (in the split's order) on ``workers`` workers, each free
    worker taking the next cube, as both executors hand them out."""
    free = [0.0] * workers
    for took in seconds:
        heapq.heapreplace(free, free[0] + took)
    return max(free)


def summary(report: dict, command: str, source: str) -> str:
    rows, complete = [], report.get("complete", True)
    spans = dict.fromkeys(WORKERS, 0.0)
    for label, cubed in report["cubes"].items():
        times_in_order = [seconds for seconds in cubed["seconds"] if seconds > 0]  # a cube not finished took 0
        times = sorted(times_in_order)
        assert len(times) == cubed.get("finished", cubed["cubes"]), (label, len(times))
        pace = sum(times) / len(times) * cubed["cubes"] / 3600
        for workers in WORKERS:
            spans[workers] += makespan(times_in_order, workers)
        split = f"{cubed['split_seconds']:.1f}" if "split_seconds" in cubed else "not reported"
        rows.append(f"| {label} | {split} | {cubed['cubes']} ({cubed['refuted']} refuted) | {len(times)} | {sum(times):,.0f} | "
                    f"{statistics.median(times):.3f} | {times[int(0.95 * len(times))]:.2f} | {times[-1]:.1f} | "
                    f"{pace:.2f} |")
    answers = ", ".join(f"{label} {count}" for label, count in report["answers"].items())
    stopped = "" if complete else " (stopped by its limit: a lower bound)"
    return "\n".join([
        "## Cube and conquer, one whole run (bench/cube_run.py)", "",
        f"`{command}`, {source}: {report['times']['solve']:,.0f} s wall; answers {answers}{stopped}. "
        "Each cube's seconds as its worker timed it (the formula kept, each cube under assumptions); the last "
        "column is the count's whole work at the pace of the cubes that finished.", "",
        "| count | split s (wall) | open cubes | finished | core-seconds | median s | 95th percentile s | slowest s | "
        "core-hours at that pace |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|", *rows, "",
        "The cubes that finished, of every count, dealt out to more workers, each free worker taking the next cube "
        "as the executors do, each cube taking what it took here (so: workers as fast as these, and a kept "
        "session's learning the same with fewer cubes before each; the splits not included)"
        + ("." if complete else ": a lower bound, the unfinished cubes and counts left out."), "",
        "| workers | cubes' wall time |", "|---:|---:|",
        *(f"| {workers} | {spans[workers] / 60:.1f} min |" for workers in WORKERS), ""])


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jig", default="zhurgut_10x10")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--executor", default="local:2")
    parser.add_argument("--limit", type=int, default=3600)
    parser.add_argument("--report", type=Path, help="the JSON report of a run of the same command, already made")
    args = parser.parse_args()
    argv = ["count", "jig", f"instances/jig/{args.jig}.jig", "--cubes", str(args.depth), "--executor", args.executor,
            "--timeout", str(args.limit), "--json"]
    command = "puzzlesat " + " ".join(argv[:-1])
    if args.report:
        text, source = args.report.read_text(), "its report read back (made on the machine named above)"
    else:
        ran = subprocess.run([str(ROOT / ".venv" / "bin" / "puzzlesat"), *argv], cwd=ROOT, capture_output=True,
                             text=True, check=False)
        text, source = ran.stdout, "run by this script"
    table = summary(json.loads(text), command, source)
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
