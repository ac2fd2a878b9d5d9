"""Pluggable solvers behind one interface: :mod:`.base` (the interface), :mod:`.registry` (names),
:mod:`.builtin` (what is registered), :mod:`.catalog` (lookup), :mod:`.forking` (hard time limits)."""
from .base import Backend, Session
from .catalog import aliases, all_backends, available_backends, get_backend
from .registry import DEFAULT_BACKEND

__all__ = ["DEFAULT_BACKEND", "Backend", "Session", "aliases", "all_backends", "available_backends", "get_backend"]
