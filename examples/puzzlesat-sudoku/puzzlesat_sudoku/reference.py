"""The solver-free reference: backtracking over the blank cells, fewest candidates first."""
from __future__ import annotations

from .instance import SudokuInstance
from .solution import SudokuSolution


def solve_reference(instance: SudokuInstance, limit: int | None) -> list[SudokuSolution]:
    n = instance.n
    grid = [list(row) for row in instance.givens]
    found: list[SudokuSolution] = []

    def candidates(r: int, c: int) -> set[int]:
        box = instance.box(r, c)
        used = {grid[r][x] for x in range(n)} | {grid[y][c] for y in range(n)}
        used |= {grid[y][x] for y in range(n) for x in range(n) if instance.box(y, x) == box}
        return set(range(1, n + 1)) - used

    def search() -> bool:
        """True once ``limit`` solutions are found."""
        blanks = [(len(candidates(r, c)), r, c) for r in range(n) for c in range(n) if not grid[r][c]]
        if not blanks:
            found.append(SudokuSolution(tuple(tuple(row) for row in grid)))
            return limit is not None and len(found) >= limit
        _, r, c = min(blanks)
        for digit in sorted(candidates(r, c)):
            grid[r][c] = digit
            if search():
                return True
        grid[r][c] = 0
        return False

    if all(not problem for problem in _given_clashes(instance)):
        search()
    return found


def _given_clashes(instance: SudokuInstance) -> list[bool]:
    """Whether each given repeats in its row, column or box (then there is no solution at all)."""
    n, givens = instance.n, instance.givens
    return [any(givens[y][x] == givens[r][c] and (y, x) != (r, c)
                and (y == r or x == c or instance.box(y, x) == instance.box(r, c))
                for y in range(n) for x in range(n))
            for r in range(n) for c in range(n) if givens[r][c]]
