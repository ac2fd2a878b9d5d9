"""Any WCNF file (MaxSAT, the 2022 format or the older ``p wcnf``) as a puzzle: ``puzzlesat solve wcnf
FILE.wcnf`` proves the least cost with any optimisation method (RC2, SAT descent, an outside MaxSAT
solver) and checks the model against the hard clauses and the cost against the soft ones."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.encoding import Encoding
from ...core.errors import PuzzlesatError
from ...core.model import CnfModel, SmtModel
from ...core.options import EncoderOptions
from ...core.puzzle import Puzzle
from ...formats.dimacs import parse_dimacs
from ...pipeline.tasks import Optimize
from ..cnf import FileInstance, assigns_all, falsified, file_encoding, file_model, model_notes, reference, require_walkable

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from ...formats.picture import Picture


@dataclass(frozen=True)
class WcnfInstance(FileInstance):
    def cost(self, literals: tuple[int, ...]) -> int:
        """The weight of the soft clauses ``literals`` break."""
        true = set(literals)
        return sum(weight for clause, weight in self.formula.soft if not any(lit in true for lit in clause))


@dataclass(frozen=True)
class WcnfSolution:
    literals: tuple[int, ...]
    cost: int

    def render(self, colour: bool = False) -> str:
        return f"o {self.cost}\nv " + " ".join(map(str, self.literals)) + " 0"

    def answers(self) -> dict[str, Any]:
        return {"cost": self.cost}

    def to_json(self) -> dict[str, Any]:
        return {"model": list(self.literals), "cost": self.cost}


class Wcnf(Puzzle[WcnfInstance, WcnfSolution, EncoderOptions]):
    name = "wcnf"
    encodings = ("cnf",)
    options_type = EncoderOptions
    solvers_independent = True
    max_input_bytes = None
    draws = False
    instance_suffix = ".wcnf"
    task = Optimize("rc2")

    def parse(self, text: str, path: str, **reading: Any) -> WcnfInstance:
        return WcnfInstance.read(parse_dimacs(text, path, weighted=True), path, text)

    def reading_notes(self, instance: WcnfInstance) -> tuple[str, ...]:
        return instance.formula.warnings + model_notes(instance.formula)

    def build(self, instance: WcnfInstance, kind: str, options: EncoderOptions, vpool: IDPool) -> Encoding:
        return file_encoding(instance.formula, vpool, list(range(1, instance.formula.num_vars + 1)), soft=True)

    def decode(self, instance: WcnfInstance, encoding: Encoding, model: CnfModel | SmtModel) -> WcnfSolution:
        literals = file_model(encoding, model, instance.formula)
        return WcnfSolution(literals, instance.cost(literals))

    def check(self, instance: WcnfInstance, solution: WcnfSolution) -> list[str]:
        problems = assigns_all(instance.formula, solution.literals) or falsified(instance.formula.clauses,
                                                                               solution.literals)
        if instance.cost(solution.literals) != solution.cost:
            problems.append(f"the model breaks soft clauses weighing {instance.cost(solution.literals)}, "
                            f"not {solution.cost}")
        return problems

    def reference(self, instance: WcnfInstance, limit: int | None,
                  options: EncoderOptions | None = None) -> list[WcnfSolution]:
        """The cheapest model, by trying every assignment, on the file as :mod:`~puzzlesat.encoders.cnf.reference`'s
        own reader reads it."""
        require_walkable(instance.formula.declared, instance.source)  # at once, as the cnf reference
        formula, best = reference.read(instance.text, weighted=True), None
        require_walkable(formula.variables, instance.source)
        for literals in reference.assignments(formula.variables):
            true = set(literals)
            if not any(reference.falsified(clause, true) for clause in formula.hard):
                cost = sum(weight for clause, weight in formula.soft if reference.falsified(clause, true))
                if best is None or cost < best.cost:
                    best = WcnfSolution(tuple(literals), cost)
        return [best] if best is not None else []

    def picture(self, instance: WcnfInstance, solution: WcnfSolution) -> Picture:
        raise PuzzlesatError("wcnf: a model has no picture")


PUZZLE = Wcnf()
