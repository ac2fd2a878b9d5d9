"""Any DIMACS CNF file as a puzzle: ``puzzlesat solve|count|crosscheck cnf FILE.cnf``.

The backends, hard time limits, portfolios and cross-checks then serve anyone who switches SAT
solvers: every model is checked against the clauses (the checker reads the file's clauses, nothing
else), counts are projected on the file's ``c p show`` / ``c ind`` variables when it declares them
(else on every variable), and the reference is a plain walk over every assignment (small formulas).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.encoding import Encoding
from ...core.errors import NotApplicable, PuzzlesatError
from ...core.model import CnfModel, SmtModel
from ...core.options import EncoderOptions
from ...core.puzzle import Puzzle
from ...formats.dimacs import Dimacs, parse_dimacs
from ...pipeline.tasks import Satisfy

if TYPE_CHECKING:
    from ...formats.picture import Picture

#: the reference tries every assignment: 2^16 of them at most
REFERENCE_VARIABLES = 16


@dataclass(frozen=True)
class CnfInstance:
    formula: Dimacs
    source: str = ""

    @property
    def shown(self) -> tuple[int, ...]:
        """The variables a solution is told apart by: the declared projection, else all of them."""
        return self.formula.show or tuple(range(1, self.formula.num_vars + 1))


@dataclass(frozen=True)
class CnfSolution:
    #: the whole model, one literal per variable 1..V
    literals: tuple[int, ...]
    #: the variables ``render`` prints (the projection)
    shown: tuple[int, ...]

    def render(self, colour: bool = False) -> str:
        return "v " + " ".join(str(self.literals[v - 1]) for v in self.shown) + " 0"

    def answers(self) -> dict[str, Any]:
        """What every method must agree on: satisfiable (models differ from solver to solver)."""
        return {"satisfiable": True}


def falsified(clauses: tuple[tuple[int, ...], ...], literals: tuple[int, ...]) -> list[str]:
    """Every clause the model makes false (the checker, from the file alone)."""
    true = set(literals)
    return [f"clause {number} ({' '.join(map(str, clause))} 0) is false"
            for number, clause in enumerate(clauses, 1) if not any(lit in true for lit in clause)]


def every_assignment(num_vars: int, source: str) -> range:
    """Assignments as bit masks (bit v-1 is variable v), for the references' plain walk."""
    if num_vars > REFERENCE_VARIABLES:
        raise NotApplicable(f"{source}: the reference tries every assignment, so at most "
                             f"{REFERENCE_VARIABLES} variables (this formula has {num_vars})")
    return range(1 << num_vars)


def as_literals(mask: int, num_vars: int) -> tuple[int, ...]:
    return tuple(v if mask >> (v - 1) & 1 else -v for v in range(1, num_vars + 1))


class Cnf(Puzzle[CnfInstance, CnfSolution, EncoderOptions]):
    name = "cnf"
    encodings = ("cnf",)
    options_type = EncoderOptions
    solvers_independent = True
    instance_suffix = ".cnf"
    task = Satisfy()

    def parse(self, text: str, path: str, **reading: Any) -> CnfInstance:
        return CnfInstance(parse_dimacs(text, path), path)

    def build(self, instance: CnfInstance, kind: str, options: EncoderOptions) -> Encoding:
        from pysat.formula import IDPool

        formula = instance.formula  # a pool whose top is the file's last variable: free ones count too
        return Encoding("cnf", pool=IDPool(start_from=formula.num_vars + 1), clauses=[list(c) for c in formula.clauses],
                        show=list(instance.shown))

    def decode(self, instance: CnfInstance, encoding: Encoding, model: CnfModel | SmtModel) -> CnfSolution:
        return CnfSolution(tuple(v if model.value(v) else -v for v in range(1, instance.formula.num_vars + 1)),
                           instance.shown)

    def check(self, instance: CnfInstance, solution: CnfSolution) -> list[str]:
        if len(solution.literals) != instance.formula.num_vars:
            return [f"the model assigns {len(solution.literals)} of {instance.formula.num_vars} variables"]
        return falsified(instance.formula.clauses, solution.literals)

    def reference(self, instance: CnfInstance, limit: int | None,
                  options: EncoderOptions | None = None) -> list[CnfSolution]:
        """One model per distinct projection, found by trying every assignment."""
        formula, found, seen = instance.formula, [], set()
        for mask in every_assignment(formula.num_vars, instance.source):
            literals = as_literals(mask, formula.num_vars)
            key = tuple(literals[v - 1] for v in instance.shown)
            if key not in seen and not falsified(formula.clauses, literals):
                seen.add(key)
                found.append(CnfSolution(literals, instance.shown))
                if limit is not None and len(found) >= limit:
                    break
        return found

    def picture(self, instance: CnfInstance, solution: CnfSolution) -> Picture:
        raise PuzzlesatError("cnf: a model has no picture")


PUZZLE = Cnf()
