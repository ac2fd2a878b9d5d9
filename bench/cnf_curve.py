"""`puzzlesat solve cnf` against the tools a practitioner would use on the same file (issue 47, item 6):
the cadical binary, and the six-line PySAT script (bench/yardsticks/pysat_solve.py: PySAT's reader and
CaDiCaL 1.9.5, the solver puzzlesat's default backend is). Whole processes, alternated, medians; wall
seconds and peak memory (the largest resident set of the process tree, from wait4).

The formulas come from an outside generator, CNFgen (``pip install 'puzzlesat[bench]'``): random 3-SAT at
three clauses a variable (satisfiable, and not trivially so), and pebbling formulas on pyramids
(unsatisfiable, refuted by propagation, so reading is nearly all of the work), from 10^4 to 5x10^6 clauses.
They are written once to bench/out/cnf/.

    .venv/bin/python bench/cnf_curve.py [--runs 5] [--largest 5000000]      (make bench-cnf)
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import compile_package, update_benchmarks  # noqa: E402  (the bench's section writer)

OUT = ROOT / "bench" / "out" / "cnf"
BIN = Path(sys.executable).parent
SIZES = (10_000, 100_000, 1_000_000, 2_000_000, 5_000_000)


def formula(family: str, clauses: int) -> Path:
    """The file of ``family`` with about ``clauses`` clauses, made by CNFgen the first time."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{family}-{clauses}.cnf"
    if not path.exists():
        if family == "rand3":
            arguments = ["randkcnf", "3", str(clauses // 3), str(clauses)]
        else:  # a pyramid of height h has (h + 1)(h + 2) / 2 vertices, one clause each, plus the sink's
            arguments = ["peb", "pyramid", str(round(math.sqrt(2 * clauses)) - 1)]
        with open(path.with_suffix(".tmp"), "w") as file:
            subprocess.run([str(BIN / "cnfgen"), "-q", *arguments], stdout=file, check=True)
        path.with_suffix(".tmp").rename(path)
    return path


def measured(command: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MiB of the process tree) of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1, 10, 20):  # puzzlesat's UNSAT is 1; a solver binary's SAT / UNSAT 10 / 20
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--largest", type=int, default=SIZES[-1])
    arguments = parser.parse_args()
    commands = {
        "puzzlesat": [str(BIN / "puzzlesat"), "solve", "cnf"],
        "pysat": [sys.executable, str(ROOT / "bench" / "yardsticks" / "pysat_solve.py")],
        "cadical": ["cadical", "-q"],
        # the cadical binary as puzzlesat's backend: it reads the file itself, the model is checked here
        "external": [str(BIN / "puzzlesat"), "solve", "cnf", "--backend", "external:cadical"],
    }
    rows = []
    for family in ("rand3", "pebbling"):
        for size in (s for s in SIZES if s <= arguments.largest):
            path = formula(family, size)
            clauses = int(next(line for line in path.open() if line.startswith("p ")).split()[3])
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
            for _ in range(arguments.runs):
                for name, command in commands.items():
                    runs[name].append(measured([*command, str(path)]))
            wall = {name: statistics.median(s for s, _ in found) for name, found in runs.items()}
            peak = {name: max(m for _, m in found) for name, found in runs.items()}
            rows.append(f"| {family} | {clauses:,} | {wall['puzzlesat']:.2f} | {wall['pysat']:.2f} | "
                        f"{wall['cadical']:.2f} | {wall['puzzlesat'] / wall['pysat']:.2f}x | "
                        f"{wall['puzzlesat'] / wall['cadical']:.2f}x | {wall['puzzlesat'] - wall['pysat']:+.2f} | "
                        f"{wall['external']:.2f} | {wall['external'] / wall['cadical']:.2f}x | "
                        f"{peak['puzzlesat']:.0f} | {peak['pysat']:.0f} | {peak['cadical']:.0f} | "
                        f"{peak['puzzlesat'] / peak['cadical']:.2f}x |")
            print(rows[-1], flush=True)
    update_benchmarks(["\n".join([
        f"## Formula files at solver speed (bench/cnf_curve.py; whole processes, median of {arguments.runs}, "
        f"alternated; {time.strftime('%Y-%m-%d')})", "",
        "`puzzlesat solve cnf FILE` against the six-line PySAT script (its reader, CaDiCaL 1.9.5) and the cadical "
        "binary, on CNFgen's random 3-SAT (3 clauses a variable) and pebbling formulas (pyramids). Goals (issue "
        "47): from 10^6 clauses within 1.5x the script and 3x cadical; at 10^4 within 0.15 s of the script; "
        "peak memory within 2x cadical's. `-b external:cadical` is `puzzlesat solve cnf --backend "
        "external:cadical`: the binary reads the file itself, and puzzlesat reads it too, to check the model.",
        "",
        "| family | clauses | puzzlesat s | PySAT script s | cadical s | / script | / cadical | - script s | "
        "`-b external:cadical` s | / cadical | puzzlesat MiB | script MiB | cadical MiB | memory / cadical |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|", *rows, ""])])


if __name__ == "__main__":
    main()
