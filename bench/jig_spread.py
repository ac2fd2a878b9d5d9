"""The jig's compiled search spread over few and many cores, here and as Dask tasks (issue 47, items 3
and 4): the whole count of one jig (default zhurgut_10x10) on so many local cores and on a LocalCluster
of so many workers, for each number of parts a core the search is dealt into, medians of alternated
runs; the speed-up from the fewest to the most. A cluster is timed once with its workers fresh (each
imports puzzlesat and compiles the kernel on its first task), then again, as a long-lived cluster
answers later commands. Every count must agree. Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/jig_spread.py [--jig zhurgut_10x10] [--cores 2,CORES] [--parts 4,16] [--runs 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster import on_cluster  # noqa: E402  (bench/ is not a package)
from run import ROOT, update_benchmarks  # noqa: E402

from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.encoders.jig import counting  # noqa: E402
from puzzlesat.encoders.jig.compiled import narrowest_tables  # noqa: E402


def timed(count) -> tuple[float, int]:
    start = time.perf_counter()
    layouts = count()
    return time.perf_counter() - start, layouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jig", default="zhurgut_10x10")
    parser.add_argument("--cores", default=f"2,{os.cpu_count()}", help="local cores and Dask workers, the fewest first")
    parser.add_argument("--parts", default=f"4,{counting.PARTS_PER_CORE}", help="parts a core to compare")
    parser.add_argument("--runs", type=int, default=3, help="runs of each (the fewest cores: at most 2, default parts)")
    args = parser.parse_args()
    cores = [int(n) for n in args.cores.split(",")]
    choices = [int(n) for n in args.parts.split(",")]
    jig = get_puzzle("jig").parse((ROOT / "instances" / "jig" / f"{args.jig}.jig").read_text(), args.jig)
    narrowest_tables(jig)  # compiled before anything is timed
    seen: dict[tuple[str, int, int], list[float]] = {}
    layouts: set[int] = set()

    def record(where: str, size: int, parts: int, seconds: float, counted: int) -> None:
        seen.setdefault((where, size, parts), []).append(seconds)
        layouts.add(counted)
        print(f"{where} {size}, {parts} parts a core: {seconds:.2f} s, {counted} layouts", flush=True)

    def local(size: int, parts: int) -> None:
        counting.PARTS_PER_CORE = parts
        record("cores", size, parts, *timed(lambda: counting.reference_counts(jig, keep=0, workers=size,
                                                                              plain_seconds=0).layouts))

    fewest, most = cores[0], cores[-1]
    for run in range(args.runs):
        for parts in choices:
            for size in cores:
                if size != fewest or (run < 2 and parts == choices[-1]):  # the slowest: twice, default parts
                    local(size, parts)
    for size in cores:
        def on_dask(executor, size=size) -> None:
            counting.PARTS_PER_CORE = choices[-1]
            record("fresh Dask workers", size, choices[-1], *timed(
                lambda: counting.reference_counts(jig, keep=0, executor=executor).layouts))
            for run in range(args.runs if size != fewest else 1):
                for parts in choices if size != fewest else choices[-1:]:
                    counting.PARTS_PER_CORE = parts
                    record("Dask workers", size, parts, *timed(
                        lambda: counting.reference_counts(jig, keep=0, executor=executor).layouts))
        on_cluster(size, on_dask)
    assert len(layouts) == 1, layouts

    def cell(where: str, size: int, parts: int) -> str:
        times = seen.get((where, size, parts))
        return f"{statistics.median(times):.2f} ({len(times)})" if times else "-"

    def speedup(where: str, parts: int, base: str = "") -> str:
        slow, fast = seen.get((base or where, fewest, parts)) or seen.get((base or where, fewest, choices[-1])), \
            seen.get((where, most, parts))
        return f"{statistics.median(slow) / statistics.median(fast):.2f}x" if slow and fast else "-"

    rows = [f"| local cores | {parts} | {cell('cores', fewest, parts)} | {cell('cores', most, parts)} | "
            f"{speedup('cores', parts)} |" for parts in choices]
    rows += [f"| Dask workers, fresh | {choices[-1]} | {cell('fresh Dask workers', fewest, choices[-1])} | "
             f"{cell('fresh Dask workers', most, choices[-1])} | {speedup('fresh Dask workers', choices[-1])} |"]
    rows += [f"| Dask workers, again | {parts} | {cell('Dask workers', fewest, parts)} | "
             f"{cell('Dask workers', most, parts)} | {speedup('Dask workers', parts)} |" for parts in choices]
    table = "\n".join([
        f"## Jig search from {fewest} to {most} cores (bench/jig_spread.py; {args.jig})", "",
        f"The whole count ({layouts.pop()} layouts), wall seconds, median (runs) of runs alternated between the "
        f"settings: on local cores (forked processes) and as tasks on a LocalCluster of so many one-thread "
        "workers, the search dealt into so many parts a core. A cluster is timed first with its workers fresh "
        "(each compiles on its first task), then again (as a long-lived one answers later commands). The "
        f"slowest, {fewest} cores and {fewest} workers, are run with the default parts only, and at most twice: "
        f"every speed-up is against them.", "",
        f"| where | parts a core | {fewest} s | {most} s | speed-up |", "|---|---:|---:|---:|---:|", *rows, ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
