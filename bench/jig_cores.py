"""How the jig's compiled search uses cores: the whole count of one jig (default zhurgut_10x10) on 1 core
and on every power of two up to this machine's cores, measured; and for machines with more cores than
this one, a projection from the parts' own times: the search dealt into the parts a 16-core count
deals (4 a core), each part timed alone here, then handed to 1, 2, 4, 8 and 16 workers in order, each
taking the next part when it is free (as the local executor and Dask do). A projection assumes the
cores are as fast as this machine's and do not slow each other; a 16-core machine's own figures replace
it (bench/sixteen_cores.sh runs this on a lent 16-core machine). Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/jig_cores.py [--jig zhurgut_10x10]
"""
from __future__ import annotations

import argparse
import heapq
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, update_benchmarks  # noqa: E402  (bench/ is not a package)

from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.encoders.jig.compiled import narrowest_tables  # noqa: E402
from puzzlesat.encoders.jig.counting import PARTS_PER_CORE, reference_counts  # noqa: E402

#: the cores a projection goes up to
MOST_CORES = 16


def makespan(times: list[float], workers: int) -> float:
    """When the last of ``times`` ends, the parts taken in order by the first free of ``workers``."""
    free = [0.0] * workers
    for seconds in times:
        heapq.heapreplace(free, free[0] + seconds)
    return max(free)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jig", default="zhurgut_10x10")
    name = parser.parse_args().jig
    jig = get_puzzle("jig").parse((ROOT / "instances" / "jig" / f"{name}.jig").read_text(), name)
    tables = narrowest_tables(jig)  # the piece order the count itself walks (compiled on the way)
    cores = os.cpu_count() or 1
    measured = {}
    for workers in [2 ** k for k in range(cores.bit_length()) if 2 ** k <= cores]:
        start = time.perf_counter()
        counted = reference_counts(jig, keep=0, workers=workers, plain_seconds=0)
        measured[workers] = time.perf_counter() - start
        print(f"{workers} cores: {measured[workers]:.1f} s, {counted.layouts} layouts ({counted.method})", flush=True)
    parts = MOST_CORES * PARTS_PER_CORE
    split = tables.split_depth(parts)
    times = []
    for part in range(parts):
        start = time.perf_counter()
        tables.count(part, parts, 0, split)
        times.append(time.perf_counter() - start)
    work = sum(times)
    rows = []
    for workers in (1, 2, 4, 8, 16):
        projected = makespan(times, workers)
        seen = "- | - | -"
        if workers in measured:
            against_two = f"{measured[2] / measured[workers]:.2f}x" if 2 in measured and workers >= 2 else "-"
            seen = f"{measured[workers]:.1f} | {measured[1] / measured[workers]:.2f}x | {against_two}"
        rows.append(f"| {workers} | {seen} | {projected:.1f} | {work / projected:.2f}x |")
    table = "\n".join([
        f"## Jig search on more cores (bench/jig_cores.py; {name})", "",
        f"Measured: the whole count, compiled from the start, on so many cores "
        f"(one core: one search; more: {PARTS_PER_CORE} parts a core). Projected: the search dealt into {parts} "
        f"parts at depth {split}, each timed alone here ({work:.1f} s in all, the largest {max(times):.1f} s), "
        "taken in order by the first free worker; it assumes cores as fast as these that do not slow each "
        "other" + ("." if MOST_CORES in measured else ", and a 16-core machine's own measurement is still to be made."),
        "",
        "| cores | measured s | measured speed-up | against 2 cores | projected s | projected speed-up |",
        "|---:|---:|---:|---:|---:|---:|",
        *rows, ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
