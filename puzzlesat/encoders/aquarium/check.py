"""The independent checker, written from the rules in docs/puzzles.md (shares nothing with the encoders)."""
from __future__ import annotations

from .instance import AquariumInstance
from .solution import AquariumSolution


def check(instance: AquariumInstance, solution: AquariumSolution) -> list[str]:
    height, width, water = instance.height, instance.width, solution.water
    if len(water) != height or any(len(row) != width for row in water):
        return [f"the grid is not {height} rows of {width} cells"]
    problems = []
    for r in range(height):  # a row or column with no clue may hold any number
        got = sum(water[r])
        if instance.rows[r] is not None and got != instance.rows[r]:
            problems.append(f"row {r} has {got} water cells, needs {instance.rows[r]}")
    for c in range(width):
        got = sum(water[r][c] for r in range(height))
        if instance.cols[c] is not None and got != instance.cols[c]:
            problems.append(f"column {c} has {got} water cells, needs {instance.cols[c]}")
    # The rule itself: water in a cell of a region at row r means water in every cell of that region
    # at row r or below. Checked pairwise over the region's cells, exactly as stated.
    cells: dict[int, list[tuple[int, int]]] = {}
    for r in range(height):
        for c in range(width):
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
