"""Backends by name, the built-in ones registered on first use (importing them loads PySAT, Z3 and the
counters, which a command that needs no solver does not pay for)."""
from __future__ import annotations

from functools import partial

from ..core.errors import BackendError
from ..core.plugins import BACKEND_GROUP, load, registered
from . import registry
from .base import Backend

_registered = False
_plugins_loaded = False


def _ensure_registered() -> None:
    global _registered
    if not _registered:
        _registered = True
        from .builtin import register_builtin

        register_builtin()


def _register_plugins() -> bool:
    """Register the backends other packages declare (entry points ``puzzlesat.backends``: name =
    a factory of a Backend); True when this call registered them. A built-in name is not overridden."""
    global _plugins_loaded
    if _plugins_loaded:
        return False
    _plugins_loaded = True
    for name in registered(BACKEND_GROUP):
        if name not in registry.names():
            registry.register(name, partial(_plugin_backend, name))
    return True


def _plugin_backend(name: str) -> Backend:
    factory = load(BACKEND_GROUP, name)
    backend = factory() if callable(factory) else None
    if not isinstance(backend, Backend):
        raise BackendError(f"backend '{name}': its entry point does not make a puzzlesat Backend")
    return backend


def get_backend(name: str) -> Backend:
    """The backend a name or alias stands for; unknown names fail with the list of known ones. Plug-in
    backends are looked for only when the name is not a built-in one."""
    _ensure_registered()
    try:
        return registry.resolve(name)
    except BackendError:
        if not _register_plugins():
            raise
    return registry.resolve(name)


def all_backends() -> list[Backend]:
    """Every registered named backend, plug-ins included (prefix families such as ``external:`` are
    listed separately)."""
    _ensure_registered()
    _register_plugins()
    return registry.named()


def aliases() -> dict[str, str]:
    _ensure_registered()
    return registry.aliases()


def available_backends() -> list[Backend]:
    """Every registered named backend that works on this machine (each probed once per process)."""
    return [backend for backend in all_backends() if backend.missing() is None]
