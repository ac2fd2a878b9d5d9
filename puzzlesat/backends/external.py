"""``external:<binary>``: any DIMACS solver on the PATH that prints SAT-competition output.

The solver is run on a temporary DIMACS file and killed when the time limit passes. It is not
incremental: blocking clauses are kept here and the whole formula is re-sent on every call.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time

from ..core.encoding import Encoding
from ..core.errors import BackendError, PuzzlesatError, SolverTimeout
from ..core.model import CnfModel
from ..core.processes import die_with_parent
from ..core.result import Result, Status
from ..formats.dimacs import parse_solver_output, to_dimacs, violated_clause
from .base import Backend, Session


class ExternalBackend(Backend):
    capabilities = frozenset({"sat", "enumerate"})
    description = "DIMACS solver binary on the PATH (SAT-competition output)"

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.name = f"external:{binary}"

    def unavailable_reason(self) -> str | None:
        if shutil.which(self.binary) is None:
            return f"'{self.binary}' is not on the PATH"
        return None

    def _open(self, encoding: Encoding) -> Session:
        return ExternalSession(self, encoding)


class ExternalSession(Session):
    backend: ExternalBackend

    def __init__(self, backend: ExternalBackend, encoding: Encoding) -> None:
        super().__init__(backend, encoding)
        self.added: list[list[int]] = []

    def add_clause(self, clause: list[int]) -> None:
        self.added.append(clause)

    def solve(self, timeout: float | None = None) -> Result:
        fd, path = tempfile.mkstemp(prefix="puzzlesat-", suffix=".cnf")
        name = self.backend.name
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(to_dimacs(self.encoding, extra=self.added))
            start = time.perf_counter()
            try:
                proc = subprocess.run([self.backend.binary, path], capture_output=True, text=True,
                                      timeout=timeout, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
            except subprocess.TimeoutExpired:
                raise SolverTimeout(name, timeout or 0.0) from None
            except OSError as exc:
                raise BackendError(f"{name}: cannot run '{self.backend.binary}': {exc.strerror}") from None
            elapsed = time.perf_counter() - start
        finally:
            os.unlink(path)
        try:
            status, literals = parse_solver_output(proc.stdout, f"{name} output")
        except PuzzlesatError as exc:
            detail = proc.stderr.strip().splitlines()[-1:] or [f"exit code {proc.returncode}"]
            raise BackendError(f"{exc} ({detail[0]})") from None
        if status == Status.SAT:
            broken = violated_clause(self.encoding.clauses + self.added, literals)
            if broken is not None:
                raise BackendError(f"{name}: its model violates clause {broken + 1} of the formula it was given")
            return Result(status, CnfModel.from_literals(literals, self.encoding.num_vars), name, elapsed)
        return Result(status, None, name, elapsed)

