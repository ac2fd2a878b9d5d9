"""The independent checker, written from the rules in docs/puzzles.md (shares nothing with the encoders)."""
from __future__ import annotations

from .instance import AquariumInstance
from .solution import AquariumSolution


def check(instance: AquariumInstance, solution: AquariumSolution) -> list[str]:
    n, water = instance.n, solution.water
    if len(water) != n or any(len(row) != n for row in water):
        return [f"the grid is not {n}x{n}"]
    problems = []
    for r in range(n):
        got = sum(water[r])
        if got != instance.rows[r]:
            problems.append(f"row {r} has {got} water cells, needs {instance.rows[r]}")
    for c in range(n):
        got = sum(water[r][c] for r in range(n))
        if got != instance.cols[c]:
            problems.append(f"column {c} has {got} water cells, needs {instance.cols[c]}")
    # The rule itself: water in a cell of a region at row r means water in every cell of that region
    # at row r or below. Checked pairwise over the region's cells, exactly as stated.
    cells: dict[int, list[tuple[int, int]]] = {}
    for r in range(n):
        for c in range(n):
            cells.setdefault(instance.regions[r][c], []).append((r, c))
    for region, members in cells.items():
        for (r1, c1) in members:
            if not water[r1][c1]:
                continue
            for (r2, c2) in members:
                if r2 >= r1 and not water[r2][c2]:
                    problems.append(f"region {region}: water at ({r1},{c1}) but not at ({r2},{c2}), "
                                    f"which is not above it")
                    break
    return problems
