"""Start-up against its floor, whole processes measured in the same run (issue 23, item 1):

- `puzzlesat --help` against importing its own dependencies (click + pysat.solvers + pysat.card +
  pysat.formula) in a bare interpreter;
- `puzzlesat solve jigsaw` on an AoC-size input against bench/yardsticks/jigsaw_plain.py, a plain Python
  solution that imports nothing of ours (the real inputs of ../shared when present, else generated ones);
- the same over a seeded family of generated inputs (`generate jigsaw`: 3x3 to 12x12 tiles, with and
  without false leads), as median, 95th percentile and worst ratio.

Run with a plain install's interpreter (no extras), its section is a plain install's.

    .venv/bin/python bench/startup.py [--runs 11]      (writes its section of BENCHMARKS.md)
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
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


#: the family: (tiles per side, edges copied as false leads), each with seeds 1 and 2
FAMILY = [(size, ambiguity) for size in (3, 5, 8, 10, 12) for ambiguity in (0, size)]


def install_kind() -> str:
    """Which install this interpreter has: every extra (Dask among them), or the plain one."""
    return "every extra" if importlib.util.find_spec("dask") is not None else "plain install, no extras"


def family_rows(runs: int) -> tuple[list[str], list[float]]:
    """Rows and ratios of ``solve jigsaw`` against the plain script over the generated family."""
    rows, ratios = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for size, ambiguity in FAMILY:
            for seed in (1, 2):
                path = str(Path(scratch) / f"jigsaw-{size}-{ambiguity}-{seed}.txt")
                subprocess.run([EXE, "generate", "jigsaw", "--size", str(size), "--ambiguity", str(ambiguity),
                                "--seed", str(seed), "-o", path], check=True, capture_output=True)
                ours, floor = pair([EXE, "solve", "jigsaw", path],
                                   [sys.executable, str(ROOT / "bench" / "yardsticks" / "jigsaw_plain.py"), path], runs)
                ratios.append(ours / floor)
                rows.append(f"| {size}x{size}, {ambiguity} false leads, seed {seed} | {ours:.3f} | {floor:.3f} | "
                            f"{ours / floor:.2f}x |")
                print(rows[-1], flush=True)
    return rows, ratios


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
    family, ratios = family_rows(runs)
    ordered = sorted(ratios)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    kind = install_kind()
    heading = "## Start-up" if kind == "every extra" else f"## Start-up, {kind}"
    table = "\n".join([
        f"{heading} (bench/startup.py; whole processes, wall seconds, median of "
        f"{runs}, alternated; {time.strftime('%Y-%m-%d')})", "",
        f"Installed: {kind}.", "",
        "Both sides run from bytecode (the package compiled first, as pip installs it). Targets: issue 23's "
        "1.3x for `--help`, issue 47's 1.5x for `solve jigsaw` against the plain assembler.", "",
        "| command | puzzlesat s | yardstick | yardstick s | ratio | target |", "|---|---:|---|---:|---:|---:|",
        *rows, "", "`puzzlesat solve jigsaw` over generated inputs (`puzzlesat generate jigsaw --size N --ambiguity A "
        "--seed S`) against jigsaw_plain.py, the two alternated:", "",
        "| input | puzzlesat s | jigsaw_plain.py s | ratio |", "|---|---:|---:|---:|", *family, "",
        f"Over the {len(ordered)} inputs: median {statistics.median(ordered):.2f}x, 95th percentile {p95:.2f}x, "
        f"worst {ordered[-1]:.2f}x (target 1.5x).", ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
