"""The physics rule (puzz.link's default aquarium rule): water stands as it would in the vessel the walls
make. Every body of water, the water cells that reach each other without crossing a wall, is level on
top: water has water beside it and under it wherever no wall is between, and a body's cells below its
top row have water above them wherever no wall is between (pzprjs's "checkSupports" and
"checkPoolLevel"). So the two legs of a U may stand at different levels when a wall parts them at the
bottom, and may not when water joins them there.

**The rule as implications** (as cspuz_core states it): water in a cell ``a`` of row ``y`` means water in
every cell ``a`` reaches through open edges without going above row ``y``. Call that set ``R(a)``: it is
the component of ``a`` in the grid cut down to rows ``y`` and below (the *vessel at level y*).

**The clauses** are found by building those components from the bottom row up with a union-find. At
level ``y`` the row's cells join the vessels of level ``y + 1`` that they touch through open edges. For
each vessel ``V`` at level ``y`` that holds row-``y`` cells:

- its row-``y`` cells are one *group*, one variable ``("water", y, c)`` with ``c`` its first column.
  Each of them reaches the others within ``V``, along the row or through a vessel below, so they hold
  water together. The group plays the part of the region rule's ``fill(R, r)``: a row count weighs it by
  its width.
- its group implies the group of every vessel of level ``y + 1`` that joined it (that vessel's own top
  row, made the same way one level down).

``V`` is its row-``y`` cells plus the vessels of level ``y + 1`` that joined it. So, by induction down
the levels, water in any row-``y`` cell of ``V`` implies water in all of ``V``, which is ``R(a)``, and
in nothing outside it. The clauses therefore say exactly the rule, with one implication for each vessel
joined.

Two versions were measured before this one, both with a variable for every cell:
- implying each cell's reach's top cells one by one was quadratic: 30x30 grids solved 3.0-5.7x slower
  than under the region rule;
- chains of equivalences in a row were linear, 2.3-2.8x slower.
:func:`~.check.check` tests the rule as pzprjs states it, with none of this.
"""
from __future__ import annotations

from functools import lru_cache

from .instance import AquariumInstance

Cell = tuple[int, int]


@lru_cache(maxsize=8)  # asked again by each decode and by --forced; callers only read what it returns
def vessels(instance: AquariumInstance) -> tuple[dict[Cell, Cell], list[tuple[Cell, Cell]]]:
    """(each cell's *group*: the first cell of the row-``y`` cells of its vessel at its own level ``y``,
    which all hold water or none; ``(a, b)`` pairs of groups meaning "water in a implies water in b")."""
    height, width = instance.height, instance.width
    parent: dict[Cell, Cell] = {}
    rep: dict[Cell, Cell] = {}  # a vessel's root -> the group that stands for it (its top row's)

    def find(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    group: dict[Cell, Cell] = {}
    pairs: list[tuple[Cell, Cell]] = []
    for y in range(height - 1, -1, -1):
        row = [(y, c) for c in range(width)]
        for cell in row:
            parent[cell] = cell
        # the vessels of level y + 1 that row y touches, before this level joins anything
        touched = {find((y + 1, c)) for c in range(width)
                   if y + 1 < height and instance.open_between((y, c), (y + 1, c))}
        for c in range(width):
            if y + 1 < height and instance.open_between((y, c), (y + 1, c)):
                parent[find((y + 1, c))] = find((y, c))
            if c + 1 < width and instance.open_between((y, c), (y, c + 1)):
                parent[find((y, c + 1))] = find((y, c))
        members: dict[Cell, list[Cell]] = {}
        for cell in row:
            members.setdefault(find(cell), []).append(cell)
        for root, cells in members.items():
            group.update(dict.fromkeys(cells, cells[0]))  # the row's cells of one vessel are equal
            pairs += [(cells[0], rep[old]) for old in touched if find(old) == root]
            rep[root] = cells[0]
    return group, pairs
