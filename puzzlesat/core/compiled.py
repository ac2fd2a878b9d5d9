"""Plain first, compiled when it pays: how every kernel compiled by numba is used.

Importing numba and loading a cached kernel costs a process about 0.35 s, more than most jigs' whole
search or most proofs' whole check take in pure Python. So such work starts in pure Python, and only work
still running after a fraction of a second starts again compiled: the plain work thrown away is bounded
by that fraction, and short work never pays numba's start. Without numba the plain code runs to the end.

A kernel that numba's cache does not hold yet (a fresh install, a changed source) is not compiled in the
work's time: it is compiled in the background while the plain code goes on, and taken up once it loads
(:class:`~puzzlesat.processes.kernels.Kernel`; ``puzzlesat compile`` compiles every kernel ahead).
Compiling the proof checker took 95 s on a loaded machine, and a first cross-check's exact cover timed
out while it compiled.
"""
from __future__ import annotations

import importlib.util
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from .errors import PuzzlesatError

T = TypeVar("T")

#: how long plain code runs before the compiled code takes over: about numba's start-up, so that work
#: never takes much more than twice what the better of the two would have taken
PLAIN_SECONDS = 0.25
#: what starting compiled code costs a process that has not: importing numba (about 0.2 s here) and
#: loading a kernel from numba's cache (0.15 s)
COMPILED_START = 0.35
#: how often plain code that was let go on past its time is asked again
ASK_AGAIN = 0.1


#: why numba could not start in this process, once it has failed (then everything runs in Python)
_UNUSABLE: list[str] = []


class CompiledUnusable(PuzzlesatError):
    """numba is installed but cannot start here (its import fails, its cache has nowhere to go): the
    work goes on in pure Python, which gives the same answers."""


def compiled_available() -> bool:
    """Whether numba can be imported here (a required dependency, missing only where it has no wheel),
    compiles (``NUMBA_DISABLE_JIT`` makes its kernels plain Python, slower than the plain code and no
    longer compiled), and has not failed to start in this process."""
    if _UNUSABLE or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    try:
        return importlib.util.find_spec("numba") is not None
    except ValueError:  # a module set to None in sys.modules: an import of it fails
        return False


def start_compiled(build: Callable[[], T]) -> T:
    """``build()``: numba's import and a kernel's compilation or load from its cache. Where numba cannot
    start (a broken install, a cache it cannot write), :class:`CompiledUnusable`, numba marked unusable
    for the rest of the process and the reason said once on stderr, so that callers go on in Python
    (a broken numba made ``count jig`` fail, blamed on the SAT racer). Any failure counts: numba's own
    errors have no common base class."""
    try:
        return build()
    except Exception as exc:  # noqa: BLE001 (see the docstring)
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}".rstrip(": ")
        if not _UNUSABLE:
            _UNUSABLE.append(reason)
            print(f"puzzlesat: note: numba cannot start here ({reason}); going on in pure Python", file=sys.stderr)
        raise CompiledUnusable(f"numba cannot start here ({reason})") from None


class TimeIsUp(Exception):
    """The plain code's time is up: the compiled code takes over."""


@contextmanager
def interrupted_after(seconds: float | None, unless: Callable[[], bool] = lambda: False) -> Iterator[None]:
    """Raise :class:`TimeIsUp` in the code run inside, ``seconds`` from now (None: never), or later: while
    ``unless()`` says not yet (the plain code will soon be done, or the compiled code does not load yet:
    :meth:`~puzzlesat.processes.kernels.Kernel.ready_soon`), it is asked again every tenth of a second. A
    timer signal, so the plain code's loop pays nothing for it; only in the main thread, where signals
    are delivered (elsewhere, a Dask worker's thread, the plain code runs to the end). The plain code
    runs in frames of its own (a search, a checker): CPython 3.11-3.13 can look a signal's exception up
    in the wrong block when it is raised at a loop's backward jump, which skips the handlers of that
    loop's frame alone (cpython#108214, #130279; a ``for`` over the search's layouts on 3.13.0), so no
    loop may run in the ``try`` that catches :class:`TimeIsUp` (tests/test_proofs.py holds the package
    to it)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    inside = [True]

    def time_is_up(number: int, frame: object) -> None:
        if not inside[0]:  # the block is being left: nothing more to interrupt
            return
        # not while ``unless()`` runs: asking numba whether a kernel is cached imports it, which takes
        # longer than ASK_AGAIN, and the timer's next signal broke that question off (read as "not
        # cached": the kernel was compiled again in the background, announced, on every run)
        signal.setitimer(signal.ITIMER_REAL, 0)
        later = unless()
        # asked again in any case: where the signal lands in code that swallows what it raises (a
        # garbage-collector callback: the exception is "ignored"), the next tenth of a second tries again
        signal.setitimer(signal.ITIMER_REAL, ASK_AGAIN)
        if not later:
            raise TimeIsUp

    previous = signal.signal(signal.SIGALRM, time_is_up)
    try:
        # armed inside the try: a timer that fires at once (a tiny limit) must still be disarmed below,
        # or it would go on raising, every ASK_AGAIN, wherever the process is by then
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        try:
            inside[0] = False  # a signal before this raises here, and the timer still goes below
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def cache_directory() -> Path | None:
    """Where compiled kernels are kept between processes: ``$NUMBA_CACHE_DIR`` where the user set it,
    else ``puzzlesat/numba`` in this user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``;
    ``%LOCALAPPDATA%`` on Windows, ``~/Library/Caches`` on macOS), made private (0700) on first use;
    None where it cannot be made (a home that is read-only or missing): kernels are then compiled and
    kept nowhere. Never numba's own default, the ``__pycache__`` beside the source: that is inside the
    installed package, shared by all its users and read-only in many installs.

    numba keeps each kernel under the source file's path, keyed by the file's stamp and by the CPU's
    name and features, and writes every entry to a temporary file moved into place: a changed source
    or another CPU compiles afresh, and two processes compiling at once cannot leave a torn entry."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    directory = base / "puzzlesat" / "numba"
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: Path.home() where no home can be found
        return None
    return directory if os.access(directory, os.W_OK | os.X_OK) else None


