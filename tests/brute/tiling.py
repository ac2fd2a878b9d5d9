"""Jig and jigsaw by brute force: every assignment of pieces to cells and of orientations to pieces,
kept when it obeys the rules; layouts are compared as what a person sees (piece and look per cell),
and classes by applying every whole-grid symmetry by hand. Exhaustive, so only for grids of a few
cells (a 2x3 jig: 720 orders x 4^6 turns)."""
from __future__ import annotations

import itertools
import random

Sides = tuple[int, int, int, int]


# ---- jig ------------------------------------------------------------------------------------------

def parse_jig(text: str) -> tuple[int, int, list[int], list[Sides]]:
    lines = [line.split("#")[0].split() for line in text.splitlines()]
    lines = [fields for fields in lines if fields]
    rows, cols = map(int, lines[0])
    ids = [int(fields[0]) for fields in lines[1:]]
    pieces = [tuple(int(v) for v in fields[1:]) for fields in lines[1:]]
    return rows, cols, ids, pieces  # type: ignore[return-value]


def turn_sides(sides: Sides, turns: int) -> Sides:
    t, r, b, l = sides
    for _ in range(turns % 4):
        t, r, b, l = l, t, r, b
    return (t, r, b, l)


def jig_ok(rows: int, cols: int, grid: list[Sides]) -> bool:
    for r in range(rows):
        for c in range(cols):
            t, right, b, left = grid[r * cols + c]
            if (r == 0 and t) or (c == 0 and left) or (r == rows - 1 and b) or (c == cols - 1 and right):
                return False
            if c + 1 < cols and right + grid[r * cols + c + 1][3] != 0:
                return False
            if r + 1 < rows and b + grid[(r + 1) * cols + c][0] != 0:
                return False
    return True


def jig_layouts(text: str) -> set[tuple]:
    """Every layout: a tuple of (piece id, sides as placed) per cell, row-major."""
    rows, cols, ids, pieces = parse_jig(text)
    outer = [(r == 0, c == cols - 1, r == rows - 1, c == 0) for r in range(rows) for c in range(cols)]
    found = set()
    for order in itertools.permutations(range(len(pieces))):
        # the turns of each cell's piece, those whose border sides are flat listed first-hand: every
        # assignment that could pass jig_ok is still tried
        # a turn that looks like another is the same layout, so each look is tried once
        choices = [sorted({turn_sides(pieces[p], t) for t in range(4)
                           if not any(o and v for o, v in zip(outer[cell], turn_sides(pieces[p], t)))})
                   for cell, p in enumerate(order)]
        for grid in itertools.product(*choices):
            if jig_ok(rows, cols, list(grid)):
                found.add(tuple((ids[p], g) for p, g in zip(order, grid)))
    return found


def jig_class_key(rows: int, cols: int, layout: tuple) -> tuple:
    """The same for exactly the layouts one whole-grid turn maps onto each other (the least image)."""

    def turned(layout: tuple, n: int) -> tuple:
        """The whole grid turned clockwise (n x n only)."""
        return tuple((layout[(n - 1 - c) * n + r][0], turn_sides(layout[(n - 1 - c) * n + r][1], 1))
                     for r in range(n) for c in range(n))

    def half(layout: tuple) -> tuple:
        return tuple((pid, turn_sides(sides, 2)) for pid, sides in reversed(layout))

    images = [layout, half(layout)]
    if rows == cols:
        images += [turned(layout, rows), half(turned(layout, rows))]
    return min(images)


def jig_classes(text: str, layouts: set[tuple]) -> int:
    rows, cols, _, _ = parse_jig(text)
    return len({jig_class_key(rows, cols, layout) for layout in layouts})


def jig_brute(text: str) -> tuple[int, int]:
    layouts = jig_layouts(text)
    return len(layouts), jig_classes(text, layouts)


def random_jig(rng: random.Random, rows: int, cols: int) -> str:
    """A solvable jig most of the time: K tab types, inner edges flat with some chance (so flat inner
    edges, identical pieces and pieces that look alike after a turn all occur), shuffled and turned;
    now and then one side is changed, which usually leaves no solution."""
    types = rng.choice((1, 1, 2, 3))
    flat_chance = rng.choice((0.0, 0.0, 0.3, 1.0))

    def edge() -> int:
        return 0 if rng.random() < flat_chance else rng.choice((-1, 1)) * rng.randint(1, types)

    right = [[edge() for _ in range(cols - 1)] for _ in range(rows)]
    down = [[edge() for _ in range(cols)] for _ in range(rows - 1)]
    pieces = []
    for r in range(rows):
        for c in range(cols):
            sides = (-down[r - 1][c] if r else 0, right[r][c] if c < cols - 1 else 0,
                     down[r][c] if r < rows - 1 else 0, -right[r][c - 1] if c else 0)
            pieces.append(turn_sides(sides, rng.randrange(4)))
    rng.shuffle(pieces)
    if rng.random() < 0.15:
        p, s = rng.randrange(len(pieces)), rng.randrange(4)
        sides = list(pieces[p])
        sides[s] = rng.randint(-types, types)
        pieces[p] = tuple(sides)
    ids = rng.sample(range(1, 100), len(pieces))
    return f"{rows} {cols}\n" + "".join(f"{i} {' '.join(map(str, s))}\n" for i, s in zip(ids, pieces))


