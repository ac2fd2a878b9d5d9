"""Independent checker for jig layouts, from the rules: every piece once, a rotation of itself, flat
sides on the whole border, and touching sides a tab with its matching blank, or two flat sides."""
from __future__ import annotations

from .instance import JigInstance
from .solution import JigSolution


def check(instance: JigInstance, solution: JigSolution) -> list[str]:
    rows, cols = instance.rows, instance.cols
    if sorted(pid for pid, _ in solution.placement) != sorted(instance.ids):
        return ["the pieces placed are not exactly the input pieces, each once"]
    original = dict(zip(instance.ids, instance.pieces))
    problems = []
    for cell, (pid, _) in enumerate(solution.placement):
        t, r, b, l = original[pid]
        if solution.sides[cell] not in {(t, r, b, l), (l, t, r, b), (b, l, t, r), (r, b, l, t)}:
            problems.append(f"cell {divmod(cell, cols)}: piece {pid} is not a rotation of itself")
    for row in range(rows):
        for col in range(cols):
            top, right, bottom, left = solution.sides[row * cols + col]
            for outside, value, name in ((row == 0, top, "top"), (col == cols - 1, right, "right"),
                                         (row == rows - 1, bottom, "bottom"), (col == 0, left, "left")):
                if outside and value != 0:
                    problems.append(f"cell ({row},{col}): {name} side {value} on the border is not flat")
            if col + 1 < cols:
                other = solution.sides[row * cols + col + 1][3]
                if right + other != 0:
                    problems.append(f"cells ({row},{col}) and ({row},{col + 1}): sides {right} and {other} do not fit")
            if row + 1 < rows:
                other = solution.sides[(row + 1) * cols + col][0]
                if bottom + other != 0:
                    problems.append(f"cells ({row},{col}) and ({row + 1},{col}): sides {bottom} and {other} do not fit")
    return problems
