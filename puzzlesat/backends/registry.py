"""The backend registry: names, aliases and ``prefix:ARG`` families, and how a name resolves.

It holds tables only and imports no backend: :mod:`.builtin` fills them, and :mod:`.catalog` (what
``puzzlesat.backends`` exports) makes sure it has before resolving a name, so the import graph has no
cycle.
"""
from __future__ import annotations

from collections.abc import Callable

from ..core.errors import BackendError
from .base import Backend, capabilities_of

#: the backend of every command that names none (puzzles may prefer their measured fastest)
DEFAULT_BACKEND = "pysat:cadical195"

_FACTORIES: dict[str, Callable[[], Backend]] = {}
_PREFIXES: dict[str, Callable[[str], Backend]] = {}
_ALIASES: dict[str, str] = {}


def register(name: str, factory: Callable[[], Backend]) -> None:
    _FACTORIES[name] = factory


def names() -> set[str]:
    """The registered names (not aliases or prefix families)."""
    return set(_FACTORIES)


def register_prefix(prefix: str, factory: Callable[[str], Backend]) -> None:
    """Names ``prefix:ARG`` build a backend from ARG (e.g. ``external:cadical``)."""
    _PREFIXES[prefix] = factory


def alias(short: str, full: str) -> None:
    _ALIASES[short] = full


def resolve(name: str) -> Backend:
    """Resolve a backend name or alias; unknown names fail with the list of known ones."""
    full = _ALIASES.get(name, name)
    if full in _FACTORIES:
        return _checked(_FACTORIES[full]())
    prefix, _, arg = full.partition(":")
    if arg and prefix in _PREFIXES:
        return _checked(_PREFIXES[prefix](arg))
    known = ", ".join(sorted(_FACTORIES) + [f"{p}:NAME" for p in _PREFIXES])
    raise BackendError(f"unknown backend '{name}' (known: {known}; aliases: {', '.join(sorted(_ALIASES))})")


def named() -> list[Backend]:
    """Every registered named backend (prefix families such as ``external:`` are listed separately)."""
    return [_checked(factory()) for factory in _FACTORIES.values()]


def _checked(backend: Backend) -> Backend:
    """The backend with its capabilities as :class:`Capability` members (checked: an unknown name is
    refused in one line), so every lookup hands out checked capabilities."""
    backend.capabilities = capabilities_of(backend)
    return backend


def aliases() -> dict[str, str]:
    return dict(_ALIASES)
