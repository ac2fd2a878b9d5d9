"""Aquarium by brute force: every choice of water level for every region (empty, or full from one of
its rows down), kept when every row and column count holds (docs/puzzles.md, section 3)."""
from __future__ import annotations

import itertools
import math
import random


def parse(text: str) -> tuple[list[int], list[int], list[list[int]]]:
    head, tail = text.strip().split(";")
    counts = [int(v) for v in head.split("_")]
    n = len(counts) // 2
    ids = [int(v) for v in tail.split(",")]
    return counts[:n], counts[n:], [ids[r * n:(r + 1) * n] for r in range(n)]


def _levels(regions: list[list[int]]) -> tuple[list[int], list[list[int | None]]]:
    """The region names, and each region's water levels: empty, or full from one of its rows down."""
    n = len(regions)
    names = sorted({g for line in regions for g in line})
    return names, [[None] + sorted({r for r in range(n) for c in range(n) if regions[r][c] == name}) for name in names]


def candidates(text: str) -> int:
    """How many fillings :func:`solutions` tries."""
    return math.prod(len(options) for options in _levels(parse(text)[2])[1])


def solutions(text: str) -> list[tuple[str, ...]]:
    """Every solution grid ('#' water), as rows of text."""
    cols, rows, regions = parse(text)
    n = len(cols)
    names, levels = _levels(regions)
    found = []
    for choice in itertools.product(*levels):
        level = dict(zip(names, choice))
        grid = [[level[regions[r][c]] is not None and r >= level[regions[r][c]] for c in range(n)] for r in range(n)]
        if all(sum(grid[r]) == rows[r] for r in range(n)) and \
                all(sum(grid[r][c] for r in range(n)) == cols[c] for c in range(n)):
            found.append(tuple("".join("#" if w else "." for w in line) for line in grid))
    return found


def random_aquarium(rng: random.Random, n: int) -> str:
    """Regions from a random partition (sometimes 4-connected patches, sometimes scattered cells, so
    one-cell regions and regions spanning many rows with gaps occur), counts from a random filling, now
    and then one count moved (usually leaving no solution)."""
    if rng.random() < 0.5:  # connected patches grown from random seeds
        seeds = rng.randint(1, n * n)
        owner = [[0] * n for _ in range(n)]
        frontier = []
        for k, cell in enumerate(rng.sample(range(n * n), seeds), 1):
            owner[cell // n][cell % n] = k
            frontier.append(cell)
        while frontier:
            cell = frontier.pop(rng.randrange(len(frontier)))
            r, c = divmod(cell, n)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and not owner[rr][cc]:
                    owner[rr][cc] = owner[r][c]
                    frontier.append(rr * n + cc)
    else:
        k = rng.randint(1, n * n)
        owner = [[rng.randint(1, k) for _ in range(n)] for _ in range(n)]
    names = sorted({g for line in owner for g in line})
    level = {name: rng.choice([None] + list(range(n))) for name in names}
    water = [[level[owner[r][c]] is not None and r >= level[owner[r][c]] for c in range(n)] for r in range(n)]
    rows = [sum(line) for line in water]
    cols = [sum(water[r][c] for r in range(n)) for c in range(n)]
    if rng.random() < 0.1:
        r1, r2 = rng.randrange(n), rng.randrange(n)
        if rows[r1] > 0 and rows[r2] < n:
            rows[r1] -= 1
            rows[r2] += 1
    return "_".join(map(str, cols + rows)) + ";" + ",".join(str(g) for line in owner for g in line) + "\n"
