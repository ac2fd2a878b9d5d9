"""Jurassic Jigsaw (AoC 2020 day 20): tiles rotated and flipped into a grid, then sea monsters."""
from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any

from ...core.declared import Generator, Option
from ...pipeline.tasks import Satisfy
from ..tiling.problem import TilingProblem
from ..tiling.puzzle import TilingPuzzle
from .check import check as _check
from .grids import orient
from .instance import JigsawInstance
from .instance import parse as _parse
from .solution import JigsawSolution
from .tiles import tiling_problem

if TYPE_CHECKING:
    from ...formats.picture import Picture


def _generate(size: int, tile: int, ambiguity: int, seed: int, deadline: Any) -> str:
    from .generate import generate

    return generate(size, tile, ambiguity, seed, deadline)


class Jigsaw(TilingPuzzle[JigsawInstance, JigsawSolution]):
    name = "jigsaw"
    #: one assembly up to the 8 symmetries of the grid is proven (the second search runs on the formula
    #: that breaks them), and part 1 and part 2 assume it: a second one is a warning
    task = Satisfy(unique=True, solving={"break_symmetry": True}, up_to="the grid's symmetries", assumed=True)
    count_labels = ("solutions", "up_to_symmetry")

    reading_options = (
        Option("rows", int, "Grid rows, for inputs that do not say (a rectangular jigsaw; a square tile count is "
                            "read as a square).", minimum=1),
        Option("cols", int, "Grid columns, for inputs that do not say (a rectangular jigsaw).", minimum=1))
    bundled = "instances/aoc/2020-20"
    generator = Generator(
        "A Jurassic Jigsaw input whose assembly is unique up to symmetry (proven by the solver).",
        "A picture with sea monsters, cut into tiles; kept only if the solver proves the assembly unique up "
        "to the grid's symmetries.\n\n\b\nExample:\n  puzzlesat generate jigsaw --size 12 --ambiguity 20 --seed 1 -o tiles.txt",
        (Option("size", int, "Tiles per side (N x N tiles).", minimum=1, maximum=60, required=True),
         Option("tile", int, "Tile side in cells.", default=10, minimum=3, maximum=30),
         Option("ambiguity", int, "Edges that copy another edge's border (false leads for greedy matching).",
                default=0, minimum=0)),
        lambda seed, deadline, size, tile, ambiguity: _generate(size, tile, ambiguity, seed, deadline))

    def parse(self, text: str, path: str, **shape: int) -> JigsawInstance:
        return _parse(text, path, shape.get("rows"), shape.get("cols"))

    def tiling_problem(self, instance: JigsawInstance) -> TilingProblem:
        return tiling_problem(instance)

    def piece_ids(self, instance: JigsawInstance) -> tuple[int, ...]:
        return instance.ids

    def solution_from(self, instance: JigsawInstance, placed: list[tuple[int, int]]) -> JigsawSolution:
        return JigsawSolution(instance.rows, instance.cols,
                              tuple((instance.ids[p], o) for p, o in placed),
                              tuple(orient(instance.tiles[p], o) for p, o in placed))

    def reference_assemblies(self, instance: JigsawInstance) -> Iterator[list[tuple[int, int]]]:
        from .reference import assemblies
        return assemblies(instance)

    def reference_class(self, instance: JigsawInstance, placed: list[tuple[int, int]]) -> Hashable:
        from .reference import symmetry_class
        return symmetry_class(instance, placed)

    def check(self, instance: JigsawInstance, solution: JigsawSolution) -> list[str]:
        return _check(instance, solution)

    def layout_picture(self, instance: JigsawInstance, solution: JigsawSolution) -> Picture:
        """The assembled image with its tile grid and the sea monsters (one cell per pixel), each tile's
        id and orientation on its top border, and a legend of the colours below."""
        from ...formats.picture import WHITE, from_pixels
        from .solution import BORDER_COLOUR, CALM_COLOUR, MONSTER_COLOUR, ROUGH_COLOUR

        picture = from_pixels(solution.pixels())
        size = len(solution.tiles[0])
        for index, (tile, orientation) in enumerate(solution.placement):
            row, col = divmod(index, solution.cols)
            x, y = float(col * (size + 1)), float(row * (size + 1))
            picture.rect(x + 1, y, size - 2, 1, WHITE)
            picture.label(x + size / 2, y + 0.5, f"{tile}/{orientation}", 0.9)
        monsters = len(solution.monsters[2]) // 15  # a sea monster is 15 cells
        # in proportion to the picture, so that it reads as well under a 12 x 12 assembly
        picture.legend([(MONSTER_COLOUR, f"sea monster ({monsters})"), (ROUGH_COLOUR, "rough water #"),
                        (CALM_COLOUR, "calm water ."), (BORDER_COLOUR, "tile border (dropped)"),
                        (None, "tiles: id/orientation")], max(1.0, picture.width / 36))
        return picture


PUZZLE = Jigsaw()
