"""Compiled kernels are kept in a per-user cache directory across processes (issue 47, item 2): never
beside the installed source, compiled once, and still compiled (kept nowhere) where no cache can be
made."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlesat.core.bundled import ROOT
from puzzlesat.core.compiled import compiled_available

pytestmark = pytest.mark.skipif(not compiled_available(), reason="numba cannot be imported here")

PACKAGE = Path(__import__("puzzlesat").__file__).parent

#: counts one jig by the compiled search and the compiled exact cover, from the start (no plain phase)
SCRIPT = ("from puzzlesat.encoders.jig.counting import reference_counts\n"
          "from puzzlesat.encoders.jig.cover_counting import cover_counts\n"
          "from puzzlesat.encoders.jig import PUZZLE\n"
          f"jig = PUZZLE.parse(open({str(ROOT / 'jig' / 'zhurgut_7x7.jig')!r}).read(), 'j')\n"
          "counted = reference_counts(jig, plain_seconds=0)\n"
          "print(counted.layouts, counted.classes, counted.method, cover_counts(jig, plain_seconds=0))\n")


def run(env: dict[str, str], notes: list[str] | None = None) -> str:
    """The script's output; its stderr holds nothing but the notes of what it compiles (issue 70), which
    go to ``notes``."""
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | env
    ran = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600, env=environment)
    said = ran.stderr.splitlines()
    assert ran.returncode == 0 and all(line.startswith("puzzlesat: note: compiling ") for line in said), ran
    if notes is not None:
        notes += said
    return ran.stdout


def stamps(directory: Path) -> dict[str, tuple[int, int]]:
    """(inode, modification time) of every cache file: a kernel compiled again is written again."""
    return {str(p.relative_to(directory)): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in directory.rglob("*") if p.suffix in (".nbi", ".nbc")}


def test_kernels_are_compiled_once_into_the_users_cache(tmp_path):
    started = time.time()
    notes: list[str] = []
    first = run({"XDG_CACHE_HOME": str(tmp_path)}, notes)
    # each compilation said once before it starts, naming what it compiles; the second run says nothing
    assert [note.split(" with numba")[0] for note in notes] == [
        "puzzlesat: note: compiling the jig's search", "puzzlesat: note: compiling the exact-cover search (Algorithm X)"]
    assert first.startswith("8 2 compiled search") and first.endswith(" (8, 2)\n"), first
    cache = tmp_path / "puzzlesat" / "numba"
    kept = stamps(cache)
    assert any(name.endswith(".nbc") for name in kept) and oct(cache.stat().st_mode & 0o777) == "0o700"
    again: list[str] = []
    assert run({"XDG_CACHE_HOME": str(tmp_path)}, again) == first and not again
    assert stamps(cache) == kept, "the second process compiled again"
    written = [p for p in PACKAGE.rglob("*.nb[ic]") if p.stat().st_mtime >= started]
    assert not written, f"cache files written inside the package: {written}"


def test_a_users_own_numba_cache_dir_is_respected(tmp_path):
    assert run({"NUMBA_CACHE_DIR": str(tmp_path / "mine"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}).startswith("8 2")
    assert stamps(tmp_path / "mine") and not (tmp_path / "xdg" / "puzzlesat").exists()


def test_without_a_cache_directory_kernels_are_still_compiled(tmp_path):
    """A cache home that cannot hold a directory (here a file; elsewhere a read-only home): the search
    is compiled all the same and kept nowhere, where numba would otherwise have refused to start."""
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    started = time.time()
    counted = run({"XDG_CACHE_HOME": str(blocked)})
    assert counted.startswith("8 2 compiled search") and counted.endswith(" (8, 2)\n"), counted
    assert not [p for p in PACKAGE.rglob("*.nb[ic]") if p.stat().st_mtime >= started]


def test_two_processes_compiling_at_once_leave_a_cache_the_third_uses(tmp_path):
    """numba writes each cache entry to a temporary file and renames it: two first runs at once both
    answer, and what they leave is whole (a third process compiles nothing)."""
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"XDG_CACHE_HOME": str(tmp_path)}
    both = [subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=environment) for _ in range(2)]
    for process in both:
        out, err = process.communicate(timeout=600)
        said = err.splitlines()
        assert process.returncode == 0 and out.endswith(" (8, 2)\n"), (out, err)
        assert all(line.startswith("puzzlesat: note: compiling ") for line in said), err
    cache = tmp_path / "puzzlesat" / "numba"
    kept = stamps(cache)
    third: list[str] = []
    assert run({"XDG_CACHE_HOME": str(tmp_path)}, third).endswith(" (8, 2)\n") and not third
    assert stamps(cache) == kept, "the third process compiled again"
