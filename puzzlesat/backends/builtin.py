"""The backends that come with puzzlesat, registered by name: every PySAT solver (and the short aliases
cadical, kissat, glucose, minisat), Z3, the exact counters Ganak and D4, and the ``external:BINARY`` and
``portfolio:NAME,...`` families. Adding a backend: its module, and one line here."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .base import Backend
from .registry import alias, register, register_prefix, resolve

#: the short names people type, for the PySAT solver each stands for
SHORT = {"cadical": "cadical195", "kissat": "kissat404", "glucose": "glucose4", "minisat": "minisat22"}


def _lazy(module: str, name: str, *bound: Any) -> Callable[..., Backend]:
    """A factory that imports ``module`` only when the backend is made (a command pays for the backends
    it uses: multiprocessing for a portfolio, the counters' bindings, ...)."""
    def make(*args: Any) -> Backend:
        backend: Backend = getattr(importlib.import_module(f"{__package__}.{module}"), name)(*bound, *args)
        return backend
    return make


def _portfolio(members: str) -> Backend:
    from .portfolio import PortfolioBackend, member_names

    return PortfolioBackend(members, [resolve(name) for name in member_names(members)])


def register_builtin() -> None:
    from .pysat_backend import pysat_names

    for canonical in pysat_names():
        register(f"pysat:{canonical}", _lazy("pysat_backend", "PysatBackend", canonical))
        alias(canonical, f"pysat:{canonical}")  # a bare PySAT name works too: --backend glucose3
    for short, full in SHORT.items():
        alias(short, f"pysat:{full}")
    register("z3", _lazy("z3_backend", "Z3Backend"))
    register("ganak", _lazy("ganak_backend", "GanakBackend"))
    register("d4", _lazy("d4_backend", "D4Backend"))
    register("frontier", _lazy("frontier_backend", "FrontierBackend"))
    register_prefix("external", _lazy("external", "ExternalBackend"))
    register_prefix("external-maxsat", _lazy("outside", "ExternalMaxSatBackend"))
    register_prefix("external-count", _lazy("outside", "ExternalCountBackend"))
    register_prefix("portfolio", _portfolio)
