"""``external:<binary>``: any DIMACS solver on the PATH that prints SAT-competition output, or writes
MiniSat's result file (minisat, glucose: they are given a second argument, the file to write).

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
from ..formats.answers import read_answer
from ..formats.dimacs import to_dimacs, violated_clause
from .base import Backend, Session

#: solvers that print no model on stdout but write MiniSat's result file, named as their second argument
RESULT_FILE_SOLVERS = frozenset({"minisat", "glucose", "glucose-syrup"})


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
        result_file = os.path.basename(self.backend.binary) in RESULT_FILE_SOLVERS
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(to_dimacs(self.encoding, extra=self.added))
            command = [self.backend.binary, path] + ([path + ".out"] if result_file else [])
            start = time.perf_counter()
            try:
                proc = subprocess.run(command, capture_output=True, text=True,
                                      timeout=timeout, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
            except subprocess.TimeoutExpired:
                raise SolverTimeout(name, timeout or 0.0) from None
            except OSError as exc:
                raise BackendError(f"{name}: cannot run '{self.backend.binary}': {exc.strerror}") from None
            elapsed = time.perf_counter() - start
            output = _read_result(path + ".out") if result_file else proc.stdout
        finally:
            for leftover in (path, path + ".out"):
                if os.path.exists(leftover):
                    os.unlink(leftover)
        try:
            answer = read_answer(output, f"{name} output")
        except PuzzlesatError as exc:
            detail = proc.stderr.strip().splitlines()[-1:] or [f"exit code {proc.returncode}"]
            raise BackendError(f"{exc} ({detail[0]})") from None
        status, literals = answer.status, answer.literals
        if status == Status.SAT:
            broken = violated_clause(self.encoding.clauses + self.added, literals)
            if broken is not None:
                raise BackendError(f"{name}: its model violates clause {broken + 1} of the formula it was given")
            return Result(status, CnfModel.from_literals(literals, self.encoding.num_vars), name, elapsed)
        return Result(status, None, name, elapsed)


def _read_result(path: str) -> str:
    """A result file, or nothing when the solver wrote none (then the answer reader says so)."""
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return ""
