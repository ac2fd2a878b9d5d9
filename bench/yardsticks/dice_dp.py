"""Yardstick for `puzzlesat solve dice` part 2: Dirac Dice (AoC 2021 day 21) counted by the memoised DP
over game states that most people write, in plain Python, without importing puzzlesat.

    python bench/yardsticks/dice_dp.py INPUT [TARGET]   ->   prints the universes each player wins
"""
import sys
from collections import Counter
from functools import cache
from itertools import product

SUMS = sorted(Counter(sum(r) for r in product((1, 2, 3), repeat=3)).items())


def main() -> None:
    lines = open(sys.argv[1]).read().split("\n")
    starts = [int(line.rsplit(":", 1)[1]) for line in lines if line.strip()]
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    sys.setrecursionlimit(10_000)

    @cache
    def wins(mover: int, other: int, mine: int, theirs: int) -> tuple[int, int]:
        won = lost = 0
        for steps, ways in SUMS:
            landed = (mover + steps - 1) % 10 + 1
            if mine + landed >= target:
                won += ways
            else:
                theirs_won, mine_won = wins(other, landed, theirs, mine + landed)
                won, lost = won + ways * mine_won, lost + ways * theirs_won
        return won, lost

    print(*wins(starts[0], starts[1], 0, 0))


main()
