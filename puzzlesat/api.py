"""The Python interface, in PySAT's habits: formulas are ``pysat.formula.CNF``/``WCNF`` objects whose
variables come from the caller's ``IDPool``, so a puzzle can share a solver with other constraints.

    import puzzlesat
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    instance = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    formula = puzzlesat.encode("aquarium", instance, vpool=IDPool())
    with Solver(name="cadical195", bootstrap_with=formula) as solver:
        solver.solve()
        solution = puzzlesat.decode(formula, solver.get_model())
    assert puzzlesat.check("aquarium", instance, solution) == []

or the whole pipeline at once: ``puzzlesat.solve("aquarium", instance, backend="kissat")`` returns the
report the command line prints (it renders as a picture in Jupyter).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.errors import PuzzlesatError
from .core.model import CnfModel
from .encoders import get_puzzle
from .request import request
from .solving import Report, load
from .solving import count as _count
from .solving import solve as _solve

if TYPE_CHECKING:
    from pysat.formula import CNF, WCNF, IDPool

    from .core.puzzle import Solution


def read(puzzle: str, path: str, **reading: Any) -> Any:
    """The instance in the file at ``path`` (``reading``: ``rows``/``cols``, ``unfold``, dice's game)."""
    return load(get_puzzle(puzzle), path, **reading)


def encode(puzzle: str, instance: Any, vpool: IDPool | None = None, encoding: str | None = None,
           **options: Any) -> CNF | WCNF:
    """The puzzle's CNF encoding as a PySAT ``CNF`` (a ``WCNF`` when it has soft clauses: amphipod).
    Every variable is taken from ``vpool`` (a new pool when None): a puzzle variable under the key
    ``(puzzle, *meaning)``, e.g. ``("aquarium", "fill", 3, 7)``, an auxiliary one as a fresh id. The
    returned object remembers what :func:`decode` needs."""
    from pysat.formula import CNF, WCNF, IDPool

    spec = get_puzzle(puzzle)
    built = spec.encode(instance, encoding or spec.encodings[0], spec.options(**options))
    if built.kind != "cnf":
        raise PuzzlesatError(f"{puzzle}'s {built.name} encoding is SMT; encode() returns CNF encodings")
    pool = vpool if vpool is not None else IDPool()
    meanings = {vid: meaning for meaning, vid in built.variables.obj2id.items()}
    ours = [0] + [pool.id((puzzle, *_key(meanings[v]))) if v in meanings else pool.id()
                  for v in range(1, built.num_vars + 1)]

    def mapped(clause: list[int]) -> list[int]:
        return [ours[lit] if lit > 0 else -ours[-lit] for lit in clause]

    formula: CNF | WCNF
    if built.soft:
        formula = WCNF()
        for clause in built.clauses:
            formula.append(mapped(clause))
        for clause, weight in built.soft:
            formula.append(mapped(clause), weight=weight)
    else:
        formula = CNF(from_clauses=[mapped(clause) for clause in built.clauses])
    formula.puzzlesat = (spec, instance, built, ours)  # type: ignore[union-attr]  # read back by decode()
    return formula


def _key(meaning: Any) -> tuple[Any, ...]:
    return meaning if isinstance(meaning, tuple) else (meaning,)


def decode(formula: CNF | WCNF, model: list[int]) -> Solution:
    """The solution a model of ``formula`` (from :func:`encode`) stands for, not yet checked."""
    try:
        spec, instance, built, ours = formula.puzzlesat  # type: ignore[union-attr]
    except AttributeError:
        raise PuzzlesatError("decode() reads formulas made by puzzlesat.encode()") from None
    true = set(model)
    values = [v for v in range(1, built.num_vars + 1) if ours[v] in true]
    solution: Solution = spec.decode(instance, built, CnfModel.from_literals(values, built.num_vars))
    return solution


def check(puzzle: str, instance: Any, solution: Solution) -> list[str]:
    """Every rule the solution breaks, as sentences (the independent checker); empty when it is valid."""
    return get_puzzle(puzzle).check(instance, solution)


def solve(puzzle: str, instance: Any, backend: str | None = None, encoding: str | None = None,
          timeout: float | None = None, method: str | None = None, **options: Any) -> Report:
    """Solve, check and prove as ``puzzlesat solve`` does; the report's ``solution`` passed the checker."""
    return _solve(request(get_puzzle(puzzle), backend, encoding, timeout, method, **options), instance)


def count(puzzle: str, instance: Any, backend: str | None = None, limit: int | None = None,
          timeout: float | None = None, **options: Any) -> int:
    """Solutions projected on the encoding's shown variables (every one checked when enumerated)."""
    return _count(request(get_puzzle(puzzle), backend, None, timeout, **options), instance, limit=limit)
