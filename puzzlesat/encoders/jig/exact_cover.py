"""A second solver-free count for jig: JigChecker's approach (``../shared/seeds/jigchecker-exact-cover.txt``),
an exact cover solved by Knuth's Algorithm X, written from the rules of docs/puzzles.md, section 2, and
sharing nothing with the reference search or the encoders.

Items: every cell and every piece, each covered exactly once by an option "piece p, in look l, stands
in cell c" (only looks whose sides on the border are flat). The fit across an inner edge is a *colour*
(Knuth's XCC): the cell left of (above) an edge paints it with its right (bottom) side, the cell right of
(below) it with the negation of its left (top) side, and two options may both be chosen only when they
paint every shared edge alike, i.e. the two sides sum to zero. JigChecker puts the edges in as 2p+1
primary "slots" each instead (p tab types); colours say the same with one secondary item per edge, and
measured here the slots were 3-8x slower (matt5x5 0.24 s against 0.04 s, zhurgut_7x7 108 s).

One deduction from the rules prunes options before the search: every border side is flat and an inner
edge is flat on both sides or on neither, so a jig with no more flat sides than border places has no
flat inner edge, and no option shows a flat side inside the grid (tested against brute force on random
jigs with and without flat inner edges).

The search is Algorithm X with the items kept as dicts of sets (Ali Assaf's formulation): take the item
with the fewest options left, try each, remove what conflicts (same item; another colour on an edge it
paints), recurse, restore. Classes up to rotation are counted through stabilisers: a layout's class has
|G| / |Stab| members, so the number of classes is the sum over layouts of |Stab| / |G| (G: the whole-grid
turns that keep the grid's shape). :mod:`.cover_counting` runs this search, and where numba is installed
starts one still running after a quarter second again compiled (:mod:`.compiled_cover`: Knuth's
Algorithm C, dancing links), which builds on this module's options: so this module imports neither.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction

from .instance import JigInstance, Sides

#: an option: the primary items it covers, and the (secondary item, colour) pairs it paints
Option = tuple[Sequence[Hashable], Sequence[tuple[Hashable, int]]]


def exact_covers(items: Sequence[Hashable], options: Sequence[Option]) -> Iterator[list[int]]:
    """Every set of options (as indices) that covers each of the primary ``items`` exactly once and
    paints each secondary item with one colour. (The items are given, not read off the options: an item
    that no option covers makes the problem unsolvable, not smaller.)"""
    remaining: dict[Hashable, set[int]] = {item: set() for item in items}
    for number, (items, _) in enumerate(options):
        for item in items:
            remaining.setdefault(item, set()).add(number)
    items_of = [list(items) for items, _ in options]
    painted_by: dict[Hashable, dict[int, list[int]]] = {}
    for number, (_, colours) in enumerate(options):
        for edge, colour in colours:
            painted_by.setdefault(edge, {}).setdefault(colour, []).append(number)
    colour_of: dict[Hashable, int] = {}
    chosen: list[int] = []

    def drop(number: int, dropped: list[tuple[Hashable, int]]) -> None:
        for item in items_of[number]:
            left = remaining.get(item)
            if left is not None and number in left:
                left.remove(number)
                dropped.append((item, number))

    def search() -> Iterator[list[int]]:
        if not remaining:
            yield list(chosen)
            return
        item = min(remaining, key=lambda i: len(remaining[i]))
        for number in list(remaining[item]):
            covered = []
            for own in items_of[number]:  # the option's items are covered: every other option on them goes
                for other in remaining[own]:
                    for elsewhere in items_of[other]:
                        if elsewhere != own:
                            remaining[elsewhere].remove(other)
                covered.append((own, remaining.pop(own)))
            dropped: list[tuple[Hashable, int]] = []
            painted = []
            for edge, colour in options[number][1]:
                if edge not in colour_of:  # first paint: every option with another colour there goes
                    colour_of[edge] = colour
                    painted.append(edge)
                    for other_colour, painters in painted_by[edge].items():
                        if other_colour != colour:
                            for other in painters:
                                drop(other, dropped)
            chosen.append(number)
            yield from search()
            chosen.pop()
            for edge in painted:
                del colour_of[edge]
            for own_item, other in reversed(dropped):
                remaining[own_item].add(other)
            for own, options_there in reversed(covered):
                remaining[own] = options_there
                for other in options_there:
                    for elsewhere in items_of[other]:
                        if elsewhere != own:
                            remaining[elsewhere].add(other)

    yield from search()


def turned(sides: Sides, turns: int) -> Sides:
    """(top, right, bottom, left) after ``turns`` clockwise quarter turns: the left side comes to the top."""
    top, right, bottom, left = sides
    for _ in range(turns % 4):
        top, right, bottom, left = left, top, right, bottom
    return (top, right, bottom, left)


def jig_options(instance: JigInstance) -> tuple[list[Hashable], list[Option], list[tuple[int, int, Sides]]]:
    """The exact cover of a jig: the primary items, the options, and for each option its (cell, piece,
    look)."""
    rows, cols = instance.rows, instance.cols
    # every border side is flat and an inner edge is flat on both sides or on neither, so the flat sides
    # number the border's 2(rows + cols) plus twice the flat inner edges: with no more flat sides than
    # the border has, no inner edge is flat, and no option may show a flat side inside the grid
    inner_flats = sum(side == 0 for sides in instance.pieces for side in sides) > 2 * (rows + cols)
    items: list[Hashable] = [("cell", r, c) for r in range(rows) for c in range(cols)]
    items += [("piece", piece) for piece in range(len(instance.pieces))]
    options: list[Option] = []
    meaning: list[tuple[int, int, Sides]] = []
    for piece, sides in enumerate(instance.pieces):
        for look in dict.fromkeys(turned(sides, t) for t in range(4)):  # looks alike count once
            top, right, bottom, left = look
            for r in range(rows):
                for c in range(cols):
                    if (r == 0 and top) or (r == rows - 1 and bottom) or (c == 0 and left) or \
                            (c == cols - 1 and right):
                        continue  # a side on the border must be flat
                    if not inner_flats and ((r > 0 and not top) or (r < rows - 1 and not bottom) or
                                            (c > 0 and not left) or (c < cols - 1 and not right)):
                        continue  # a flat side inside the grid, where no inner edge can be flat
                    colours = []
                    if r > 0:
                        colours.append((("across", r, c), -top))
                    if r < rows - 1:
                        colours.append((("across", r + 1, c), bottom))
                    if c > 0:
                        colours.append((("down", r, c), -left))
                    if c < cols - 1:
                        colours.append((("down", r, c + 1), right))
                    options.append(((("cell", r, c), ("piece", piece)), colours))
                    meaning.append((r * cols + c, piece, look))
    return items, options, meaning


def plain_counts(instance: JigInstance) -> tuple[int, int]:
    """(layouts, classes) by the pure-Python Algorithm X, each layout's class share by its stabiliser."""
    items, options, meaning = jig_options(instance)
    rows, cols = instance.rows, instance.cols
    turns = (0, 1, 2, 3) if rows == cols else (0, 2)
    layouts, classes = 0, Fraction(0)
    for cover in exact_covers(items, options):
        layouts += 1
        layout = {meaning[number][0]: meaning[number][1:] for number in cover}
        fixed = sum(_turn_layout(layout, rows, cols, t) == layout for t in turns)
        classes += Fraction(fixed, len(turns))
    if classes.denominator != 1:
        raise ArithmeticError(f"class count {classes} is not whole: the stabilisers are wrong")
    return layouts, int(classes)


def _turn_layout(layout: dict[int, tuple[int, Sides]], rows: int, cols: int, turns: int) -> dict[int, tuple[int, Sides]]:
    """The layout with the whole grid turned ``turns`` quarter turns clockwise (a half turn for a grid that
    is not square): the piece in (r, c) goes to (c, rows-1-r) per quarter turn and turns with it."""
    out = {}
    for cell, (piece, look) in layout.items():
        r, c = divmod(cell, cols)
        height, width = rows, cols
        for _ in range(turns):
            r, c, height, width = c, height - 1 - r, width, height
        out[r * width + c] = (piece, turned(look, turns))
    return out
