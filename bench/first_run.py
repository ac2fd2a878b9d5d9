"""The first run against the next (issue 70, item 3): every command of README and the site, run on an
empty cache of compiled kernels and on a warm one, side by side.

Each command of each console block runs twice, alternately: first with ``NUMBA_CACHE_DIR`` a new empty
directory (a fresh install: what is compiled is compiled in the background, the plain code answering
meanwhile), then with a cache that ``puzzlesat compile`` filled. Both outputs must match the page, and
each other once times are masked (the same answers, the same cross-check rows); a first run must take at
most max(2 x warm, warm + 5 s). The four slowest first runs are then timed again, median of
``--runs``, alternated.

    .venv/bin/python bench/first_run.py [--runs 3]      (writes its section of BENCHMARKS.md)
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from run import compile_package, update_benchmarks  # noqa: E402  (the bench's section writer)

from tests.examples import Block, all_blocks, environment, output_matches, scratch, tools_missing, transcript  # noqa: E402

#: a time as commands print it, masked before two outputs are compared
TIME = re.compile(r"\d[\d,]*(\.\d+)? ?(us|ms|s|min|h)\b")


#: the note a first run adds on stderr (the only line it may add)
COMPILING = "puzzlesat: note: compiling "


def unnoted(output: str) -> list[str]:
    """The output's lines, less the note of a compilation."""
    return [line for line in output.splitlines() if not line.startswith(COMPILING)]


def masked(output: str) -> list[str]:
    """The output's lines without its times (and the times line) and the compilation's note, blanks
    squeezed (columns widen with a longer time)."""
    return [re.sub(r"\s+", " ", TIME.sub("T", line)).strip() for line in unnoted(output)
            if not line.startswith("times:")]


def timed(command: str, cwd: Path, cache: Path) -> tuple[float, str]:
    env = environment() | {"NUMBA_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600)
    return time.perf_counter() - start, done.stdout


def within(cold: float, warm: float) -> bool:
    return cold <= max(2 * warm, warm + 5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each of the four slowest first runs")
    args = parser.parse_args()
    compile_package()
    # (command, cold, warm, same answers (None: two warm runs differ too), both as the page shows)
    rows: list[tuple[str, float, float, bool | None, bool]] = []
    where: list[tuple[Block, int]] = []  # each row's block and the command's place in it
    with tempfile.TemporaryDirectory(prefix="puzzlesat-first-run-") as name:
        caches = Path(name)
        warm_cache = caches / "warm"
        subprocess.run(["puzzlesat", "compile"], env=environment() | {"NUMBA_CACHE_DIR": str(warm_cache)},
                       check=True, capture_output=True)
        for block in all_blocks("console"):
            pairs = transcript(block)
            if any(tools_missing(command) for command, _ in pairs):
                continue
            with scratch() as cold_here, scratch() as warm_here:
                for number, (command, shown) in enumerate(pairs):
                    fresh = caches / f"cold-{len(rows)}-{number}"
                    cold, cold_out = timed(command, cold_here, fresh)
                    warm, warm_out = timed(command, warm_here, warm_cache)
                    if command.startswith("puzzlesat compile"):  # the compilation itself: nothing to compare
                        continue
                    shown_both = output_matches(shown, unnoted(cold_out)) and output_matches(shown, unnoted(warm_out))
                    same = masked(cold_out) == masked(warm_out)
                    if not same:  # an answer that depends on time (what a count had found by its limit)?
                        with scratch() as again_here:
                            for earlier, _ in pairs[:number]:
                                timed(earlier, again_here, warm_cache)
                            same = None if masked(timed(command, again_here, warm_cache)[1]) != masked(warm_out) else False
                    where.append((block, number))
                    rows.append((f"{block.name}: {command}", cold, warm, same, shown_both))
                    print(f"{cold:7.2f} {warm:7.2f} {rows[-1][3]} {shown_both} {command}", flush=True)
        slowest = sorted(range(len(rows)), key=lambda at: rows[at][1], reverse=True)[:4]
        again: list[tuple[str, float, float]] = []
        for at in slowest:
            block, number = where[at]
            before = [command for command, _ in transcript(block)[:number]]
            colds, warms = [], []
            for run in range(args.runs):
                for cache, times in ((caches / f"again-{at}-{run}", colds), (warm_cache, warms)):
                    with scratch() as here:
                        for command in before:  # what the command reads (files the block made before it)
                            timed(command, here, warm_cache)
                        times.append(timed(transcript(block)[number][0], here, cache)[0])
            again.append((rows[at][0], statistics.median(colds), statistics.median(warms)))
    differing = [row for row in rows if row[3] is False]
    timely = [row for row in rows if row[3] is None]
    unshown = [row for row in rows if not row[4]]
    beyond = [row for row in rows if not within(row[1], row[2])]
    lines = [f"## First runs against the next (bench/first_run.py; whole processes, wall seconds; "
             f"{time.strftime('%Y-%m-%d')})", "",
             f"Every command of README and the site's console examples "
             f"({len(rows)} commands; `puzzlesat compile` itself left out), each run on an empty "
             "`NUMBA_CACHE_DIR` (a fresh install) and on one "
             "that `puzzlesat compile` filled, alternately. The bound: a first run takes at most "
             "max(2 x warm, warm + 5 s).", "",
             f"- same answers and cross-check rows (times masked): {len(rows) - len(differing) - len(timely)} of "
             f"{len(rows)}" + "".join(f"; differs: `{row[0]}`" for row in differing)
             + (f" (and {len(timely)} whose answers differ between two warm runs too, what a run had found by its "
                f"time limit: " + "; ".join(f"`{row[0]}`" for row in timely) + ")" if timely else ""),
             f"- both outputs as the page shows: {len(rows) - len(unshown)} of {len(rows)}"
             + "".join(f"; not as shown: `{row[0]}`" for row in unshown),
             f"- first runs within the bound: {len(rows) - len(beyond)} of {len(rows)}"
             + "".join(f"; beyond: `{row[0]}` ({row[1]:.2f} s against {row[2]:.2f} s)" for row in beyond),
             f"- total: first runs {sum(row[1] for row in rows):.1f} s, warm runs {sum(row[2] for row in rows):.1f} s",
             "", f"The four slowest first runs again (median of {args.runs}, alternated):", "",
             "| command | first run (s) | warm (s) | ratio | bound (s) |", "|---|---:|---:|---:|---:|"]
    for command, cold, warm in again:
        lines.append(f"| `{command}` | {cold:.2f} | {warm:.2f} | {cold / warm:.2f} | {max(2 * warm, warm + 5):.2f} |")
    table = "\n".join(lines) + "\n"
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
