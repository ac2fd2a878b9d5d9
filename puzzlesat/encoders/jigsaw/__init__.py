"""Jurassic Jigsaw (AoC 2020 day 20): tiles rotated and flipped into a grid, then sea monsters."""
from __future__ import annotations

from typing import Any

from ...core.encoding import Encoding
from ...core.puzzle import Puzzle
from ..tiling.backtrack import backtrack
from ..tiling.cnf import decode_tiling, encode_tiling
from ..tiling.smt import decode_tiling_smt, encode_tiling_smt
from .check import check as _check
from .grids import orient
from .instance import JigsawInstance, parse as _parse
from .solution import JigsawSolution
from .tiles import tiling_problem


class Jigsaw(Puzzle):
    name = "jigsaw"
    encodings = ("cnf", "smt")
    count_labels = ("solutions", "up_to_symmetry")

    def parse(self, text: str, path: str) -> JigsawInstance:
        return _parse(text, path)

    def encode(self, instance: JigsawInstance, kind: str, break_symmetry: bool = True, **options: Any) -> Encoding:
        if kind == "smt":
            return encode_tiling_smt(tiling_problem(instance), break_symmetry)
        return encode_tiling(tiling_problem(instance), break_symmetry, **options)

    def solution_from(self, instance: JigsawInstance, placed: list[tuple[int, int]]) -> JigsawSolution:
        return JigsawSolution(instance.rows, instance.cols,
                              tuple((instance.ids[p], o) for p, o in placed),
                              tuple(orient(instance.tiles[p], o) for p, o in placed))

    def decode(self, instance: JigsawInstance, encoding: Encoding, model) -> JigsawSolution:
        if encoding.kind == "smt":
            return self.solution_from(instance, decode_tiling_smt(tiling_problem(instance), encoding, model))
        return self.solution_from(instance, decode_tiling(instance.rows, instance.cols, encoding, model))

    def check(self, instance: JigsawInstance, solution: JigsawSolution) -> list[str]:
        return _check(instance, solution)

    def reference(self, instance: JigsawInstance, limit: int | None, break_symmetry: bool = True) -> list[JigsawSolution]:
        return [self.solution_from(instance, placed)
                for placed in backtrack(tiling_problem(instance), limit, break_symmetry)]


PUZZLE = Jigsaw()
