"""The physics rule (puzz.link's default aquarium rule): water stands as it would in the vessel the walls
make. Every body of water, the water cells that reach each other without crossing a wall, is level on
top: water has water beside it and under it wherever no wall is between, and a body's cells below its
top row have water above them wherever no wall is between (pzprjs's "checkSupports" and
"checkPoolLevel"). So the two legs of a U may stand at different levels when a wall parts them at the
bottom, and may not when water joins them there.

**The encoding** (one variable per cell, ``("water", r, c)``): from a water cell ``a`` in row ``y``, every
cell that ``a`` reaches without crossing a wall and without going above row ``y`` holds water, because
water reaching it would stand higher on one side than the other (this is how cspuz_core states the rule).
The clauses say it with fewer implications: ``a`` implies water in every *top* of that reach (a reached
cell whose cell above is walled off, outside the grid, or above row ``y``), and each cell implies water
in its open neighbours left, right and below. Every reached cell ``z`` lies straight below a top, going
up from ``z`` through open edges while staying in the reach, so the downward implications carry water
from that top to ``z``: the clauses imply every "reach" implication. Conversely each clause is one of
them (a top and a lower or side neighbour are reached), so the models are exactly the grids the rule
allows. :func:`~.check.check` tests the rule as pzprjs states it, with none of this.
"""
from __future__ import annotations

from collections.abc import Iterator

from .instance import AquariumInstance

Cell = tuple[int, int]


def _open_neighbours(instance: AquariumInstance, cell: Cell) -> Iterator[tuple[str, Cell]]:
    r, c = cell
    for side, (r2, c2) in (("below", (r + 1, c)), ("above", (r - 1, c)), ("left", (r, c - 1)), ("right", (r, c + 1))):
        if 0 <= r2 < instance.height and 0 <= c2 < instance.width and instance.open_between(cell, (r2, c2)):
            yield side, (r2, c2)


def reach(instance: AquariumInstance, start: Cell) -> set[Cell]:
    """The cells ``start`` reaches through open edges without going above its row."""
    seen, stack = {start}, [start]
    while stack:
        cell = stack.pop()
        for _, other in _open_neighbours(instance, cell):
            if other[0] >= start[0] and other not in seen:
                seen.add(other)
                stack.append(other)
    return seen


def tops(instance: AquariumInstance, start: Cell) -> list[Cell]:
    """The cells of :func:`reach` whose cell above is not in it."""
    reached = reach(instance, start)
    return sorted(cell for cell in reached if (cell[0] - 1, cell[1]) not in reached)


def implications(instance: AquariumInstance) -> dict[Cell, list[Cell]]:
    """Per cell, the cells its water implies water in (the encoding's two kinds of clause)."""
    out: dict[Cell, list[Cell]] = {}
    for r in range(instance.height):
        for c in range(instance.width):
            cell = (r, c)
            spread = [other for side, other in _open_neighbours(instance, cell) if side != "above"]
            out[cell] = sorted(set(spread) | set(tops(instance, cell)) - {cell})
    return out
