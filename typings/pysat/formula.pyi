from collections.abc import Hashable, Iterable
from typing import Any

class IDPool:
    top: int
    obj2id: dict[Any, int]
    id2obj: dict[int, Any]
    _occupied: list[list[int]]
    def __init__(self, start_from: int = 1, occupied: list[list[int]] = ..., with_neg: bool = ...) -> None: ...
    def id(self, obj: Hashable = ...) -> int: ...
    def obj(self, vid: int) -> Any: ...

class CNF:
    clauses: list[list[int]]
    comments: list[str]
    nv: int
    def __init__(self, from_clauses: Iterable[list[int]] = ...) -> None: ...

class WCNF:
    hard: list[list[int]]
    comments: list[str]
    soft: list[list[int]]
    wght: list[int]
    def __init__(self) -> None: ...
    def append(self, clause: list[int], weight: int | None = None) -> None: ...
    def extend(self, clauses: Iterable[list[int]], weights: list[int] | None = None) -> None: ...
