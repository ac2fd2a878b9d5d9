"""CNF encoding of aquarium by monotone water levels.

One variable ``fill(R, r)`` per region R and row r that R occupies: "R holds water in row r". Every cell
of R in row r *is* that variable, so the level rule is only a chain ``fill(R, r) -> fill(R, r')`` for
consecutive rows r < r' of R (water never floats above a dry row). Row and column counts are exact
cardinality constraints from ``pysat.card``; a row count lists ``fill(R, r)`` once per cell of R in the
row, so wide regions weigh their width. The solution is defined by the ``fill`` variables alone.
"""
from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.pb import EncType as PBType
from pysat.pb import PBEnc

from ...core.encoding import Encoding
from ...core.model import CnfModel
from ...deduction import Count, Fact, Facts
from .instance import AquariumInstance
from .options import AquariumOptions
from .physics import vessels


def fill_var(pool: IDPool, region: int, row: int) -> int:
    return pool.id(("fill", region, row))


def encode_cnf(instance: AquariumInstance, options: AquariumOptions, pool: IDPool | None = None) -> Encoding:
    pool = pool if pool is not None else IDPool()
    facts = cnf_facts(instance, options, pool)
    return Encoding("cnf", pool=pool, clauses=[list(c) for fact in facts.facts for c in fact.clauses],
                    show=list(facts.cells), info={"cardinality": options.cardinality, "pb": options.pb})


def cnf_facts(instance: AquariumInstance, options: AquariumOptions, pool: IDPool) -> Facts:
    """The encoding as the puzzle's facts, each with its clauses (the encoding is their concatenation, in
    this order): every region's level chain, every row's count, every column's count; under the physics
    rule, every cell's flow (:mod:`.physics`) in place of the chains."""
    if not instance.region_rule:
        return _physics_facts(instance, options, pool)
    card, pb_type = getattr(EncType, options.cardinality), getattr(PBType, options.pb)
    facts: list[Fact] = []
    fill: dict[tuple[int, int], int] = {}
    cells: dict[int, tuple[tuple[int, int], ...]] = {}
    for region, rows in instance.region_rows.items():
        previous = 0
        chain: list[list[int]] = []
        for r, columns in rows.items():  # dict keeps rows in increasing order
            var = fill[region, r] = fill_var(pool, region, r)
            cells[var] = tuple((r, c) for c in columns)
            if previous:
                chain.append([-previous, var])
            previous = var
        facts.append(Fact(f"region {region} fills level by level", chain, f"region {region} levels"))
    regions = instance.regions
    for r, count in enumerate(instance.rows):
        if count is None:  # no clue: the row may hold any number of water cells
            continue
        widths: dict[int, int] = {}
        for region in regions[r]:
            widths[region] = widths.get(region, 0) + 1
        lits = [fill[region, r] for region in widths]
        facts.append(Fact(f"row {r + 1} count ({count})", PBEnc.equals(
            lits=lits, weights=list(widths.values()), bound=count, vpool=pool, encoding=pb_type).clauses,
            f"row {r + 1}: {count}", Count(f"row {r + 1}", tuple(zip(lits, widths.values())), count)))
    for c, count in enumerate(instance.cols):
        if count is None:
            continue
        lits = [fill[regions[r][c], r] for r in range(instance.height)]
        facts.append(Fact(f"column {c + 1} count ({count})",
                          CardEnc.equals(lits, bound=count, vpool=pool, encoding=card).clauses,
                          f"col {c + 1}: {count}", Count(f"column {c + 1}", tuple((lit, 1) for lit in lits), count)))
    names = {var: " ".join(f"r{r + 1}c{c + 1}" for r, c in where) for var, where in cells.items()}
    walls = tuple((r, c, r2, c2) for (r, c), (r2, c2) in sorted(instance.wall_set))
    return Facts(facts, cells, names, ("dry", "water"), walls=walls)


def _physics_facts(instance: AquariumInstance, options: AquariumOptions, pool: IDPool) -> Facts:
    """One variable a group of cells that hold water together (:mod:`.physics`): each group's flow (the
    groups its water implies), then the counts, a row's weighted by each group's width in it (``pysat.pb``,
    as the region rule's) and a column's an exact cardinality."""
    card, pb_type = getattr(EncType, options.cardinality), getattr(PBType, options.pb)
    group, implied = vessels(instance)
    water = {cell: pool.id(("water", *first)) for cell, first in group.items()}
    flows: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for a, b in implied:
        flows.setdefault(a, []).append(b)
    facts = [Fact(f"water at r{r + 1}c{c + 1} flows", [[-water[r, c], water[other]] for other in others],
                  f"r{r + 1}c{c + 1} flows") for (r, c), others in flows.items()]
    for r, count in enumerate(instance.rows):
        if count is not None:
            widths: dict[int, int] = {}
            for c in range(instance.width):
                widths[water[r, c]] = widths.get(water[r, c], 0) + 1
            facts.append(Fact(f"row {r + 1} count ({count})", PBEnc.equals(
                lits=list(widths), weights=list(widths.values()), bound=count, vpool=pool, encoding=pb_type).clauses,
                f"row {r + 1}: {count}", Count(f"row {r + 1}", tuple(widths.items()), count)))
    for c, count in enumerate(instance.cols):
        if count is not None:
            lits = [water[r, c] for r in range(instance.height)]
            facts.append(Fact(f"column {c + 1} count ({count})",
                              CardEnc.equals(lits, bound=count, vpool=pool, encoding=card).clauses, f"col {c + 1}: {count}",
                              Count(f"column {c + 1}", tuple((lit, 1) for lit in lits), count)))
    members: dict[int, list[tuple[int, int]]] = {}
    for cell, var in water.items():
        members.setdefault(var, []).append(cell)
    cells = {var: tuple(where) for var, where in members.items()}
    names = {var: " ".join(f"r{r + 1}c{c + 1}" for r, c in where) for var, where in members.items()}
    walls = tuple((r, c, r2, c2) for (r, c), (r2, c2) in sorted(instance.wall_set))
    return Facts(facts, cells, names, ("dry", "water"), walls=walls)


def decode_cnf(instance: AquariumInstance, encoding: Encoding, model: CnfModel) -> tuple[tuple[bool, ...], ...]:
    pool = encoding.variables
    if not instance.region_rule:
        group, _ = vessels(instance)
        return tuple(tuple(model.value(pool.obj2id[("water", *group[r, c])]) for c in range(instance.width))
                     for r in range(instance.height))
    return tuple(tuple(model.value(pool.obj2id[("fill", instance.regions[r][c], r)])
                       for c in range(instance.width)) for r in range(instance.height))
