"""Clauses kept as DIMACS keeps them: one flat array of literals, each clause ended by 0.

A formula file of millions of clauses held as Python tuples costs about 150 bytes a clause (a tuple and
an int object per literal): 10^6 random 3-SAT clauses took 150 MB, as much again as CaDiCaL needs for the
whole solve. :class:`FlatClauses` holds them in 4 bytes a literal (plus 8 a clause for where it ends)
and is a read-only sequence of clauses: iterating makes each clause's tuple as it is asked for (a
solver takes it and it is gone), indexing makes one. Vectorised readers (the checker) use the arrays.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

#: clauses turned into tuples per chunk while iterating: large enough that numpy's per-call cost
#: vanishes, small enough that the chunk's ints stay few
CHUNK = 1 << 16


class FlatClauses(Sequence[tuple[int, ...]]):
    """``literals``: every clause's literals followed by 0 (numpy int32); ``ends``: the index of each
    clause's 0 (numpy int64), in order."""

    def __init__(self, literals: Any, ends: Any) -> None:
        self.literals, self.ends = literals, ends
        self._hash: int | None = None

    @classmethod
    def from_dimacs_numbers(cls, numbers: Any) -> FlatClauses:
        """From the integers after a DIMACS header (numpy, ending in 0: the caller checks it)."""
        import numpy as np

        return cls(numbers.astype(np.int32), np.flatnonzero(numbers == 0))

    def __len__(self) -> int:
        return len(self.ends)

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("clause index out of range")
        start = int(self.ends[index - 1]) + 1 if index else 0
        return tuple(self.literals[start:int(self.ends[index])].tolist())

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for first in range(0, len(self.ends), CHUNK):
            ends = self.ends[first:first + CHUNK].tolist()
            start = int(self.ends[first - 1]) + 1 if first else 0
            flat = self.literals[start:ends[-1] + 1].tolist()
            begin = 0
            for end in ends:
                yield tuple(flat[begin:end - start])
                begin = end - start + 1

    def __eq__(self, other: object) -> bool:
        """The same clauses in the same arrays (not equal to a tuple of the same clauses: that would
        need the tuples to hash alike, and an instance holding these is a key of caches)."""
        import numpy as np

        return (isinstance(other, FlatClauses) and np.array_equal(self.ends, other.ends)
                and np.array_equal(self.literals, other.literals))

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((len(self), self.literals.tobytes()))
        return self._hash

    def __repr__(self) -> str:
        return f"FlatClauses({len(self):,} clauses)"

    def first_violated(self, literals: Sequence[int]) -> int | None:
        """The index of the first clause that ``literals`` (a solver's model, maybe partial) makes false,
        every literal of it assigned and false; None when there is none: what
        :func:`~puzzlesat.formats.dimacs.violated_clause` says, vectorised (an outside solver's model of
        10^6 clauses in a few hundredths of a second, where a walk over tuples took 2.8 s)."""
        import numpy as np

        model = np.asarray(literals, dtype=np.int64)
        largest = int(np.abs(self.literals).max(initial=0))
        value = np.zeros(max(largest, int(np.abs(model).max(initial=0))) + 1, dtype=np.int8)
        value[np.abs(model)] = np.sign(model)  # 1 true, -1 false, 0 unassigned (index 0: the clauses' ends)
        # a literal is false where its variable's value has the opposite sign: value * sign(literal) < 0
        false = value[np.abs(self.literals)] * np.sign(self.literals).astype(np.int8) < 0
        false[self.ends] = True  # the 0 ending each clause leaves it as it is
        broken = np.flatnonzero(self._each_clause(np.logical_and, false))
        return int(broken[0]) if len(broken) else None

    def falsified(self, true_variables: Sequence[int], variables: int) -> list[int]:
        """The indices of the clauses that no literal satisfies when exactly ``true_variables`` (of
        1..``variables``) are true: vectorised, 10^6 clauses in a few hundredths of a second."""
        import numpy as np

        value = np.zeros(variables + 1, dtype=bool)
        value[np.asarray(true_variables, dtype=np.int64)] = True
        # (each temporary a byte or four a literal: a large file's check must not cost more than its read)
        satisfied = value[np.abs(self.literals)]
        satisfied ^= self.literals < 0  # a negative literal is true where its variable is false
        satisfied[self.ends] = False  # the 0 ending each clause satisfies nothing
        return np.flatnonzero(~self._each_clause(np.logical_or, satisfied)).tolist()

    def _each_clause(self, reduce: Any, flags: Any) -> Any:
        """``reduce`` (a numpy ufunc) over each clause's ``flags``, one flag a literal and one for the 0
        that ends it (set by the caller so that it changes nothing): one result a clause."""
        import numpy as np

        if not len(self.ends):  # reduceat cannot take an empty array
            return np.zeros(0, dtype=bool)
        starts = np.concatenate(([0], self.ends[:-1] + 1))
        # a clause's literals run from its start to its 0; reduceat over [start, end] includes the 0
        return reduce.reduceat(flags, starts)
