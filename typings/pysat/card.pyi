from collections.abc import Sequence

from .formula import CNF, IDPool

class EncType:
    pairwise: int
    seqcounter: int
    sortnetwrk: int
    cardnetwrk: int
    bitwise: int
    ladder: int
    totalizer: int
    mtotalizer: int
    kmtotalizer: int
    native: int

class CardEnc:
    @classmethod
    def atmost(cls, lits: Sequence[int], bound: int = 1, top_id: int | None = None, vpool: IDPool | None = None,
               encoding: int = ...) -> CNF: ...
    @classmethod
    def atleast(cls, lits: Sequence[int], bound: int = 1, top_id: int | None = None, vpool: IDPool | None = None,
                encoding: int = ...) -> CNF: ...
    @classmethod
    def equals(cls, lits: Sequence[int], bound: int = 1, top_id: int | None = None, vpool: IDPool | None = None,
               encoding: int = ...) -> CNF: ...
