"""Child processes that cannot outlive their parent.

Every process the toolkit starts (forked solver calls, portfolio members, bench runs, external solver
binaries) calls :func:`die_with_parent` first. Killing a process group reaches every descendant only
while they stay in it, and bench runs make groups of their own; the kernel's parent-death signal holds
across groups, so a killed command takes its whole tree with it, level by level.

A child forked from a process with other threads (a Dask worker, whose event loop unpickles the next
tasks, importing their modules, while a task forks) first calls :func:`forget_other_threads_imports`:
an import another thread was in the middle of would otherwise hold its module's lock in the child for
ever, and the child's own import of that module would wait for a thread that no longer exists. For
the same reason the fork itself waits, in :func:`no_compilation_elsewhere`, while another thread
compiles with numba.
"""
from __future__ import annotations

import os
import signal
import sys
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import Any

_PR_SET_PDEATHSIG = 1


def no_compilation_elsewhere() -> AbstractContextManager[object]:
    """Hold numba's compiler lock (where numba is loaded) for a fork: while another thread compiles or
    loads a kernel from the cache, the fork waits for it. Forked while that thread held the lock, the
    child would have it held for ever by a thread it does not have, and its first kernel not yet loaded
    would wait there until the child is killed (a Dask worker with several threads: one task loads its
    kernels while another forks its kept child). Held by the forking thread, the lock is the child's
    own: the child's single thread takes it again as often as it compiles. Where numba is not loaded,
    nothing is held and nothing is imported."""
    lock = getattr(sys.modules.get("numba.core.compiler_lock"), "global_compiler_lock", None)
    return nullcontext() if lock is None else lock


def forget_other_threads_imports() -> None:
    """In a child just forked: drop the module locks held by threads that did not survive the fork, and
    the half-imported modules they were making, so that this process imports those modules afresh.

    Only the forking thread lives on in a forked child, but Python's per-module import locks (unlike its
    global one) are copied as they were: one that another thread held is held for ever, and importing
    that module blocks the child until it is killed. It happened on a Dask worker: its event loop was
    unpickling a queued task (importing PySAT and puzzlesat's backends) while the running task forked
    the worker's kept child, and the queued task then waited in that child until its time limit (tests:
    ``test_a_forked_child_imports_what_another_thread_was_importing``). The locks not held by this
    thread are dropped (a free one is made again on demand; in a child, only its one thread imports),
    and a module that another thread's lock shows still being initialised leaves ``sys.modules``, so
    that the child runs it whole. Only those modules are looked at: reading an attribute of another
    (a lazily loaded module's) could import it here. This reads ``importlib._bootstrap``'s
    ``_module_locks`` (each lock's ``owner``: the same on CPython 3.11 to 3.13); where it is missing,
    nothing is done."""
    import threading
    from importlib import _bootstrap  # the import machinery's own state

    locks = getattr(_bootstrap, "_module_locks", None)
    if not isinstance(locks, dict):
        return
    me = threading.get_ident()
    for name, ref in list(locks.items()):
        owner = getattr(ref(), "owner", None)
        if owner == me:
            continue
        del locks[name]
        module = sys.modules.get(name) if owner is not None else None
        if getattr(getattr(module, "__spec__", None), "_initializing", False):
            del sys.modules[name]


def die_with_parent(parent: int | None = None) -> None:
    """Ask the kernel to SIGKILL this process when its parent ends (Linux; elsewhere nothing). When
    ``parent`` is given and is already gone (it died between the fork and this call), exit at once."""
    if sys.platform.startswith("linux"):
        try:
            _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the process-group kill still applies
            pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)


@cache
def _libc() -> Any:
    """The C library, loaded once: the command's worker loads it as it starts, and every child it forks
    finds it loaded (loading it in each child cost 4 of a forked call's 10 ms)."""
    import ctypes  # only where a process forks: the command line's start-up does not pay for it

    return ctypes.CDLL(None, use_errno=True)


def default_signals() -> None:
    """A forked child's ending signals back to their defaults, and no wakeup descriptor: a command's
    worker passes such signals on to its supervisor (:func:`~puzzlesat.processes.supervisor._pass_signals_on`),
    and a child of it, killed by one, must die as before, not write to the worker's pipe and run on."""
    from ..core.errors import ENDING_SIGNALS

    try:
        signal.set_wakeup_fd(-1)
    except ValueError:  # not the main thread (Python keeps the forking thread as main: not seen)
        return
    for number in ENDING_SIGNALS:
        signal.signal(number, signal.SIG_DFL)


def silence_descriptor_2() -> None:
    """Point file descriptor 2, where native code writes (libstdc++'s "terminate called after throwing an
    instance of 'std::bad_alloc'"), at /dev/null: those lines would come beside the command's own."""
    silent = os.open(os.devnull, os.O_WRONLY)
    os.dup2(silent, 2)
    os.close(silent)


def kill_group(pgid: int) -> None:
    """SIGKILL every process left in the group ``pgid`` (nothing when it is empty)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def descendants(pid: int) -> set[int]:
    """Every live (not zombie) process below ``pid``, from /proc (Linux): what the checks that a
    command leaves nothing behind look at (tests/test_limits.py, bench/soak.py)."""
    from pathlib import Path

    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not), from /proc."""
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

