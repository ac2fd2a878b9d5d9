"""What jigsaw and jig share as puzzles: encoding and decoding go through the tiling problem; a
subclass parses, builds the problem, turns placements into its solution, and brings its own reference
search written from the rules (which shares nothing with the tiling problem)."""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Iterator
from typing import Any, ClassVar

from ...core.encoding import Encoding
from ...core.puzzle import Puzzle
from .cnf import decode_tiling, encode_tiling
from .problem import TilingProblem
from .smt import decode_tiling_smt, encode_tiling_smt


class TilingPuzzle(Puzzle):
    encodings = ("cnf", "smt")
    #: both encodings place pieces over the same pruned, anchored domains with the same symmetry breaking
    shared_steps: ClassVar[dict[str, str]] = {"cnf": "pruned", "smt": "pruned"}
    #: names of the two counts: every solution, and one per symmetry class of the whole grid
    count_labels: tuple[str, str]

    def count_variants(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        total, classes = self.count_labels
        return ((total, {"break_symmetry": False}), (classes, {"break_symmetry": True}))

    @abstractmethod
    def tiling_problem(self, instance: Any) -> TilingProblem: ...

    @abstractmethod
    def solution_from(self, instance: Any, placed: list[tuple[int, int]]) -> Any:
        """The solution for (piece index, orientation) per cell, row-major."""

    def encode(self, instance: Any, kind: str, break_symmetry: bool = True, **options: Any) -> Encoding:
        """``break_symmetry`` fixes piece 0 to one orientation per orbit of the grid's symmetries: on for
        ``solve``, off when counting every solution."""
        if kind == "smt":
            return encode_tiling_smt(self.tiling_problem(instance), break_symmetry)
        return encode_tiling(self.tiling_problem(instance), break_symmetry, **options)

    def decode(self, instance: Any, encoding: Encoding, model) -> Any:
        if encoding.kind == "smt":
            return self.solution_from(instance, decode_tiling_smt(self.tiling_problem(instance), encoding, model))
        return self.solution_from(instance, decode_tiling(instance.rows, instance.cols, encoding, model))

    @abstractmethod
    def reference_assemblies(self, instance: Any) -> Iterator[list[tuple[int, int]]]:
        """Every solution as (piece index, orientation) per cell, found from the rules alone."""

    @abstractmethod
    def reference_class(self, instance: Any, placed: list[tuple[int, int]]) -> Hashable:
        """A key equal for exactly the solutions that one whole-grid symmetry maps onto another."""

    def reference(self, instance: Any, limit: int | None, break_symmetry: bool = True) -> list[Any]:
        """Up to ``limit`` solutions of the reference search (all when None); with ``break_symmetry``,
        the first one found of each symmetry class."""
        found, classes = [], set()
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
