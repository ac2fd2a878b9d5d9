"""Counting by the method that fits (issue 38): time against the number of solutions, from 1 to 3 million,
for the enumeration (solve, check, block; CaDiCaL 1.9.5, the default backend), the exact counters (Ganak;
D4 where it takes the formula) and the default `count` (no backend named: the enumeration alone for a
moment, then a race of the enumeration and an exact counter).

The family: random aquariums (the differential tests' generator, fixed seeds picked for counts a decade
apart), aquariums of one-cell regions whose every row and column holds k water cells (0-1 matrices with
those sums: structured, hard for a counter), blank-tile jigsaws (every arrangement fits), and one
aquarium as a DIMACS file (`count cnf`), and formulas from an outside generator, CNFgen (pigeonhole,
parity, perfect matchings, random 3-SAT below the threshold: ``pip install 'puzzlesat[bench]'``).
Each method in a forked child under its own limit, the methods
taking turns run by run; medians of 3 runs, 9 where the first round took under 1 s, 1 where it took over
10 s. Writes its section of BENCHMARKS.md.

With ``--processes``, the CNFgen formulas (and parity 14 and 16) are counted instead as a user counts a
file, whole ``puzzlesat count cnf`` processes with the command's defaults, by default and with ``-b d4``
and ``-b ganak``, alternated, medians of 5 (1 where the fastest took over 10 s): issue 47's yardstick, in
a section of its own.

    .venv/bin/python bench/count_family.py [--runs 3] [--limit 60]
    .venv/bin/python bench/count_family.py --processes [--runs 5]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from run import compile_package, update_benchmarks  # noqa: E402  (bench/ is not a package)

from puzzlesat.backends.forking import call_with_timeout  # noqa: E402
from puzzlesat.core.errors import PuzzlesatError, SolverTimeout  # noqa: E402
from puzzlesat.core.timing import Deadline  # noqa: E402
from puzzlesat.encoders import get_puzzle  # noqa: E402
from puzzlesat.pipeline.request import request  # noqa: E402
from puzzlesat.pipeline.tasks import MANY_SOLUTIONS, QUICK_ENUMERATION, count  # noqa: E402
from tests.brute.aquarium import random_aquarium  # noqa: E402  (the differential tests' generator)

#: random aquariums (side, seed) whose counts lie a decade apart (1 to 132,653)
RANDOM = [(7, 2), (7, 3), (7, 10), (8, 9), (7, 0), (8, 8), (9, 27), (8, 0), (10, 16), (9, 16), (10, 3)]
#: one-cell-region aquariums (side, water cells per row and column): 67,950 to 3,110,940 solutions
ONE_CELL = [(6, 2), (6, 3), (9, 1), (7, 2)]
#: blank-tile jigsaws (side): 24 and 362,880 layouts
BLANK = [2, 3]
METHODS = {"enumeration": "pysat:cadical195", "ganak": "ganak", "d4": "d4", "default": None}
#: the runs of a member whose slowest method answered within a second in the first round
SHORT_RUNS = 9


def family() -> list[tuple[str, str, str]]:
    """(name, puzzle, text) of every member."""
    members = [(f"aquarium random {n}x{n} seed {seed}", "aquarium", random_aquarium(random.Random(seed), n))
               for n, seed in RANDOM]
    members += [(f"aquarium one-cell {n}x{n} k={k}", "aquarium",
                 "_".join([str(k)] * 2 * n) + ";" + ",".join(str(i + 1) for i in range(n * n)) + "\n")
                for n, k in ONE_CELL]
    members += [(f"jigsaw blank {n}x{n}", "jigsaw", "\n".join(f"Tile {1001 + 7 * k}:\n...\n...\n...\n"
                                                               for k in range(n * n))) for n in BLANK]
    return members


def counted(puzzle: str, text: str, backend: str | None, limit: float) -> tuple[str, int | None, str]:
    """(outcome, the first count, the method that answered), in a forked child under ``limit``."""
    spec = get_puzzle(puzzle)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "instance.txt"
        path.write_text(text)
        instance = spec.parse(text, str(path))

        def run() -> tuple[int, str]:
            report = count(request(spec, backend, timeout=None, counting=True), instance)
            return next(iter(report.answers.values())), f"{report.counted_by} ({report.backend})"
        try:
            found, method = call_with_timeout(run, Deadline.after(limit), backend or "default")
        except SolverTimeout:
            return "timeout", None, ""
        except PuzzlesatError as exc:  # a counter that refuses the formula (d4: aquarium's), said in one line
            print(f"  {backend}: {exc}", file=sys.stderr)
            return "refuses", None, ""
    return "ok", found, method


def measured(puzzle: str, text: str, runs: int, limit: float) -> list[tuple[str, int | None, str]]:
    """(the median seconds or why none, the count, the method) of each of METHODS, the methods taking
    turns run by run: ``runs`` rounds, one where the first round's slowest took over 10 s, and
    SHORT_RUNS where it took under 1 s (a ratio of counts this short is mostly noise in 3 runs)."""
    backends = list(METHODS.values())
    times: list[list[float]] = [[] for _ in backends]
    cells: list[tuple[str, int | None, str]] = [("", None, "")] * len(backends)
    rounds, turn = runs, 0
    while turn < rounds:
        for index, backend in enumerate(backends):
            if turn and cells[index][1] is None:
                continue  # timed out or refused in the first round
            start = time.perf_counter()
            outcome, found, method = counted(puzzle, text, backend, limit if backend else 2 * limit)
            if outcome != "ok":
                cells[index] = ((f"> {limit if backend else 2 * limit:g}" if outcome == "timeout" else outcome),
                                None, "")
                continue
            times[index].append(time.perf_counter() - start)
            cells[index] = (f"{statistics.median(times[index]):.2f}", found, method)
        if turn == 0:
            slowest = max((t[0] for t in times if t), default=0.0)
            rounds = 1 if slowest > 10 else max(runs, SHORT_RUNS) if slowest < 1 else runs
        turn += 1
    return cells


def cnf_member() -> tuple[str, str, str]:
    """One family aquarium exported as DIMACS, to be counted as a formula file (``count cnf``)."""
    from puzzlesat.api import encode

    spec = get_puzzle("aquarium")
    n, seed = RANDOM[6]
    instance = spec.parse(random_aquarium(random.Random(seed), n), "cnf member")
    formula = encode("aquarium", instance)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "member.cnf"
        formula.to_file(str(path))
        return f"cnf: aquarium random {n}x{n} seed {seed} as DIMACS", "cnf", path.read_text()


#: CNFgen's arguments for formulas of many models (5,040 to 183,552): no puzzle encoding among them
OUTSIDE = [("php", "7", "7"), ("parity", "10"), ("parity", "12"), ("matching", "grid", "6", "6"),
           ("--seed", "1", "randkcnf", "3", "40", "100"), ("--seed", "2", "randkcnf", "3", "60", "200")]


#: more of them for whole processes: parity 16 is the one the race once lost to its limit (issue 47)
OUTSIDE_LARGER = [("parity", "14"), ("parity", "16")]


def outside_members(formulas: list[tuple[str, ...]] = OUTSIDE) -> list[tuple[str, str, str]]:
    """The CNFgen formulas, as ``count cnf`` reads them."""
    cnfgen = Path(sys.executable).parent / "cnfgen"
    if not cnfgen.exists():
        raise SystemExit("bench/count_family.py: CNFgen is missing: pip install 'puzzlesat[bench]' (make bench-count)")
    return [(f"cnf: cnfgen {' '.join(arguments)}", "cnf",
             subprocess.run([str(cnfgen), "-q", *arguments], check=True, capture_output=True, text=True).stdout)
            for arguments in formulas]


#: the whole-process commands: ``count cnf`` as a user runs it, and with each exact counter named
PROCESSES = {"default": [], "d4": ["-b", "d4"], "ganak": ["-b", "ganak"], "plain install": ["--timeout", "60"]}
#: the command line as a plain install has it (no ``count`` extra): neither D4's nor Ganak's module imports,
#: so the default races the frontier counter (issue 71)
PLAIN_INSTALL = ("import sys; sys.modules['py_d4'] = None; sys.modules['pyganak'] = None; "
                 "from puzzlesat.entry import main; sys.argv[0] = 'puzzlesat'; main()")


def counted_by_process(path: Path, options: list[str]) -> tuple[float, int | None, str]:
    """(wall seconds, the count or None where the command stopped at its limit, the method) of one whole
    ``puzzlesat count cnf`` process."""
    plain = options == PROCESSES["plain install"]
    command = [sys.executable, "-c", PLAIN_INSTALL] if plain else [str(Path(sys.executable).parent / "puzzlesat")]
    start = time.perf_counter()
    done = subprocess.run([*command, "count", "cnf", str(path), *options, "--json"], capture_output=True, text=True,
                          cwd=ROOT)
    seconds = time.perf_counter() - start
    if not done.stdout.strip():  # ended by an error (its one line on stderr), not by its limit
        raise SystemExit(f"bench/count_family.py: count cnf {' '.join(options)} printed no report "
                         f"(exit {done.returncode}): {done.stderr.strip()}")
    report = json.loads(done.stdout)
    if not report.get("complete", False):
        return seconds, None, ""
    return seconds, report["answers"]["solutions"], f"{report['method']} ({report['backend']})"


def whole_processes(runs: int) -> str:
    """The section of whole-process counts of the CNFgen formulas."""
    rows, ratios = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for name, _, text in outside_members(OUTSIDE + OUTSIDE_LARGER):
            path = Path(scratch) / "formula.cnf"
            path.write_text(text)
            times: dict[str, list[float]] = {method: [] for method in PROCESSES}
            answers: dict[str, tuple[int | None, str]] = {}
            rounds, turn = runs, 0
            while turn < rounds:
                for method, options in PROCESSES.items():
                    seconds, found, by = counted_by_process(path, options)
                    times[method].append(seconds)
                    answers[method] = (found, by)
                if turn == 0 and min(t[0] for t in times.values()) > 10:
                    rounds = 1
                turn += 1
            counts = {found for found, _ in answers.values() if found is not None}
            assert len(counts) == 1, f"{name}: the methods disagree or none answered: {answers}"
            median = {method: statistics.median(found) for method, found in times.items()}
            cells = [f"{median[m]:.2f}" if answers[m][0] is not None else f"> {median[m]:.0f} (its limit)"
                     for m in PROCESSES]
            singles = [median[m] for m in ("d4", "ganak") if answers[m][0] is not None]
            ratio = median["default"] / min(singles) if answers["default"][0] is not None else None
            if ratio is not None:
                ratios.append(ratio)
            rows.append(f"| {name[len('cnf: cnfgen '):]} | {counts.pop():,} | {len(times['default'])} | "
                        + " | ".join(cells) + f" | {'-' if ratio is None else f'{ratio:.2f}x'} | "
                        f"{answers['default'][1]} | {answers['plain install'][1] or '-'} |")
            print(rows[-1], flush=True)
    return "\n".join([
        f"## Counting formula files, whole processes (bench/count_family.py --processes; {time.strftime('%Y-%m-%d')})",
        "", "`puzzlesat count cnf FILE` as a user runs it (the command's defaults, its limit among them), with no "
        "backend named and with `-b d4` and `-b ganak`, on formulas from CNFgen, and with no backend named as "
        "a plain install runs it (no `count` extra: D4 and Ganak cannot be imported, so the frontier counter "
        "races the enumeration; `--timeout 60`); whole processes, wall seconds, "
        f"the four alternated, medians of {runs} runs (1 where the fastest took over 10 s). Issue 47's goal: the "
        "default within 1.3x the faster exact counter.", "",
        "| cnfgen arguments | solutions | runs | default s | `-b d4` s | `-b ganak` s | plain install s | "
        "default / faster | default answered by | plain install answered by |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|", *rows, "",
        distribution(ratios, "formulas"), ""])


def _ratio(cells: list[tuple[str, int | None, str]]) -> float | None:
    """The default's time over the faster single method's (None when no single method answered)."""
    def seconds(cell: tuple[str, int | None, str]) -> float | None:
        return float(cell[0]) if cell[1] is not None else None

    singles = [t for t in map(seconds, cells[:-1]) if t is not None]
    default = seconds(cells[-1])
    return None if not singles or default is None else default / max(min(singles), 0.01)


def _row(name: str, cells: list[tuple[str, int | None, str]]) -> str:
    counts = {found for _, found, _ in cells if found is not None}
    assert len(counts) <= 1, f"{name}: the methods disagree: {counts}"
    shown = f"{counts.pop():,}" if counts else "?"
    ratio = _ratio(cells)
    return (f"| {name} | {shown} | " + " | ".join(seconds for seconds, _, _ in cells)
            + f" | {'-' if ratio is None else f'{ratio:.2f}x'} | {cells[-1][2]} |")


def distribution(ratios: list[float], members: str) -> str:
    """Median, 95th percentile and worst of the default's ratios over ``members``, in one sentence."""
    ordered = sorted(ratios)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"Default against the faster single method, over the {len(ordered)} {members} where one answered: "
            f"median {statistics.median(ordered):.2f}x, 95th percentile {p95:.2f}x, worst {ordered[-1]:.2f}x.")


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=None, help="runs of each (default 3; 5 with --processes)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per method and run (default 60)")
    parser.add_argument("--processes", action="store_true",
                        help="count the CNFgen formulas as whole processes instead")
    args = parser.parse_args()
    if args.processes:
        update_benchmarks([whole_processes(args.runs or 5)])
        return
    args.runs = args.runs or 3
    rows: list[str] = []
    ratios: dict[str, float] = {}
    outside = outside_members()
    members = [(name, puzzle, text) for name, puzzle, text in family()] + [cnf_member(), *outside]
    for name, puzzle, text in members:
        cells = measured(puzzle, text, args.runs, args.limit)
        rows.append(_row(name, cells))
        ratio = _ratio(cells)
        if ratio is not None:
            ratios[name] = ratio
        print(rows[-1], flush=True)
    from_outside = [ratios[name] for name, _, _ in outside if name in ratios]
    table = [f"## Counting by the method that fits (bench/count_family.py; {time.strftime('%Y-%m-%d')})", "",
             f"Seconds per count (whole count in a forked child; the methods take turns, run by run; median of "
             f"{args.runs} runs, {SHORT_RUNS} where every method answered within 1 s, one past 10 s; "
             f"limit {args.limit:g} s, the default {2 * args.limit:g} s). Enumeration: CaDiCaL 1.9.5, every "
             "solution checked. D4 refuses aquarium's formula (auxiliary variables the shown ones do not "
             "determine). Default: `count` with no backend named, which enumerates alone until it has found "
             f"{MANY_SOLUTIONS} solutions or run for {QUICK_ENUMERATION:g} s, then races the enumeration against "
             "an exact counter (D4 where it takes the formula, else Ganak); the last column is the method that "
             "answered. In the ratios, times under 10 ms count as 10 ms.", "",
             "| instance | solutions | enumeration s | ganak s | d4 s | default s | default / faster | "
             "default answered by |", "|---|---:|---:|---:|---:|---:|---:|---|", *rows, "",
             distribution(list(ratios.values()), "members"), "",
             distribution(from_outside, "formulas from CNFgen (issue 47's goal: 1.3x)"), ""]
    update_benchmarks(["\n".join(table)])


if __name__ == "__main__":
    main()
