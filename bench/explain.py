"""What `puzzlesat explain` costs, and whether its difficulty orders puzzles as people do (issue 37).

Every bundled aquarium, generated aquariums past the bundled sizes, the jigsaw inputs (the real AoC inputs
of ../shared join when they are there) and every bundled jig: explained in process, medians of 3 runs
(finding the steps; replaying them), each run in a forked child limited to ``LIMIT`` seconds, so that the
table shows where explaining stops scaling. Then the difficulty of the puzzle-aquarium.com instances
against the site's own easy / normal / hard labels, size by size.

    .venv/bin/python bench/explain.py [--runs 3]      (writes its sections of BENCHMARKS.md)
    .venv/bin/python bench/explain.py --loaded 4 [--runs 5]
    .venv/bin/python bench/explain.py --family 60

With ``--loaded N``, only the goal of issue 47: `puzzlesat explain aquarium` on every bundled 15x15, each a
whole process, while N other processes keep the CPUs busy (a loaded 2-core machine), medians of the runs.
With ``--family N``, only the first N jigs of bench/jig_family.py's seeded family, one run each.
"""
from __future__ import annotations

import argparse
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from jig_family import family, percentile  # noqa: E402
from run import aoc_inputs, compile_package, update_benchmarks  # noqa: E402  (the bench's inputs and section writer)

from puzzlesat.backends.forking import call_with_timeout  # noqa: E402
from puzzlesat.core.errors import SolverTimeout  # noqa: E402
from puzzlesat.core.timing import Deadline  # noqa: E402
from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.encoders.aquarium.generate import generate  # noqa: E402
from puzzlesat.pipeline.explaining import explain_instance  # noqa: E402
from puzzlesat.pipeline.steps import load  # noqa: E402

LABELS = ("easy", "normal", "hard")
#: seconds one run may take (finding the steps and replaying them)
LIMIT = 30.0
#: generated aquariums (size, seed) past the bundled 15x15
GENERATED = ((20, 1), (30, 1))


def measured(puzzle: str, path: str, runs: int) -> tuple[dict[str, int], float, float, str] | None:
    """(difficulty, median seconds finding the steps, median seconds replaying them, where the steps
    end: "solved", "two solutions" (a jig of more than one class) or "contradiction"); None when a run
    did not finish within ``LIMIT``."""
    spec = get_puzzle(puzzle)

    def once() -> tuple[dict[str, int], float, float, str]:
        result = explain_instance(spec, load(spec, path))
        explanation = result.explanation
        ends = "solved" if explanation.solved else "two solutions" if explanation.differing else "contradiction"
        return dict(explanation.difficulty), result.times["explain"], result.times["replay"], ends

    found, replayed = [], []
    difficulty: dict[str, int] = {}
    ends = ""
    for _ in range(runs):
        try:
            difficulty, seconds, replay, ends = call_with_timeout(once, Deadline.after(LIMIT), "cadical195")
        except SolverTimeout:
            return None
        found.append(seconds)
        replayed.append(replay)
    return difficulty, statistics.median(found), statistics.median(replayed), ends


def family_table(size: int, scratch: Path) -> str:
    """The seeded jig family of bench/jig_family.py (every shape up to 8x8, 1-4 tab types, flat inner
    edges, one in ten with a side changed), each member explained once in a forked child: where the
    steps end and the distribution of the seconds (finding and replaying), a member past the limit
    counted at the limit."""
    seconds, past, ends = [], [], {"solved": 0, "two solutions": 0, "contradiction": 0}
    for name, text in family(size):
        path = scratch / f"{name.replace(' ', '_')}.jig"
        path.write_text(text)
        answer = measured("jig", str(path), 1)
        if answer is None:
            past.append(name)
            seconds.append(LIMIT)
            print(f"family {name}: past the limit", flush=True)
            continue
        _, found, replayed, ending = answer
        seconds.append(found + replayed)
        ends[ending] += 1
        print(f"family {name}: {seconds[-1]:.2f} s, {ending}", flush=True)
    return "\n".join([
        f"## Explaining the jig family (bench/explain.py --family {size}; in process, one run each; "
        f"{time.strftime('%Y-%m-%d')})", "",
        f"`puzzlesat explain` on the first {size} jigs of bench/jig_family.py's seeded family (every shape up "
        "to 8x8, non-square and 1xN included, 1-4 tab types, 0-40% of the inner edges flat, one in ten with "
        f"a side changed), each in a forked child limited to {LIMIT:g} s: seconds finding the steps and "
        "replaying them, a member past the limit counted at it (so the 95th percentile and the worst are "
        "then lower bounds).", "",
        "| members | within the limit | solved | two solutions | contradiction | median s | 95th percentile s "
        "| worst s |", "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {size} | {size - len(past)} | {ends['solved']} | {ends['two solutions']} | {ends['contradiction']} "
        f"| {statistics.median(seconds):.2f} | {percentile(seconds, 0.95):.2f} | {max(seconds):.2f} |", "",
        "Past the limit: " + (", ".join(past) if past else "none") + ".", ""])


def spin() -> None:
    while True:
        pass


