"""What jigsaw and jig share as puzzles: encoding and decoding go through the tiling problem; a
subclass parses, builds the problem, turns placements into its solution, and brings its own reference
search written from the rules (which shares nothing with the tiling problem)."""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Iterator
from typing import Any, ClassVar, TypeVar

from ...core.encoding import Encoding
from ...core.model import CnfModel, SmtModel
from ...core.puzzle import Puzzle, Solution
from ...tasks import Satisfy
from .cnf import decode_tiling, encode_tiling
from .problem import TilingProblem
from .smt import decode_tiling_smt, encode_tiling_smt

TilingInstanceT = TypeVar("TilingInstanceT")
TilingSolutionT = TypeVar("TilingSolutionT", bound=Solution)


class TilingPuzzle(Puzzle[TilingInstanceT, TilingSolutionT]):
    encodings = ("cnf", "smt")
    task = Satisfy()
    #: both encodings place pieces over the same pruned, anchored domains with the same symmetry breaking
    shared_steps: ClassVar[dict[str, str]] = {"cnf": "pruned", "smt": "pruned"}
    #: names of the two counts: every solution, and one per symmetry class of the whole grid
    count_labels: tuple[str, str]

    def count_variants(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        total, classes = self.count_labels
        return ((total, {"break_symmetry": False}), (classes, {"break_symmetry": True}))

    @abstractmethod
    def tiling_problem(self, instance: TilingInstanceT) -> TilingProblem: ...

    @abstractmethod
    def solution_from(self, instance: TilingInstanceT, placed: list[tuple[int, int]]) -> TilingSolutionT:
        """The solution for (piece index, orientation) per cell, row-major."""

    def encode(self, instance: TilingInstanceT, kind: str, break_symmetry: bool = True, **options: Any) -> Encoding:
        """``break_symmetry`` fixes piece 0 to one orientation per orbit of the grid's symmetries: on for
        ``solve``, off when counting every solution."""
        if kind == "smt":
            return encode_tiling_smt(self.tiling_problem(instance), break_symmetry)
        return encode_tiling(self.tiling_problem(instance), break_symmetry, **options)

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

    def reference(self, instance: TilingInstanceT, limit: int | None, break_symmetry: bool = True,
                  **options: Any) -> list[TilingSolutionT]:
        """Up to ``limit`` solutions of the reference search (all when None); with ``break_symmetry``,
        the first one found of each symmetry class."""
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
