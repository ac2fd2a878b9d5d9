"""Child processes that cannot outlive their parent.

Every process the toolkit starts (forked solver calls, portfolio members, bench runs, external solver
binaries) calls :func:`die_with_parent` first. Killing a process group reaches every descendant only
while they stay in it, and bench runs make groups of their own; the kernel's parent-death signal holds
across groups, so a killed command takes its whole tree with it, level by level.
"""
from __future__ import annotations

import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Ask the kernel to SIGKILL this process when its parent ends (Linux; elsewhere nothing). When
    ``parent`` is given and is already gone (it died between the fork and this call), exit at once."""
    if sys.platform.startswith("linux"):
        import ctypes  # only in children: the command line's start-up does not pay for it

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the process-group kill still applies
            pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)


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

