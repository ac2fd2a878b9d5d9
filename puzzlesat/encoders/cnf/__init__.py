"""Any DIMACS CNF file as a puzzle: ``puzzlesat solve|count|crosscheck cnf FILE.cnf``.

The backends, hard time limits, portfolios and cross-checks then serve anyone who switches SAT
solvers: every model is checked against the clauses (the checker reads the file's clauses, nothing
else), counts are projected on the file's ``c p show`` / ``c ind`` variables when it declares them,
else made over the header's variables as the model-counting competition makes them (``p cnf 10 1``
with the clause ``10 0`` or ``1 0``: 512 either way; the variables past the last one used are counted,
not held, :attr:`~puzzlesat.core.encoding.Encoding.free_shown`). The reference reads the file with a
reader of its own (:mod:`.reference`) and walks every assignment of the header's variables.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Self

from ...core.bundled import located
from ...core.clauses import FlatClauses
from ...core.encoding import Encoding
from ...core.errors import NotApplicable, PuzzlesatError
from ...core.model import CnfModel, SmtModel
from ...core.options import EncoderOptions
from ...core.puzzle import Puzzle
from ...core.weights import WEIGHTED_COUNT
from ...formats.dimacs import Dimacs, parse_dimacs
from ...pipeline.tasks import Satisfy
from . import reference
from .reference import Read

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from ...formats.picture import Picture

#: the reference tries every assignment: 2^16 of them at most
REFERENCE_VARIABLES = 16


@dataclass(frozen=True)
class FileInstance:
    """A formula file as read (CNF or WCNF): its formula, its name, and what stays on this machine."""

    formula: Dimacs
    source: str = ""
    #: the file's text as read, for the reference's own reader (:mod:`.reference`); kept only for a
    #: file whose header lets the reference walk it (10^6 clauses: 24 MB that nothing would read)
    text: str = field(default="", compare=False, repr=False)
    #: the file on disk that holds the formula as read (:func:`unchanged_file`), found once when it is
    #: read; None: stdin, compressed, or not plain DIMACS (:attr:`~puzzlesat.formats.dimacs.Dimacs.plain`)
    original: str | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled to a cluster's worker without the text (it never asks the reference) or the path
        (which names a file on this machine)."""
        return self.__dict__ | {"text": "", "original": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    @classmethod
    def read(cls, formula: Dimacs, source: str, text: str) -> Self:
        """The instance of ``text`` read from ``source``: the original file kept only when solvers can be
        given it (most refuse SATLIB's ``%`` end, CaDiCaL a header that miscounts its clauses)."""
        kept = text if formula.declared <= REFERENCE_VARIABLES else ""
        return cls(formula, source, kept, unchanged_file(source, text) if formula.plain else None)


@dataclass(frozen=True)
class CnfInstance(FileInstance):
    @property
    def shown(self) -> Sequence[int]:
        """The variables a solution is told apart by: the declared projection, else all of them (those
        past the last one any clause names are free, :attr:`free_shown`), as a range (a tuple of 10^6
        ints would take 36 MB)."""
        show = self.formula.show
        return show if show is not None else range(1, self.formula.num_vars + 1)

    @property
    def free_shown(self) -> int:
        """Shown variables that no clause or projection names: each doubles a count (none when the file
        declares a projection, which names every shown variable)."""
        return self.formula.free if self.formula.show is None else 0


@dataclass(frozen=True)
class CnfSolution:
    #: the whole model, one literal per variable 1..V (the header's later variables are free: any value)
    literals: tuple[int, ...]
    #: the variables ``render`` prints (the projection)
    shown: Sequence[int]

    def render(self, colour: bool = False) -> str:
        return "v " + " ".join(str(self.literals[v - 1]) for v in self.shown) + " 0"

    def answers(self) -> dict[str, Any]:
        """What every method must agree on: satisfiable (models differ from solver to solver)."""
        return {"satisfiable": True}

    def to_json(self) -> dict[str, Any]:
        """The whole model as DIMACS literals, a model of the file (a script checks it clause by clause),
        and when the file projects, the projection's literals apart."""
        projected = len(self.shown) != len(self.literals)
        return {"model": list(self.literals)} | (
            {"projection": [self.literals[v - 1] for v in self.shown]} if projected else {})


@dataclass
class FileEncoding(Encoding):
    """A formula file's clauses with its variable v as ``offset + v``: 0 in a new pool, so the file's
    own numbers (an export is the file again); past the caller's variables in a pool of theirs."""

    offset: int = 0

    @cached_property
    def num_vars(self) -> int:
        """The pool's top: :func:`file_encoding` sets it past every variable of the file, so the clauses
        need no scan (10^6 clauses: 0.35 s)."""
        return self.variables.top


def file_encoding(formula: Dimacs, vpool: IDPool, show: Sequence[int], soft: bool = False,
                  free_shown: int = 0, weighted: bool = False) -> FileEncoding:
    """The file's formula in ``vpool``: its V variables take the next V ids, unused ones included (the
    pool's top is set past them, as ``IDPool(start_from=...)`` does: they count as variables too), and
    ``free_shown`` more are counted, not held. An empty soft clause is broken by every assignment: its
    weight is the cost's fixed part (``cost_offset``), not a soft clause (RC2 takes a soft clause's
    first literal as its selector). With every variable shown, the shown ones determine all (D4 may
    count it). ``weighted``: the file's literal weights come along (a weighted count)."""
    offset = vpool.top
    vpool.top = offset + formula.num_vars

    def moved(clause: tuple[int, ...]) -> list[int]:
        return [lit + offset if lit > 0 else lit - offset for lit in clause]

    weighed = formula.soft if soft else ()
    # numbered as in the file (a new pool): the file's clauses themselves, not copies (10^6 clauses: 1 s)
    clauses = formula.clauses if offset == 0 else [moved(c) for c in formula.clauses]
    return FileEncoding("cnf", pool=vpool, clauses=clauses,
                        soft=[(moved(c), w) for c, w in weighed if c],
                        cost_offset=sum(w for c, w in weighed if not c),
                        show=_moved_variables(show, offset), offset=offset, free_shown=free_shown,
                        show_determines_all=_covers(show, formula.num_vars),
                        weights={lit + offset if lit > 0 else lit - offset: weight for lit, weight in formula.weights}
                        if weighted else None)


def _covers(show: Sequence[int], num_vars: int) -> bool:
    """Whether ``show`` names every variable 1..``num_vars`` (a range needs no set of its ints)."""
    if isinstance(show, range):
        return show == range(1, num_vars + 1)
    return len(set(show)) == num_vars


def _moved_variables(show: Sequence[int], offset: int) -> Sequence[int]:
    """``show`` past ``offset``; a range stays one."""
    if isinstance(show, range):
        return range(show.start + offset, show.stop + offset)
    return [v + offset for v in show]


def unchanged_file(source: str, text: str) -> str | None:
    """The file ``text`` was read from, as an absolute path, when it holds that text as is (not stdin,
    not compressed: a solver given it reads what puzzlesat read); None otherwise."""
    if source == "-" or not text:
        return None
    path = os.path.abspath(located(source))
    try:
        unchanged = os.path.isfile(path) and os.path.getsize(path) == len(text.encode("utf-8"))
    except OSError:
        return None
    return path if unchanged else None


#: the most declared variables past the last used one that a model names (false, as CaDiCaL, kissat and
#: PicoSAT print them); past that (a header of a billion variables) a model stops at the last used one,
#: and a reading note says so
MAX_NAMED_FREE = 1 << 20


def file_model(encoding: Encoding, model: CnfModel | SmtModel, formula: Dimacs) -> tuple[int, ...]:
    """The file's literals, one per variable 1..V of its header, that a model of its
    :func:`file_encoding` gives: the variables no clause uses are false (:data:`MAX_NAMED_FREE`)."""
    assert isinstance(encoding, FileEncoding), "a formula file's own encoding"
    used = tuple(v if model.value(encoding.offset + v) else -v for v in range(1, formula.num_vars + 1))
    return used + tuple(range(-formula.num_vars - 1, -named_variables(formula) - 1, -1))


def named_variables(formula: Dimacs) -> int:
    """How many variables a model names: every declared one, within :data:`MAX_NAMED_FREE`."""
    return formula.declared if formula.free <= MAX_NAMED_FREE else formula.num_vars


def model_notes(formula: Dimacs) -> tuple[str, ...]:
    """The reading note of a header too large for its models to name every variable."""
    if named_variables(formula) == formula.declared:
        return ()
    return (f"the header declares {formula.declared:,} variables and the clauses use {formula.num_vars:,}: "
            f"models name the used ones only (all declared up to {MAX_NAMED_FREE:,} unused ones)",)


def falsified(clauses: Sequence[tuple[int, ...]], literals: tuple[int, ...]) -> list[str]:
    """Every clause the model makes false (the checker, from the file alone): over a large file's flat
    arrays at once, else clause by clause (``isdisjoint`` in C)."""
    if isinstance(clauses, FlatClauses):
        broken = clauses.falsified([lit for lit in literals if lit > 0], len(literals))
    else:
        true = set(literals)
        broken = [index for index, clause in enumerate(clauses) if true.isdisjoint(clause)]
    return [f"clause {index + 1} ({' '.join(map(str, clauses[index]))} 0) is false" for index in broken]


def require_walkable(num_vars: int, source: str) -> None:
    """Refuse a formula too large for the references' walk over every assignment."""
    if num_vars > REFERENCE_VARIABLES:
        raise NotApplicable(f"{source}: the reference tries every assignment, so at most "
                             f"{REFERENCE_VARIABLES} variables (this formula has {num_vars})")


def assigns_all(formula: Dimacs, literals: tuple[int, ...]) -> list[str]:
    """A model must give every variable the clauses use a value (the header's later ones are free)."""
    if not formula.num_vars <= len(literals) <= max(formula.declared, formula.num_vars):
        return [f"the model assigns {len(literals)} of {formula.num_vars} variables"]
    return []


class Cnf(Puzzle[CnfInstance, CnfSolution, EncoderOptions]):
    name = "cnf"
    encodings = ("cnf",)
    options_type = EncoderOptions
    solvers_independent = True
    max_input_bytes = None
    draws = False
    instance_suffix = ".cnf"
    task = Satisfy()

    def parse(self, text: str, path: str, **reading: Any) -> CnfInstance:
        return CnfInstance.read(parse_dimacs(text, path), path, text)

    def reading_notes(self, instance: CnfInstance) -> tuple[str, ...]:
        return instance.formula.warnings + instance.formula.weight_notes + model_notes(instance.formula)

    def build(self, instance: CnfInstance, kind: str, options: EncoderOptions, vpool: IDPool) -> Encoding:
        encoding = file_encoding(instance.formula, vpool, instance.shown, free_shown=instance.free_shown,
                                 weighted=instance.formula.weighted_counting is not None)
        encoding.original_file = self.original_file(instance) if encoding.offset == 0 else None
        return encoding

    def original_file(self, instance: CnfInstance) -> str | None:
        return instance.original

    def decode(self, instance: CnfInstance, encoding: Encoding, model: CnfModel | SmtModel) -> CnfSolution:
        literals = file_model(encoding, model, instance.formula)
        shown = instance.shown if instance.formula.show is not None else range(1, len(literals) + 1)
        return CnfSolution(literals, shown)

    def check(self, instance: CnfInstance, solution: CnfSolution) -> list[str]:
        return assigns_all(instance.formula, solution.literals) or falsified(instance.formula.clauses, solution.literals)

    def reference(self, instance: CnfInstance, limit: int | None,
                  options: EncoderOptions | None = None) -> list[CnfSolution]:
        """One model per distinct projection, found by trying every assignment of the header's
        variables, on the file as :mod:`.reference`'s own reader reads it (so a fault of the main
        reader shows as a disagreement)."""
        return [CnfSolution(tuple(literals), tuple(shown))
                for literals, shown in self._walked(instance, limit)[0]]

    def reference_counts(self, instance: CnfInstance, options: EncoderOptions) -> dict[str, Any]:
        """The reference's count of models, and for a weighted file the sum of their weights, as the
        reference's own reader reads the weights (:func:`.reference.model_weight`)."""
        walked, formula = self._walked(instance, None)
        counts: dict[str, Any] = {"solutions": len(walked)}
        if formula.weighted:
            counts[WEIGHTED_COUNT] = sum((reference.model_weight(formula, literals) for literals, _ in walked),
                                         start=Fraction(0))
        return counts

    @staticmethod
    def _walked(instance: CnfInstance, limit: int | None) -> tuple[list[tuple[list[int], list[int]]], Read]:
        """Every assignment that satisfies the file, one per projection (with the projection's
        variables), up to ``limit``, and the file as the reference's reader read it."""
        # refused at once on the header the main reader read (the own reader took 2.5 s to read 10^6
        # clauses only to refuse them); what the walk covers is still the own reader's count
        require_walkable(instance.formula.declared, instance.source)
        formula = reference.read(instance.text)
        shown = formula.projection if formula.projection is not None else list(range(1, formula.variables + 1))
        require_walkable(formula.variables, instance.source)
        found, seen = [], set()
        for literals in reference.assignments(formula.variables):
            true = set(literals)
            key = tuple(literals[v - 1] for v in shown)
            if key not in seen and not any(reference.falsified(clause, true) for clause in formula.hard):
                seen.add(key)
                found.append((literals, shown))
                if limit is not None and len(found) >= limit:
                    break
        return found, formula

    def picture(self, instance: CnfInstance, solution: CnfSolution) -> Picture:
        raise PuzzlesatError("cnf: a model has no picture")


PUZZLE = Cnf()
