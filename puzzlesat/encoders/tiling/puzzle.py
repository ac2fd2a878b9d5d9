"""What jigsaw and jig share as puzzles: encoding, decoding and the reference all go through the
tiling problem; a subclass only parses, builds the problem, and turns placements into its solution."""
from __future__ import annotations

from abc import abstractmethod
from typing import Any

from ...core.encoding import Encoding
from ...core.puzzle import Puzzle
from .backtrack import backtrack
from .cnf import decode_tiling, encode_tiling
from .problem import TilingProblem
from .smt import decode_tiling_smt, encode_tiling_smt


class TilingPuzzle(Puzzle):
    encodings = ("cnf", "smt")
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

    def reference(self, instance: Any, limit: int | None, break_symmetry: bool = True) -> list[Any]:
        return [self.solution_from(instance, placed)
                for placed in backtrack(self.tiling_problem(instance), limit, break_symmetry)]
