"""Pluggable solvers behind one interface: :mod:`.base` (the interface and its capabilities),
:mod:`.registry` (the one place a name becomes a backend), :mod:`.builtin` (what comes with puzzlesat),
:mod:`.forking` (hard time limits)."""
from .base import Backend, Capability, Session
from .registry import DEFAULT_BACKEND, aliases, all_backends, available_backends, get_backend

__all__ = ["DEFAULT_BACKEND", "Backend", "Capability", "Session", "aliases", "all_backends", "available_backends",
           "get_backend"]