def cached_in(directory: Path | None, namespace: dict[str, Any], entry: str) -> bool | None:
    """Whether numba's cache holds the entry kernel of the module ``namespace`` for its source as it is,
    asked of numba itself: the index it keeps for this source file's path, valid for this source's stamp
    (numba 0.68 stamps a source by a hash of its content). A check of modification times said no to a
    fresh clone of the same code, whose kernel numba then loaded in 0.1 s, and yes to another checkout's
    newer index. Where no index of that name exists at all, numba is not imported to say so; where numba
    cannot be imported (a memory cap too tight for it), None: no kernel can be used here. numba also
    keys an entry by CPU, which this does not read: another CPU's entry reads as cached."""
    if directory is None:
        return False
    source = Path(namespace["__file__"])
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    try:
        if not any(directory.glob(f"*/{source.stem}.{entry}-*.{tag}.nbi")):
            return False
    except OSError:
        return False
    try:
        from numba.core.caching import FunctionCache
    except Exception:  # noqa: BLE001  (numba's import fails in many ways, MemoryError among them)
        return None
    try:
        function = namespace[entry]
        with numba_cache_in(directory):
            cache = FunctionCache(getattr(function, "py_func", function))  # type: ignore[no-untyped-call]
        return bool(cache._cache_file._load_index())  # type: ignore[no-untyped-call]
    except Exception:  # noqa: BLE001  (numba's private index reader: any failure reads as not cached)
        return False


@contextmanager
def numba_cache_in(directory: Path | None) -> Iterator[bool]:
    """While kernels are declared inside, numba's cache is ``directory`` (numba picks each kernel's
    cache place when the kernel is declared); yields whether to cache at all. The process's own
    setting is restored after, so other numba code in a program that imports puzzlesat keeps its own."""
    from numba.core import config

    previous = getattr(config, "CACHE_DIR")  # set by numba at import, from the environment
    setattr(config, "CACHE_DIR", str(directory) if directory is not None else previous)
    try:
        yield directory is not None
    finally:
        setattr(config, "CACHE_DIR", previous)


def compiled_in_order(namespace: dict[str, Any], names: Sequence[str], inlined: frozenset[str] = frozenset(),
                      what: str = "", announce: bool = True) -> Any:
    """Compile a module's functions ``names`` (``namespace``: its ``globals()``) with numba, cached in
    :func:`cache_directory`, callees first: each compiled function replaces the plain one in the module, and numba finds a
    callee through the module's globals, so each is compiled calling the compiled ones before it.
    ``inlined`` ones are compiled into their callers (a call passing many arrays costs more than the
    work). A compiled call lets go of the GIL (``nogil``; the kernels touch only their arrays), so
    threads run kernels side by side. Returns the last, the entry point; numba is imported here, on first use only
    (:func:`start_compiled`: a numba that cannot start raises :class:`CompiledUnusable`). Where numba's
    cache does not hold them yet, a note names ``what`` is compiled before it is (with ``announce``: it
    took 95 s for the proof checker on a loaded machine, without a word)."""
    def build() -> Any:
        import numba

        directory = cache_directory()
        if announce and not cached_in(directory, namespace, names[-1]):
            from .reporting import say_once

            say_once(f"compiling {what or namespace['__name__']} with numba, once on this machine (up to a "
                     f"minute; kept in {directory or 'no cache: this process only'})")
        with numba_cache_in(directory) as cache:
            compiled = {name: numba.njit(cache=cache, nogil=True, inline="always" if name in inlined else "never")(
                namespace[name]) for name in names}
        namespace.update(compiled)  # only once all are built: a failure leaves the plain functions in place
        return compiled[names[-1]]
    return start_compiled(build)
