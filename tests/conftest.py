"""Shared fixtures: bundled instances and a CLI runner."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

INSTANCES = Path(__file__).resolve().parent.parent / "instances"


def aquarium_instances() -> list[Path]:
    return sorted((INSTANCES / "aquarium").glob("*.txt"))


@pytest.fixture
def run_cli():
    """Invoke the CLI in-process; returns (exit code, stdout, stderr)."""
    from puzzlesat.cli import main

    def run(*args: str, input: str | None = None):
        result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return run


def backend_double(name: str, session: type):
    """A PySAT-based backend class whose sessions are ``session`` (a test double that sleeps, crashes or
    lies), registered by tests under ``name`` with ``monkeypatch.setitem(registry._FACTORIES, ...)``."""
    from puzzlesat.backends.pysat_backend import PysatBackend

    class Double(PysatBackend):
        def __init__(self) -> None:
            super().__init__("glucose4")
            self.name = name

        def _open(self, encoding):
            return session(self, encoding)

    return Double
