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
    if not instance.region_rule:
        return problems + _physics(instance, water)
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


def _physics(instance: AquariumInstance, water: tuple[tuple[bool, ...], ...]) -> list[str]:
    """The rule as pzprjs's player checks it, from the water alone: no water cell has an empty cell
    beside it or below it with no wall between; in every body of water, no cell below the body's top row
    has an empty cell above it with no wall between."""
    problems = []
    height, width = instance.height, instance.width

    def joined(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return 0 <= b[0] < height and 0 <= b[1] < width and (min(a, b), max(a, b)) not in instance.wall_set

    for r in range(height):
        for c in range(width):
            if not water[r][c]:
                continue
            for other in ((r, c - 1), (r, c + 1), (r + 1, c)):
                if joined((r, c), other) and not water[other[0]][other[1]]:
                    problems.append(f"water at ({r},{c}) has no water at ({other[0]},{other[1]}) beside or below it")
    seen: set[tuple[int, int]] = set()
    for r in range(height):
        for c in range(width):
            if not water[r][c] or (r, c) in seen:
                continue
            body, stack = [(r, c)], [(r, c)]
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                for other in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    if joined((y, x), other) and water[other[0]][other[1]] and other not in seen:
                        seen.add(other)
                        body.append(other)
                        stack.append(other)
            level = min(y for y, _ in body)
            for y, x in body:
                if y > level and joined((y, x), (y - 1, x)) and not water[y - 1][x]:
                    problems.append(f"the body of water at ({r},{c}) is not level: its top is row {level}, "
                                    f"and ({y - 1},{x}) above the water at ({y},{x}) is empty")
                    break
    return problems
