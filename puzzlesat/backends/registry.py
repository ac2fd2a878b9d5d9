"""The backend registry, the one place a name becomes a backend: names, aliases and ``prefix:ARG``
families, the built-in ones (:mod:`.builtin`, read on first use: importing them loads PySAT, Z3 and the
counters, which a command that needs no solver does not pay for), plug-ins (entry points, read only for
a name that is not built in), and the check of every backend's capabilities (:class:`.base.Capability`).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..core.errors import BackendError, did_you_mean
from ..core.plugins import BACKEND_GROUP, load, registered
from .base import Backend, capabilities_of
from .builtin import PrefixFactory, builtin

#: the backend of every command that names none (puzzles may prefer their measured fastest)
DEFAULT_BACKEND = "pysat:cadical195"

_FACTORIES: dict[str, Callable[[], Backend]] = {}
_PREFIXES: dict[str, PrefixFactory] = {}
_ALIASES: dict[str, str] = {}
_loaded = {"builtin": False, "plugins": False}


def _ensure_builtin() -> None:
    if not _loaded["builtin"]:
        _loaded["builtin"] = True
        named, prefixes, aliases = builtin()
        for name, factory in named.items():
            _FACTORIES.setdefault(name, factory)  # a test's double registered first stays
        _PREFIXES.update(prefixes)
        _ALIASES.update(aliases)


def _register_plugins() -> bool:
    """Register the backends other packages declare (entry points ``puzzlesat.backends``: name = a
    factory of a Backend); True when this call registered them. A built-in name is not overridden."""
    if _loaded["plugins"]:
        return False
    _loaded["plugins"] = True
    for name in registered(BACKEND_GROUP):
        if name not in _FACTORIES:
            _FACTORIES[name] = partial(_plugin_backend, name)
    return True


def _plugin_backend(name: str) -> Backend:
    factory = load(BACKEND_GROUP, name)
    backend = factory() if callable(factory) else None
    if not isinstance(backend, Backend):
        raise BackendError(f"backend '{name}': its entry point does not make a puzzlesat Backend")
    return backend


def _resolve(name: str) -> Backend:
    full = _ALIASES.get(name, name)
    if full in _FACTORIES:
        return _checked(_FACTORIES[full]())
    prefix, _, arg = full.partition(":")
    if arg and prefix in _PREFIXES:
        return _checked(_PREFIXES[prefix](arg, get_backend))
    known = ", ".join(sorted(_FACTORIES) + [f"{p}:NAME" for p in _PREFIXES])
    raise BackendError(f"unknown backend '{name}'.{did_you_mean(name, [*_FACTORIES, *_ALIASES])} (known: {known}; "
                       f"aliases: {', '.join(sorted(_ALIASES))})")


def _checked(backend: Backend) -> Backend:
    """The backend with its capabilities as :class:`Capability` members (checked: an unknown name is
    refused in one line), so every lookup hands out checked capabilities."""
    backend.capabilities = capabilities_of(backend)
    return backend


def get_backend(name: str) -> Backend:
    """The backend a name or alias stands for; unknown names fail with the list of known ones. Plug-in
    backends are looked for only when the name is not a built-in one."""
    _ensure_builtin()
    try:
        return _resolve(name)
    except BackendError:
        if not _register_plugins():
            raise
    return _resolve(name)


def all_backends() -> list[Backend]:
    """Every registered named backend, plug-ins included (prefix families such as ``external:`` are
    listed separately)."""
    _ensure_builtin()
    _register_plugins()
    return [_checked(factory()) for factory in _FACTORIES.values()]


def available_backends() -> list[Backend]:
    """Every registered named backend that works on this machine (each probed once per process)."""
    return [backend for backend in all_backends() if backend.missing() is None]


def aliases() -> dict[str, str]:
    _ensure_builtin()
    return dict(_ALIASES)
