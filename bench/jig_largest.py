"""The four largest bundled jigs, counted by `puzzlesat count jig FILE` as a whole process (no backend
named: enumeration raced against the jig's own search), on this machine's cores, twice each as on a fresh
machine: first with an empty cache of compiled kernels (a new ``XDG_CACHE_HOME``), then again with the
cache the first run left; the counts against the published ones (instances/jig/*.expected). Writes its
section of BENCHMARKS.md.

    .venv/bin/python bench/jig_largest.py [--limit 600]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, compile_package, update_benchmarks  # noqa: E402  (bench/ is not a package)

EXE = str(Path(sys.executable).parent / "puzzlesat")
NAMES = ("zhurgut_12x9", "zhurgut_13x9", "zhurgut_11x11", "zhurgut_10x10")


def main() -> None:
    compile_package()  # whole processes below: from bytecode, as installed
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=600.0)
    limit = parser.parse_args().limit
    rows = []
    for name in NAMES:
        path = ROOT / "instances" / "jig" / f"{name}.jig"
        expected = (ROOT / "instances" / "jig" / f"{name}.expected").read_text().split()
        with tempfile.TemporaryDirectory(prefix="jig-largest-") as cache:
            env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"XDG_CACHE_HOME": cache}
            runs = []
            for _ in ("empty cache", "cached"):
                start = time.perf_counter()
                done = subprocess.run([EXE, "count", "jig", str(path), "--timeout", str(limit), "--json"],
                                      capture_output=True, text=True, check=False, env=env)
                runs.append((time.perf_counter() - start, done))
        (first, done), (second, again) = runs
        if done.returncode or again.returncode:
            failed = done if done.returncode else again
            rows.append(f"| {name} | - | {' / '.join(expected)} | {failed.stderr.strip()[:80]} | {first:.1f} | "
                        f"{second:.1f} |")
        else:
            report = json.loads(done.stdout)
            got = [str(report["answers"][label]) for label in ("solutions", "up_to_rotation")]
            repeated = [str(json.loads(again.stdout)["answers"][label]) for label in ("solutions", "up_to_rotation")]
            agree = "agrees" if got == expected == repeated else "DISAGREES"
            rows.append(f"| {name} | {' / '.join(got)} | {' / '.join(expected)} ({agree}) | {report['method']} | "
                        f"{first:.1f} | {second:.1f} |")
        print(rows[-1], flush=True)
    table = "\n".join([
        "## Largest jigs (bench/jig_largest.py)", "",
        f"`puzzlesat count jig FILE` as a whole process, twice each, {os.cpu_count()} cores, limit {limit:g} s, "
        f"{time.strftime('%Y-%m-%d')}: first with an empty cache of compiled kernels (as on a fresh machine), then "
        "again with what the first run cached; the published counts are the puzzles' own (instances/jig/SOURCES.md).",
        "", "| jig | counted (all / up to rotation) | published | answered by | first run s (empty cache) | "
        "second run s (cached) |", "|---|---|---|---|---:|---:|",
        *rows, ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
