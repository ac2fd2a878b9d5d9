"""Cube and conquer and sweeps on a Dask cluster (issue 24): measured on a local cluster of 1 and 2
workers on this machine. Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/cluster.py

1. zhurgut_9x9, both counts by cubes (depth 8), on a LocalCluster of 1 worker and of 2 (processes, one
   thread each), against the plain `count` in this process;
2. a benchmark sweep (every bundled jig up to 9x9, reference and default backend, once) as Dask tasks on
   1 and 2 workers.

What a count too large for this machine would take on a bigger cluster is bench/cube_run.py's: one whole
run's cube times, dealt out to more workers. (A projection from a sample of 40 cubes was here until
session 35; the whole run of zhurgut_10x10 showed it low by half, the hard cubes lying together in the
split's order, where a run of consecutive samples misses them or hits them.)

With ``--search`` it measures instead, in a section of its own, the jig's compiled search with its parts
as Dask tasks (``count jig --executor dask://...``) on clusters of 1 and 2 workers (``--workers 2,16``
for others), against the same search on this machine's cores.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import update_benchmarks  # noqa: E402  (the bench's section writer)

from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.encoders.tiling.options import TilingOptions  # noqa: E402
from puzzlesat.pipeline.bench import Run, measure, run_on  # noqa: E402
from puzzlesat.pipeline.cubes import count_cubes  # noqa: E402
from puzzlesat.pipeline.executors import DaskExecutor  # noqa: E402
from puzzlesat.pipeline.request import request  # noqa: E402
from puzzlesat.pipeline.steps import count_solutions, load  # noqa: E402

JIG = get_puzzle("jig")
JIGS = ROOT / "instances" / "jig"


def on_cluster(workers: int, work):
    """``work(executor)`` on a fresh LocalCluster of ``workers`` processes, and its wall seconds."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        executor = DaskExecutor(cluster.scheduler_address.removeprefix("tcp://"))
        try:
            start = time.perf_counter()
            result = work(executor)
            return result, time.perf_counter() - start
        finally:
            executor.close()


def cubes_9x9(rows: list[str]) -> None:
    instance = load(JIG, str(JIGS / "zhurgut_9x9.jig"))
    plain_start = time.perf_counter()
    plain = [count_solutions(request(JIG, break_symmetry=b, counting=True), instance) for b in (False, True)]
    plain_time = time.perf_counter() - plain_start
    encodings = [JIG.encode(instance, "cnf", TilingOptions(break_symmetry=b)) for b in (False, True)]

    def both(executor):
        return [count_cubes(request(JIG, break_symmetry=b, counting=True), instance, e, 8, executor).total
                for b, e in zip((False, True), encodings)]

    one, t1 = on_cluster(1, both)
    two, t2 = on_cluster(2, both)
    assert one == two == plain, (one, two, plain)
    rows.append(f"| zhurgut_9x9, both counts, cubes of depth 8 | {plain_time:.1f} (plain count, here) | {t1:.1f} | "
                f"{t2:.1f} | {t1 / t2:.2f}x |")


def _cells(path: Path) -> int:
    rows, cols = (int(n) for n in path.read_text().split()[:2])
    return rows * cols


def sweep(rows: list[str]) -> None:
    puzzles = {"jig": JIG}
    files = [p for p in sorted(JIGS.glob("*.jig")) if _cells(p) <= 81]
    backend = request(JIG).backend.name  # the default solver, named: the jig declares none of its own
    runs = [Run("jig", str(p), method, 0) for p in files for method in ("reference", backend)]

    def all_runs(executor):
        return run_on(executor, runs, puzzles, 60)[0]

    first, t1 = on_cluster(1, all_runs)
    second, t2 = on_cluster(2, all_runs)
    assert sorted(s.status for s in first) == sorted(s.status for s in second)
    here = time.perf_counter()
    for run in runs:
        measure(puzzles, run)
    t0 = time.perf_counter() - here
    rows.append(f"| sweep: {len(runs)} runs (jigs up to 9x9, reference + {backend}) | {t0:.1f} "
                f"(one after the other, here) | {t1:.1f} | {t2:.1f} | {t1 / t2:.2f}x |")


