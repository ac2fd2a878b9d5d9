"""The independent checker, from the rules alone: every row, column and box holds 1..N once, and the
givens are kept. It shares nothing with the encodings."""
from __future__ import annotations

from .instance import SudokuInstance
from .solution import SudokuSolution


def check(instance: SudokuInstance, solution: SudokuSolution) -> list[str]:
    n, digits = instance.n, solution.digits
    if len(digits) != n or any(len(row) != n for row in digits):
        return [f"the grid is not {n}x{n}"]
    problems = [f"cell ({r + 1},{c + 1}) is {digits[r][c]}, the given is {given}"
                for r, row in enumerate(instance.givens) for c, given in enumerate(row)
                if given and digits[r][c] != given]
    everything = set(range(1, n + 1))
    groups = {f"row {r + 1}": [(r, c) for c in range(n)] for r in range(n)}
    groups |= {f"column {c + 1}": [(r, c) for r in range(n)] for c in range(n)}
    for r in range(n):
        for c in range(n):
            groups.setdefault(f"box {instance.box(r, c) + 1}", []).append((r, c))
    for name, cells in groups.items():
        if {digits[r][c] for r, c in cells} != everything:
            problems.append(f"{name} does not hold each of 1-{n} once")
    return problems