# ---- jigsaw ---------------------------------------------------------------------------------------

Tile = tuple[str, ...]


def parse_jigsaw(text: str) -> tuple[list[int], list[Tile]]:
    ids, tiles = [], []
    for block in text.strip().split("\n\n"):
        header, *rows = block.split("\n")
        ids.append(int(header[5:-1]))
        tiles.append(tuple(rows))
    return ids, tiles


def tile_orientations(tile: Tile) -> list[Tile]:
    """All 8: four clockwise turns, each also mirrored left-right."""
    out = []
    for _ in range(4):
        out += [tile, tuple(row[::-1] for row in tile)]
        tile = tuple("".join(tile[len(tile) - 1 - i][c] for i in range(len(tile))) for c in range(len(tile)))
    return out


def borders(tile: Tile) -> tuple[str, str, str, str]:
    """(top, right, bottom, left), each read left to right or top to bottom."""
    return tile[0], "".join(row[-1] for row in tile), tile[-1], "".join(row[0] for row in tile)


def jigsaw_ok(rows: int, cols: int, grid: list[tuple[str, str, str, str]]) -> bool:
    """``grid``: the borders of the tile in each cell."""
    for r in range(rows):
        for c in range(cols):
            here = grid[r * cols + c]
            if c + 1 < cols and here[1] != grid[r * cols + c + 1][3]:
                return False
            if r + 1 < rows and here[2] != grid[(r + 1) * cols + c][0]:
                return False
    return True


def jigsaw_layouts(text: str, rows: int, cols: int) -> set[tuple]:
    ids, tiles = parse_jigsaw(text)
    # an orientation that looks like another is the same layout, so each look is tried once
    looks = [[(look, borders(look)) for look in sorted(set(tile_orientations(t)))] for t in tiles]
    found = set()
    for order in itertools.permutations(range(len(tiles))):
        for grid in itertools.product(*(looks[p] for p in order)):
            if jigsaw_ok(rows, cols, [edges for _, edges in grid]):
                found.add(tuple((ids[p], look) for p, (look, _) in zip(order, grid)))
    return found


def jigsaw_class_key(rows: int, cols: int, layout: tuple) -> tuple:
    """The same for exactly the layouts one whole-picture symmetry maps onto each other (the least image)."""

    def transformed(layout: tuple, k: int) -> tuple | None:
        """Image of the whole assembly under orientation k of the picture (None if the grid's shape
        changes). Cell positions move as the tiles' pixels do."""
        grid = [[layout[r * cols + c] for c in range(cols)] for r in range(rows)]
        turns, mirror = k // 2, k % 2
        for _ in range(turns):
            grid = [[(tid, tile_orientations(t)[2]) for tid, t in
                     (grid[len(grid) - 1 - i][c] for i in range(len(grid)))] for c in range(len(grid[0]))]
        if mirror:
            grid = [[(tid, tile_orientations(t)[1]) for tid, t in reversed(row)] for row in grid]
        if len(grid) != rows:
            return None
        return tuple(cell for row in grid for cell in row)

    return min(image for k in range(8) if (image := transformed(layout, k)) is not None)


def jigsaw_classes(rows: int, cols: int, layouts: set[tuple]) -> int:
    return len({jigsaw_class_key(rows, cols, layout) for layout in layouts})


def jigsaw_brute(text: str, rows: int, cols: int) -> tuple[int, int]:
    layouts = jigsaw_layouts(text, rows, cols)
    return len(layouts), jigsaw_classes(rows, cols, layouts)


def random_jigsaw(rng: random.Random, rows: int, cols: int, size: int = 3) -> str:
    """Tiles cut from one random picture so that neighbours share their border rows (as in the
    puzzle); sparse pictures give repeated borders, identical tiles and tiles that are their own
    mirror image; now and then one pixel of a border is flipped."""
    density = rng.choice((0.0, 0.1, 0.3, 0.5))
    step = size - 1
    picture = [[("#" if rng.random() < density else ".") for _ in range(cols * step + 1)] for _ in range(rows * step + 1)]
    tiles = []
    for r in range(rows):
        for c in range(cols):
            tile = tuple("".join(picture[r * step + i][c * step: c * step + size]) for i in range(size))
            tiles.append(rng.choice(tile_orientations(tile)))
    rng.shuffle(tiles)
    if rng.random() < 0.15:
        t = rng.randrange(len(tiles))
        rows_ = list(tiles[t])
        rows_[0] = ("#" if rows_[0][0] == "." else ".") + rows_[0][1:]
        tiles[t] = tuple(rows_)
    ids = rng.sample(range(1000, 10000), len(tiles))
    return "\n\n".join(f"Tile {i}:\n" + "\n".join(t) for i, t in zip(ids, tiles)) + "\n"
