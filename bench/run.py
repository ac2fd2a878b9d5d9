"""Benchmarks (aquarium, jigsaw, jig, amphipod, dice): writes BENCHMARKS.md. Run with `make bench` (or
`.venv/bin/python bench/run.py`). Its last table is made by the same code as `puzzlesat bench`; the
others are studies (encodings, methods, scaling) that the generic command does not express.

Every figure is a median over repeats; ratios are against the solver-free reference measured in the
same run. Encode and solve (first solution + uniqueness proof) are timed separately, and the whole
`puzzlesat solve` process is timed from outside, import time included.
"""
from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from puzzlesat.backends.forking import call_with_timeout, run_forked
from puzzlesat.core.choices import CARDINALITY_ENCODINGS, PB_ENCODINGS
from puzzlesat.core.errors import SolverTimeout
from puzzlesat.core.timing import UNLIMITED, Deadline, Stopwatch
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.aquarium.generate import generate as generate_aquarium
from puzzlesat.encoders.dice.options import DiceOptions
from puzzlesat.encoders.jig import tiling_problem as jig_problem
from puzzlesat.encoders.jigsaw.tiles import tiling_problem as jigsaw_problem
from puzzlesat.encoders.tiling.domains import clear_caches as clear_tiling_caches
from puzzlesat.encoders.tiling.options import TilingOptions
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.steps import count_solutions, load
from puzzlesat.pipeline.tasks import count, solve

#: the project's root (bench runs with the project installed in .venv: `make bench`)
ROOT = Path(__file__).resolve().parent.parent

AQUARIUM = get_puzzle("aquarium")
OUT = ROOT / "bench" / "out"
REPEAT = 5


def aoc_inputs(day: str) -> list[tuple[str, str]]:
    """(name, path) of each input of an AoC day: the bundled example and generated inputs, then the real
    inputs of ../shared/instances/aoc when it is beside the project (they are not published here)."""
    bundled = [(name, str(ROOT / "instances" / "aoc" / day / f"{name}.txt"))
               for name in ("example", "generated-1", "generated-2")]
    shared = ROOT.parent / "shared" / "instances" / "aoc" / day
    return bundled + [(name, str(shared / f"{name}.txt")) for name in ("real-1", "real-2")
                      if (shared / f"{name}.txt").exists()]


def compile_package(tree: Path = ROOT) -> None:
    """Compile ``tree``'s package to bytecode before timing whole processes, as pip does when it installs
    one. A development tree has no bytecode for a module edited since it was last imported with bytecode
    writing on, and where PYTHONDONTWRITEBYTECODE is set (this machine sets it) none is ever written: each
    ``puzzlesat`` process then compiled those modules again, which made a whole `solve jigsaw` 0.1 s
    slower with no bytecode at all, time that no installed copy spends."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "puzzlesat")], check=True)


def clear_caches() -> None:
    """Empty the per-instance caches (tiling problems, corner anchoring): a repeated run must redo the
    pruning, as a fresh ``puzzlesat`` process does, instead of looking it up."""
    for cached in (jig_problem, jigsaw_problem):
        cached.cache_clear()
    clear_tiling_caches()


def cold(fn):
    """``fn`` run after :func:`clear_caches`, for :func:`median_of`."""
    def run():
        clear_caches()
        return fn()
    return run


def median_of(fn, repeat: int = REPEAT) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def phases(instance, backend="cadical", kind="cnf", repeat=REPEAT, **options) -> dict[str, float]:
    """Median encode and solve (incl. uniqueness) times of the in-process pipeline."""
    encode, solve_t = [], []
    for _ in range(repeat):
        watch = Stopwatch()
        report = solve(request(AQUARIUM, backend, kind, **options), instance, watch)
        assert report.checked and report.answers["unique"] is True
        encode.append(watch.times["encode"])
        solve_t.append(watch.times["solve"])
    return {"encode": statistics.median(encode), "solve": statistics.median(solve_t)}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def instances_table(lines: list[str]) -> None:
    files = sorted((ROOT / "instances" / "aquarium").glob("pa-15x15-*.txt")) + \
        sorted((ROOT / "instances" / "aquarium").glob("ext-*15x15*.txt"))
    lines += ["## Bundled 15x15 instances (default backend pysat:cadical195, CNF)", "",
              "| instance | encode ms | solve+unique ms | total ms | reference ms | reference / total |",
              "|---|---:|---:|---:|---:|---:|"]
    totals, encodes, solves, refs = [], [], [], []
    for path in files:
        instance = load(AQUARIUM, str(path))
        p = phases(instance)
        ref = median_of(lambda: AQUARIUM.reference(instance, 2), 3)
        total = p["encode"] + p["solve"]
        totals.append(total), encodes.append(p["encode"]), solves.append(p["solve"]), refs.append(ref)
        lines.append(f"| {path.stem} | {ms(p['encode'])} | {ms(p['solve'])} | {ms(total)} | {ms(ref)} | {ref / total:.1f}x |")
    lines += ["", f"Medians over the {len(files)} instances: encode {ms(statistics.median(encodes))} ms, "
              f"solve+unique {ms(statistics.median(solves))} ms, reference {ms(statistics.median(refs))} ms "
              f"(targets: encode <= 10 ms, solve+unique <= 10 ms).", ""]


def process_table(lines: list[str]) -> None:
    exe = str(Path(sys.executable).parent / "puzzlesat")
    lines += ["## Whole process `puzzlesat solve aquarium FILE` (wall, import included; target <= 0.4 s)", "",
              "| instance | median s |", "|---|---:|"]
    for name in ("pa-15x15-hard-1013539", "pa-15x15-hard-2243092", "ext-newtomsoft-15x15"):
        path = str(ROOT / "instances" / "aquarium" / f"{name}.txt")
        wall = median_of(lambda: subprocess.run([exe, "solve", "aquarium", path], check=True, capture_output=True))
        lines.append(f"| {name} | {wall:.3f} |")
    lines.append("")


def generated(size: int, seed: int) -> tuple[Path, float]:
    """A generated aquarium written to bench/out, and the seconds its generation took (in this process)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"aquarium-{size}-{seed}.txt"
    start = time.perf_counter()
    text = generate_aquarium(size, seed)
    seconds = time.perf_counter() - start
    path.write_text(text)
    return path, seconds


