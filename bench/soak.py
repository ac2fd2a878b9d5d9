"""Soak test (``make soak``): random commands, random deadlines, random signals at random moments.

Each run gets its own TMPDIR and output directory. While it runs, its process tree is sampled from
/proc; after it ends, the script checks that no process of that tree is alive, that TMPDIR and the
output directory hold no temporary file, that the exit code is a documented one, and that a failure
printed exactly one error line. It prints the tallies and exits 1 if anything was left behind.

Three runs in ten are formula files of ``tests/formulas`` (every dialect, some gzipped with zero
padding, some fed on stdin), whose answers must be the outside tools' (``expected.json``). Commands are
started as callers start them: some with stdout or stderr closed, some under a hard ``ulimit -v``;
cube-and-conquer counts go to local workers or to a Dask address with no scheduler.

    python bench/soak.py --runs 1000 --jobs 2 --seed 1
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from puzzlesat.processes.children import alive, descendants

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).parent / "puzzlesat")
INSTANCES = ROOT / "instances"
DOCUMENTED = {0, 1, 2, 4, 5, 6, 10, 20, 30, 129, 130, 141, 143}  # 10/20/30: --competition's answers
#: a variable map written once by ``puzzlesat export`` (main), which the crafted maps start from
MAP = Path(tempfile.gettempdir()) / f"soak-map-{os.getpid()}" / "small.cnf.vars.json"


#: formula files in the dialects their authors write, with the answers outside tools give (issue 44)
CORPUS = ROOT / "tests" / "formulas"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())


def corpus_command(rng: random.Random, work: Path) -> tuple[list[str], str | None, str | None]:
    """A command on a corpus file (plain, gzipped with zero padding, or on stdin): its arguments, the
    file to feed on stdin (or None) and the line its stdout must hold when it exits 0."""
    import gzip

    name = rng.choice(sorted(EXPECTED))
    expected, path = EXPECTED[name], CORPUS / name
    if rng.random() < 0.3:  # zero-padded gzip, as tape-blocked archives are
        packed = work / (name + ".gz")
        packed.write_bytes(gzip.compress(path.read_bytes()) + bytes(rng.choice([0, 512, 10240])))
        path = packed
    stdin = str(path) if rng.random() < 0.3 else None
    given = "-" if stdin else str(path)
    if name.endswith(".wcnf"):
        return ["solve", "wcnf", given, "-q"], stdin, f"cost: {expected['cost']}"
    if rng.random() < 0.5:
        return ["count", "cnf", given, "-q", *rng.choice([[], ["-b", "ganak"], ["-b", "glucose"]])], stdin, \
            f"solutions: {expected['solutions']}"
    return ["solve", "cnf", given, "--competition"], stdin, \
        "s SATISFIABLE" if expected["satisfiable"] else "s UNSATISFIABLE"


def commands(rng: random.Random, work: Path) -> list[str]:
    """One random command line (its inputs written under ``work`` where they are made up)."""
    small = str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt")
    hard = str(INSTANCES / "aquarium" / "pa-15x15-hard-1013539.txt")
    jig = str(INSTANCES / "jig" / rng.choice(["zhurgut_7x7.jig", "zhurgut_8x8.jig", "zhurgut_9x9.jig", "matt5x5.jig"]))
    dice = str(INSTANCES / "aoc" / "2021-21" / "example.txt")
    mutated = work / "mutated.txt"
    text = Path(rng.choice([small, hard, jig])).read_text()
    cut = rng.randrange(len(text))
    mutated.write_text(text[:cut] + rng.choice(["", "\x1b[2J", "9" * 5000, "\r", "\ufeff", "#"]) + text[cut + rng.randrange(3):])
    model = work / "model.txt"
    model.write_text(rng.choice(["s SATISFIABLE\nv 1 -2 0\n", "garbage\n", "s UNSATISFIABLE\n", ""]))
    backend = rng.choice(["cadical", "glucose", "z3", "external:cadical", "portfolio:glucose,cadical"])
    out = str(work / "out" / "file")
    # what a hostile user brings beside an instance (issue 34): a crafted map, a lying solver, a header
    # that lies, and cross-checks under small limits
    crafted = work / "crafted.json"
    payload = json.loads(MAP.read_text())
    section = payload if rng.random() < 0.5 else payload["options"]
    section[rng.choice(sorted(section) + ["path", "text"])] = rng.choice([None, "x", 6.5, [1], {"a": 1}, -3, 10 ** 30])
    crafted.write_text(json.dumps(payload) if rng.random() < 0.9 else "[" * 50000)
    liar = work / "liar.sh"
    liar.write_text("#!/bin/sh\n" + rng.choice(["printf 's SATISFIABLE\\nv 1 \\377 0\\n'", "echo garbage", "sleep 30",
                                                "printf 's SATISFIABLE\\nv 1 2 3 4 5 6 7 8 9 0\\n'", "kill -9 $$"])
                    + f"\nexit {rng.choice([0, 10, 20])}\n")
    liar.chmod(0o755)
    lies = work / "lies.cnf"
    lies.write_text(f"p cnf {rng.choice([2, 999999999, 2147483647])} {rng.choice([1, 5, 10 ** 9])}\n"
                    + rng.choice(["", "c p show 1 2 0\n", "c p show -1 0\n", "c ind 7 0\n"]) + "1 -2 0\n2 0\n")
    return rng.choice([
        ["solve", "aquarium", rng.choice([small, hard]), "-b", backend],
        ["solve", "aquarium", str(mutated)],
        ["solve", "jig", str(mutated)],
        ["count", "jig", jig, "-b", backend],
        ["export", "jig", jig, "-o", out],
        ["export", "aquarium", hard, "-o", rng.choice([out, "-"])],
        ["decode", "aquarium", small, "--model", str(model)],
        ["crosscheck", "aquarium", small, "--backends", "cadical,z3,external:cadical", "--timeout", "2"],
        ["generate", "aquarium", "--size", str(rng.randrange(5, 30)), "-o", out],
        ["solve", "dice", dice, "--target", str(rng.randrange(6, 25))],
        ["bench", "--puzzle", "aquarium", "--backends", "cadical", "--repeat", "1", "--out", str(work / "out")],
        ["decode", "aquarium", small, "--model", str(model), "--map", str(crafted)],
        ["solve", "cnf", str(lies), "-b", rng.choice(["cadical", f"external:{liar}", "z3"])],
        ["count", "cnf", str(lies), "--limit", "5", "--list"],
        ["crosscheck", "cnf", str(lies), "--timeout", "1", "--budget", "3"],
        ["crosscheck", "jig", str(INSTANCES / "jig" / "zhurgut_9x9.jig"), "--timeout", "0.5", "--budget", "2"],
        ["crosscheck", "aquarium", hard, "--timeout", "0.3", "--budget", "1", "--max-memory", rng.choice(["200M", "1G"])],
        ["crosscheck", "cnf", str(CORPUS / rng.choice(sorted(n for n in EXPECTED if n.endswith(".cnf")))),
         "--timeout", "2", "--budget", "10"],
        ["count", "jig", jig, "--cubes", "2", "--executor", rng.choice(["dask://127.0.0.1:9", "local:2"])],
        # what a stop must not lose (issue 69): raced counts, explanations, bench, in text and JSON
        ["count", "jig", str(INSTANCES / "jig" / "zhurgut_13x9.jig"), *rng.choice([[], ["--json"]])],
        ["explain", rng.choice(["jig", "aquarium"]), rng.choice([jig, hard]), *rng.choice([[], ["--json"]])],
        ["bench", "--puzzle", "jig", "--repeat", "1", "--out", str(work / "out")],
    ])


#: the commands whose stop keeps what they had found, and how their output shows it
KEEPERS = {"count": ("at least", '"complete": false'), "explain": ("stopped by", '"stopped"')}


def lost(args: list[str], out: str, err: str, code: int, work: Path) -> bool:
    """Whether a run stopped at work (its one line says what it had by then) printed nothing of it."""
    if code not in (128 + signal.SIGINT, 128 + signal.SIGTERM, 4) or "; by then: " not in err:
        return False
    if args[0] == "bench":
        record = work / "out" / "bench.json"
        return not record.exists() or '"stopped"' not in record.read_text()
    if args[0] in KEEPERS and "--cubes" not in args and "--list" not in args:
        text, record = KEEPERS[args[0]]
        return (record if "--json" in args else text) not in out
    return False


def one_run(seed: int) -> list[str]:
    """Run one random command; return what it left behind or did wrong (empty: clean)."""
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="soak-"))
    try:
        (work / "out").mkdir()
        tmp = work / "tmp"
        tmp.mkdir()
        stdin, expected = None, None
        if rng.random() < 0.3:
            args, stdin, expected = corpus_command(rng, work)
        else:
            args = commands(rng, work)
        if rng.random() < 0.5 and args[0] in ("solve", "count", "export", "decode", "generate"):
            args += ["--timeout", str(rng.choice([0.2, 0.5, 1, 3]))]
        sig = rng.choice([None, None, signal.SIGINT, signal.SIGTERM])
        delay = rng.uniform(0.05, 4.0 if args[0] in ("count", "explain", "bench") else 1.0)
        # the ways a caller starts a command: streams closed (>&-, 2>&-), a hard memory limit (ulimit -v)
        closed = rng.choice([None, None, None, None, 1, 2])
        hard_memory = rng.choice([None, None, None, 3 << 30])

        def as_the_caller_starts_it() -> None:
            if hard_memory is not None:
                resource.setrlimit(resource.RLIMIT_AS, (hard_memory, hard_memory))
            if closed is not None:
                os.close(closed)

        answer = work / "stdout"  # a file, not a pipe: a command that prints much never waits on the soak
        with open(stdin or os.devnull, "rb") as feed, open(answer, "w") as printed:
            proc = subprocess.Popen([EXE, *args], stdin=feed, stdout=printed if closed != 1 else None,
                                    stderr=subprocess.PIPE if closed != 2 else None, text=True,
                                    env=dict(os.environ, TMPDIR=str(tmp)), cwd=work, preexec_fn=as_the_caller_starts_it)
        tree: set[int] = set()
        start = time.monotonic()
        # too long for a soak: ended the documented way (a SIGKILL would leave the scratch directory,
        # as nothing can clean up after it)
        last_call: float | None = start + 60
        while proc.poll() is None:
            tree |= descendants(proc.pid)
            if sig is not None and time.monotonic() - start >= delay:
                proc.send_signal(sig)
                sig = None
            if last_call is not None and time.monotonic() > last_call:
                proc.send_signal(signal.SIGTERM)
                last_call = None
            time.sleep(0.02)
        out = answer.read_text(errors="replace")
        err = proc.stderr.read() if proc.stderr else ""
        end = time.monotonic() + 5
        while any(alive(pid) for pid in tree) and time.monotonic() < end:
            time.sleep(0.05)
        problems = []
        where = f"seed {seed}: {' '.join(args)[:120]}"
        if [pid for pid in tree if alive(pid)]:
            problems.append(f"process left: {where}")
        left = [str(p.relative_to(work)) for p in [*tmp.rglob("*"), *work.rglob(".puzzlesat-*")]]
        if left:
            problems.append(f"temporary file left: {where}: {' '.join(left)[:200]}")
        # killed by the signal itself: only before the interpreter ran the entry point's first line
        # (nothing started, nothing printed), the shell's 128 + N
        # (a SIGINT there is Python's KeyboardInterrupt, with a traceback through the launcher's import, or
        # while the interpreter imports its site module, "Fatal Python error: init_import_site")
        interpreter_start = err.rstrip().endswith("KeyboardInterrupt") and "puzzlesat/entry.py" not in err and (
            "from puzzlesat.entry import main" in err or err.startswith("Fatal Python error: init_import_site"))
        killed_at_start = (proc.returncode < 0 or interpreter_start) and (not err or interpreter_start)
        if proc.returncode not in DOCUMENTED and not killed_at_start:
            problems.append(f"exit code {proc.returncode}: {where}: {err.strip()[:200]}")
        # informational lines ("wrote FILE", bench's progress label) may come before the one error line
        errors = [line for line in err.splitlines() if line.startswith("puzzlesat: error: ")]
        broken = ("Traceback" in err or "internal error" in err) and not killed_at_start
        answered = proc.returncode in (0, 1, 10, 20, 30)  # 10/20/30: --competition's SAT, UNSAT, optimum
        if broken or (not answered and not killed_at_start and closed != 2 and len(errors) != 1):
            problems.append(f"not one error line: {where}: {err.strip()[:200]}")
        # an answer: exit 0, or a competition solver's 10/20/30 (its 0 is 's UNKNOWN', no answer in time)
        gave_answer = proc.returncode in ((10, 20, 30) if "--competition" in args else (0,))
        if expected is not None and gave_answer and closed != 1 and expected not in out:
            problems.append(f"wrong answer: {where}: expected '{expected}', got {out.strip()[:200]!r}")
        if closed != 1 and lost(args, out, err, proc.returncode, work):
            problems.append(f"stopped, and lost what it had found: {where}: {err.strip()[:200]}")
        return problems or [f"ok {proc.returncode}"]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    MAP.parent.mkdir(exist_ok=True)
    subprocess.run([EXE, "export", "aquarium", str(INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"),
                    "-o", str(MAP.parent / "small.cnf")], check=True, capture_output=True)
    tally: Counter[str] = Counter()
    problems = []
    with ThreadPoolExecutor(options.jobs) as pool:
        seeds = range(options.seed * 1_000_000, options.seed * 1_000_000 + options.runs)
        for done, result in enumerate(pool.map(one_run, seeds), 1):
            for line in result:
                if line.startswith("ok "):
                    tally[f"exit {line[3:]}"] += 1
                else:
                    problems.append(line)
                    print(line, flush=True)
            if done % 100 == 0:
                print(f"{done} runs, {len(problems)} problems", flush=True)
    print(f"{options.runs} runs: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    kinds = Counter(line.split(":")[0] for line in problems)
    print(f"leftover processes: {kinds['process left']}, leftover temporary files: {kinds['temporary file left']}, "
          f"undocumented exit codes: {sum(v for k, v in kinds.items() if k.startswith('exit code'))} "
          f"(exit 3, an internal error: {kinds['exit code 3']}), errors not one line: {kinds['not one error line']}, "
          f"wrong answers: {kinds['wrong answer']}, stops that lost what they had found: "
          f"{kinds['stopped, and lost what it had found']}")
    shutil.rmtree(MAP.parent, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
