"""What --certify costs (issue 25): whole `puzzlesat` processes with and without it, alternated, medians.

Every bundled aquarium (uniqueness), the amphipod inputs (optimality of both parts), every bundled jig of
at most 8x8 and the jigsaw inputs (counts); the real AoC inputs of ../shared join when they are there.
Each row also gives the certified run's own account: lemmas checked of the proof's lemmas, the checker's
seconds against the solver's, and the checker's speed in proof lemmas read per second.

    .venv/bin/python bench/certify.py [--runs 3]      (writes its section of BENCHMARKS.md)
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import aoc_inputs, compile_package, update_benchmarks  # noqa: E402  (the bench's inputs and section writer)

EXE = str(Path(sys.executable).parent / "puzzlesat")


def targets() -> list[tuple[str, list[str]]]:
    """(label, the command's arguments after ``puzzlesat``) of every run compared."""
    found = [(f"aquarium {path.stem}", ["solve", "aquarium", str(path)])
             for path in sorted((ROOT / "instances" / "aquarium").glob("*.txt"))]
    found += [(f"amphipod {name}", ["solve", "amphipod", path]) for name, path in aoc_inputs("2021-23")]
    for path in sorted((ROOT / "instances" / "jig").glob("*.jig")):
        rows, cols = (int(n) for n in path.stem.split("_")[1].split("x")) if "_" in path.stem else (5, 5)
        if max(rows, cols) <= 8:
            found.append((f"jig {path.stem}", ["count", "jig", str(path)]))
    found += [(f"jigsaw {name}", ["count", "jigsaw", path]) for name, path in aoc_inputs("2020-20")]
    return found


def timed(command: list[str]) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: {done.stderr.strip()}")
    return seconds, json.loads(done.stdout)


def row(label: str, arguments: list[str], runs: int) -> str:
    plain, certified, report = [], [], {}
    for _ in range(runs):
        plain.append(timed([EXE, *arguments, "--json"])[0])
        seconds, report = timed([EXE, *arguments, "--json", "--certify"])
        certified.append(seconds)
    certificates = report.get("certificates", {})
    assert isinstance(certificates, dict) and all(report.get("certified", {}).values()), label
    lemmas = sum(c["lemmas"] for c in certificates.values())
    checked = sum(c["checked"] for c in certificates.values())
    check = sum(c["seconds"] for c in certificates.values())
    times = report["times"]
    assert isinstance(times, dict)
    a, b = statistics.median(plain), statistics.median(certified)
    speed = f"{lemmas / check:,.0f}" if check > 0 else "-"
    cores = ", ".join(sorted({core for c in certificates.values() for core in c["cores"]}))
    return (f"| {label} | {', '.join(certificates)} | {a:.3f} | {b:.3f} | {b / a:.2f}x | {checked:,} / {lemmas:,} | "
            f"{check:.3f} | {cores} | {times.get('solve', 0.0):.3f} | {speed} |")


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    rows = []
    for label, arguments in targets():
        rows.append(row(label, arguments, runs))
        print(rows[-1], flush=True)
    table = "\n".join([
        f"## Certified claims (bench/certify.py; whole processes, wall seconds, median of {runs}, alternated; "
        f"{time.strftime('%Y-%m-%d')})", "",
        "`--certify` re-solves the last formula with a proof-writing solver and checks the proof with "
        "puzzlesat's own checker: in pure Python, and compiled by numba for a check still running after "
        "0.25 s. Ratio: the certified run against the plain one (issue 36's goal: at most 1.5x). Lemmas: "
        "checked (the ones the refutation needs) / in the proof; check s: reading and checking (the claims' "
        "checks added up; they may run side by side); core: which checker core answered; solve s: the "
        "certified run's solver time, the certifying solve included; lemmas/s: proof lemmas read per second "
        "of checking.", "",
        "| instance | claims | plain s | certified s | ratio | lemmas checked | check s | core | solve s | lemmas/s |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---:|", *rows, ""])
    update_benchmarks([table])


if __name__ == "__main__":
    main()
