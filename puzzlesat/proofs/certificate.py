"""What a checked proof gives a claim: a :class:`Certificate`, small enough to travel back from the forked
process that solved (the proof itself stays where it was written)."""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .checker import ProofRejected, check_proof
from .reading import read_proof


@dataclass(frozen=True)
class Certificate:
    """An UNSAT answer whose proof our checker accepted against the formula as we sent it."""

    by: str  # the backend whose proof was checked
    lemmas: int  # lemmas in its proof
    checked: int  # lemmas the refutation needed, each checked
    seconds: float  # reading and checking the proof
    #: the checker's cores that accepted it ("python", "compiled", both for a joined certificate; none
    #: for a claim that needed no proof)
    cores: tuple[str, ...] = ()

    @staticmethod
    def joined(parts: Sequence[Certificate | None]) -> Certificate | None:
        """One certificate for a claim that rests on several UNSAT answers (an optimum's independent
        parts), or None when any of them has none."""
        if not parts or any(part is None for part in parts):
            return None
        proven = [part for part in parts if part is not None]
        by = ", ".join(dict.fromkeys(part.by for part in proven))
        return Certificate(by, sum(p.lemmas for p in proven), sum(p.checked for p in proven),
                           sum(p.seconds for p in proven), tuple(sorted({core for p in proven for core in p.cores})))

    def describe(self) -> str:
        named = [{"python": "pure-Python"}.get(core, core) for core in self.cores]
        by = f" by the {' and '.join(named)} checker{'s' * (len(named) > 1)}" if named else ""
        return f"certified: {self.checked:,} of {self.lemmas:,} lemmas checked in {self.seconds:.2f} s{by}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"seconds": round(self.seconds, 6)}


def certify(formula: Iterable[Sequence[int]], proof: bytes | str | Iterable[str], by: str) -> Certificate:
    """Check that ``proof`` (``by``'s, in any DRAT format) refutes ``formula``: the clauses as we sent them,
    never as the solver reports them. A proof that fails is a :class:`ProofRejected` naming ``by``."""
    start = time.perf_counter()
    try:
        verdict = check_proof(formula, read_proof(proof, f"{by}'s proof"))
    except ProofRejected as exc:
        raise ProofRejected(f"{by}: its UNSAT proof was rejected: {exc}") from None
    return Certificate(by, verdict.lemmas, verdict.checked, time.perf_counter() - start, (verdict.core,))
