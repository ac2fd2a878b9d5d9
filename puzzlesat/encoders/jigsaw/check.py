"""Independent checker for jigsaw assemblies, from the rules: every tile once, each placed grid one of
the 8 symmetries of its tile, and touching borders equal cell for cell. Uses its own rotation code."""
from __future__ import annotations

from .instance import JigsawInstance
from .solution import JigsawSolution


def _is_symmetry_of(placed: tuple[str, ...], tile: tuple[str, ...]) -> bool:
    """Whether ``placed`` is one of the 8 rotations and mirror images of ``tile`` (turned until found)."""
    g = list(tile)
    for _ in range(4):
        g = ["".join(col) for col in zip(*g[::-1])]  # clockwise quarter turn
        if tuple(g) == placed or tuple(row[::-1] for row in g) == placed:
            return True
    return False


def check(instance: JigsawInstance, solution: JigsawSolution) -> list[str]:
    rows, cols = instance.rows, instance.cols
    if len(solution.placement) != rows * cols:
        return [f"{len(solution.placement)} cells placed, the grid has {rows * cols}"]
    ids = [tid for tid, _ in solution.placement]
    if sorted(ids) != sorted(instance.ids):
        return ["the tiles placed are not exactly the input tiles, each once"]
    original = dict(zip(instance.ids, instance.tiles))
    problems = []
    for cell, (tid, _) in enumerate(solution.placement):
        if not _is_symmetry_of(solution.tiles[cell], original[tid]):
            problems.append(f"cell {divmod(cell, cols)}: tile {tid} is not a rotation/flip of itself")
    for r in range(rows):
        for c in range(cols):
            here = solution.tiles[r * cols + c]
            if c + 1 < cols:
                right = solution.tiles[r * cols + c + 1]
                if any(a[-1] != b[0] for a, b in zip(here, right)):
                    problems.append(f"cells ({r},{c}) and ({r},{c + 1}) do not share their border")
            if r + 1 < rows:
                below = solution.tiles[(r + 1) * cols + c]
                if here[-1] != below[0]:
                    problems.append(f"cells ({r},{c}) and ({r + 1},{c}) do not share their border")
    return problems
