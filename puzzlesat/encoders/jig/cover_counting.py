"""Which exact cover counts a jig: :mod:`.exact_cover`'s Algorithm X in Python, and where numba is
installed, a search still running after a quarter second started again compiled (:mod:`.compiled_cover`,
Knuth's Algorithm C). Kept apart from both, so that neither imports the other's dispatcher: the compiled
search builds on the plain one's options, and this module on both."""
from __future__ import annotations

import os
from functools import lru_cache

from ...core.compiled import PLAIN_SECONDS, CompiledUnusable, TimeIsUp, compiled_available, interrupted_after
from .exact_cover import plain_counts
from .instance import JigInstance


def count_layouts(instance: JigInstance, up_to_rotation: bool = False) -> int:
    """Every layout (or every class of layouts under the whole-grid turns), by exact cover."""
    layouts, classes = cover_counts(instance)
    return classes if up_to_rotation else layouts


@lru_cache(maxsize=4)
def cover_counts(instance: JigInstance, workers: int | None = None, plain_seconds: float = PLAIN_SECONDS) -> tuple[int, int]:
    """(layouts, classes) by the exact cover: in Python, and where numba is installed, a search still
    running after ``plain_seconds`` (0: compiled from the start) starts again compiled
    (:mod:`.compiled_cover`, Knuth's Algorithm C) on ``workers`` cores (default: all). Both counts come
    from one search, kept for the other count's call."""
    if not compiled_available():
        return plain_counts(instance)
    if plain_seconds > 0:
        try:
            with interrupted_after(plain_seconds, unless=lambda: not _kernel_ready_soon()):
                return plain_counts(instance)
        except TimeIsUp:
            pass
    from .compiled_cover import counts

    try:
        return counts(instance, workers or os.cpu_count() or 1)
    except CompiledUnusable:  # numba cannot start here: Python to the end
        return plain_counts(instance)


def _kernel_ready_soon() -> bool:
    """Whether the compiled search loads now (:meth:`~puzzlesat.processes.kernels.Kernel.ready_soon`: until
    it does, it is compiled in the background and the plain search goes on)."""
    from .compiled_cover import KERNEL

    return KERNEL.ready_soon()
