"""puzzlesat: logic puzzles as SAT and SMT problems, solved by any backend, checked independently.

The package is layered (README, "Architecture"): ``core`` <- ``formats`` <- ``backends`` <- the pipeline
(``request``, ``solving``, ``optimize``, ``crosscheck``, ``bench``, ``tasks``) <- ``encoders`` <- ``cli``. Importing it imports
nothing else, so that the command line's start-up pays only for what a command uses.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: the one place the version is written (pyproject.toml reads it from here)
__version__ = "0.2.0"

#: the Python interface (:mod:`puzzlesat.api`), imported on first use so that ``import puzzlesat``
#: (and the command line's start-up) stays light
_API = ("read", "encode", "decode", "check", "solve", "count")

if TYPE_CHECKING:
    from .api import check, count, decode, encode, read, solve


def __getattr__(name: str) -> Any:
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'puzzlesat' has no attribute '{name}'")


__all__ = ["__version__", "check", "count", "decode", "encode", "read", "solve"]
