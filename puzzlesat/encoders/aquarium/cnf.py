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
from .instance import AquariumInstance
from .options import AquariumOptions


def fill_var(pool: IDPool, region: int, row: int) -> int:
    return pool.id(("fill", region, row))


def encode_cnf(instance: AquariumInstance, options: AquariumOptions, pool: IDPool | None = None) -> Encoding:
    card, pb_type = getattr(EncType, options.cardinality), getattr(PBType, options.pb)
    pool = pool if pool is not None else IDPool()
    clauses: list[list[int]] = []
    show: list[int] = []
    fill: dict[tuple[int, int], int] = {}
    for region, rows in instance.region_rows.items():
        previous = 0
        for r in rows:  # dict keeps rows in increasing order
            var = fill[region, r] = fill_var(pool, region, r)
            show.append(var)
            if previous:
                clauses.append([-previous, var])
            previous = var
    regions, n = instance.regions, instance.n
    for r in range(n):
        widths: dict[int, int] = {}
        for region in regions[r]:
            widths[region] = widths.get(region, 0) + 1
        lits = [fill[region, r] for region in widths]
        clauses.extend(PBEnc.equals(lits=lits, weights=list(widths.values()), bound=instance.rows[r], vpool=pool,
                                    encoding=pb_type).clauses)
    for c in range(n):
        lits = [fill[regions[r][c], r] for r in range(n)]
        clauses.extend(CardEnc.equals(lits, bound=instance.cols[c], vpool=pool, encoding=card).clauses)
    return Encoding("cnf", pool=pool, clauses=clauses, show=show,
                    info={"cardinality": options.cardinality, "pb": options.pb})


def decode_cnf(instance: AquariumInstance, encoding: Encoding, model: CnfModel) -> tuple[tuple[bool, ...], ...]:
    pool = encoding.variables
    return tuple(tuple(model.value(pool.obj2id[("fill", instance.regions[r][c], r)])
                       for c in range(instance.n)) for r in range(instance.n))
