"""What every solution shares (``solve --forced``): the backbone of the encoding's shown variables.

Each question is a clause, never an assumption, so that every enumerating backend can answer it: after
a first model, "some candidate variable differs from it" is added and solved. A model drops every
candidate it differs on; UNSAT says every remaining candidate has the same value in every model. The
clauses only add: each one's candidates are a subset of the one before, so it implies the one before,
and the earlier clauses rule out nothing the later question asks about. At most one call per variable
that is not fixed, plus one, and usually far fewer (a model differs on many at once).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..backends.base import Backend
from ..core.encoding import Encoding
from ..core.errors import SolverTimeout
from ..core.result import Result, Status
from ..core.timing import Deadline


def fixed_values(backend: Backend, encoding: Encoding, models: Sequence[set[int]],
                 deadline: Deadline) -> tuple[dict[int, bool], Result | None]:
    """The shown variables with one value in every model, with that value, and the UNSAT answer that
    says so (its proof, from a proving backend, backs every one of them; None when none is fixed).
    ``models``: the true variables of models already found (at least one); a variable on which they
    differ is not fixed."""
    first = models[0]
    candidates = [v for v in encoding.show if all((v in model) == (v in first) for model in models[1:])]
    last = None
    with backend.open(encoding) as session:
        while candidates:
            session.add_clause([-v if v in first else v for v in candidates])
            result = session.solve(deadline)
            if result.status == Status.UNSAT:
                last = result
                break
            if result.status != Status.SAT or result.model is None:
                raise SolverTimeout(backend.name, deadline.seconds or 0.0)
            model = result.model
            candidates = [v for v in candidates if model.value(v) == (v in first)]
    return {v: v in first for v in candidates}, last
