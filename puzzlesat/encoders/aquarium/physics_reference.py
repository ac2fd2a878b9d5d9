"""The physics rule's solver-free reference: cell by cell, as a person solves it, written from the rule.

Water stands still when no wet cell has an open empty cell beside or below it (water would flow there),
and no wet cell below its body's top row has an open empty cell above it (water would rise there: every
body of water, wet cells joined through open sides, is flat on top). An empty cell just above a body's
cell, with no wall between, is a *dent* of that body; the body is flat on top exactly when each of its
dents lies above its top row.

The search keeps each cell wet, empty or open, and draws what follows until nothing more does:

- cells side by side with no wall between are both wet or both empty;
- a wet cell makes the open cell below it wet, and an empty cell makes the open cell above it empty;
- a row or column that has its count of wet cells has its other cells empty, and one that needs all its
  open cells has them wet; in a row, each open run is wet (or empty) when every way to make the count
  from the open runs' lengths takes it (or leaves it);
- a body's cells below its top row have the open cell above them wet (no dent there). A body only grows
  and its top only rises as cells become wet, so what this draws holds in every completion, and a dent
  found there (an empty cell) ends the branch.

When nothing follows, it tries an open cell of the row or column with the fewest open cells, wet then
empty: on the bundled 15x15s under this rule the slowest then took 13 s, against 73 s trying the first
open cell, and 6 minutes without the runs' sums. A full grid that the rules leave standing is a
solution: each rule is one of the rule's conditions, and the last has checked every body.

This shares no code with the encoding (:mod:`.physics`: groups of cells per vessel and row) nor with the
checker (:mod:`.check`, pzprjs's two rules); ``tests/test_aquarium_url.py`` holds all three to a brute
force over every filling.
"""
from __future__ import annotations

from .instance import AquariumInstance
from .solution import AquariumSolution

Cell = tuple[int, int]


def solve_physics_reference(instance: AquariumInstance, limit: int | None = 2) -> list[AquariumSolution]:
    """Up to ``limit`` solutions under the physics rule (``None``: all), by the search above."""
    height, width = instance.height, instance.width
    cells = [(r, c) for r in range(height) for c in range(width)]
    beside: dict[Cell, list[Cell]] = {cell: [] for cell in cells}  # open neighbours in the same row
    below: dict[Cell, Cell] = {}  # the open cell under a cell
    above: dict[Cell, Cell] = {}
    for r, c in cells:
        if c + 1 < width and instance.open_between((r, c), (r, c + 1)):
            beside[(r, c)].append((r, c + 1))
            beside[(r, c + 1)].append((r, c))
        if r + 1 < height and instance.open_between((r, c), (r + 1, c)):
            below[(r, c)] = (r + 1, c)
            above[(r + 1, c)] = (r, c)
    lines = [(count, [(r, c) for c in range(width)]) for r, count in enumerate(instance.rows) if count is not None]
    lines += [(count, [(r, c) for r in range(height)]) for c, count in enumerate(instance.cols) if count is not None]
    # each clued row's runs: cells joined side by side, which are all wet or all empty
    row_runs = []
    for r, count in enumerate(instance.rows):
        if count is not None:
            runs = [[(r, 0)]]
            for c in range(1, width):
                if (r, c) in beside[(r, c - 1)]:
                    runs[-1].append((r, c))
                else:
                    runs.append([(r, c)])
            row_runs.append((count, runs))
    found: list[AquariumSolution] = []

    def settle(state: dict[Cell, bool | None]) -> bool:
        """Draw every consequence into ``state``; False when the rules cannot all hold."""
        changed = True
        while changed:
            changed = False
            for cell in cells:
                value = state[cell]
                if value is None:
                    continue
                follow = list(beside[cell])
                if value and cell in below:
                    follow.append(below[cell])
                if not value and cell in above:
                    follow.append(above[cell])
                for other in follow:
                    if state[other] is None:
                        state[other] = value
                        changed = True
                    elif state[other] != value:
                        return False
            for count, line in lines:
                wet = sum(state[cell] is True for cell in line)
                unknown = [cell for cell in line if state[cell] is None]
                if wet > count or wet + len(unknown) < count:
                    return False
                if unknown and (wet == count or wet + len(unknown) == count):
                    for cell in unknown:
                        state[cell] = wet < count
                    changed = True
            for count, runs in row_runs:
                verdict = fit_runs(state, count, runs)
                if verdict is None:
                    return False
                for run, value in verdict:
                    for cell in run:
                        state[cell] = value
                    changed = True
            for body in bodies(state):
                top = min(r for r, _ in body)
                for cell in body:  # below the top row, the open cell above is wet too: no dent
                    if cell[0] > top and cell in above:
                        if state[above[cell]] is False:
                            return False
                        if state[above[cell]] is None:
                            state[above[cell]] = True
                            changed = True
        return True

    def fit_runs(state: dict[Cell, bool | None], count: int,
                 runs: list[list[Cell]]) -> list[tuple[list[Cell], bool]] | None:
        """The open runs of a row that its count decides (wet in every way to make the count of the
        open runs' lengths, or in none), or None when no way makes it."""
        need = count - sum(len(run) for run in runs if state[run[0]] is True)
        open_runs = [run for run in runs if state[run[0]] is None]
        if need < 0:
            return None
        before = [1]  # before[i]: bit s set when some of the first i open runs make s cells
        for run in open_runs:
            before.append(before[-1] | before[-1] << len(run))
        if not before[-1] >> need & 1:
            return None
        after = [1] * (len(open_runs) + 1)  # after[i]: the same for the runs from i on
        for i in range(len(open_runs) - 1, -1, -1):
            after[i] = after[i + 1] | after[i + 1] << len(open_runs[i])
        decided = []
        for i, run in enumerate(open_runs):
            sums = [s for s in range(need + 1) if before[i] >> s & 1]
            taken = any(after[i + 1] >> (need - len(run) - s) & 1 for s in sums if s + len(run) <= need)
            left = any(after[i + 1] >> (need - s) & 1 for s in sums)
            if taken != left:
                decided.append((run, taken))
        return decided

    def bodies(state: dict[Cell, bool | None]) -> list[list[Cell]]:
        """The bodies of the wet cells known so far: wet cells joined through open sides."""
        seen: set[Cell] = set()
        out = []
        for start in cells:
            if state[start] is not True or start in seen:
                continue
            body, stack = [start], [start]
            seen.add(start)
            while stack:
                cell = stack.pop()
                for other in (*beside[cell], below.get(cell), above.get(cell)):
                    if other is not None and state[other] is True and other not in seen:
                        seen.add(other)
                        body.append(other)
                        stack.append(other)
            out.append(body)
        return out

    def search(state: dict[Cell, bool | None]) -> bool:
        """True when ``limit`` solutions are found."""
        if not settle(state):
            return False
        def open_in_its_lines(cell: Cell) -> int:
            """The open cells of the row or the column of ``cell``, whichever has fewer."""
            return min(sum(state[(cell[0], c)] is None for c in range(width)),
                       sum(state[(r, cell[1])] is None for r in range(height)))

        open_cell = min((cell for cell in cells if state[cell] is None), default=None, key=open_in_its_lines)
        if open_cell is None:
            found.append(AquariumSolution(tuple(tuple(bool(state[(r, c)]) for c in range(width))
                                                for r in range(height))))
            return limit is not None and len(found) >= limit
        for value in (True, False):
            if search({**state, open_cell: value}):
                return True
        return False

    search(dict.fromkeys(cells))
    return found
