"""The solver-free reference for the Jurassic jigsaw: a plain search written from the rules of
docs/puzzles.md, section 1.

It shares nothing with the encoders (no side keys, domains, anchoring or symmetry breaking): cells are
filled one at a time, each with an unused tile in one of its distinct looks (of the 8 rotations and
mirror images), kept when its left and top border rows equal the touching borders of the tiles already
placed; outer borders are free. Cells go by anti-diagonals (rising row + column), so that every cell
off the first row and column meets two placed borders; candidates are looked up by the borders a cell
must show, which is the rule itself, indexed. (Line by line, the first line alone met one border per
cell, and the generated inputs' ambiguous borders made 2^cols partial lines before a second border
pruned any: 25 s for a generated 12x12, 0.1 s by anti-diagonals.) Classes up to the grid's
symmetries are counted by transforming each assembly and keeping the least form.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from .instance import JigsawInstance

Grid = tuple[str, ...]
Assembly = list[tuple[int, int]]  # (tile index, orientation) per cell, row-major


def _turn(grid: Grid) -> Grid:
    """One clockwise quarter turn."""
    return tuple("".join(grid[len(grid) - 1 - i][c] for i in range(len(grid))) for c in range(len(grid[0])))


def _mirror(grid: Grid) -> Grid:
    return tuple(row[::-1] for row in grid)


def oriented(grid: Grid, orientation: int) -> Grid:
    """Orientation ``4 * mirror + turns``: ``turns`` clockwise quarter turns, then a left-right mirror."""
    for _ in range(orientation % 4):
        grid = _turn(grid)
    return _mirror(grid) if orientation >= 4 else grid


def looks(tile: Grid) -> list[tuple[int, Grid]]:
    """(orientation, grid) for each orientation that looks different from the earlier ones."""
    seen: dict[Grid, int] = {}
    for orientation in range(8):
        seen.setdefault(oriented(tile, orientation), orientation)
    return [(orientation, look) for look, orientation in seen.items()]


def assemblies(instance: JigsawInstance) -> Iterator[Assembly]:
    """Every assembly, each once (a tile's orientations that look alike are one assembly)."""
    rows, cols = instance.rows, instance.cols
    cells = rows * cols
    # each look is kept with the two borders its right and lower neighbours must show (computed once:
    # joining the right column at every visit was half of the search's time)
    index: dict[tuple[str | None, str | None], list[tuple[int, int, str, str]]] = {}
    for tile_number, tile in enumerate(instance.tiles):
        for orientation, look in looks(tile):
            left, top = "".join(row[0] for row in look), look[0]
            entry = (tile_number, orientation, "".join(row[-1] for row in look), look[-1])
            for key in ((left, top), (left, None), (None, top), (None, None)):
                index.setdefault(key, []).append(entry)
    order = [r * cols + c for _, r, c in sorted((r + c, r, c) for r in range(rows) for c in range(cols))]
    lefts = [cell - 1 if cell % cols else None for cell in order]  # the cell whose right border is shown
    tops = [cell - cols if cell >= cols else None for cell in order]
    placed: list[tuple[int, int, str, str]] = [(-1, 0, "", "")] * cells
    used = [False] * len(instance.tiles)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), cells + 200))

    def fill(step: int) -> Iterator[Assembly]:
        if step == cells:
            yield [(tile, orientation) for tile, orientation, _, _ in placed]
            return
        left_cell, top_cell = lefts[step], tops[step]
        left = None if left_cell is None else placed[left_cell][2]  # the left tile's right border
        top = None if top_cell is None else placed[top_cell][3]  # the upper tile's bottom row
        cell = order[step]
        for entry in index.get((left, top), ()):
            if used[entry[0]]:
                continue
            used[entry[0]] = True
            placed[cell] = entry
            yield from fill(step + 1)
            used[entry[0]] = False

    yield from fill(0)


def symmetry_class(instance: JigsawInstance, assembly: Assembly) -> tuple[Any, ...]:
    """The least form of ``assembly`` over the whole-image symmetries that map the grid onto itself
    (all 8 for a square grid; else the half turn and both mirrors): equal for assemblies of one class."""
    rows, cols = instance.rows, instance.cols
    grid = [[(tile, oriented(instance.tiles[tile], o)) for tile, o in assembly[r * cols:(r + 1) * cols]]
            for r in range(rows)]

    def turned(cells: list[list[tuple[int, Grid]]]) -> list[list[tuple[int, Grid]]]:
        return [[(tile, _turn(look)) for tile, look in column]
                for column in ([cells[len(cells) - 1 - i][c] for i in range(len(cells))] for c in range(len(cells[0])))]

    def mirrored(cells: list[list[tuple[int, Grid]]]) -> list[list[tuple[int, Grid]]]:
        return [[(tile, _mirror(look)) for tile, look in reversed(row)] for row in cells]

    forms = []
    for turns in range(4):
        if turns % 2 == 0 or rows == cols:
            for form in (grid, mirrored(grid)):
                forms.append(tuple(cell for row in form for cell in row))
        grid = turned(grid)
    return min(forms)
