"""Pluggable solvers behind one interface; see :mod:`.base` for the registry."""
from .base import DEFAULT_BACKEND, Backend, Session, all_backends, get_backend

__all__ = ["DEFAULT_BACKEND", "Backend", "Session", "all_backends", "get_backend"]
