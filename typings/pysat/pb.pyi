from collections.abc import Sequence

from .formula import CNF, IDPool

class EncType:
    best: int
    bdd: int
    seqcounter: int
    sortnetwrk: int
    adder: int
    binmerge: int
    totalizer: int
    native: int

class PBEnc:
    @classmethod
    def leq(cls, lits: Sequence[int], weights: Sequence[int] | None = None, bound: int = 1,
            top_id: int | None = None, vpool: IDPool | None = None, encoding: int = ...) -> CNF: ...
    @classmethod
    def geq(cls, lits: Sequence[int], weights: Sequence[int] | None = None, bound: int = 1,
            top_id: int | None = None, vpool: IDPool | None = None, encoding: int = ...) -> CNF: ...
    @classmethod
    def equals(cls, lits: Sequence[int], weights: Sequence[int] | None = None, bound: int = 1,
               top_id: int | None = None, vpool: IDPool | None = None, encoding: int = ...) -> CNF: ...
