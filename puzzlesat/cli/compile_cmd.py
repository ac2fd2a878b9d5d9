"""``puzzlesat compile``: compile every numba kernel ahead, so that no later run waits for one."""
from __future__ import annotations

import importlib
import time

import click

from ..core.compiled import CompiledUnusable, cache_directory, compiled_available
from ..encoders import get_puzzle, puzzle_names
from ..processes.kernels import Kernel
from .verbosity import VerboseCommand, note

#: the kernels of the core, every puzzle's own (:attr:`~puzzlesat.core.puzzle.Puzzle.kernels`) come after
CORE_KERNELS = ("puzzlesat.proofs.compiled",)


def every_kernel() -> list[Kernel]:
    """The core's kernels and every puzzle's, built-in and plug-in, each once."""
    modules = dict.fromkeys([*CORE_KERNELS, *(module for name in puzzle_names() for module in get_puzzle(name).kernels)])
    return [importlib.import_module(module).KERNEL for module in modules]


@click.command("compile", cls=VerboseCommand)
def command() -> None:
    """Compile the numba kernels ahead (the proof checker, the puzzles' searches).

    A kernel is compiled once on a machine and kept in a cache; until it is, the work that would use it
    runs in pure Python (same answers) while it is compiled in the background. Running this after
    installing makes the first run as fast as the next. Each kernel is said as it is done; a second run
    only loads them.

    \b
    Example:
      puzzlesat compile
    """
    if not compiled_available():
        note("numba is not available here (not installed, or NUMBA_DISABLE_JIT is set): every command runs in "
             "pure Python, with the same answers")
        return
    for kernel in every_kernel():
        started = time.monotonic()
        try:
            compiled = kernel.compile()
        except CompiledUnusable:  # said once on stderr by the kernel: every command goes on in pure Python
            return
        click.echo(f"{kernel.what}: {'compiled' if compiled else 'already compiled, loaded'} in "
                   f"{time.monotonic() - started:.1f} s")
    note(f"kept in {cache_directory() or 'no cache (a home that cannot be written): this process only'}")
