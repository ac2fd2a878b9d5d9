"""The four largest bundled jigs, counted by `puzzlesat count jig FILE` as a whole process (no backend
named: enumeration raced against the jig's own search), once each, on this machine's cores; the counts
against the published ones (instances/jig/*.expected). Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/jig_largest.py [--limit 600]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, update_benchmarks  # noqa: E402  (bench/ is not a package)

EXE = str(Path(sys.executable).parent / "puzzlesat")
NAMES = ("zhurgut_12x9", "zhurgut_13x9", "zhurgut_11x11", "zhurgut_10x10")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=600.0)
    limit = parser.parse_args().limit
    rows = []
    for name in NAMES:
        path = ROOT / "instances" / "jig" / f"{name}.jig"
        expected = (ROOT / "instances" / "jig" / f"{name}.expected").read_text().split()
        start = time.perf_counter()
        done = subprocess.run([EXE, "count", "jig", str(path), "--timeout", str(limit), "--json"], capture_output=True,
                              text=True, check=False)
        seconds = time.perf_counter() - start
        if done.returncode:
            rows.append(f"| {name} | - | {' / '.join(expected)} | {done.stderr.strip()[:80]} | {seconds:.1f} |")
        else:
            import json

            report = json.loads(done.stdout)
            got = [str(report["answers"][label]) for label in ("solutions", "up_to_rotation")]
            agree = "agrees" if got == expected else "DISAGREES"
            rows.append(f"| {name} | {' / '.join(got)} | {' / '.join(expected)} ({agree}) | {report['method']} | "
                        f"{seconds:.1f} |")
        print(rows[-1], flush=True)
    table = "\n".join([
        "## Largest jigs (bench/jig_largest.py)", "",
        f"`puzzlesat count jig FILE` as a whole process, once each, {os.cpu_count()} cores, limit {limit:g} s, "
        f"{time.strftime('%Y-%m-%d')}; the published counts are the puzzles' own (instances/jig/SOURCES.md).", "",
        "| jig | counted (all / up to rotation) | published | answered by | wall s |", "|---|---|---|---|---:|",
        *rows, ""])
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
