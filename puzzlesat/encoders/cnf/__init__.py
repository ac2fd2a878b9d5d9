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
    from pysat.formula import IDPool

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

    def to_json(self) -> dict[str, Any]:
        """The model on the shown variables, as DIMACS literals."""
        return {"model": [self.literals[v - 1] for v in self.shown]}


@dataclass
class FileEncoding(Encoding):
    """A formula file's clauses with its variable v as ``offset + v``: 0 in a new pool, so the file's
    own numbers (an export is the file again); past the caller's variables in a pool of theirs."""

    offset: int = 0


def file_encoding(formula: Dimacs, vpool: IDPool, show: list[int], soft: bool = False) -> FileEncoding:
    """The file's formula in ``vpool``: its V variables take the next V ids, free ones included (the
    pool's top is set past them, as ``IDPool(start_from=...)`` does: they count as variables too). An
    empty soft clause is broken by every assignment: its weight is the cost's fixed part
    (``cost_offset``), not a soft clause (RC2 takes a soft clause's first literal as its selector)."""
    offset = vpool.top
    vpool.top = offset + formula.num_vars

    def moved(clause: tuple[int, ...]) -> list[int]:
        return [lit + offset if lit > 0 else lit - offset for lit in clause]

    weighed = formula.soft if soft else ()
    return FileEncoding("cnf", pool=vpool, clauses=[moved(c) for c in formula.clauses],
                        soft=[(moved(c), w) for c, w in weighed if c],
                        cost_offset=sum(w for c, w in weighed if not c),
                        show=[v + offset for v in show], offset=offset)


def file_model(encoding: Encoding, model: CnfModel | SmtModel, num_vars: int) -> tuple[int, ...]:
    """The file's literals, one per variable 1..V, that a model of its :func:`file_encoding` gives."""
    assert isinstance(encoding, FileEncoding), "a formula file's own encoding"
    return tuple(v if model.value(encoding.offset + v) else -v for v in range(1, num_vars + 1))


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

    def build(self, instance: CnfInstance, kind: str, options: EncoderOptions, vpool: IDPool) -> Encoding:
        return file_encoding(instance.formula, vpool, list(instance.shown))

    def decode(self, instance: CnfInstance, encoding: Encoding, model: CnfModel | SmtModel) -> CnfSolution:
        return CnfSolution(file_model(encoding, model, instance.formula.num_vars), instance.shown)

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
