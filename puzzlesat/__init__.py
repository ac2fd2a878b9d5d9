"""puzzlesat: logic puzzles as SAT and SMT problems, solved by any backend, checked independently.

The Python interface: ``read`` an instance, ``solve`` or ``count`` it as the command line does (a
checked report), or ``encode`` it into a PySAT formula over your own ``IDPool``, solve it yourself,
``decode`` the model and ``check`` the solution:

>>> import puzzlesat
>>> instance = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
>>> report = puzzlesat.solve("aquarium", instance, backend="kissat")
>>> report.answers["unique"]  # proven by an UNSAT answer
True

Importing it imports nothing else (the functions load on first use), so that a script's and the
command line's start-up pays only for what they use.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.version import __version__

#: the Python interface (:mod:`puzzlesat.api`), imported on first use so that ``import puzzlesat``
#: (and the command line's start-up) stays light
_API = ("read", "encode", "decode", "check", "solve", "count", "explain", "crosscheck", "Report", "Explained",
        "Hinted", "CrossChecked", "PuzzlesatError", "Status", "Stop", "Solution", "Row", "Explanation", "PuzzleCNF", "PuzzleWCNF")

if TYPE_CHECKING:
    from .api import (
        CrossChecked,
        Explained,
        Explanation,
        Hinted,
        PuzzleCNF,
        PuzzlesatError,
        PuzzleWCNF,
        Report,
        Row,
        Solution,
        Status,
        Stop,
        check,
        count,
        crosscheck,
        decode,
        encode,
        explain,
        read,
        solve,
    )


def __getattr__(name: str) -> Any:
    """The Python interface's functions, loaded from :mod:`puzzlesat.api` on first use."""
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'puzzlesat' has no attribute '{name}'")


def __dir__() -> list[str]:
    """The public names only (they load on first use), so that ``dir()`` and a notebook's completion
    show what a user calls, not ``Any``, ``TYPE_CHECKING`` or the subpackages."""
    return sorted(__all__)


__all__ = ["CrossChecked", "Explained", "Explanation", "Hinted", "PuzzleCNF", "PuzzleWCNF", "PuzzlesatError", "Report", "Row",
           "Solution", "Status", "Stop", "__version__", "check", "count", "crosscheck", "decode", "encode", "explain",
           "read", "solve"]
