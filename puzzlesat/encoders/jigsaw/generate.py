"""Random Jurassic Jigsaw inputs: a picture with sea monsters hidden in it, cut into tiles whose borders
are shared with their neighbours, then shuffled, rotated and flipped.

Tile borders come from a lattice: each tile corner is one cell shared by up to four tiles, and each edge
between two tiles one string both of them carry. With ``ambiguity`` A, A edges copy the string of another
edge, so several tiles offer the same border and greedy edge matching meets false leads; the puzzle is
kept only when the solver proves that the assembly is still unique up to the 8 symmetries.
"""
from __future__ import annotations

import random

from ...core.errors import PuzzlesatError
from ...core.timing import UNLIMITED, Deadline
from .grids import composition_table, orient
from .solution import MONSTER, MONSTER_CELLS, monster_corners

ATTEMPTS = 20
#: the largest generated puzzles (docs/limits.md, the table of sizes): tile ids have four digits (9,000 of them), and
#: edge codes of more than 28 bits buy nothing
MAX_SIZE = 60
MAX_TILE = 30


def _picture(side: int, rng: random.Random) -> list[list[str]]:
    """Random water with sea monsters planted in the picture's own orientation. docs/puzzles.md asks for "the
    orientation in which monsters appear", so a monster that the noise (with the planted monsters) shows
    in another orientation is wiped out: one of its cells that no monster of the own orientation uses
    becomes water. Water makes no monster, so this ends, and the own orientation keeps all of its own.
    (Drawing the picture again instead, as before, never ended at 400 x 400: some stray monster always
    turned up.) Drawn again only when a stray monster lies wholly on own monsters' cells."""
    height, width = len(MONSTER), len(MONSTER[0])
    while True:
        picture = [["#" if rng.random() < 0.35 else "." for _ in range(side)] for _ in range(side)]
        if side < width:
            return picture
        for _ in range(max(1, side * side // 400)):
            r, c = rng.randrange(side - height + 1), rng.randrange(side - width + 1)
            for dr, dc in MONSTER_CELLS:
                picture[r + dr][c + dc] = "#"
        cleared = _without_strays(tuple("".join(row) for row in picture), rng)
        if cleared is not None:
            return [list(row) for row in cleared]


def _without_strays(lines: tuple[str, ...], rng: random.Random) -> tuple[str, ...] | None:
    """``lines`` with every monster of orientations 1..7 wiped out by turning one of its cells that no
    orientation-0 monster uses to water; None when some stray monster has no such cell."""
    own = {(r + dr, c + dc) for r, c in monster_corners(lines) for dr, dc in MONSTER_CELLS}
    mask = tuple("".join("X" if (r, c) in own else "." for c in range(len(lines[0]))) for r in range(len(lines)))
    table = composition_table()
    inverse = [next(g for g in range(8) if table[g][o] == 0) for o in range(8)]
    changed = True
    while changed:
        changed = False
        for o in range(1, 8):
            looks = orient(lines, o)
            found = monster_corners(looks)
            if not found:
                continue
            kept, cells = orient(mask, o), [list(row) for row in looks]
            for r, c in found:
                free = [(r + dr, c + dc) for dr, dc in MONSTER_CELLS if kept[r + dr][c + dc] != "X"]
                if not free:
                    return None
                wet_r, wet_c = rng.choice(free)
                cells[wet_r][wet_c] = "."
            lines = orient(tuple("".join(row) for row in cells), inverse[o])
            changed = True
    return lines


def _tiles(size: int, tile: int, ambiguity: int, rng: random.Random) -> list[tuple[str, ...]]:
    inner = tile - 2
    picture = _picture(size * inner, rng)
    corner = [[rng.choice("#.") for _ in range(size + 1)] for _ in range(size + 1)]

    edge_count = _edge_count(size)
    # distinct edge middles while there are enough of them (2^(T-2)), so that ambiguity is only what
    # --ambiguity asks for; past that, collisions are unavoidable and the uniqueness check decides
    if edge_count <= 2 ** inner:
        codes = rng.sample(range(2 ** inner), edge_count)
    else:
        codes = [rng.randrange(2 ** inner) for _ in range(edge_count)]
    middles = iter(format(code, f"0{inner}b").replace("0", ".").replace("1", "#") for code in codes)
    horizontal = {(i, j): next(middles) for i in range(size + 1) for j in range(size)}
    vertical = {(i, j): next(middles) for i in range(size) for j in range(size + 1)}
    internal = [("h", k) for k in horizontal if 0 < k[0] < size] + [("v", k) for k in vertical if 0 < k[1] < size]
    edges = {"h": horizontal, "v": vertical}
    for _ in range(min(ambiguity, len(internal) // 2)):
        (kind_a, a), (kind_b, b) = rng.sample(internal, 2)
        edges[kind_b][b] = edges[kind_a][a]
    tiles = []
    for i in range(size):
        for j in range(size):
            top = corner[i][j] + horizontal[i, j] + corner[i][j + 1]
            bottom = corner[i + 1][j] + horizontal[i + 1, j] + corner[i + 1][j + 1]
            left = corner[i][j] + vertical[i, j] + corner[i + 1][j]
            right = corner[i][j + 1] + vertical[i, j + 1] + corner[i + 1][j + 1]
            rows = [top]
            for r in range(inner):
                body = "".join(picture[i * inner + r][j * inner:(j + 1) * inner])
                rows.append(left[r + 1] + body + right[r + 1])
            rows.append(bottom)
            tiles.append(tuple(rows))
    return tiles


def scrambled(size: int, tile: int, ambiguity: int, rng: random.Random) -> str:
    """One random puzzle in the AoC format, its uniqueness not checked (the benchmark's scaling curve
    takes these as they come, because checking is the very solve it measures)."""
    tiles = _tiles(size, tile, ambiguity, rng)
    order = list(range(size * size))
    rng.shuffle(order)
    ids = rng.sample(range(1000, 10000), size * size)
    blocks = [f"Tile {ids[k]}:\n" + "\n".join(orient(tiles[t], rng.randrange(8))) for k, t in enumerate(order)]
    return "\n\n".join(blocks) + "\n"


def generate(size: int, tile: int, ambiguity: int, seed: int, deadline: Deadline = UNLIMITED) -> str:
    """A scrambled input whose assembly the solver proves unique up to symmetry, every proof within
    ``deadline`` (a command's time limit)."""
    from ...pipeline.request import request
    from ...pipeline.steps import count_solutions
    from . import PUZZLE
    from .instance import parse

    if not (1 <= size <= MAX_SIZE and 3 <= tile <= MAX_TILE and ambiguity >= 0):
        raise PuzzlesatError(f"--size must be 1..{MAX_SIZE}, --tile 3..{MAX_TILE} and --ambiguity >= 0")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        text = scrambled(size, tile, ambiguity, rng)
        proving = request(PUZZLE, "cadical", timeout=deadline, break_symmetry=True)
        if count_solutions(proving, parse(text, "generated"), limit=2) == 1:
            return text
    raise PuzzlesatError(f"no assembly unique up to symmetry in {ATTEMPTS} attempts: {_what_shares(size, tile, ambiguity)}")


def _edge_count(size: int) -> int:
    """Edges of the tile lattice, outer ones included: each carries one border string."""
    return 2 * size * (size + 1)


def _what_shares(size: int, tile: int, ambiguity: int) -> str:
    """Why tiles share borders, as advice: edges sharing the middles ``tile`` allows, or ``ambiguity``."""
    edges, middles = _edge_count(size), 2 ** (tile - 2)
    advice = []
    if edges > middles:  # more edges than middle patterns: collisions whatever --ambiguity says
        wide_enough = 2 + (edges - 1).bit_length()  # the least tile with 2^(tile - 2) >= edges
        advice.append(f"--tile {tile} gives {middles:,} border patterns for {edges:,} edges; --tile {wide_enough} "
                      f"or more gives each its own")
    if ambiguity:
        advice.append("lower --ambiguity")
    return "; ".join(advice) or "try another --seed"
