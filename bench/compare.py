"""Whole processes of this working tree against another revision, measured in the same run.

A refactoring must not make a user wait longer: this runs the same commands with the code of a git
revision (checked out into a temporary directory and put first on PYTHONPATH, so both use this
.venv's interpreter and libraries) and with the working tree, alternating the two, and writes the
medians and their ratio into BENCHMARKS.md.

    .venv/bin/python bench/compare.py REVISION [--runs 7]      (make bench-compare REV=...)
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import compile_package, update_benchmarks  # noqa: E402  (bench/run.py's section writer, one way to update BENCHMARKS.md)

#: every command of README's tour (the bench run aside: it times its own runs), plus start-up and the
#: larger counts: each of a few seconds at most
COMMANDS = (
    ("--help",),
    ("solve", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt"),
    ("solve", "aquarium", "instances/aquarium/pa-15x15-hard-1013539.txt"),
    ("crosscheck", "aquarium", "instances/aquarium/pa-15x15-hard-1013539.txt", "--backends",
     "cadical,kissat,glucose,minisat,z3,external:cadical"),
    ("solve", "jigsaw", "instances/aoc/2020-20/example.txt"),
    ("solve", "jigsaw", "instances/aoc/2020-20/generated-1.txt"),
    ("count", "jigsaw", "instances/aoc/2020-20/example.txt", "--backend", "cadical"),
    ("count", "jig", "instances/jig/matt5x5.jig"),
    ("count", "jig", "instances/jig/zhurgut_12x7.jig"),
    ("solve", "amphipod", "instances/aoc/2021-23/example.txt"),
    ("solve", "amphipod", "instances/aoc/2021-23/generated-1.txt"),
    ("solve", "dice", "instances/aoc/2021-21/example.txt"),
    ("solve", "dice", "instances/aoc/2021-21/generated-1.txt"),
    ("crosscheck", "dice", "instances/aoc/2021-21/example.txt", "--target", "10", "--backends", "frontier,d4,z3"),
    ("solve", "aquarium", "instances/aquarium/pa-15x15-hard-1013539.txt", "-b", "portfolio:cadical,glucose,kissat"),
    ("count", "jig", "instances/jig/zhurgut_8x8.jig", "--cubes", "4", "--executor", "local:2"),
    ("crosscheck", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "--backends", "cadical,z3"),
    # the default count: the enumeration's head start, a race past it
    ("count", "aquarium", "instances/aquarium/pa-15x15-hard-1013539.txt"),
    ("count", "jigsaw", "instances/aoc/2020-20/example.txt"),
)


def checkout(revision: str, into: Path) -> Path:
    """The package of ``revision`` under ``into``, importable as ``puzzlesat`` (an ``__init__.py`` is
    added where the revision had none: a namespace package would lose to the editable install)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "puzzlesat"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "puzzlesat" / "__init__.py").touch()
    return into


def timed(command: tuple[str, ...], pythonpath: str | None, cwd: str) -> float:
    """One whole process; it runs in ``cwd`` (not the project root, whose package ``python -c`` would
    import first) with the instance paths made absolute."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    arguments = [str(ROOT / a) if a.startswith("instances/") else a for a in command]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "from puzzlesat.entry import main; main()", *arguments],
                          cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, tempfile.TemporaryDirectory() as elsewhere:
        old = str(checkout(args.revision, Path(scratch)))
        # both sides from compiled bytecode, as an installed package runs (this machine sets
        # PYTHONDONTWRITEBYTECODE, so otherwise every process would compile every module it imports)
        for tree in (Path(old), ROOT):
            compile_package(tree)
        for pythonpath, wanted in ((old, old), (None, str(ROOT))):  # each side imports the code it should
            where = subprocess.run([sys.executable, "-c", "import puzzlesat; print(puzzlesat.__file__)"], cwd=elsewhere,
                                   env=dict(os.environ, PYTHONPATH=pythonpath or ""), capture_output=True, text=True)
            assert where.stdout.startswith(wanted), f"imports {where.stdout.strip()}, not the code under {wanted}"
        rows = []
        for command in COMMANDS:
            before, after = [], []
            for _ in range(args.runs):  # alternate, so that a busy moment hits both alike
                before.append(timed(command, old, elsewhere))
                after.append(timed(command, None, elsewhere))
            b, a = statistics.median(before), statistics.median(after)
            rows.append(f"| `puzzlesat {' '.join(command)}` | {b:.3f} | {a:.3f} | {a / b:.2f}x |")
            print(rows[-1], flush=True)
    short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.revision], capture_output=True,
                           text=True, check=True).stdout.strip()
    table = "\n".join([
        "## Whole processes against an earlier revision (bench/compare.py)", "",
        f"`bench/compare.py {short}` on {time.strftime('%Y-%m-%d')}: the same commands with the code of "
        f"{short} and with this tree, alternated, median of {args.runs} (seconds, wall, start-up included).", "",
        f"| command | {short} | this tree | ratio |", "|---|---:|---:|---:|", *rows, ""])
    update_benchmarks([table])


if __name__ == "__main__":
    main()
