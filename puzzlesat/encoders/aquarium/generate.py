"""Generator of aquarium puzzles with exactly one solution (proven by the SAT solver).

Cells are grown into random connected regions and each region gets a random level: that fixes an
intended solution and its counts. Then, while the solver finds another solution (the intended one
blocked), regions where the two differ are merged with a neighbour whenever the merged region can still
hold the intended water at one level. Merging only adds constraints and keeps the intended solution, so
the loop ends with a unique puzzle, or restarts on a fresh layout when no merge helps.
"""
from __future__ import annotations

import random

from ...backends import DEFAULT_BACKEND, get_backend
from ...core.errors import PuzzlesatError
from .cnf import decode_cnf, encode_cnf
from .instance import AquariumInstance

MEAN_REGION_SIZE = 5  # the site's hard class: 45 regions on 15x15


class _Layout:
    """Union-find over cells, plus the intended water of every cell."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.n = n
        self.parent = list(range(n * n))
        size = [1] * (n * n)
        edges = [(a, a + 1) for a in range(n * n) if a % n != n - 1] + [(a, a + n) for a in range(n * n - n)]
        rng.shuffle(edges)
        regions, target = n * n, max(1, n * n // MEAN_REGION_SIZE)
        cap = 2 * MEAN_REGION_SIZE
        for a, b in edges:
            if regions <= target:
                break
            ra, rb = self.find(a), self.find(b)
            if ra != rb and size[ra] + size[rb] <= cap:
                self.parent[rb] = ra
                size[ra] += size[rb]
                regions -= 1
        members: dict[int, list[int]] = {}
        for cell in range(n * n):
            members.setdefault(self.find(cell), []).append(cell)
        self.wet = [False] * (n * n)
        for cells in members.values():
            rows = sorted({cell // n for cell in cells})
            level = rng.choice(rows + [rows[-1] + 1])
            for cell in cells:
                self.wet[cell] = cell // n >= level

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def instance(self) -> AquariumInstance:
        n, labels = self.n, {}
        grid = tuple(tuple(labels.setdefault(self.find(r * n + c), len(labels) + 1) for c in range(n))
                     for r in range(n))
        rows = tuple(sum(self.wet[r * n:(r + 1) * n]) for r in range(n))
        cols = tuple(sum(self.wet[r * n + c] for r in range(n)) for c in range(n))
        return AquariumInstance(n, cols, rows, grid)

    def try_merge(self, cell: int, rng: random.Random, members: dict[int, list[int]]) -> bool:
        """Merge the region of ``cell`` with a neighbouring region if one level still fits both."""
        n, root = self.n, self.find(cell)
        neighbours = {self.find(o) for x in members[root]
                      for o in (x - n, x + n, x - 1 if x % n else -1, x + 1 if x % n != n - 1 else -1)
                      if 0 <= o < n * n} - {root}
        for other in rng.sample(sorted(neighbours), len(neighbours)):
            union = members[root] + members[other]
            dry = [x // n for x in union if not self.wet[x]]
            wet = [x // n for x in union if self.wet[x]]
            if not dry or not wet or max(dry) < min(wet):
                self.parent[other] = root
                members[root] = union
                del members[other]
                return True
        return False


def generate(size: int, seed: int, max_restarts: int = 50) -> AquariumInstance:
    if size < 2:
        raise PuzzlesatError(f"--size {size}: an aquarium needs at least 2x2 cells")
    rng = random.Random(seed)
    backend = get_backend(DEFAULT_BACKEND)
    for _ in range(max_restarts):
        layout = _Layout(size, rng)
        while True:
            instance = layout.instance()
            encoding = encode_cnf(instance)
            with backend.open(encoding) as session:
                intended = tuple(tuple(layout.wet[r * size + c] for c in range(size)) for r in range(size))
                session.add_clause([-v if _intended_value(instance, encoding, intended, v) else v
                                    for v in encoding.show])
                result = session.solve()
            if result.model is None:
                return instance
            other = decode_cnf(instance, encoding, result.model)
            differing = [r * size + c for r in range(size) for c in range(size) if other[r][c] != intended[r][c]]
            members: dict[int, list[int]] = {}
            for cell in range(size * size):
                members.setdefault(layout.find(cell), []).append(cell)
            rng.shuffle(differing)
            merged, touched = False, set()
            for cell in differing:
                root = layout.find(cell)
                if root not in touched and layout.try_merge(cell, rng, members):
                    merged = True
                    touched.add(layout.find(cell))
            if not merged:
                break  # no merge can tell the solutions apart: start a new layout
    raise PuzzlesatError(f"no unique {size}x{size} puzzle found after {max_restarts} layouts (seed {seed})")


def _intended_value(instance: AquariumInstance, encoding, intended, var: int) -> bool:
    _, region, row = encoding.pool.obj(var)
    col = instance.regions[row].index(region)
    return intended[row][col]
