"""`solve jig` over the seeded family of bench/jig_family.py: with no backend named (the jig's own search
alone for a moment, then CaDiCaL alone for a head start, then the two raced) against `-b cadical` (the
solver alone, as before the race), both in process, one after the other, one run each under a limit.
Every answer is checked by the solve itself; the two must agree on whether a layout exists. One untimed
solve of each kind first, so that no run pays the imports. Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/jig_solve_family.py [--jigs 200] [--limit 9]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jig_family import JIG, distribution_row, family, timed  # noqa: E402  (bench/ is not a package)
from run import update_benchmarks  # noqa: E402

from puzzlesat.pipeline.request import request  # noqa: E402
from puzzlesat.pipeline.tasks import solve  # noqa: E402

#: the backend the race gives its head start to, and the one a user names to solve without the race
SOLVER = "cadical"


def solved(instance: Any, backend: str | None) -> tuple[str, str]:
    """(status, who answered) of one solve."""
    report = solve(request(JIG, backend), instance)
    return report.status.value, ", ".join(report.solved_by) or report.backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jigs", type=int, default=200)
    parser.add_argument("--limit", type=float, default=9.0)
    args = parser.parse_args()
    both: list[tuple[float, str, float, float, str]] = []
    only_race: list[tuple[str, float]] = []
    only_solver: list[tuple[str, float]] = []
    neither: list[str] = []
    wrong: list[tuple[str, Any, Any]] = []
    winners: dict[str, int] = {}
    jigs = family(args.jigs)
    for backend in (None, SOLVER):  # untimed: the first solve of a process imports what the others reuse
        solved(JIG.parse(jigs[0][1], jigs[0][0]), backend)
    for name, text in jigs:
        instance = JIG.parse(text, name)
        race_time, race = timed(lambda: solved(instance, None), args.limit)
        solver_time, alone = timed(lambda: solved(instance, SOLVER), args.limit)
        print(f"{name:28} race {race_time and round(race_time, 3)} {race}  {SOLVER} "
              f"{solver_time and round(solver_time, 3)} {alone}", flush=True)
        if isinstance(race, str) or isinstance(alone, str) or (race and alone and race[0] != alone[0]):
            wrong.append((name, race, alone))
        elif race_time is not None and solver_time is not None:
            both.append((race_time / solver_time, name, race_time, solver_time, race[1]))
        elif race_time is not None:
            only_race.append((name, race_time))
        elif solver_time is not None:
            only_solver.append((name, solver_time))
        else:
            neither.append(name)
        if race and not isinstance(race, str):
            winners[race[1]] = winners.get(race[1], 0) + 1
    lines = ["## `solve jig` raced, over the jig family (bench/jig_solve_family.py)", "",
             f"The {args.jigs} seeded jigs of bench/jig_family.py, {time.strftime('%Y-%m-%d')}, in process "
             f"(after one untimed solve of each kind), one run each under {args.limit:g} s: `solve jig` with no "
             "backend named (the jig's own search, then a head start "
             f"for CaDiCaL, then both raced) against `-b {SOLVER}` (the solver alone).", "",
             "| | jigs |", "|---|---:|",
             f"| both answered (the same status) | {len(both)} |",
             f"| only the race answered | {len(only_race)} |",
             f"| only `-b {SOLVER}` answered | {len(only_solver)} |",
             f"| neither answered | {len(neither)} |",
             f"| statuses disagree or an error | {len(wrong)} |", "",
             "| raced / solver alone | median | 95th percentile | worst |", "|---|---:|---:|---:|",
             distribution_row("ratio", [entry[0] for entry in both], "{:.2f}x"),
             distribution_row("raced seconds", [e[2] for e in both], "{:.3f}"),
             distribution_row("solver alone seconds", [e[3] for e in both], "{:.3f}"), "",
             "Who answered the race: " + ", ".join(f"{who} {n}" for who, n in sorted(winners.items())) + ".", "",
             "Slowest against the solver alone:", "",
             "| jig | raced s | solver alone s | answered by | ratio |", "|---|---:|---:|---|---:|",
             *[f"| {e[1]} | {e[2]:.3f} | {e[3]:.3f} | {e[4]} | {e[0]:.2f}x |" for e in sorted(both)[-5:][::-1]], ""]
    if only_race:
        lines += ["Solved by the race only: " + "; ".join(f"{n} ({t:.1f} s)" for n, t in only_race) + ".", ""]
    if only_solver:
        lines += [f"Solved by `-b {SOLVER}` only: " + "; ".join(f"{n} ({t:.1f} s)" for n, t in only_solver) + ".", ""]
    if neither:
        lines += [f"Neither within the limit ({len(neither)}): " + "; ".join(neither) + ".", ""]
    if wrong:
        lines += ["DISAGREEMENTS: " + "; ".join(f"{n}: raced {r}, alone {a}" for n, r, a in wrong), ""]
    table = "\n".join(lines)
    print(table)
    update_benchmarks([table])


if __name__ == "__main__":
    main()
