"""The first run is the same run (issue 70, item 3): a kernel that numba's cache does not hold is compiled
in the background while the plain code goes on, announced once; nothing waits for it, no method times
out for it, and ``puzzlesat compile`` compiles every kernel ahead."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlesat.core.compiled import compiled_available

from .conftest import INSTANCES

pytestmark = pytest.mark.skipif(not compiled_available(), reason="numba cannot be imported here")

EXE = str(Path(sys.executable).parent / "puzzlesat")

TINY = '''
from puzzlesat.processes.kernels import Kernel


def _add(a, b):
    return a + b


def _warm():
    {warm}


KERNEL = Kernel(globals(), ("_add",), "the test's kernel", _warm)
'''


def tiny_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, warm: str) -> object:
    """A module of one small kernel, cached in a directory of its own."""
    (tmp_path / f"{name}.py").write_text(TINY.format(warm=warm))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    return importlib.import_module(name).KERNEL


def ended_background(kernel: object) -> bool:
    """Wait for the kernel's background compilation to end (a bound, not a measure: compiling takes a
    second); whether the kernel is ready then."""
    for _ in range(1200):
        if kernel._compiling.ended() is not None:  # type: ignore[attr-defined]
            break
        time.sleep(0.1)
    return kernel.ready_soon()  # type: ignore[attr-defined, no-any-return]


def test_a_kernel_not_cached_is_compiled_in_the_background_announced_once(tmp_path, monkeypatch, capsys):
    kernel = tiny_kernel(tmp_path, monkeypatch, "tiny_kernel_ok", "KERNEL.entry()(1, 2)")
    assert not kernel.cached()
    assert kernel.ready_soon() is False  # not yet: the plain code goes on
    assert kernel.ready_soon() is False or kernel.cached()  # asked again: no second compilation is started
    assert ended_background(kernel) and kernel.cached()
    assert kernel.entry()(2, 3) == 5
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and said[0].startswith("puzzlesat: note: compiling the test's kernel with numba in the "
                                                 "background") and "goes on in pure Python" in said[0], said
    assert kernel.compile() is False  # already in the cache: loaded


def test_a_failed_background_compilation_leaves_the_plain_code_to_the_end(tmp_path, monkeypatch, capsys):
    kernel = tiny_kernel(tmp_path, monkeypatch, "tiny_kernel_failing", "raise RuntimeError('no')")
    assert kernel.ready_soon() is False
    assert not ended_background(kernel) and kernel._compiling.ended() == 1
    assert kernel.ready_soon() is False  # never ready: not started again in this process either


def test_compile_compiles_ahead_what_a_fresh_process_then_only_loads(tmp_path, monkeypatch):
    """A fresh clone of the same code (its sources newer than the cache, their content the same) finds
    the kernels cached, as numba does: a check of modification times said no, on CI's every clone."""
    import os

    kernel = tiny_kernel(tmp_path, monkeypatch, "tiny_kernel_ahead", "KERNEL.entry()(1, 2)")
    assert kernel.compile() is True and kernel.cached()
    source = tmp_path / "tiny_kernel_ahead.py"
    later = source.stat().st_mtime + 3600
    os.utime(source, (later, later))  # as a clone made an hour later would have it
    loaded = subprocess.run([sys.executable, "-c", "import tiny_kernel_ahead as k; print(k.KERNEL.compile())"],
                            capture_output=True, text=True, timeout=300,
                            env=os.environ | {"PYTHONPATH": str(tmp_path)})
    assert (loaded.returncode, loaded.stdout, loaded.stderr) == (0, "False\n", "")


def test_puzzlesat_compile_lists_every_kernel():
    """The suite's cache is warm (tests/conftest.py compiles it by this command): each kernel loaded."""
    ran = subprocess.run([EXE, "compile"], capture_output=True, text=True, timeout=300)
    lines = ran.stdout.splitlines()
    assert ran.returncode == 0 and ran.stderr == "", ran
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "the proof checker", "the jig's search", "the exact-cover search (Algorithm X)"]
    assert all(": already compiled, loaded in " in line for line in lines[:-1]) and lines[-1].startswith("kept in ")
    plain = subprocess.run([EXE, "compile"], capture_output=True, text=True, timeout=60,
                           env=os.environ | {"NUMBA_DISABLE_JIT": "1"})
    assert plain.returncode == 0 and "every command runs in pure Python" in plain.stdout, plain


def without_times(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("times:"))


def test_a_first_count_answers_as_the_next_one_announcing_its_compilation(tmp_path):
    """zhurgut_9x9's count outlives the plain search's quarter second: on an empty cache the search was
    compiled in the command's time, the note saying it would take up to a minute; now it goes on in
    Python while the kernel compiles behind it, and answers the same."""
    args = [EXE, "count", "jig", str(INSTANCES / "jig" / "zhurgut_9x9.jig")]
    cold = subprocess.run(args, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
                          | {"XDG_CACHE_HOME": str(tmp_path)})
    warm = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert cold.returncode == warm.returncode == 0 and without_times(cold.stdout) == without_times(warm.stdout)
    said = cold.stderr.splitlines()
    assert len(said) == 1 and said[0].startswith("puzzlesat: note: compiling the jig's search with numba in the "
                                                 "background"), cold.stderr
