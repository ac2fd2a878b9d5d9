"""What a hint from a player's marks costs (`puzzlesat explain --from`, issue 72): every bundled 15x15
aquarium, from seeded half-filled grids (half the cells marked as the solution has them), once with every
mark right (the hint is the next step) and once with two of them flipped (the hint is the wrong marks),
each seed a run; in process, and as whole processes of the command. The goal: under 2 s on 2 cores.

    .venv/bin/python bench/hints.py [--seeds 5]      (writes its section of BENCHMARKS.md)
    .venv/bin/python bench/hints.py --family 40

With ``--family N``, seeded families instead: N generated aquariums of each of three sizes, and the first
N jigs of bench/jig_family.py's family that have a layout, each from one seeded half-filled grid of
marks, right and with two flipped; in process, each run in a forked child limited to ``LIMIT`` seconds;
the median, 95th percentile and worst of each family (a cliff shows as a worst near the limit, or runs
over it).
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
from jig_family import distribution_row, family  # noqa: E402
from run import update_benchmarks  # noqa: E402  (bench/ is not a package)

import puzzlesat  # noqa: E402
from puzzlesat.backends.forking import call_with_timeout  # noqa: E402
from puzzlesat.core.errors import SolverTimeout  # noqa: E402
from puzzlesat.core.timing import Deadline  # noqa: E402
from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.encoders.aquarium.generate import generate  # noqa: E402
from puzzlesat.pipeline.hinting import hint_instance  # noqa: E402
from puzzlesat.pipeline.steps import load  # noqa: E402

AQUARIUM = get_puzzle("aquarium")
#: the goal of issue 72, seconds
GOAL = 2.0
#: seconds one hint may take in the family runs
LIMIT = 30.0
#: the generated aquariums' sizes in the family runs
SIZES = (10, 20, 30)


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


def half_placed(layout: list[list[list[int]]], seed: int, flipped: int) -> str:
    """A tiling's marks: half its cells (seeded) given their piece and orientation as ``layout`` has
    them, ``flipped`` of them given the next of a jig's four orientations instead (a turned piece: wrong
    unless it looks the same)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(len(layout)) for c in range(len(layout[0]))]
    marked = rng.sample(cells, len(cells) // 2)
    wrong = set(rng.sample(marked, min(flipped, len(marked))))
    grid = [["?"] * len(layout[0]) for _ in layout]
    for r, c in marked:
        piece, turn = layout[r][c]
        grid[r][c] = f"{piece}/{(turn + 1) % 4 if (r, c) in wrong else turn}"
    return "".join(" ".join(line) + "\n" for line in grid)


def solved_json(puzzle: str, text: str) -> dict:
    """``solve --json``'s object for the puzzle ``text`` (in process; :class:`SolverTimeout` past
    ``LIMIT`` seconds)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
        file.write(text)
        file.flush()
        return puzzlesat.solve(puzzle, puzzlesat.read(puzzle, file.name), timeout=LIMIT).to_json()


def ending(said: dict) -> str:
    """What a hint (``explain --from --json``'s object) says, in a few words."""
    return ("wrong marks" if said["wrong"] else "clash" if said["clashing"] else "next step" if said["next"]
            else "solved" if said["solved"] else "no solution" if said.get("no_solution")
            else "several solutions left" if said.get("differing") else "nothing more forced")


def timed_hint(puzzle: str, text: str, marks: str) -> tuple[float, str] | None:
    """(seconds, what the hint says) of one hint in process (its replay included), in a forked child
    limited to ``LIMIT`` seconds; None past it."""
    spec = get_puzzle(puzzle)

    def once() -> tuple[float, str]:
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
            file.write(text)
            file.flush()
            instance = load(spec, file.name)
        started = time.perf_counter()
        said = hint_instance(spec, instance, marks, "marks").to_json()
        return time.perf_counter() - started, ending(said)
    try:
        return call_with_timeout(once, Deadline.after(LIMIT), "hint")
    except SolverTimeout:
        return None


def families(size: int) -> None:
    """The family runs (``--family``): their section of BENCHMARKS.md."""
    groups: dict[str, list[tuple[str, str, str]]] = {}  # family -> (puzzle, text, marks) per run
    for side in SIZES:
        for seed in range(size):
            text = generate(side, seed)
            grid = solved_json("aquarium", text)["solution"]["grid"]
            for flipped, kind in ((0, "right"), (2, "two wrong")):
                groups.setdefault(f"aquarium {side}x{side}, {kind}", []).append(
                    ("aquarium", text, half_filled(grid, seed, flipped)))
    taken = 0
    for name, text in family(10 * size):
        if taken == size:
            break
        try:
            solved = solved_json("jig", text)
        except SolverTimeout:  # (a jig the solver does not settle: no marks to make)
            continue
        if solved["status"] != "SAT":
            continue
        taken += 1
        for flipped, kind in ((0, "right"), (2, "two turned")):
            groups.setdefault(f"jig family, {kind}", []).append(
                ("jig", text, half_placed(solved["solution"]["layout"], taken, flipped)))
    rows = []
    for group, runs in groups.items():
        times, over, says = [], 0, set()
        for puzzle, text, marks in runs:
            measured = timed_hint(puzzle, text, marks)
            if measured is None:  # counted at the limit: the 95th percentile and the worst are then lower bounds
                over += 1
                times.append(LIMIT)
            else:
                times.append(measured[0])
                says.add(measured[1])
        rows.append(distribution_row(f"{group} ({len(runs)}; {', '.join(sorted(says))})", times, "{:.3f}")
                    + f" {over} |")
        print(rows[-1], flush=True)
    table = "\n".join([
        f"## Hints from a player's marks over seeded families (bench/hints.py --family {size})", "",
        f"`explain --from` in process (the hint and its replay) on {size} generated aquariums of each size "
        f"(seeds 0-{size - 1}) and the first {size} jigs of bench/jig_family.py's family that have a layout, "
        "each from one seeded half-filled grid of marks, every mark right, or two flipped (an aquarium's "
        "cell to the other value, a jig's piece to the next orientation). Each run in a forked child limited "
        f"to {LIMIT:g} s; a run past it is counted at it (the 95th percentile and the worst are then lower "
        f"bounds). Goal: under {GOAL:g} s on 2 cores.", "",
        "| family (runs; what the hints said) | median s | 95th percentile s | worst s | over the limit |",
        "|---|---:|---:|---:|---:|", *rows])
    update_benchmarks([table])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--family", type=int, default=None, metavar="N")
    given = parser.parse_args()
    if given.family:
        families(given.family)
        return
    seeds = given.seeds
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
                says.add(ending(hinted.to_json()))
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
