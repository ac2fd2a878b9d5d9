"""Some facts' variables numbered from 1, for a solver that holds those facts alone.

A SAT call assigns every variable its solver knows, and a model is read in full, so a question about a
few facts is asked of a solver numbered for their variables only, not the puzzle's (on a generated 30x30
aquarium this took an explanation from 7.0 s to 1.0 s)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence


class Numbering:
    """Each variable's number here; calling it renumbers a literal."""

    def __init__(self, variables: Iterable[int]) -> None:
        self.number = {var: number for number, var in enumerate(sorted(variables), 1)}

    def __len__(self) -> int:
        return len(self.number)

    def __contains__(self, literal: int) -> bool:
        return abs(literal) in self.number

    def __call__(self, literal: int) -> int:
        return self.number[literal] if literal > 0 else -self.number[-literal]

    def among(self, literals: Iterable[int]) -> list[int]:
        """The literals over variables numbered here, renumbered (the others are left out)."""
        number = self.number
        return [number[lit] if lit > 0 else -number[-lit] for lit in literals if abs(lit) in number]

    def clauses(self, clauses: Iterable[Sequence[int]]) -> list[list[int]]:
        number = self.number
        return [[number[lit] if lit > 0 else -number[-lit] for lit in clause] for clause in clauses]
