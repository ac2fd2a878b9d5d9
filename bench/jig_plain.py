"""`puzzlesat count jig` against a plain script, whole processes (issue 47, item 1): the installed
command (numba compiles its search; its cache warmed by a first run that is not timed), the same command
with numba blocked (the pure-Python search that runs where numba cannot start), and
bench/yardsticks/jig_plain.py, a backtracking counter written from the rules that imports nothing of
ours. Medians, the three run in turn so that a busy moment hits them alike. Writes its section of
BENCHMARKS.md.

    .venv/bin/python bench/jig_plain.py [--runs 5] [--jigs zhurgut_7x7,zhurgut_8x8,zhurgut_9x9]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, compile_package, update_benchmarks  # noqa: E402  (bench/ is not a package)

EXE = str(Path(sys.executable).parent / "puzzlesat")
YARDSTICK = str(ROOT / "bench" / "yardsticks" / "jig_plain.py")


def wall(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT, env=env)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jigs", default="zhurgut_7x7,zhurgut_8x8,zhurgut_9x9")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="jig-plain-") as blocker:
        (Path(blocker) / "sitecustomize.py").write_text("import sys\nsys.modules['numba'] = None\n")
        blocked = os.environ | {"PYTHONPATH": blocker}
        for name in args.jigs.split(","):
            path = str(ROOT / "instances" / "jig" / f"{name}.jig")
            expected = (ROOT / "instances" / "jig" / f"{name}.expected").read_text().split()[0]
            wall([EXE, "count", "jig", path])  # compiles into the user's cache, if nothing has yet
            times: dict[str, list[float]] = {"count": [], "blocked": [], "plain": []}
            for _ in range(args.runs):
                for label, command, env in (("count", [EXE, "count", "jig", path], None),
                                            ("blocked", [EXE, "count", "jig", path], blocked),
                                            ("plain", [sys.executable, YARDSTICK, path], None)):
                    seconds, out = wall(command, env)
                    found = out.split()[0] if label == "plain" else out.split("solutions: ", 1)[1].split()[0]
                    assert found == expected, (name, label, found, expected)
                    times[label].append(seconds)
            count, fallback, plain = (statistics.median(times[k]) for k in ("count", "blocked", "plain"))
            rows.append(f"| {name} | {expected} | {count:.2f} | {fallback:.2f} | {plain:.2f} | {count / plain:.2f}x | "
                        f"{fallback / plain:.2f}x |")
            print(rows[-1], flush=True)
    table = "\n".join([
        f"## `count jig` against a plain script (bench/jig_plain.py; whole processes, median of {args.runs}, "
        f"alternated; {time.strftime('%Y-%m-%d')})", "",
        f"This machine: {os.cpu_count()} cores. `count jig` as installed (numba, its kernels cached after an untimed "
        "first run), the same with numba blocked (the pure-Python search, where numba cannot start), and "
        "bench/yardsticks/jig_plain.py, a plain backtracking counter written from the rules. Every count agrees "
        "with the published one.", "",
        "| jig | layouts | `count jig` s | numba blocked s | plain script s | count / plain | blocked / plain |",
        "|---|---:|---:|---:|---:|---:|---:|", *rows, ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
