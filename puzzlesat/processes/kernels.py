"""Numba kernels as the toolkit declares them: what each is, how it is warmed, and compiled in the
background at first need (:class:`Kernel`), on top of :mod:`puzzlesat.core.compiled`'s building blocks.

A kernel lives here, a layer above the core, because compiling one in the background forks a child
(:class:`~puzzlesat.processes.runner.Background`).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.compiled import cache_directory, cached_in, compiled_available, compiled_in_order
from .runner import Background


class Kernel:
    """One module's numba kernel: its functions ``names`` compiled in order (:func:`compiled_in_order`),
    what it is for the user (``what``: "the proof checker"), and ``warm``, a call of the module's own
    code on a tiny input that compiles the kernel for the argument types real work passes (numba compiles
    a kernel at its first call, for the types of that call, and caches it).

    The first run is the same run (issue 70): a kernel is compiled in the work's time only where nothing
    else can be done (no cache to keep it in, or asked for it: :meth:`entry` called directly). Plain work
    that would go compiled (:func:`interrupted_after` with :meth:`ready_soon`) goes compiled only once
    the kernel loads from the cache, in :data:`COMPILED_START`; until then a forked child compiles it in
    the background (announced once) and the plain code goes on, so that a compilation of a minute never
    makes a method time out nor delays an answer the plain code gives sooner. Both codes give the same
    answers (the tests hold each compiled kernel to its plain twin), so which one answers changes the
    time only. ``puzzlesat compile`` compiles every kernel ahead (:meth:`compile`)."""

    def __init__(self, namespace: dict[str, Any], names: Sequence[str], what: str, warm: Callable[[], object],
                 inlined: frozenset[str] = frozenset()) -> None:
        self.namespace, self.names, self.what, self.warm, self.inlined = namespace, tuple(names), what, warm, inlined
        self._entry: Any = None
        #: the child compiling it in the background (a :class:`~puzzlesat.processes.runner.Background`),
        #: or None; whether its compilation was announced (inherited by that child: said once)
        self._compiling: Background | None = None
        self._announced = False

    def entry(self) -> Any:
        """The compiled entry point, built on first use (compiled at its first call where numba's cache
        does not hold it: announced), or :class:`CompiledUnusable`."""
        if self._entry is None:
            self._entry = compiled_in_order(self.namespace, self.names, self.inlined, self.what,
                                            announce=not self._announced)
        return self._entry

    def in_process(self) -> bool:
        """Whether this process has the kernel compiled (or loaded from the cache) already."""
        return self._entry is not None and bool(getattr(self._entry, "signatures", None))

    def cached(self) -> bool:
        """Whether the kernel loads without compiling: compiled in this process, or in numba's cache for
        its source as it is."""
        return self.in_process() or cached_in(cache_directory(), self.namespace, self.names[-1]) is True

    def ready_soon(self) -> bool:
        """Whether plain work should give way to the kernel now: it is cached (:meth:`cached`), or it
        cannot be compiled in the background (no cache directory to hand it over through: it is then
        compiled in this process, announced, as before). Otherwise a background compilation is started
        (once per process, announced: "this run goes on in pure Python meanwhile") and False is the
        answer until it has written the cache; a compilation that failed leaves the plain code to the
        end."""
        if self.in_process():
            return True
        directory = cache_directory()
        if directory is None or not compiled_available():
            return True  # nothing to wait for: the caller's compiled attempt compiles here, or finds numba unusable
        cached = cached_in(directory, self.namespace, self.names[-1])
        if cached is not False:
            # cached: load it; None: numba cannot be imported here (a tight memory cap), so no kernel can
            # be, here or in a child: the plain code goes on to the end, nothing announced
            return cached is True
        if self._compiling is None:
            from ..core.reporting import say_once

            say_once(f"compiling {self.what} with numba in the background, once on this machine (up to a minute; "
                     f"kept in {cache_directory()}); this run goes on in pure Python meanwhile ('puzzlesat compile' "
                     "compiles ahead)")
            self._announced = True  # the child inherits it: it says nothing more
            self._compiling = Background(self.warm)
            return False
        # ended well: the cache holds it now; failed: the plain code to the end (the next run tries again)
        return self._compiling.ended() == 0 and self.cached()

    def compile(self) -> bool:
        """Compile the kernel now, in this process, for real work's argument types (``warm``); True when it
        was compiled, False when it was already cached. :class:`CompiledUnusable` where numba cannot
        start."""
        was_cached = self.cached()
        self._announced = True  # the caller says what it does
        self.warm()
        return not was_cached
