"""Backends by name, the built-in ones registered on first use (importing them loads PySAT, Z3 and the
counters, which a command that needs no solver does not pay for)."""
from __future__ import annotations

from . import registry
from .base import Backend

_registered = False


def _ensure_registered() -> None:
    global _registered
    if not _registered:
        _registered = True
        from .builtin import register_builtin

        register_builtin()


def get_backend(name: str) -> Backend:
    """The backend a name or alias stands for; unknown names fail with the list of known ones."""
    _ensure_registered()
    return registry.resolve(name)


def all_backends() -> list[Backend]:
    """Every registered named backend (prefix families such as ``external:`` are listed separately)."""
    _ensure_registered()
    return registry.named()


def aliases() -> dict[str, str]:
    _ensure_registered()
    return registry.aliases()
