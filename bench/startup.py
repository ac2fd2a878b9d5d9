"""Start-up against its floor, whole processes measured in the same run (issue 23, item 1):

- `puzzlesat --help` against importing its own dependencies (click + pysat.solvers + pysat.card +
  pysat.formula) in a bare interpreter;
- `puzzlesat solve jigsaw` on an AoC-size input against bench/yardsticks/jigsaw_plain.py, a plain Python
  solution that imports nothing of ours (the real inputs of ../shared when present, else generated ones).

    .venv/bin/python bench/startup.py [--runs 11]      (writes its section of BENCHMARKS.md)
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import aoc_inputs, compile_package, update_benchmarks  # noqa: E402  (the bench's inputs and section writer)

EXE = str(Path(sys.executable).parent / "puzzlesat")
DEPENDENCIES = "import click, pysat.solvers, pysat.card, pysat.formula"


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def pair(ours: list[str], yardstick: list[str], runs: int) -> tuple[float, float]:
    """Medians of both, run alternately so that a busy moment hits both alike."""
    a, b = [], []
    for _ in range(runs):
        a.append(wall(ours))
        b.append(wall(yardstick))
    return statistics.median(a), statistics.median(b)


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    runs = parser.parse_args().runs
    rows = []
    ours, floor = pair([EXE, "--help"], [sys.executable, "-c", DEPENDENCIES], runs)
    rows.append(f"| `puzzlesat --help` | {ours:.3f} | `python -c \"{DEPENDENCIES}\"` | {floor:.3f} | "
                f"{ours / floor:.2f}x | 1.3x |")
    for name, path in [(n, p) for n, p in aoc_inputs("2020-20") if n.startswith(("real", "generated"))]:
        ours, floor = pair([EXE, "solve", "jigsaw", path],
                           [sys.executable, str(ROOT / "bench" / "yardsticks" / "jigsaw_plain.py"), path], runs)
        rows.append(f"| `puzzlesat solve jigsaw` {name} | {ours:.3f} | jigsaw_plain.py | {floor:.3f} | "
                    f"{ours / floor:.2f}x | 1.5x |")
        print(rows[-1], flush=True)
    table = "\n".join([
        "## Start-up (bench/startup.py; whole processes, wall seconds, median of "
        f"{runs}, alternated; {time.strftime('%Y-%m-%d')})", "",
        "Both sides run from bytecode (the package compiled first, as pip installs it). Targets: issue 23's "
        "1.3x for `--help`, issue 47's 1.5x for `solve jigsaw` against the plain assembler.", "",
        "| command | puzzlesat s | yardstick | yardstick s | ratio | target |", "|---|---:|---|---:|---:|---:|",
        *rows, ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
