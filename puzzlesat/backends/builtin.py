"""The backends that come with puzzlesat, as tables the registry (:mod:`.registry`) reads on first use:
every PySAT solver (and the short aliases cadical, kissat, glucose, minisat), Z3, the exact counters
Ganak, D4 and the frontier counter, and the ``external:BINARY``, ``external-maxsat:``, ``external-count:``
and ``portfolio:NAME,...`` families. Adding a backend: its module, and one line here. This module
imports no backend and not the registry: the factories import their module when a backend is made."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .base import Backend

#: the short names people type, for the PySAT solver each stands for
SHORT = {"cadical": "cadical195", "kissat": "kissat404", "glucose": "glucose4", "minisat": "minisat22"}

#: a ``prefix:ARG`` family's factory: ARG, and the registry's resolver (a portfolio names its members)
PrefixFactory = Callable[[str, Callable[[str], Backend]], Backend]


def _lazy(module: str, name: str, *bound: Any) -> Callable[..., Backend]:
    """A factory that imports ``module`` only when the backend is made (a command pays for the backends
    it uses: multiprocessing for a portfolio, the counters' bindings, ...)."""
    def make(*args: Any) -> Backend:
        backend: Backend = getattr(importlib.import_module(f"{__package__}.{module}"), name)(*bound, *args)
        return backend
    return make


def _external(kind: str) -> PrefixFactory:
    make = _lazy(*{"external": ("external", "ExternalBackend"), "external-maxsat": ("outside", "ExternalMaxSatBackend"),
                   "external-count": ("outside", "ExternalCountBackend")}[kind])
    return lambda binary, resolve: make(binary)


def _portfolio(members: str, resolve: Callable[[str], Backend]) -> Backend:
    from .portfolio import PortfolioBackend, member_names

    return PortfolioBackend(members, [resolve(name) for name in member_names(members)])


def builtin() -> tuple[dict[str, Callable[[], Backend]], dict[str, PrefixFactory], dict[str, str]]:
    """(name -> factory, prefix -> factory, alias -> name) of the backends that come with puzzlesat."""
    from .pysat_backend import pysat_names

    named: dict[str, Callable[[], Backend]] = {}
    aliases: dict[str, str] = {}
    for canonical in pysat_names():
        named[f"pysat:{canonical}"] = _lazy("pysat_backend", "PysatBackend", canonical)
        aliases[canonical] = f"pysat:{canonical}"  # a bare PySAT name works too: --backend glucose3
    for short, full in SHORT.items():
        aliases[short] = f"pysat:{full}"
    named |= {"z3": _lazy("z3_backend", "Z3Backend"), "ganak": _lazy("ganak_backend", "GanakBackend"),
              "d4": _lazy("d4_backend", "D4Backend"), "frontier": _lazy("frontier_backend", "FrontierBackend")}
    prefixes = {kind: _external(kind) for kind in ("external", "external-maxsat", "external-count")}
    prefixes["portfolio"] = _portfolio
    return named, prefixes, aliases
