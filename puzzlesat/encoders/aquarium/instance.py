"""The aquarium instance and the parser of puzzle-aquarium.com task strings.

``C0_.._C(n-1)_R0_.._R(n-1);g0,g1,...`` : column counts, row counts, then a region id per cell in
row-major order (see shared/instances/aquarium/FORMAT.md).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ...core.errors import PuzzleFormatError, PuzzlesatError
from ...core.text import lines_of


@dataclass(frozen=True)
class AquariumInstance:
    """A grid of ``height`` rows and ``width`` columns split into regions by walls, with the water cells
    of each column and row given or not (None: no clue)."""

    height: int
    width: int
    #: water cells of each column, left to right, and of each row, top to bottom; None where no clue is given
    cols: tuple[int | None, ...]
    rows: tuple[int | None, ...]
    #: region id of every cell, ``regions[r][c]``
    regions: tuple[tuple[int, ...], ...]
    #: the walls, each as the pair of cells it separates ``((r, c), (r2, c2))`` with (r2, c2) right of or
    #: below (r, c); None: exactly the walls between different regions (a task string has no others, a
    #: puzz.link grid may have a wall inside a region)
    walls: frozenset[tuple[tuple[int, int], tuple[int, int]]] | None = None
    #: puzzle-aquarium.com's rule, one water level per region (True), or water as physics has it: every
    #: body of water that walls do not part is level on top (False; :mod:`.physics`)
    region_rule: bool = True
    source: str = field(default="", compare=False)

    @cached_property
    def wall_set(self) -> frozenset[tuple[tuple[int, int], tuple[int, int]]]:
        """Every wall inside the grid (its edge is a wall too, not listed)."""
        if self.walls is not None:
            return self.walls
        grid = self.regions
        return frozenset(((r, c), (r + dr, c + dc)) for r in range(self.height) for c in range(self.width)
                         for dr, dc in ((0, 1), (1, 0)) if r + dr < self.height and c + dc < self.width
                         and grid[r][c] != grid[r + dr][c + dc])

    def open_between(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Whether water passes between the side-by-side cells ``a`` and ``b`` (no wall between them)."""
        return (min(a, b), max(a, b)) not in self.wall_set

    @cached_property
    def region_rows(self) -> dict[int, dict[int, list[int]]]:
        """region id -> {row -> columns of that region in that row}, rows in increasing order."""
        out: dict[int, dict[int, list[int]]] = {}
        for r, line in enumerate(self.regions):
            for c, region in enumerate(line):
                out.setdefault(region, {}).setdefault(r, []).append(c)
        return out

    def task_string(self) -> str:
        """puzzle-aquarium.com's spelling, which holds square grids with every clue and no wall inside a
        region only."""
        if (self.height != self.width or None in self.cols + self.rows or self.wall_set != _region_walls(self)
                or not self.region_rule):
            raise PuzzlesatError("a puzzle-aquarium.com task string holds square grids with every clue given, no "
                                 "wall inside a region and the region rule: write this puzzle as a puzz.link URL")
        counts = "_".join(str(count) for count in self.cols + self.rows)
        return f"{counts};{','.join(str(g) for line in self.regions for g in line)}"


def _region_walls(instance: AquariumInstance) -> frozenset[tuple[tuple[int, int], tuple[int, int]]]:
    return AquariumInstance(instance.height, instance.width, instance.cols, instance.rows,
                            instance.regions).wall_set


#: at most 9 digits: larger numbers are no grid size or count (and Python refuses over 4,300)
_INT = re.compile(r"\d{1,9}")


#: the largest grid side accepted (docs/limits.md, the table of sizes): a 200x200 grid is 80,000 variables and encodes in
#: seconds; beyond that the solve is out of any reasonable time limit
MAX_SIDE = 200


def _numbers(text: str, start: int, sep: str, what: str, path: str) -> list[int]:
    """Split ``text`` on ``sep`` into non-negative ints, reporting the column of a bad token."""
    values, col = [], start
    for token in text.split(sep):
        stripped = token.strip()
        if not _INT.fullmatch(stripped):
            shown = stripped if stripped else "(empty)"
            raise PuzzleFormatError(path, 1, col + 1, f"{what} '{shown}' is not a non-negative integer (of at most 9 digits)")
        values.append(int(stripped))
        col += len(token) + 1
    return values


def parse(text: str, path: str) -> AquariumInstance:
    lines = lines_of(text)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise PuzzleFormatError(path, None, None, "empty file: expected a task string 'C0_..._R(n-1);g0,g1,...'")
    for number, extra in enumerate(lines[1:], 2):
        if extra.strip():
            raise PuzzleFormatError(path, number, 1, "unexpected second line: the task string is one line")
    line = lines[0]
    if ";" not in line:
        raise PuzzleFormatError(path, 1, None, "no ';' between the counts and the region ids")
    head, _, tail = line.partition(";")
    counts = _numbers(head, 0, "_", "count", path)
    regions = _numbers(tail, len(head) + 1, ",", "region id", path)
    if len(counts) % 2:
        raise PuzzleFormatError(path, 1, 1, f"{len(counts)} counts: expected 2n (n column counts, then n row counts)")
    n = len(counts) // 2
    if n == 0:
        raise PuzzleFormatError(path, 1, 1, "no counts")
    if n > MAX_SIDE:
        raise PuzzleFormatError(path, 1, 1, f"a {n}x{n} grid is over this toolkit's limit of {MAX_SIDE}x{MAX_SIDE}")
    if len(regions) != n * n:
        raise PuzzleFormatError(path, 1, len(head) + 2,
                                f"{len(regions)} region ids for a {n}x{n} grid: expected {n * n}")
    for index, value in enumerate(counts):
        if value > n:
            kind, which = ("column", index) if index < n else ("row", index - n)
            raise PuzzleFormatError(path, 1, None, f"{kind} {which} count {value} exceeds the grid size {n}")
    if 0 in regions:
        raise PuzzleFormatError(path, 1, None, "region id 0: ids are positive integers")
    cols, rows = tuple(counts[:n]), tuple(counts[n:])
    if sum(cols) != sum(rows):
        raise PuzzleFormatError(path, 1, 1, f"column counts sum to {sum(cols)} but row counts to {sum(rows)}")
    grid = tuple(tuple(regions[r * n:(r + 1) * n]) for r in range(n))
    return AquariumInstance(n, n, cols, rows, grid, source=path)
