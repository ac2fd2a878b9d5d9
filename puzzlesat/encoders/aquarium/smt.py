"""Native SMT encoding of aquarium for Z3: one integer water level per region.

``level(R)`` is the first row of R that holds water (one past R's bottom row when R is empty), and a cell
of R in row r is wet exactly when ``level(R) <= r``. The level ranges over R's own rows plus "empty" so
that each grid has exactly one model on the levels, which makes blocking-based uniqueness exact even
for regions whose rows have gaps. Counts are linear sums over those comparisons.
"""
from __future__ import annotations

from typing import Any

from ...core.encoding import Encoding
from ...core.model import SmtModel
from .instance import AquariumInstance
from .physics import vessels


def encode_smt(instance: AquariumInstance) -> Encoding:
    import z3

    if not instance.region_rule:
        return _encode_physics(instance)
    levels = {}
    assertions = []
    for region, rows in instance.region_rows.items():
        level = z3.Int(f"level_{region}")
        levels[region] = level
        choices = list(rows) + [max(rows) + 1]
        assertions.append(z3.Or([level == row for row in choices]))
    regions = instance.regions

    def wet(r: int, c: int) -> Any:
        return levels[regions[r][c]] <= r

    for r, count in enumerate(instance.rows):
        if count is None:  # no clue
            continue
        widths: dict[int, int] = {}
        for region in regions[r]:
            widths[region] = widths.get(region, 0) + 1
        assertions.append(z3.Sum([z3.If(levels[g] <= r, w, 0) for g, w in widths.items()]) == count)
    for c, count in enumerate(instance.cols):
        if count is not None:
            assertions.append(z3.Sum([z3.If(wet(r, c), 1, 0) for r in range(instance.height)]) == count)
    terms = {("level", region): level for region, level in levels.items()}
    return Encoding("smt", assertions=assertions, terms=terms, show_terms=list(levels.values()))


def _encode_physics(instance: AquariumInstance) -> Encoding:
    """The physics rule: a Boolean a cell, and the flow implications of :mod:`.physics`."""
    import z3

    group, implied = vessels(instance)
    water = {cell: z3.Bool(f"water_{first[0]}_{first[1]}") for cell, first in group.items()}
    assertions = [z3.Implies(water[a], water[b]) for a, b in implied]
    for r, count in enumerate(instance.rows):
        if count is not None:
            assertions.append(z3.Sum([z3.If(water[r, c], 1, 0) for c in range(instance.width)]) == count)
    for c, count in enumerate(instance.cols):
        if count is not None:
            assertions.append(z3.Sum([z3.If(water[r, c], 1, 0) for r in range(instance.height)]) == count)
    terms = {("water", *cell): term for cell, term in water.items()}
    shown = [water[cell] for cell in group if group[cell] == cell]  # one term a group
    return Encoding("smt", assertions=assertions, terms=terms, show_terms=shown)


def decode_smt(instance: AquariumInstance, encoding: Encoding, model: SmtModel) -> tuple[tuple[bool, ...], ...]:
    if not instance.region_rule:
        return tuple(tuple(bool(model.value(encoding.terms[("water", r, c)])) for c in range(instance.width))
                     for r in range(instance.height))
    level = {region: model.value(encoding.terms[("level", region)]) for region in instance.region_rows}
    return tuple(tuple(level[instance.regions[r][c]] <= r for c in range(instance.width)) for r in range(instance.height))