def search_on_dask(name: str, workers: list[int]) -> str:
    """The jig's own compiled search, its parts as tasks: here (forked processes, every core), and on a
    LocalCluster of each of ``workers`` processes, twice on the same cluster: its workers fresh (each
    imports puzzlesat and loads the compiled kernels on its first task), then again, as a long-lived
    cluster answers a second command. Every count must agree."""
    from puzzlesat.encoders.jig.counting import PARTS_PER_CORE, reference_counts

    instance = load(JIG, str(JIGS / f"{name}.jig"))
    start = time.perf_counter()
    here = reference_counts(instance, keep=0, plain_seconds=0)
    t0 = time.perf_counter() - start

    def twice(executor):
        runs = []
        for _ in ("fresh workers", "again"):
            start = time.perf_counter()
            counted = reference_counts(instance, keep=0, executor=executor)
            runs.append((counted.layouts, counted.method, time.perf_counter() - start))
        return runs

    on = {}
    for size in workers:
        runs, _ = on_cluster(size, twice)
        assert all(layouts == here.layouts for layouts, _, _ in runs), (size, runs, here.layouts)
        on[size] = [seconds for _, _, seconds in runs]
        print(f"Dask, {size} workers: {on[size][0]:.1f} s fresh, {on[size][1]:.1f} s again ({runs[0][1]})", flush=True)
    fewest, most = min(workers), max(workers)
    return "\n".join([
        f"## The jig's own search on Dask (bench/cluster.py --search; {name})", "",
        f"Measured {time.strftime('%Y-%m-%d')} on this machine ({os.cpu_count()} cores): `count jig --executor "
        f"dask://...` without `--cubes` deals the compiled search into {PARTS_PER_CORE} parts a worker, each a Dask task; a "
        "LocalCluster's workers are processes with one thread each. Wall seconds of the search (the layouts "
        "checked after it are not included), twice on each cluster: first with its workers fresh (each imports "
        "puzzlesat and loads the compiled kernels on its first task), then again.", "",
        "| here, forked processes | " + " | ".join(f"Dask, {size} worker{'s' * (size > 1)}: fresh / again"
                                                  for size in workers)
        + f" | speed-up {fewest} -> {most}: fresh / again | layouts |",
        "|---:|" + "---:|" * len(workers) + "---:|---:|",
        f"| {t0:.1f} ({here.method}) | " + " | ".join(f"{on[size][0]:.1f} / {on[size][1]:.1f}" for size in workers)
        + f" | {on[fewest][0] / on[most][0]:.2f}x / {on[fewest][1] / on[most][1]:.2f}x | {here.layouts} |", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--search", nargs="?", const="zhurgut_13x9", default=None, metavar="JIG",
                        help="measure the jig's own search on Dask instead (default jig: zhurgut_13x9)")
    parser.add_argument("--workers", default="1,2", help="with --search: the cluster sizes, comma-separated")
    args = parser.parse_args()
    if args.search:
        table = search_on_dask(args.search, [int(n) for n in args.workers.split(",")])
        print(table)
        update_benchmarks([table])
        return
    rows: list[str] = []
    cubes_9x9(rows)
    print(rows[-1], flush=True)
    sweep(rows)
    print(rows[-1], flush=True)
    table = "\n".join([
        "## Cube and conquer on Dask (bench/cluster.py; a LocalCluster on this machine)", "",
        f"Measured {time.strftime('%Y-%m-%d')}. Wall seconds; the cluster's workers are processes with one thread "
        "each.", "",
        "| work | one process here s | Dask, 1 worker s | Dask, 2 workers s | speed-up 1 -> 2 |",
        "|---|---:|---:|---:|---:|", *rows, "", "A count too large for this machine on more workers: "
        '"Cube and conquer, one whole run" (bench/cube_run.py).', ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
