"""Yardstick for `puzzlesat solve jigsaw`: Jurassic Jigsaw (AoC 2020 day 20) assembled in plain Python,
the way most people solve it (placement by backtracking over an index of edges, monster search),
without a solver and without importing puzzlesat. bench/startup.py times whole processes of both.

    python bench/yardsticks/jigsaw_plain.py INPUT   ->   prints part 1 and part 2
"""
import sys
from math import isqrt

MONSTER = ["                  # ", "#    ##    ##    ###", " #  #  #  #  #  #   "]


def orientations(grid):
    """The 8 orientations of a square grid of strings (4 turns, then the same flipped)."""
    for flip in (False, True):
        g = [row[::-1] for row in grid] if flip else list(grid)
        for _ in range(4):
            yield g
            g = ["".join(row[i] for row in reversed(g)) for i in range(len(g))]


def main(path):
    tiles = {}
    for block in open(path).read().strip().split("\n\n"):
        lines = block.strip().splitlines()
        tiles[int(lines[0][5:-1])] = lines[1:]
    n = isqrt(len(tiles))
    # placement by backtracking, row by row (inputs may repeat an edge, so greedy can dead-end)
    turned = {t: list(orientations(g)) for t, g in tiles.items()}
    sides = {t: [(g[0], g[-1], "".join(row[0] for row in g), "".join(row[-1] for row in g)) for g in gs]
             for t, gs in turned.items()}
    by_left, by_top = {}, {}  # an edge -> the (tile, orientation) pairs showing it on that side
    for t, ss in sides.items():
        for k, (top, _, left, _) in enumerate(ss):
            by_left.setdefault(left, []).append((t, k))
            by_top.setdefault(top, []).append((t, k))
    everything = [(t, k) for t in tiles for k in range(8)]
    placed, used = {}, set()

    def place(cell):
        if cell == n * n:
            return True
        r, c = divmod(cell, n)
        if c:
            candidates = by_left.get(sides[placed[r, c - 1][0]][placed[r, c - 1][1]][3], [])
        elif r:
            candidates = by_top.get(sides[placed[r - 1, c][0]][placed[r - 1, c][1]][1], [])
        else:
            candidates = everything
        for tile_id, k in candidates:
            if tile_id in used:
                continue
            if r and c and sides[placed[r - 1, c][0]][placed[r - 1, c][1]][1] != sides[tile_id][k][0]:
                continue
            placed[r, c] = (tile_id, k)
            used.add(tile_id)
            if place(cell + 1):
                return True
            used.discard(tile_id)
        placed.pop((r, c), None)
        return False

    place(0)
    part1 = placed[0, 0][0] * placed[0, n - 1][0] * placed[n - 1, 0][0] * placed[n - 1, n - 1][0]
    placed = {cell: turned[t][k] for cell, (t, k) in placed.items()}
    image = ["".join(placed[r, c][i][1:-1] for c in range(n)) for r in range(n) for i in range(1, 9)]
    cells = [(i, j) for i, row in enumerate(MONSTER) for j, ch in enumerate(row) if ch == "#"]
    best = None  # generated images can show a stray monster in a second orientation: the most monsters win
    for g in orientations(image):
        monsters = set()
        for i in range(len(g) - 2):
            for j in range(len(g[0]) - 19):
                if all(g[i + a][j + b] == "#" for a, b in cells):
                    monsters.update((i + a, j + b) for a, b in cells)
        if monsters and (best is None or len(monsters) > best[0]):
            best = (len(monsters), sum(row.count("#") for row in g) - len(monsters))
    print(part1, best[1] if best else "no monsters")

if __name__ == "__main__":
    main(sys.argv[1])
