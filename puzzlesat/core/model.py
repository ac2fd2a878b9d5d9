"""Models as decoders see them: a value per puzzle meaning, whatever solver produced it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CnfModel:
    """A satisfying assignment of a CNF; ``truth[v]`` is the value of variable ``v`` (index 0 unused)."""

    truth: bytes

    @classmethod
    def from_literals(cls, literals: list[int], num_vars: int) -> CnfModel:
        """Build from a solver's literal list; variables it leaves out are false."""
        truth = bytearray(num_vars + 1)
        for lit in literals:
            if 0 < lit <= num_vars:
                truth[lit] = 1
        return cls(bytes(truth))

    def value(self, var: int) -> bool:
        return var < len(self.truth) and self.truth[var] == 1


@dataclass(frozen=True)
class SmtModel:
    """A Z3 model, evaluated with model completion so every term has a value."""

    z3_model: Any

    def value(self, term: Any) -> Any:
        val = self.z3_model.eval(term, model_completion=True)
        if val.sort().kind() == 1:  # Z3_BOOL_SORT
            return bool(val)
        return val.as_long()