def loaded(load: int, runs: int) -> None:
    """Every bundled 15x15 explained by whole processes with ``load`` busy processes beside them."""
    exe = str(Path(sys.executable).parent / "puzzlesat")
    paths = sorted((ROOT / "instances" / "aquarium").glob("*15x15*.txt"))
    busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(load)]
    for process in busy:
        process.start()
    rows = []
    try:
        for path in paths:
            seconds = []
            for _ in range(runs):
                start = time.perf_counter()
                subprocess.run([exe, "explain", "aquarium", str(path)], check=True, capture_output=True)
                seconds.append(time.perf_counter() - start)
            rows.append(f"| {path.stem} | {statistics.median(seconds):.2f} | {max(seconds):.2f} |")
            print(rows[-1], flush=True)
    finally:
        for process in busy:
            process.terminate()
    update_benchmarks(["\n".join([
        f"## Explaining every 15x15 under load (bench/explain.py --loaded {load}; whole processes, median of "
        f"{runs}; {time.strftime('%Y-%m-%d')})", "",
        f"`puzzlesat explain aquarium` while {load} other processes keep the CPUs busy. Goal (issue 47): "
        "every 15x15 within 10 s.", "",
        "| instance | median s | slowest s |", "|---|---:|---:|", *rows, ""])])


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--loaded", type=int, metavar="N", help="only the 15x15 goal, beside N busy processes")
    parser.add_argument("--family", type=int, metavar="N", help="only the first N jigs of the seeded family")
    arguments = parser.parse_args()
    runs = arguments.runs
    if arguments.loaded is not None:
        loaded(arguments.loaded, runs)
        return
    rows, by_label = [], {}
    scratch = tempfile.TemporaryDirectory()
    if arguments.family is not None:
        update_benchmarks([family_table(arguments.family, Path(scratch.name))])
        return
    targets = [("aquarium", path.stem, str(path)) for path in sorted((ROOT / "instances" / "aquarium").glob("*.txt"))]
    for size, seed in GENERATED:
        generated = Path(scratch.name) / f"generated-{size}x{size}-seed{seed}.txt"
        generated.write_text(generate(size, seed))
        targets.append(("aquarium", generated.stem, str(generated)))
    targets += [("jigsaw", name, path) for name, path in aoc_inputs("2020-20")]
    targets += [("jig", path.stem, str(path)) for path in sorted((ROOT / "instances" / "jig").glob("*.jig"))]
    for puzzle, name, path in targets:
        answer = measured(puzzle, path, runs)
        if answer is None:
            rows.append(f"| {puzzle} {name} | - | - | past {LIMIT:g} | - | - |")
            print(rows[-1], flush=True)
            continue
        difficulty, seconds, replay, ends = answer
        assert ends != "contradiction", path  # a bundled instance has a solution
        rows.append(f"| {puzzle} {name} | {difficulty['steps']} | {difficulty['widest']} | {seconds:.3f} | {replay:.3f} "
                    f"| {ends} |")
        print(rows[-1], flush=True)
        parts = name.split("-")
        if puzzle == "aquarium" and parts[0] == "pa":
            by_label.setdefault((parts[1], parts[2]), []).append(difficulty)
    table = [f"## Explanations (bench/explain.py; in process, median of {runs}; {time.strftime('%Y-%m-%d')})", "",
             "`puzzlesat explain`: steps (each fixes cells by the fewest facts found), widest (the most facts "
             "one step needs), seconds finding the steps, seconds replaying them (a fresh solver per step, "
             "one call per cell claimed), where the steps end (the solution, or two solutions that differ where nothing more is "
             "forced: a jig of more than one class)"
             f", each run limited to {LIMIT:g} s. Generated aquariums: `puzzlesat generate aquarium "
             f"--size N --seed S`. Goals: an aquarium 15x15 within 10 s, a jigsaw of the real size within 30 s.",
             "",
             "| instance | steps | widest | explain s | replay s | ends |", "|---|---:|---:|---:|---:|---|", *rows,
             ""]
    ordered = ["## Explanation difficulty against puzzle-aquarium.com's labels (bench/explain.py)", "",
               "Medians over the bundled instances of each size and label (how many in brackets). Does the "
               "measure order them as the site does (easy <= normal <= hard)?", "",
               "| size | easy: steps / widest | normal: steps / widest | hard: steps / widest | widest in the site's "
               "order | steps in the site's order |",
               "|---|---|---|---|---|---|"]
    for size in sorted({size for size, _ in by_label}, key=lambda s: int(s.split("x")[0])):
        cells, widest, steps = [], [], []
        for label in LABELS:
            found = by_label.get((size, label), [])
            if not found:
                cells.append("-")
                continue
            steps.append(statistics.median(d["steps"] for d in found))
            widest.append(statistics.median(d["widest"] for d in found))
            cells.append(f"{steps[-1]:g} / {widest[-1]:g} ({len(found)})")
        ordered.append(f"| {size} | {' | '.join(cells)} | {'yes' if widest == sorted(widest) else 'no'} | "
                       f"{'yes' if steps == sorted(steps) else 'no'} |")
    update_benchmarks(["\n".join(table), "\n".join(ordered + [""])])


if __name__ == "__main__":
    main()