def generated_table(lines: list[str]) -> None:
    lines += ["## Generated puzzles (default backend; targets: generate 100x100 <= 2 s; 50x50 <= 0.5 s, 100x100 "
              "<= 5 s solved and proven unique)", "",
              "| size | seed | regions | generate s | encode s | solve+unique s | encode+solve s |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for size, seeds, repeat in ((30, (1, 2, 3), 5), (50, (1, 2, 3), 3), (100, (1, 2), 3)):
        for seed in seeds:
            path, gen = generated(size, seed)
            instance = load(AQUARIUM, str(path))
            p = phases(instance, repeat=repeat)
            lines.append(f"| {size} | {seed} | {len(instance.region_rows)} | {gen:.2f} | {p['encode']:.3f} | "
                         f"{p['solve']:.3f} | {p['encode'] + p['solve']:.3f} |")
    lines += ["", "Generate: one run, in process (the propagation that makes the puzzle solvable by reasoning, "
              "and the solver's uniqueness proof).", ""]


def encodings_table(lines: list[str]) -> None:
    files = sorted((ROOT / "instances" / "aquarium").glob("*15x15-hard*.txt"))
    big = [load(AQUARIUM, str(generated(50, s)[0])) for s in (1, 2)]
    small = [load(AQUARIUM, str(f)) for f in files]
    lines += ["## Counting constraints: columns (`--cardinality`) x rows (`--pb`)", "",
              "Sum over the 15x15 hard instances and over two generated 50x50, median of 3 runs, encode+solve+unique.", "",
              "| columns | rows | 15x15 hard s | 50x50 s |", "|---|---|---:|---:|"]
    combos = [(c, "bdd") for c in CARDINALITY_ENCODINGS] + [("seqcounter", p) for p in PB_ENCODINGS if p != "bdd"]
    for card, pb in combos:
        def run(group):
            return lambda: [solve(request(AQUARIUM, "cadical", cardinality=card, pb=pb), i) for i in group]
        lines.append(f"| {card} | {pb} | {median_of(run(small), 3):.3f} | {median_of(run(big), 3):.3f} |")
    lines.append("")


def backends_table(lines: list[str]) -> None:
    path = ROOT / "instances" / "aquarium" / "pa-15x15-hard-2243092.txt"
    instance = load(AQUARIUM, str(path))
    ref = median_of(lambda: AQUARIUM.reference(instance, 2), 3)
    lines += [f"## Backends on {path.stem} (encode + solve + uniqueness, median of {REPEAT})", "",
              "| backend | encoding | seconds | reference / this |", "|---|---|---:|---:|",
              f"| reference (no solver) | - | {ref:.4f} | 1.0x |"]
    for backend, kind in (("pysat:cadical195", "cnf"), ("pysat:kissat404", "cnf"), ("pysat:glucose4", "cnf"),
                          ("pysat:minisat22", "cnf"), ("pysat:maplechrono", "cnf"), ("pysat:lingeling", "cnf"),
                          ("pysat:cryptominisat", "cnf"), ("z3", "cnf"), ("z3", "smt"), ("external:cadical", "cnf")):
        seconds = median_of(lambda: solve(request(AQUARIUM, backend, kind), instance))
        lines.append(f"| {backend} | {kind} | {seconds:.4f} | {ref / seconds:.1f}x |")
    lines.append("")


def jigsaw_table(lines: list[str]) -> None:
    jigsaw = get_puzzle("jigsaw")
    exe = str(Path(sys.executable).parent / "puzzlesat")
    lines += ["## Jigsaw (AoC 2020 day 20; targets for 12x12: encode <= 0.3 s, solve <= 0.1 s, process <= 1 s)", "",
              "| input | encode s | solve s | count all (8) s | process s | reference (first assembly) s "
              "| reference / encode+solve |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for name, path in aoc_inputs("2020-20"):
        instance = load(jigsaw, path)
        enc, sol = [], []
        for _ in range(REPEAT):
            watch = Stopwatch()
            clear_caches()
            solve(request(jigsaw, "cadical"), instance, watch)
            enc.append(watch.times["encode"]), sol.append(watch.times["solve"])
        counting = median_of(cold(lambda: count_solutions(request(jigsaw, "cadical", break_symmetry=False), instance)), 3)
        wall = median_of(lambda: subprocess.run([exe, "solve", "jigsaw", path], check=True, capture_output=True), 3)
        ref = median_of(cold(lambda: jigsaw.reference(instance, 1)), 3)
        e, v = statistics.median(enc), statistics.median(sol)
        lines.append(f"| {name} | {e:.3f} | {v:.4f} | {counting:.3f} | {wall:.2f} | {ref:.3f} | {ref / (e + v):.1f}x |")
    lines.append("")


def jigsaw_scaling_table(lines: list[str]) -> None:
    """The issue's curve: random N x N jigsaws of 10x10 tiles (seed 1, taken as they come), median of 3:
    in-process encode and solve, the uniqueness proof (count up to symmetry: one, then UNSAT), the
    whole `puzzlesat solve` process, and the backtracking reference (first assembly) in the same run."""
    import random
    import tempfile

    from puzzlesat.encoders.jigsaw.generate import scrambled
    from puzzlesat.encoders.jigsaw.instance import parse

    jigsaw = get_puzzle("jigsaw")
    exe = str(Path(sys.executable).parent / "puzzlesat")
    lines += ["## Jigsaw scaling (generated N x N, tiles 10x10, seed 1; targets: N = 50 <= 5 s process, N = 100 "
              "<= 60 s: blocked, see the notes)",
              "", "| N | tiles | encode s | solve s | variables | clauses | up to symmetry (proof s) | process s "
              "| reference s | reference / (encode + solve) |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size in (12, 20, 30, 40, 50, 60):
        text = scrambled(size, 10, 0, random.Random(1))
        instance = parse(text, f"generated-{size}")
        enc, sol = [], []
        for _ in range(3):
            watch = Stopwatch()
            clear_caches()
            report = solve(request(jigsaw, "cadical"), instance, watch)
            enc.append(watch.times["encode"]), sol.append(watch.times["solve"])
        classes = count_solutions(request(jigsaw, "cadical", break_symmetry=True), instance)
        proof = median_of(cold(lambda: count_solutions(request(jigsaw, "cadical", break_symmetry=True), instance)), 3)
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
            file.write(text)
            file.flush()
            wall = median_of(lambda: subprocess.run([exe, "solve", "jigsaw", file.name], check=True,
                                                    capture_output=True), 3)
        try:  # the reference backtracks: on some generated pictures it does not finish (N = 20, seed 1)
            ref = median_of(cold(lambda: call_with_timeout(lambda: jigsaw.reference(instance, 1), Deadline.after(60),
                                                           "reference")), 3)
        except SolverTimeout:
            ref = None
        lines.append(f"| {size} | {size * size} | {statistics.median(enc):.2f} | {statistics.median(sol):.3f} | "
                     f"{report.size['variables']} | {report.size['clauses']} | {classes} ({proof:.2f}) | "
                     f"{wall:.2f} | {'> 60' if ref is None else f'{ref:.2f}'} | "
                     f"{'-' if ref is None else f'{ref / (statistics.median(enc) + statistics.median(sol)):.1f}x'} |")
    lines += ["", "Encode is the pruning: a corner is proven by 4x4 patch support and put at the top-left "
              "(`tiling/anchor.py`), the domains grow from it with arc consistency, and one placement per "
              "cell is left, so the SAT solver confirms and proves uniqueness in milliseconds. The reference "
              "backtracks over the same pruned domains. Before session 8 (arc consistency without a proven "
              "corner) N = 20 took over 120 s.", ""]


#: the jig table's limit per run (both counts together), and its repeats for a median
JIG_LIMIT, JIG_REPEAT = 60, 3


def _count_backend(puzzle) -> str:
    """The backend a ``count`` that names none counts on: the puzzle's task resolves it."""
    return request(puzzle, counting=True).backend.name


def _jig_sat_counts(jig, instance) -> tuple[str, float, float] | None:
    """(counts, encode s, solve s) of ``puzzlesat count -b BACKEND``'s pipeline on count's default backend,
    cold: None past the limit. The backend is named, so the count is the formulas' (with none named, the
    jig's own search answers: bench/jig_family.py measures that)."""
    watch = Stopwatch()
    clear_caches()  # both encodes share the pruning, as in one `puzzlesat count` process
    try:
        report = count(request(jig, _count_backend(jig), timeout=JIG_LIMIT), instance, watch)
    except SolverTimeout:
        return None
    if report.stopped is not None:  # stopped by the limit, it says what it had found: a lower bound
        return None
    return " ".join(map(str, report.answers.values())), watch.times["encode"], watch.times["solve"]


def _jig_search_counts(counted) -> tuple[str, float] | None:
    """(counts, wall s) of a solver-free count, ``counted(break_symmetry)``, both counts side by side in
    forked children like ``puzzlesat count``'s searches, cold: None past the limit."""
    clear_caches()
    start = time.perf_counter()
    try:
        counts = run_forked([partial(counted, False), partial(counted, True)], Deadline.after(JIG_LIMIT), "reference")
    except SolverTimeout:
        return None
    return " ".join(map(str, counts)), time.perf_counter() - start


def _median_runs(run) -> list | None:
    """The results of JIG_REPEAT runs of ``run()`` that finished; None when the first run is past the
    limit (then it is not repeated)."""
    first = run()
    if first is None:
        return None
    return [first] + [result for result in (run() for _ in range(JIG_REPEAT - 1)) if result is not None]


def _times(ratio: float) -> str:
    """A ratio with two significant digits below 1 (0.04x, not 0.0x)."""
    return f"{ratio:.2g}x" if ratio < 1 else f"{ratio:.1f}x"


def jig_table(lines: list[str]) -> None:
    from puzzlesat.encoders.jig.cover_counting import count_layouts

    jig = get_puzzle("jig")
    lines += [f"## Jig counts (by SAT: total and up to rotation side by side as in `puzzlesat count -b "
              f"{_count_backend(jig)}`, the backend `count` takes by default; median of {JIG_REPEAT}, "
              f"limit {JIG_LIMIT} s per run)",
              "",
              "Encode is both formulas, built one after the other; solve is the longer of the two searches, "
              "which run at the same time. The reference is the search from the rules, the exact cover "
              "JigChecker's approach (Algorithm X with coloured edges); each runs its two counts side by side "
              "too. Ratios: their time over ours (above 1x: puzzlesat is faster).", "",
              "| instance | expected | counted | encode s | solve s | reference s | exact cover s | "
              "reference / (encode + solve) | exact cover / (encode + solve) |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for path in sorted((ROOT / "instances" / "jig").glob("*.jig")):
        instance = load(jig, str(path))
        expected = path.with_suffix(".expected").read_text().strip()
        sat = _median_runs(lambda: _jig_sat_counts(jig, instance))
        ref = _median_runs(lambda: _jig_search_counts(
            lambda brk: len(jig.reference(instance, None, TilingOptions(break_symmetry=brk)))))
        cover = _median_runs(lambda: _jig_search_counts(lambda brk: count_layouts(instance, brk)))
        for runs in (sat, ref, cover):
            if runs and any(counts != expected for counts, *_ in runs):
                raise SystemExit(f"{path.name}: counted {[r[0] for r in runs]}, expected {expected}")
        got, encode, solved = ("timeout", "-", f"> {JIG_LIMIT}") if sat is None else (
            sat[0][0], f"{statistics.median(r[1] for r in sat):.3f}", f"{statistics.median(r[2] for r in sat):.2f}")
        ours = None if sat is None else statistics.median(r[1] + r[2] for r in sat)
        cells = []
        for runs in (ref, cover):
            theirs = None if runs is None else statistics.median(r[1] for r in runs)
            ratio = ("-" if ours is None and theirs is None
                     else f"> {_times(JIG_LIMIT / ours)}" if theirs is None
                     else f"< {_times(theirs / JIG_LIMIT)}" if ours is None else _times(theirs / ours))
            cells.append((f"> {JIG_LIMIT}" if theirs is None else f"{theirs:.3f}", ratio))
        lines.append(f"| {path.stem} | {expected} | {got} | {encode} | {solved} | {cells[0][0]} | {cells[1][0]} | "
                     f"{cells[0][1]} | {cells[1][1]} |")
        print(lines[-1], flush=True)
    lines.append("")


def _amphipod_inputs(amphipod):
    """Each AoC input: name, path, the instance (both parts) and part 2 alone."""
    for name, path in aoc_inputs("2021-23"):
        instance = load(amphipod, path)
        yield name, path, instance, type(instance)((instance.burrows[1],), path)


def amphipod_table(lines: list[str]) -> None:
    """AoC inputs with the defaults (events + RC2 on glucose4), against the A* reference."""
    amphipod = get_puzzle("amphipod")
    exe = str(Path(sys.executable).parent / "puzzlesat")
    lines += ["## Amphipod (AoC 2021 day 23; targets: part 2 <= 0.5 s, both parts <= 1 s process)", "",
              "Defaults: event-ordering CNF, RC2 (core exhaustion + minimisation) on pysat:glucose4.", "",
              "| input | part 2 encode s | part 2 solve s | both parts process s | A* both parts s | A* / process |",
              "|---|---:|---:|---:|---:|---:|"]
    for name, path, instance, part2 in _amphipod_inputs(amphipod):
        enc, sol = [], []
        for _ in range(REPEAT):
            watch = Stopwatch()
            solve(request(amphipod), part2, watch)
            enc.append(watch.times["encode"]), sol.append(watch.times["solve"])
        wall = median_of(lambda: subprocess.run([exe, "solve", "amphipod", path], check=True, capture_output=True), 3)
        ref = median_of(lambda: amphipod.reference(instance, 1), 3)
        lines.append(f"| {name} | {statistics.median(enc):.3f} | {statistics.median(sol):.3f} | {wall:.2f} | "
                     f"{ref:.2f} | {ref / wall:.1f}x |")
    lines.append("")


def amphipod_methods_table(lines: list[str]) -> None:
    """Every encoding and method on the part 2 example (one run each, 120 s limit)."""
    amphipod = get_puzzle("amphipod")
    instance = load(amphipod, str(ROOT / "instances" / "aoc" / "2021-23" / "example.txt"))
    part2 = type(instance)((instance.burrows[1],), "example part 2")
    lines += ["## Amphipod methods on the part 2 example (one run each, limit 120 s)", "",
              "| encoding | method | backend | variables | clauses/assertions | encode s | solve s |",
              "|---|---|---|---:|---:|---:|---:|"]
    runs = [("events", "rc2", "pysat:glucose4"), ("events", "rc2", "pysat:cadical195"),
            ("events", "rc2-stratified", "pysat:glucose4"), ("events", "rc2-plain", "pysat:glucose4"),
            ("events", "descent", "pysat:glucose4"), ("events", "descent", "pysat:cadical195"),
            ("smt", "z3", "z3"), ("unroll", "descent", "pysat:cadical195"), ("unroll", "descent", "pysat:glucose4"),
            ("unroll", "rc2", "pysat:glucose4"), ("unroll", "rc2-stratified", "pysat:glucose4")]
    for kind, method, backend in runs:
        watch = Stopwatch()
        try:
            report = solve(request(amphipod, backend, kind, timeout=120, method=method), part2, watch)
            assert report.checked
            solved = f"{watch.times['solve']:.3f}"
            size = report.size
        except SolverTimeout:
            solved, size = "> 120", amphipod.encode(part2, kind).size()
        clauses = size.get("clauses", size.get("assertions"))
        lines.append(f"| {kind} | {method} | {backend} | {size.get('variables', size.get('terms'))} | {clauses} | "
                     f"{watch.times.get('encode', 0):.3f} | {solved} |")
    lines.append("")


def amphipod_unroll_table(lines: list[str]) -> None:
    """The unrolling with its defaults (descent on CaDiCaL) on part 2 of every AoC input, median of 3
    (the descent's time varies from run to run), against the A* reference on the same burrow."""
    amphipod = get_puzzle("amphipod")
    lines += ["## Amphipod unrolling, part 2 (target <= 30 s; defaults: descent on pysat:cadical195; median of 3)",
              "", "| input | variables | clauses | encode s | solve s (runs) | A* part 2 s | A* / unroll |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for name, path, instance, part2 in _amphipod_inputs(amphipod):
        enc, sol = [], []
        for _ in range(3):
            watch = Stopwatch()
            report = solve(request(amphipod, None, "unroll", timeout=300), part2, watch)
            assert report.checked
            enc.append(watch.times["encode"]), sol.append(watch.times["solve"])
        ref = median_of(lambda part2=part2: amphipod.reference(part2, 1), 3)
        runs = ", ".join(f"{t:.1f}" for t in sol)
        lines.append(f"| {name} | {report.size['variables']} | {report.size['clauses']} | {statistics.median(enc):.3f} | "
                     f"{statistics.median(sol):.1f} ({runs}) | {ref:.2f} | {ref / statistics.median(sol):.2f}x |")
    lines.append("")


def amphipod_scaling_table(lines: list[str]) -> None:
    """Generated burrows: defaults against A* (killed after 60 s)."""
    from puzzlesat.encoders.amphipod.generate import generate

    amphipod = get_puzzle("amphipod")
    lines += ["## Amphipod scaling (generated, seed 1; defaults, A* limited to 60 s)", "",
              "| rooms x depth | movers | encode s | solve s | energy | A* s |", "|---|---:|---:|---:|---:|---:|"]
    for rooms, depth in ((4, 2), (4, 4), (4, 6), (4, 8), (4, 10), (5, 4), (6, 4), (6, 6), (10, 4)):
        instance = amphipod.parse(generate(rooms, depth, 1), "generated", unfold=False)
        watch = Stopwatch()
        try:
            report = solve(request(amphipod, timeout=300), instance, watch)
            energy, solved = report.answers["energy"], f"{watch.times['solve']:.2f}"
        except SolverTimeout:
            energy, solved = "-", "> 300"
        from puzzlesat.encoders.amphipod.movers import Movers
        movers = len(Movers(instance.burrows[0][1]).all)
        start = time.perf_counter()
        try:
            call_with_timeout(lambda: amphipod.reference(instance, 1)[0].answers(), Deadline.after(60), "A*")
            ref = f"{time.perf_counter() - start:.2f}"
        except SolverTimeout:
            ref = "> 60"
        lines.append(f"| {rooms} x {depth} | {movers} | {watch.times['encode']:.3f} | {solved} | {energy} | {ref} |")
    lines.append("")


#: the dice targets of the scaling curve, and the slower counters' limit (they stop after their first miss)
DICE_TARGETS = (10, 15, 21, 30, 40, 50, 60, 70, 80, 90, 100)
DICE_LIMIT = 60


def dice_table(lines: list[str]) -> None:
    """Universe counts as the game grows: the frontier sweep on the split tracks (the default; both
    players one after the other, in this process) against the DP, median of 3 each; D4 on the split,
    Ganak on the whole-game formula of player 1 and the Z3 recurrence once each, until their first miss."""
    from puzzlesat.backends import get_backend
    from puzzlesat.encoders.dice.instance import DiceInstance, Game
    from puzzlesat.encoders.dice.reference import dirac_wins

    dice = get_puzzle("dice")
    frontier, d4 = get_backend("frontier"), get_backend("d4")
    lines += [f"## Dirac dice: counting as the game grows (start 4/8, track 10; median of 3; others once, "
              f"limit {DICE_LIMIT} s, stopped after their first miss)", "",
              "`split`: both players' tracks (one formula each, every game-length query answered from one "
              "sweep or compilation), one after the other on one core. The frontier sweep and the DP both "
              "grow with the game's states; D4 and Ganak with the formula's width.", "",
              "| target | split vars / clauses per track | frontier split s | DP s | frontier / DP | "
              "D4 split s | Ganak count, player 1 s | Z3 recurrence s |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    missed: set[str] = set()

    def once(name: str, fn, expected) -> str:
        if name in missed:
            return "-"
        begin = time.perf_counter()
        try:
            got = call_with_timeout(fn, Deadline.after(DICE_LIMIT), "bench")
        except SolverTimeout:
            missed.add(name)
            return f"> {DICE_LIMIT}"
        assert got == expected, (name, got, expected)
        return f"{time.perf_counter() - begin:.2f}"

    for target in DICE_TARGETS:
        instance = DiceInstance((4, 8), Game(target=target), "bench")
        wins = dirac_wins(instance)
        dp = median_of(lambda: dirac_wins(instance), 3)
        tracks = [dice.encode(instance, "split", DiceOptions(winner=player)) for player in (0, 1)]

        def by(counter):
            return lambda: dice.split_wins(instance, [counter.count_each(t, t.queries) for t in tracks])

        swept = median_of(lambda: assert_equal(by(frontier)(), wins), 3)
        size = tracks[0].size()
        d4_time = once("d4", by(d4), wins)
        ganak = once("ganak", lambda: count_solutions(request(dice, "ganak", "count", winner=0), instance), wins[0]) \
            if target <= 21 else "-"
        z3_time = once("z3", lambda: dice.recurrence_wins(instance, UNLIMITED)[0], wins[0]) if target <= 21 else "-"
        lines.append(f"| {target} | {size['variables']} / {size['clauses']} | {swept:.3f} | {dp:.3f} | "
                     f"{swept / dp:.1f}x | {d4_time} | {ganak} | {z3_time} |")
        print(lines[-1], flush=True)
    lines.append("")


def assert_equal(got, expected):
    assert got == expected, (got, expected)
    return got


def dice_process_table(lines: list[str]) -> None:
    """Whole processes: `puzzlesat count dice` and `solve dice` (part 1 by Z3 too) with the defaults,
    against bench/yardsticks/dice_dp.py (the plain memoised DP), alternated, median of 5."""
    exe = str(Path(sys.executable).parent / "puzzlesat")
    yardstick = [sys.executable, str(ROOT / "bench" / "yardsticks" / "dice_dp.py")]
    lines += ["## Dirac dice, whole process (defaults: frontier on the split, both tracks in parallel; wall "
              "seconds, median of 5, alternated with the plain DP's process)", "",
              "Targets from issue 23: target 21 <= 0.5 s, target 50 <= 5 s, target 100 <= 60 s.", "",
              "| command | input | target | puzzlesat s | DP process s | puzzlesat / DP |",
              "|---|---|---:|---:|---:|---:|"]
    example = str(ROOT / "instances" / "aoc" / "2021-21" / "example.txt")
    runs = [("count", "example", example, target) for target in (21, 50, 100)]
    runs += [("solve", name, path, 21) for name, path in aoc_inputs("2021-21")]
    for command, name, path, target in runs:
        ours, dp = [], []
        for _ in range(5):
            for times, argv in ((ours, [exe, command, "dice", path, "--target", str(target)]),
                                (dp, [*yardstick, path, str(target)])):
                begin = time.perf_counter()
                subprocess.run(argv, check=True, capture_output=True)
                times.append(time.perf_counter() - begin)
        a, b = statistics.median(ours), statistics.median(dp)
        lines.append(f"| {command} | {name} | {target} | {a:.2f} | {b:.2f} | {a / b:.1f}x |")
        print(lines[-1], flush=True)
    lines.append("")


def bench_command_table(lines: list[str]) -> None:
    """What `puzzlesat bench` measures on every bundled instance: the reference and each puzzle's default
    backend, then a few more backends on aquarium and jigsaw (3 runs each, 30 s limit per run)."""
    from puzzlesat.encoders import builtin_names
    from puzzlesat.pipeline.bench import measure, plan, run_all, summarize, to_markdown

    puzzles = {name: get_puzzle(name) for name in builtin_names() if get_puzzle(name).bundled}

    lines += ["## `puzzlesat bench` on every bundled instance (median of 3, limit 30 s per run)", "",
              "The same table as `puzzlesat bench --markdown`; total includes parse, decode and check.", ""]
    runs = plan(list(puzzles.values()), None, None, 3)
    runs += plan([puzzles["aquarium"], puzzles["jigsaw"]], None, ["pysat:glucose4", "pysat:kissat404", "z3",
                                                "portfolio:cadical195+glucose4"], 3)
    unique = list(dict.fromkeys(runs))  # the reference appears in both plans
    lines += [to_markdown(summarize(run_all(unique, partial(measure, puzzles), 1, 30.0)[0])), ""]


def section_name(heading: str) -> str:
    """A section's name: its heading up to the parenthesis that says how it was measured, so that a
    section measured again (another date, another count of runs) replaces the old one."""
    return heading.split(" (", 1)[0]


def stamped(table: str) -> str:
    """``table`` with the date and the machine it was measured on under its heading (BENCHMARKS.md's rule:
    every figure says when and where it was measured)."""
    heading, _, rest = table.partition("\n")
    return f"{heading}\n\nMeasured {time.strftime('%Y-%m-%d')} on {machine()}.\n{rest}"


def machine() -> str:
    """This machine in words: cores, processor model (where /proc/cpuinfo names it), system, Python, and
    what ``PUZZLESAT_BENCH_MACHINE`` says of it (a lent machine's kind, say)."""
    cpuinfo = Path("/proc/cpuinfo")
    models = [line.split(":", 1)[1].strip() for line in (cpuinfo.read_text().splitlines() if cpuinfo.exists() else [])
              if line.startswith("model name")]
    model = f" ({models[0]})" if models else ""
    named = f", {os.environ['PUZZLESAT_BENCH_MACHINE']}" if os.environ.get("PUZZLESAT_BENCH_MACHINE") else ""
    return (f"{os.cpu_count()} cores{model}, {platform.machine()}, {platform.system()}, Python "
            f"{platform.python_version()}{named}")


def replace_section(document: str, table: str) -> str:
    """``document`` with the section of ``table``'s name (up to the next heading of the same level)
    replaced by ``table``, stamped; appended when no such section exists yet."""
    name = section_name(table.split("\n", 1)[0])
    lines = document.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("## ") and section_name(line) == name]
    if not starts:
        return document.rstrip("\n") + "\n\n" + stamped(table)
    start = starts[0]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[:start] + stamped(table).rstrip("\n").split("\n") + [""] + lines[end:])


def update_benchmarks(tables: list[str]) -> None:
    """Replace (or add) these sections of BENCHMARKS.md, keeping the others. BENCHMARKS.md holds the
    current tables only; what was tried, and the figures of its day, is in docs/design-notes/."""
    target = ROOT / "BENCHMARKS.md"
    document = target.read_text()
    for table in tables:
        document = replace_section(document, table)
    target.write_text(document.rstrip("\n") + "\n")


def main() -> None:
    compile_package()
    lines = ["# Benchmarks", "",
             f"Written by `make bench` (bench/run.py) on {platform.machine()}, {platform.python_version()}, "
             f"{time.strftime('%Y-%m-%d')}. Medians; ratios against the solver-free reference of the same run.", ""]
    tables = (instances_table, process_table, generated_table, encodings_table, backends_table, jigsaw_table,
              jigsaw_scaling_table, jig_table, amphipod_table, amphipod_methods_table, amphipod_unroll_table,
              amphipod_scaling_table, dice_table,
              dice_process_table, bench_command_table)
    args = sys.argv[1:]
    update = args[:1] == ["--update"]  # re-run the named tables and replace their sections in BENCHMARKS.md
    only = set(args[1:] if update else args)  # else: table names to print alone, for a quick look
    if only:
        parts = []
        for table in tables:
            if table.__name__ in only:
                part: list[str] = []
                table(part)
                print("\n".join(part), flush=True)
                parts.append("\n".join(part))
        if update:
            update_benchmarks(parts)
        return
    document = "\n".join(lines)
    for table in tables:
        part: list[str] = []
        table(part)
        document = replace_section(document, "\n".join(part))
        print(f"done: {table.__name__}", flush=True)
    (ROOT / "BENCHMARKS.md").write_text(document.rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
