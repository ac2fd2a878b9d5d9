"""The physics rule against the region rule on the same grids (issue 48): `solve` (a solution, checked,
and the proof that it is unique or a second solution) under each rule, in process, median of 5,
alternated. The grids: every bundled 15x15, and generated 30x30s (seeds 1-5).

    .venv/bin/python bench/aquarium_rules.py [--runs 5]      (writes its section of BENCHMARKS.md)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import update_benchmarks  # noqa: E402  (the bench's section writer)

import puzzlesat  # noqa: E402
from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.encoders.aquarium.generate import generate  # noqa: E402


def timed(instance: object) -> tuple[float, object]:
    start = time.perf_counter()
    report = puzzlesat.solve("aquarium", instance)
    return time.perf_counter() - start, report.answers.get("unique")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    spec = get_puzzle("aquarium")
    grids = [(path.stem, spec.parse(path.read_text(), str(path)))
             for path in sorted((ROOT / "instances" / "aquarium").glob("*15x15*.txt"))]
    grids += [(f"generated 30x30 seed {seed}", spec.parse(generate(30, seed, None), f"seed {seed}")) for seed in range(1, 6)]
    rows, ratios = [], []
    for name, instance in grids:
        physics = replace(instance, region_rule=False)
        region_times, physics_times = [], []
        for _ in range(runs):
            seconds, region_unique = timed(instance)
            region_times.append(seconds)
            seconds, physics_unique = timed(physics)
            physics_times.append(seconds)
        region, water = statistics.median(region_times), statistics.median(physics_times)
        ratios.append(water / region)
        rows.append(f"| {name} | {region:.3f} | {'yes' if region_unique else 'no'} | {water:.3f} | "
                    f"{'yes' if physics_unique else 'no'} | {water / region:.2f}x |")
        print(rows[-1], flush=True)
    update_benchmarks(["\n".join([
        f"## Aquarium's two rules on the same grids (bench/aquarium_rules.py; in process, median of {runs}, "
        f"alternated; {time.strftime('%Y-%m-%d')})", "",
        "`solve` (a checked solution and the uniqueness proof or a second solution) under the region rule and "
        "under physics. Goal (issue 48): physics within 2x of the region rule.", "",
        "| grid | region s | unique | physics s | unique | physics / region |", "|---|---:|---|---:|---|---:|",
        *rows, "", f"Ratio median {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x.", ""])])


if __name__ == "__main__":
    main()
