"""The backends that come with puzzlesat, registered by name: every PySAT solver (and the short aliases
cadical, kissat, glucose, minisat), Z3, the exact counters Ganak and D4, and the ``external:BINARY`` and
``portfolio:NAME,...`` families. Adding a backend: its module, and one line here."""
from __future__ import annotations

from functools import partial

from .d4_backend import D4Backend
from .external import ExternalBackend
from .ganak_backend import GanakBackend
from .outside import ExternalCountBackend, ExternalMaxSatBackend
from .portfolio import PortfolioBackend, member_names
from .pysat_backend import PysatBackend, pysat_names
from .registry import alias, register, register_prefix, resolve
from .z3_backend import Z3Backend

#: the short names people type, for the PySAT solver each stands for
SHORT = {"cadical": "cadical195", "kissat": "kissat404", "glucose": "glucose4", "minisat": "minisat22"}


def register_builtin() -> None:
    for canonical in pysat_names():
        register(f"pysat:{canonical}", partial(PysatBackend, canonical))
        alias(canonical, f"pysat:{canonical}")  # a bare PySAT name works too: --backend glucose3
    for short, full in SHORT.items():
        alias(short, f"pysat:{full}")
    register("z3", Z3Backend)
    register("ganak", GanakBackend)
    register("d4", D4Backend)
    register_prefix("external", ExternalBackend)
    register_prefix("external-maxsat", ExternalMaxSatBackend)
    register_prefix("external-count", ExternalCountBackend)
    register_prefix("portfolio", lambda members: PortfolioBackend(members, [resolve(name) for name in member_names(members)]))
