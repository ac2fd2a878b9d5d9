"""The jig family: seeded random jigs of every shape up to 8x8 (1xN and non-square included), 1-4 tab
types (at most :data:`MAX_CELLS` cells for so many), 0-40% of the inner edges flat, one in ten with a
side changed (mostly unsolvable); the same seeds every run. Per jig, `count jig`'s count (the command's:
with no backend named it races enumeration against the jig's own search) against the plain reference (the pure-Python search of
encoders/jig/reference.py run to its end, classes by comparing turned layouts), one after the other,
each in a forked child under its own limit. Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/jig_family.py [--jigs 200] [--reference-limit 3] [--count-limit 9] [--without-numba]

With ``--without-numba`` numba is blocked in this process (as where it cannot start: ``count`` then
searches in pure Python), and the table is a section of its own.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from puzzlesat.backends.forking import call_with_timeout
from puzzlesat.core.errors import PuzzlesatError, SolverTimeout
from puzzlesat.core.timing import Deadline, Stopwatch
from puzzlesat.encoders import get_puzzle
from puzzlesat.encoders.jig.cover_counting import cover_counts
from puzzlesat.encoders.jig.generate import generate
from puzzlesat.encoders.jig.reference import layouts, rotation_class
from puzzlesat.pipeline.request import request
from puzzlesat.pipeline.tasks import count

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from run import update_benchmarks  # noqa: E402  (bench/ is not a package)

JIG = get_puzzle("jig")


#: the most cells of a family jig with this many tab types: fewer types make more pieces alike, and
#: past these sizes most such jigs have more layouts than any enumeration lists (docs/design-notes/what-was-tried.md)
MAX_CELLS = {1: 12, 2: 24, 3: 48, 4: 64}


def family(size: int) -> list[tuple[str, str]]:
    """(name, text) of each jig of the family, from seed 0 up."""
    jigs = []
    for seed in range(size):
        rng = random.Random(seed)
        types, flat = rng.randint(1, 4), rng.choice((0.0, 0.1, 0.2, 0.3, 0.4))
        rows, cols = rng.randint(1, 8), rng.randint(1, 8)
        while rows * cols > MAX_CELLS[types]:
            rows, cols = rng.randint(1, 8), rng.randint(1, 8)
        text = generate(rows, cols, types, seed, flat)
        name = f"{rows}x{cols} t{types} f{flat:g} s{seed}"
        if rng.random() < 0.1:  # one side changed: usually no layout is left
            lines = text.splitlines()
            at = rng.randrange(2, len(lines))
            fields = lines[at].split()
            side = rng.randrange(1, 5)
            fields[side] = str(-int(fields[side]) or rng.choice((-1, 1)))
            lines[at] = " ".join(fields)
            text, name = "\n".join(lines) + "\n", name + " changed"
        jigs.append((name, text))
    return jigs


def plain_reference(instance: Any) -> tuple[int, int]:
    found = list(layouts(instance))
    return len(found), len({rotation_class(instance, layout) for layout in found})


def counted(instance: Any) -> tuple[int, int, str]:
    report = count(request(JIG, counting=True), instance, Stopwatch())
    return report.answers["solutions"], report.answers["up_to_rotation"], report.counted_by


def timed(fn: Any, limit: float) -> tuple[float | None, Any]:
    start = time.perf_counter()
    try:
        answer = call_with_timeout(fn, Deadline.after(limit), "bench")
    except SolverTimeout:
        return None, None
    except PuzzlesatError as exc:
        return None, f"error: {exc}"
    return time.perf_counter() - start, answer


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def distribution_row(label: str, values: list[float], form: str) -> str:
    """A table row of ``values``' median, 95th percentile and worst, each written as ``form`` (e.g.
    "{:.2f}x"); dashes where there are none."""
    if not values:
        return f"| {label} | - | - | - |"
    return f"| {label} | " + " | ".join(form.format(v) for v in (statistics.median(values), percentile(values, 0.95),
                                                                  max(values))) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jigs", type=int, default=200)
    parser.add_argument("--reference-limit", type=float, default=3.0)
    parser.add_argument("--count-limit", type=float, default=9.0)
    parser.add_argument("--check-limit", type=float, default=30.0,
                        help="the exact cover's limit, the check of a count the reference could not make")
    parser.add_argument("--without-numba", action="store_true", help="block numba: the pure-Python fallback")
    args = parser.parse_args()
    if args.without_numba:
        sys.modules["numba"] = None  # type: ignore[assignment]  # an import of numba fails from here on
    both, only_count, neither, wrong, methods = [], [], [], [], {}
    for name, text in family(args.jigs):
        instance = JIG.parse(text, name)
        reference_time, expected = timed(lambda: plain_reference(instance), args.reference_limit)
        count_time, answer = timed(lambda: counted(instance), args.count_limit)
        print(f"{name:28} reference {reference_time if reference_time is None else round(reference_time, 3)} "
              f"count {count_time if count_time is None else round(count_time, 3)} {answer}", flush=True)
        if isinstance(answer, str) or (expected is not None and answer is not None and tuple(answer[:2]) != expected):
            wrong.append((name, expected, answer))
        elif reference_time is not None and count_time is not None:
            both.append((count_time / reference_time, max(count_time / max(3 * reference_time, 1.0), 0), name,
                         reference_time, count_time, answer[2]))
        elif count_time is not None:
            # an independent count where the reference ran out of time: the exact cover (its own code)
            cover_time, cover = timed(lambda: cover_counts(instance, plain_seconds=0), args.check_limit)
            check = "unchecked" if cover is None else "agrees" if tuple(cover) == tuple(answer[:2]) else "DISAGREES"
            if check == "DISAGREES":
                wrong.append((name, cover, answer))
            only_count.append((name, count_time, answer, check))
        else:
            neither.append(name)
        if answer is not None and not isinstance(answer, str):
            methods[answer[2]] = methods.get(answer[2], 0) + 1
    ratios = [entry[0] for entry in both]
    over = [entry for entry in both if entry[1] > 1]
    worst = sorted(both, key=lambda entry: entry[1])[-5:]
    title = "## Jig family, numba blocked (bench/jig_family.py --without-numba)" if args.without_numba else \
        "## Jig family (bench/jig_family.py)"
    lines = [title, "",
             f"{args.jigs} seeded random jigs up to 8x8 (1-4 tab types, at most 12, 24, 48, 64 cells for 1, 2, 3, 4 "
             f"types; 0-40% flat inner edges, a tenth with a side changed), {time.strftime('%Y-%m-%d')}: "
             "`count jig` (no backend named: the jig's own search alone for 50 ms, then raced against enumeration on "
             f"{request(JIG, counting=True).backend.name}) "
             f"against the plain reference (pure-Python search to the end), one run each, the reference "
             f"limited to {args.reference_limit:g} s and the count to {args.count_limit:g} s.", "",
             "| | jigs |", "|---|---:|",
             f"| both answered (counts agree) | {len(both)} |",
             f"| only `count` answered (the reference ran out of time) | {len(only_count)} |",
             f"| neither answered | {len(neither)} |",
             f"| counts disagree or an error | {len(wrong)} |",
             f"| over the target (count > max(3 x reference, 1 s)) | {len(over)} |", "",
             "| count / reference | median | 95th percentile | worst |", "|---|---:|---:|---:|",
             distribution_row("ratio", ratios, "{:.2f}x"),
             distribution_row("count seconds", [e[4] for e in both], "{:.3f}"),
             distribution_row("reference seconds", [e[3] for e in both], "{:.3f}"), "",
             "Who answered the count: " + ", ".join(f"{method} {n}" for method, n in sorted(methods.items())) + ".", "",
             "Closest to the target (count / max(3 x reference, 1 s)):", "",
             "| jig | reference s | count s | answered by | share of the target |", "|---|---:|---:|---|---:|",
             *[f"| {e[2]} | {e[3]:.3f} | {e[4]:.3f} | {e[5]} | {e[1]:.2f} |" for e in reversed(worst)], ""]
    if only_count:
        lines += ["Counted by `count` only, each checked by the compiled exact cover where it ended within "
                  f"{args.check_limit:g} s: " + "; ".join(f"{n} ({t:.1f} s, {a[0]:,} layouts, {a[2]}; exact cover: {c})"
                                                          for n, t, a, c in only_count) + ".", ""]
    if neither:
        lines += [f"Neither within its limit ({len(neither)}): " + "; ".join(neither) + ".", ""]
    if wrong:
        lines += ["DISAGREEMENTS: " + "; ".join(f"{n}: reference {e}, count {a}" for n, e, a in wrong), ""]
    table = "\n".join(line for line in lines if line is not None)
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
