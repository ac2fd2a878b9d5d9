"""What jigsaw and jig share as puzzles: encoding and decoding go through the tiling problem; a
subclass parses, builds the problem, turns placements into its solution, and brings its own reference
search written from the rules (which shares nothing with the tiling problem)."""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ...core.declared import Option
from ...core.encoding import Encoding
from ...core.model import CnfModel, SmtModel
from ...core.puzzle import Puzzle, Solution
from ...pipeline.tasks import Satisfy
from .cnf import decode_tiling, encode_tiling, tiling_facts
from .forced import TilingForced, forced_placements
from .options import TilingOptions
from .problem import TilingProblem
from .smt import decode_tiling_smt, encode_tiling_smt

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pysat.formula import IDPool

    from ...deduction import Facts
    from ...formats.picture import Picture

TilingInstanceT = TypeVar("TilingInstanceT")
TilingSolutionT = TypeVar("TilingSolutionT", bound=Solution)


class TilingPuzzle(Puzzle[TilingInstanceT, TilingSolutionT, TilingOptions]):
    encodings = ("cnf", "smt")
    options_type = TilingOptions
    #: ``solve`` keeps one layout per symmetry class; what it says (unique, forced) is up to those symmetries
    task = Satisfy(solving={"break_symmetry": True}, up_to="the grid's symmetries")
    #: both encodings place pieces over the same pruned, anchored domains with the same symmetry breaking
    shared_steps: ClassVar[dict[str, str]] = {"cnf": "pruned", "smt": "pruned"}
    #: names of the two counts: every solution, and one per symmetry class of the whole grid
    count_labels: tuple[str, str]
    #: an export holds every solution (so a model counter gives the full count) unless asked for one per class
    formula_options = (Option("break_symmetry", bool, "One solution per symmetry class of the grid (default: "
                                                      "every solution, so a model counter gives the full count).",
                              default=False),)

    def count_variants(self, options: TilingOptions) -> tuple[tuple[str, TilingOptions], ...]:
        total, classes = self.count_labels
        return ((total, replace(options, break_symmetry=False)), (classes, replace(options, break_symmetry=True)))

    def lower_bounds(self, instance: TilingInstanceT, found: dict[str, int]) -> dict[str, int]:
        """Two enumerations stopped at one deadline have each found some, and either may be ahead (one
        jig: 583 solutions and 602 classes). Each class found is a layout that passed the checker, and
        no two are the same layout (no two classes share one), so there are at least as many solutions
        as classes found. A class holds at most one layout per symmetry of the grid, so the solutions
        found lie in at least that many classes (their number over the group's size, rounded up)."""
        total, classes = self.count_labels
        if total not in found or classes not in found:
            return found
        group = len(self.tiling_problem(instance).grid_symmetries)
        return found | {total: max(found[total], found[classes]), classes: max(found[classes], -(-found[total] // group))}

    @abstractmethod
    def tiling_problem(self, instance: TilingInstanceT) -> TilingProblem: ...

    @abstractmethod
    def piece_ids(self, instance: TilingInstanceT) -> Sequence[int]:
        """Each piece's id as the input names it, by piece index."""

    @abstractmethod
    def solution_from(self, instance: TilingInstanceT, placed: list[tuple[int, int]]) -> TilingSolutionT:
        """The solution for (piece index, orientation) per cell, row-major."""

    def read_marks(self, instance: TilingInstanceT, text: str, path: str) -> dict[Any, bool]:
        """A grid of ``ID/ORIENTATION`` tokens (the piece placed in the cell, turned as the solution
        lists it) and ``?``; each mark is the placement (row, col, id, orientation), the orientation the
        first of those that look alike (as the facts name placements)."""
        from ...formats.marks import read_placement_marks

        problem = self.tiling_problem(instance)
        ids = list(self.piece_ids(instance))
        orientations = 1 + max((orientation for _, orientation in problem.variant_index), default=-1)

        def placed(piece_id: int, orientation: int) -> tuple[int, int] | str:
            if piece_id not in ids:
                return f"{piece_id} is not a piece of this puzzle"
            index = problem.variant_index.get((ids.index(piece_id), orientation))
            if index is None:
                return f"orientations go from 0 to {orientations - 1}"
            variant = problem.variants[index]
            return piece_id, variant.orientation

        marks = read_placement_marks(text, path, problem.rows, problem.cols, placed)
        return {(r, c, piece_id, orientation): True for (r, c), (piece_id, orientation) in marks.items()}

    def hint_options(self, options: TilingOptions) -> TilingOptions:
        """Every layout (no symmetry broken): a right mark of a turned layout is right."""
        return replace(options, break_symmetry=False)

    def hint_facts(self, instance: TilingInstanceT, options: TilingOptions, marks: Mapping[Any, bool]) -> Facts:
        """The facts of :meth:`hint_options`, with each marked placement kept where the pruning removed it,
        so that facts refute it (:func:`.cnf.tiling_facts`); a solution's placements are never removed, so
        where the marks are a solution the facts are numbered as the ``cnf`` encoding."""
        from pysat.formula import IDPool

        problem = self.tiling_problem(instance)
        ids = list(self.piece_ids(instance))
        marked = [(r * problem.cols + c, problem.variant_index[ids.index(piece_id), orientation])
                  for (r, c, piece_id, orientation) in marks]
        return tiling_facts(problem, bool(options.break_symmetry), options.cardinality, IDPool(), ids, marked)

    def forced(self, instance: TilingInstanceT, encoding: Encoding, fixed: Mapping[int, bool]) -> TilingForced:
        """The placements every layout that ``solve`` keeps shares (:mod:`.forced`)."""
        problem = self.tiling_problem(instance)
        return forced_placements(problem.rows, problem.cols, encoding, fixed, self.piece_ids(instance))

    def picture(self, instance: TilingInstanceT, solution: TilingSolutionT | TilingForced) -> Picture:
        if isinstance(solution, TilingForced):
            return solution.picture()
        return self.layout_picture(instance, solution)

    @abstractmethod
    def layout_picture(self, instance: TilingInstanceT, solution: TilingSolutionT) -> Picture:
        """A layout drawn for ``--png``/``--svg``."""

    def build(self, instance: TilingInstanceT, kind: str, options: TilingOptions, vpool: IDPool) -> Encoding:
        if kind == "smt":
            return encode_tiling_smt(self.tiling_problem(instance), bool(options.break_symmetry))
        return encode_tiling(self.tiling_problem(instance), bool(options.break_symmetry), options.cardinality, vpool)

    def facts(self, instance: TilingInstanceT, options: TilingOptions) -> Facts:
        from pysat.formula import IDPool

        return tiling_facts(self.tiling_problem(instance), bool(options.break_symmetry), options.cardinality,
                            IDPool(), self.piece_ids(instance))

    def decode(self, instance: TilingInstanceT, encoding: Encoding, model: CnfModel | SmtModel) -> TilingSolutionT:
        problem = self.tiling_problem(instance)
        if isinstance(model, SmtModel):
            return self.solution_from(instance, decode_tiling_smt(problem, encoding, model))
        return self.solution_from(instance, decode_tiling(problem.rows, problem.cols, encoding, model))

    @abstractmethod
    def reference_assemblies(self, instance: TilingInstanceT) -> Iterator[list[tuple[int, int]]]:
        """Every solution as (piece index, orientation) per cell, found from the rules alone."""

    @abstractmethod
    def reference_class(self, instance: TilingInstanceT, placed: list[tuple[int, int]]) -> Hashable:
        """A key equal for exactly the solutions that one whole-grid symmetry maps onto another."""

    def reference(self, instance: TilingInstanceT, limit: int | None,
                  options: TilingOptions | None = None) -> list[TilingSolutionT]:
        """Up to ``limit`` solutions of the reference search (all when None); with ``break_symmetry``,
        the first one found of each symmetry class."""
        break_symmetry = bool((options or TilingOptions()).break_symmetry)
        found: list[TilingSolutionT] = []
        classes: set[Hashable] = set()
        for placed in self.reference_assemblies(instance):
            if break_symmetry:
                key = self.reference_class(instance, placed)
                if key in classes:
                    continue
                classes.add(key)
            found.append(self.solution_from(instance, placed))
            if limit is not None and len(found) >= limit:
                break
        return found
