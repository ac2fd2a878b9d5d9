"""The one Result type returned by every backend call."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from .model import CnfModel, SmtModel

if TYPE_CHECKING:
    from ..proofs.certificate import Certificate


class Status(str, Enum):
    """What a solver call, or a whole task, found; prints and compares as its value (``"SAT"``)."""

    SAT = "SAT"
    UNSAT = "UNSAT"
    OPTIMAL = "OPTIMAL"
    UNKNOWN = "UNKNOWN"
    #: a task over independent parts (amphipod's two burrows): some parts solved, the others proven to
    #: have no solution (each part's own status is in the report's ``parts``)
    PARTIAL = "PARTIAL"

    def __str__(self) -> str:
        return self.value


@dataclass
class Result:
    """What one solver call said: status, model (when SAT) and the time it took."""

    status: Status
    model: CnfModel | SmtModel | None = None
    backend: str = ""
    solve_time: float = 0.0
    #: a MaxSAT answer's cost: the weight of the soft clauses its model breaks
    cost: int | None = None
    #: an UNSAT answer's checked proof, from a backend opened ``with_proofs``
    certificate: Certificate | None = None
    #: what the solver did in this call, where it tells (conflicts, decisions, propagations, restarts)
    stats: Mapping[str, int] = field(default_factory=dict)
