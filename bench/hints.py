"""What a hint from a player's marks costs (`puzzlesat explain --from`, issue 72): every bundled 15x15
aquarium, from seeded half-filled grids (half the cells marked as the solution has them), once with every
mark right (the hint is the next step) and once with two of them flipped (the hint is the wrong marks),
each seed a run; in process, and as whole processes of the command. The goal: under 2 s on 2 cores.

    .venv/bin/python bench/hints.py [--seeds 5]      (writes its section of BENCHMARKS.md)
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import update_benchmarks  # noqa: E402  (bench/ is not a package)

from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.pipeline.hinting import hint_instance  # noqa: E402
from puzzlesat.pipeline.steps import load  # noqa: E402

AQUARIUM = get_puzzle("aquarium")
#: the goal of issue 72, seconds
GOAL = 2.0


def half_filled(solution: list[str], seed: int, flipped: int) -> str:
    """The solution with half its cells marked (seeded), ``flipped`` of the marks turned wrong."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(len(solution)) for c in range(len(solution[0]))]
    marked = rng.sample(cells, len(cells) // 2)
    wrong = set(rng.sample(marked, flipped))
    grid = [["?"] * len(solution[0]) for _ in solution]
    for r, c in marked:
        value = solution[r][c]
        grid[r][c] = ("." if value == "#" else "#") if (r, c) in wrong else value
    return "".join(" ".join(line) + "\n" for line in grid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    seeds = parser.parse_args().seeds
    rows = []
    worst = 0.0
    for path in sorted((ROOT / "instances" / "aquarium").glob("*15x15*.txt")):
        solution = path.with_suffix(".solution").read_text().split()
        instance = load(AQUARIUM, str(path))
        for flipped, kind in ((0, "right"), (2, "two wrong")):
            inside, whole, says = [], [], set()
            for seed in range(seeds):
                marks = half_filled(solution, seed, flipped)
                started = time.perf_counter()
                hinted = hint_instance(AQUARIUM, instance, marks, "marks")
                inside.append(time.perf_counter() - started)
                said = hinted.to_json()
                says.add("wrong marks" if said["wrong"] else "clash" if said["clashing"] else
                         "next step" if said["next"] else "solved" if said["solved"] else "stuck")
                with tempfile.NamedTemporaryFile("w", suffix=".marks") as file:
                    file.write(marks)
                    file.flush()
                    started = time.perf_counter()
                    subprocess.run([str(ROOT / ".venv" / "bin" / "puzzlesat"), "explain", "aquarium", str(path),
                                    "--from", file.name], check=True, stdout=subprocess.DEVNULL)
                    whole.append(time.perf_counter() - started)
            worst = max(worst, max(whole))
            rows.append(f"| {path.stem} | {kind} | {', '.join(sorted(says))} | {statistics.median(inside):.3f} | "
                        f"{max(inside):.3f} | {statistics.median(whole):.3f} | {max(whole):.3f} |")
            print(rows[-1], flush=True)
    table = "\n".join([
        f"## Hints from a player's marks (bench/hints.py; {seeds} seeded half-filled grids each)", "",
        "`puzzlesat explain aquarium FILE --from MARKS` on every bundled 15x15: half the cells marked as the "
        "solution has them (each seed its own half), every mark right, or two of them flipped. In process "
        "(`hint_instance`: the hint and its replay) and as whole processes of the command (start-up included). "
        f"Goal: under {GOAL:g} s on 2 cores; the slowest whole process here: {worst:.2f} s.", "",
        "| instance | marks | the hint | in process median s | worst s | whole process median s | worst s |",
        "|---|---|---|---:|---:|---:|---:|", *rows])
    update_benchmarks([table])


if __name__ == "__main__":
    main()
