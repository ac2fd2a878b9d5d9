"""Jig: square pieces with tab types, rotated (not flipped) into a grid; every solution counted."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...core.declared import Generator, Option
from ...core.errors import CheckFailed
from ...core.puzzle import Searched
from ...core.timing import UNLIMITED, Deadline
from ..tiling.options import TilingOptions
from ..tiling.problem import TilingProblem, Variant
from ..tiling.puzzle import TilingPuzzle
from .check import check as _check
from .instance import MAX_SIDE, JigInstance
from .instance import parse as _parse
from .solution import JigSolution, rotate

if TYPE_CHECKING:
    from ...formats.picture import Picture
    from ...pipeline.executors import Executor


@lru_cache(maxsize=8)  # encode, decode and reference of one instance share it
def tiling_problem(instance: JigInstance) -> TilingProblem:
    """Keys make "fits" an equality: a left/top side keeps its value, a right/bottom side is negated,
    so +k on the right meets -k on the left. A flat side fits only a flat side: its key is 0 (which is
    its own negation), except when the pieces have exactly as many flat sides as the border has sides.
    Every border side is flat, so then each flat side is needed on the border and none can face an
    inner edge: flat sides get no key, which prunes them from the inside before any search.
    A turn that looks like an earlier one is the same variant (a layout is what a person sees)."""
    flats = sum(side == 0 for piece in instance.pieces for side in piece)
    flat = None if flats == 2 * (instance.rows + instance.cols) else 0
    oriented = []
    for piece, sides in enumerate(instance.pieces):
        for turns in range(4):
            t, r, b, l = look = rotate(sides, turns)
            keys = (t or flat, -r or flat, -b or flat, l or flat)
            oriented.append((Variant(piece, turns, keys, (t == 0, r == 0, b == 0, l == 0)), look))
    square = instance.rows == instance.cols
    turns_group = (0, 1, 2, 3) if square else (0, 2)
    symmetries = tuple(tuple((o + g) % 4 for o in range(4)) for g in turns_group)
    # a jig piece turned clockwise o times: turning the grid g times clockwise turns every piece g more
    return TilingProblem.build(instance.rows, instance.cols, len(instance.pieces), oriented, symmetries,
                               turns_group)


def _generate(seed: int, deadline: Any, rows: int, cols: int, types: int | None, flat: float) -> str:
    from .generate import default_types, generate

    return generate(rows, cols, default_types(rows, cols) if types is None else types, seed, flat)


class Jig(TilingPuzzle[JigInstance, JigSolution]):
    name = "jig"
    bundled = "instances/jig"
    kernels = ("puzzlesat.encoders.jig.compiled", "puzzlesat.encoders.jig.compiled_cover")
    generator = Generator(
        "A random jig puzzle (it has at least the solution it was cut from).",
        "Pieces cut from a random layout of tab types.\n\n\b\nExample:\n"
        "  puzzlesat generate jig --rows 6 --cols 6 --types 4 --seed 2 -o six.jig\n"
        "  puzzlesat generate jig --rows 4 --cols 7 --types 2 --flat 0.25 --seed 5 -o flat.jig",
        (Option("rows", int, "Rows of pieces.", minimum=1, maximum=MAX_SIDE, required=True),
         Option("cols", int, "Columns of pieces.", minimum=1, maximum=MAX_SIDE, required=True),
         Option("types", int, "Tab types (default: the larger of 6, the longer side and cells/20). Fewer on "
                              "a large grid make an edge-matching puzzle that is hard for every method (the "
                              "published jigs have 15-17).", minimum=1),
         Option("flat", float, "Chance that an inner edge is flat on both sides (flat sides inside make "
                               "look-alike pieces).", default=0.0, minimum=0.0, maximum=1.0, below_maximum=True)),
        _generate)
    instance_suffix = ".jig"
    count_labels = ("solutions", "up_to_rotation")
    #: a solve returns one of several layouts, so cross-checks compare counts
    crosscheck_by_count = True
    # no default_backend of its own: glucose4 was one, but it found no layout of zhurgut_10x10, 11x11,
    # 12x9 or 13x9 within 20 s (10x10: none in 14 minutes) where CaDiCaL takes 1.3-2.6 s. Counting is
    # another matter: glucose4 proves the final UNSAT of an enumeration faster (whole `count -b`
    # processes, 2026-11-27: 14x6 1.7 s against CaDiCaL's 4.2 s, 6x12 4.9 against 6.2, 12x7 9.7 against
    # 14.4, 9x9 15.8 against 29.1; no slower on the smaller ones). It races the jig's own search, and
    # counts cubes, when no backend is named.
    count_backend = "pysat:glucose4"

    def parse(self, text: str, path: str, **shape: int) -> JigInstance:
        return _parse(text, path)

    def tiling_problem(self, instance: JigInstance) -> TilingProblem:
        return tiling_problem(instance)

    def piece_ids(self, instance: JigInstance) -> tuple[int, ...]:
        return instance.ids

    def solution_from(self, instance: JigInstance, placed: list[tuple[int, int]]) -> JigSolution:
        return JigSolution(instance.rows, instance.cols,
                           tuple((instance.ids[p], o) for p, o in placed),
                           tuple(rotate(instance.pieces[p], o) for p, o in placed))

    def reference_assemblies(self, instance: JigInstance) -> Iterator[list[tuple[int, int]]]:
        from .reference import layouts
        return layouts(instance)

    def reference_class(self, instance: JigInstance, placed: list[tuple[int, int]]) -> Hashable:
        from .reference import rotation_class
        return rotation_class(instance, placed)

    def reference_counts(self, instance: JigInstance, options: TilingOptions) -> dict[str, int]:
        """Both counts from one search of the reference, compiled past a quarter second where numba is
        installed (:mod:`.counting`)."""
        from .counting import reference_counts

        counted = reference_counts(instance, keep=0)
        return dict(zip(self.count_labels, (counted.layouts, counted.classes)))

    def search_count(self, instance: JigInstance, seconds: float | None = None, executor: Executor | None = None,
                     until: Deadline = UNLIMITED) -> Searched | None:
        """Where pieces are alike, the count over the pieces left (:mod:`.memo_counting`: millions of
        layouts counted without listing them), when it ends within its memo (and, with ``seconds``, its
        share of them); else the reference's counts, each layout it counted checked (those it kept, or
        all of them again in a second pass when there were more than it keeps); with ``seconds``, the
        plain search's if it ends that soon, else None; with ``executor``, the compiled search's parts
        run there."""
        from .counting import every_layout, quick_counts, reference_counts
        from .memo_counting import MAX_STATES, METHOD, STATES_A_SECOND, has_alike_pieces, memo_counts

        if has_alike_pieces(instance) and executor is None:
            memoised = memo_counts(instance, MAX_STATES if seconds is None else int(seconds * STATES_A_SECOND))
            if memoised is not None:
                return Searched(dict(zip(self.count_labels, memoised)), METHOD, checked=False)
        counted = reference_counts(instance, executor=executor, until=until) if seconds is None else \
            quick_counts(instance, seconds)
        if counted is None:
            return None
        checked = 0
        for placed in counted.found if counted.complete else every_layout(instance):
            problems = self.check(instance, self.solution_from(instance, placed))
            if problems:
                raise CheckFailed(f"the {counted.method} counted a layout that breaks the rules: {problems[0]}")
            checked += 1
        if checked != counted.layouts:
            raise CheckFailed(f"the {counted.method} counted {counted.layouts} layouts but listed {checked}")
        return Searched(dict(zip(self.count_labels, (counted.layouts, counted.classes))), counted.method)

    def search_solution(self, instance: JigInstance, seconds: float | None = None) -> tuple[JigSolution | None, str] | None:
        """The reference search's first layout, checked (:func:`.counting.first_layout`)."""
        from .counting import first_layout

        found = first_layout(instance, seconds)
        if found is None:
            return None
        placed, method = found
        if placed is None:
            return None, method
        solution = self.solution_from(instance, placed)
        problems = self.check(instance, solution)
        if problems:
            raise CheckFailed(f"the {method} found a layout that breaks the rules: {problems[0]}")
        return solution, method

    def other_counts(self) -> dict[str, Callable[[JigInstance, TilingOptions], int]]:
        """JigChecker's exact cover (Algorithm X with coloured edges): a second count from the rules."""
        from .cover_counting import count_layouts
        from .memo_counting import METHOD, count_over_pieces_left

        return {"exact cover (Algorithm X)":
                lambda instance, options: count_layouts(instance, bool(options.break_symmetry)),
                METHOD: lambda instance, options: count_over_pieces_left(instance, bool(options.break_symmetry))}

    def check(self, instance: JigInstance, solution: JigSolution) -> list[str]:
        return _check(instance, solution)

    def layout_picture(self, instance: JigInstance, solution: JigSolution) -> Picture:
        from .picture import picture
        return picture(solution)


PUZZLE = Jig()
