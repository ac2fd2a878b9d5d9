"""Yardstick for `puzzlesat count jig`: the jig's layouts counted in plain Python, the way a person
writes it from the rules (backtracking cell by cell, row by row, with the pieces' looks indexed by the
left and top sides a cell needs), without a solver and without importing puzzlesat. bench/jig_plain.py
times whole processes of both.

    python bench/yardsticks/jig_plain.py FILE.jig   ->   prints the number of layouts
"""
import sys


def main(path):
    rows = cols = None
    pieces = []
    for line in open(path):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        if rows is None:
            rows, cols = int(fields[0]), int(fields[1])
        else:
            pieces.append(tuple(int(v) for v in fields[1:5]))  # top, right, bottom, left
    index = {}  # (left side, top side) -> [(piece, right side, bottom side)], one entry per distinct look
    for number, (top, right, bottom, left) in enumerate(pieces):
        looks = set()
        for _ in range(4):
            looks.add((top, right, bottom, left))
            top, right, bottom, left = left, top, right, bottom  # a quarter turn clockwise
        for t, r, b, lft in looks:
            index.setdefault((lft, t), []).append((number, r, b))
    used = [False] * len(pieces)
    right_of = [0] * (rows * cols)  # the right side of the piece placed in each cell
    bottom_of = [0] * (rows * cols)
    sys.setrecursionlimit(10000)

    def count(cell):
        if cell == rows * cols:
            return 1
        r, c = divmod(cell, cols)
        need_left = -right_of[cell - 1] if c else 0  # a tab +k meets a blank -k; flat meets flat
        need_top = -bottom_of[cell - cols] if r else 0
        found = 0
        for piece, right, bottom in index.get((need_left, need_top), ()):
            if used[piece] or (c == cols - 1 and right) or (r == rows - 1 and bottom):
                continue
            used[piece] = True
            right_of[cell], bottom_of[cell] = right, bottom
            found += count(cell + 1)
            used[piece] = False
        return found

    print(count(0))


if __name__ == "__main__":
    main(sys.argv[1])
