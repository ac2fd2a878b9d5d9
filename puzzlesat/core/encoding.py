"""The one Encoding type that every encoder returns and every backend consumes.

It holds the formula and what any solver, counter or optimiser may read without knowing the puzzle:
the projection (``show``), weights and a fixed cost, and structural hints (independent ``parts``, a
variable ``order``, a phase hint). Data only one puzzle's own steps read back (dice's unrolled horizon
and counting queries, a formula file's variable offset) lives in that puzzle's subclass.

A CNF encoding keeps its clauses as plain lists of ints (bulk-built, no per-literal objects) and a PySAT
``IDPool`` that is the single map between puzzle meanings such as ``("water", region, row)`` and variable
ids. An SMT encoding keeps Z3 assertions and named Z3 terms. ``show`` lists what defines a solution, so
enumeration and counting never multiply solutions through auxiliary variables.
"""
from __future__ import annotations

import copyreg
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from math import prod
from typing import Any, Literal, cast

from pysat.formula import IDPool

from .model import CnfModel, SmtModel
from .options import EncoderOptions


@dataclass
class Encoding:
    """A formula plus everything needed to export it and read its models back."""

    kind: Literal["cnf", "smt"]
    #: the puzzle's name of this encoding (``unroll``, ``split``, ...) and the options it was built
    #: with; :meth:`Puzzle.encode <puzzlesat.core.puzzle.Puzzle.encode>` sets both, decoders read them
    name: str = ""
    options: EncoderOptions = field(default_factory=EncoderOptions)
    pool: IDPool | None = None
    #: lists as encoders build them, or a formula file's clauses as read (:mod:`.clauses`): read-only here
    clauses: Sequence[Sequence[int]] = field(default_factory=list)
    show: Sequence[int] = field(default_factory=list)
    #: shown variables that no clause names and no id stands for (a formula file's declared variables
    #: past its last used one): each doubles every count, so a count is multiplied by 2**free_shown
    #: (:func:`~puzzlesat.pipeline.steps.count_formula`) and an export declares them in its header,
    #: instead of a pool holding a billion of them
    free_shown: int = 0
    #: a file on disk that holds this very formula, clause for clause and numbered the same (a formula
    #: file read unchanged): an outside solver is given it rather than puzzlesat's copy, so that its
    #: reading of the file is its own (:mod:`puzzlesat.backends.external`); None: none
    original_file: str | None = None
    #: SMT only: Z3 assertions and the named terms decoders read (``show_terms`` is the projection).
    assertions: list[Any] = field(default_factory=list)
    terms: dict[Any, Any] = field(default_factory=dict)
    show_terms: list[Any] = field(default_factory=list)
    #: optimisation: weighted soft clauses (CNF; the cost of a model is the weight of those it breaks),
    #: or a Z3 integer term to minimise (SMT); ``cost_offset`` is the part of the cost no choice changes
    soft: list[tuple[list[int], int]] = field(default_factory=list)
    objective: Any = None
    cost_offset: int = 0
    #: weighted model counting: literal -> weight, both literals of each weighted shown variable (every
    #: other literal weighs 1); a count adds up its models' weights beside counting them
    #: (:mod:`~puzzlesat.core.weights`). None: an unweighted formula; empty: weighted, every weight 1
    weights: dict[int, Fraction] | None = None
    #: True when every variable is a function of the ``show`` variables, so the plain model count equals
    #: the projected count: counters without projection (d4) may count it
    show_determines_all: bool = False
    #: a search hint: decide every variable false first (PySAT ``set_phases``; other backends ignore
    #: it). In a planning unrolling nearly every variable is false in a plan (a mover stands on one of
    #: many cells, one move per step), so a false-first search starts close to one
    decide_false_first: bool = False
    #: a variable order that follows the formula's structure (dice: turn by turn), for compilers that
    #: decide the variables in one fixed order (:mod:`puzzlesat.backends.frontier`) and for cube
    #: splitting; empty: none known
    order: list[int] = field(default_factory=list)
    #: facts for the user only (encoding options, sizes), written as comments into exports; nothing
    #: reads them back
    info: dict[str, Any] = field(default_factory=dict)

    def pysat_clauses(self) -> Iterable[list[int]]:
        """The clauses as PySAT's functions are annotated to take them (lists): they take any sequence
        of ints, and a formula file's clauses are tuples made as they are read (:mod:`.clauses`)."""
        return cast("Iterable[list[int]]", self.clauses)

    @property
    def variables(self) -> IDPool:
        """The pool of a CNF encoding: the map between meanings and variable ids (SMT has none)."""
        if self.pool is None:
            raise TypeError(f"the {self.kind} encoding {self.name} has no variable pool")
        return self.pool

    @cached_property
    def num_vars(self) -> int:
        """Highest variable id used by the clauses (auxiliary variables included); read it only once
        the encoder has finished adding clauses."""
        top = self.pool.top if self.pool is not None else 0
        # max/min per clause run in C (a million clauses in about 0.1 s, not 0.5 s), over lazy filters:
        # a copy of the clause list would cost memory just where formulas are largest
        for lists in (self.clauses, [clause for clause, _ in self.soft]):
            top = max(top, max(map(max, filter(None, lists)), default=0), -min(map(min, filter(None, lists)), default=0))
        return top

    def with_units(self, literals: Sequence[int]) -> Encoding:
        """A copy with ``literals`` added as unit clauses (a cube, a counting query): no longer the
        original file's formula, so an outside solver gets it written out. The copy knows its
        :attr:`num_vars` from this one's: found again over every clause, it was 15% of a cube's count
        (0.04 s of 0.24 s at zhurgut_9x9, for each of thousands of cubes)."""
        copy = replace(self, clauses=[*self.clauses, *([lit] for lit in literals)], original_file=None)
        copy.__dict__["num_vars"] = max([self.num_vars, *(abs(lit) for lit in literals)])
        return copy

    @property
    def declared_vars(self) -> int:
        """The variables an exported file declares: :attr:`num_vars` and the :attr:`free_shown` ones."""
        return self.num_vars + self.free_shown

    def broken_weight(self, model: CnfModel) -> int:
        """The weight of the soft clauses ``model`` breaks (its cost, without ``cost_offset``)."""
        return sum(weight for clause, weight in self.soft
                   if not any(model.value(lit) if lit > 0 else not model.value(-lit) for lit in clause))

    def model_weight(self, model: CnfModel | SmtModel) -> Fraction:
        """The weight of ``model`` in a weighted count: the product of its weighted literals' weights."""
        weights = self.weights or {}
        return prod((weight for lit, weight in weights.items() if model.value(abs(lit)) == (lit > 0)),
                    start=Fraction(1))

    def size(self) -> dict[str, int]:
        """Variables and clauses (CNF) or assertions (SMT), for reports and benchmarks."""
        if self.kind == "cnf":
            size = {"variables": self.declared_vars, "clauses": len(self.clauses)}
            return size | ({"soft": len(self.soft)} if self.soft else {})
        return {"terms": len(self.terms), "assertions": len(self.assertions)}

    def projection_size(self) -> dict[str, int]:
        """A count's size entry ``shown``: the variables it is projected on, where they are fewer than
        all (its report then says "projected model count"); empty otherwise."""
        shown = len(self.show) + self.free_shown
        return {"shown": shown} if self.kind == "cnf" and shown < self.declared_vars else {}

    def names(self) -> dict[int, str]:
        """Variable id -> readable puzzle meaning, for DIMACS comments and variable maps."""
        if self.pool is None:
            return {}
        return {vid: meaning_to_str(obj) for obj, vid in self.pool.obj2id.items()}


def meaning_to_str(obj: Any) -> str:
    """Render a pool key like ``("water", 3, 7)`` as ``water(3,7)``."""
    if isinstance(obj, tuple) and obj and isinstance(obj[0], str):
        return f"{obj[0]}({','.join(str(x) for x in obj[1:])})"
    return str(obj)


def _rebuilt_pool(top: int, occupied: list[list[int]], obj2id: dict[Any, int], id2obj: dict[int, Any],
                  with_neg: bool) -> IDPool:
    pool = IDPool(occupied=occupied, **({"with_neg": True} if with_neg else {}))
    pool.top = top
    pool.obj2id.update(obj2id)
    pool.id2obj.update(id2obj)
    return pool


def _reduced_pool(pool: IDPool) -> tuple[Any, tuple[Any, ...]]:
    """PySAT's IDPool keeps a lambda (its id counter), which pickle refuses; an encoding crosses to a
    worker process or a cluster (cube and conquer) as the pool's plain maps, rebuilt there."""
    return _rebuilt_pool, (pool.top, list(pool._occupied), dict(pool.obj2id), dict(pool.id2obj),
                           bool(getattr(pool, "with_neg", False)))


copyreg.pickle(IDPool, _reduced_pool)
