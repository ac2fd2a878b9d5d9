"""``external:<binary>``: any DIMACS solver on the PATH that prints SAT-competition output, or writes
MiniSat's result file (minisat, glucose: they are given a second argument, the file to write).

The solver is run on the user's own file when the encoding is that file unchanged
(:attr:`~puzzlesat.core.encoding.Encoding.original_file`: its reading is then the solver's own, not
puzzlesat's), else on a temporary DIMACS file, and killed when the time limit passes. It is not
incremental: blocking clauses are kept here and the whole formula is re-sent on every call.
"""
from __future__ import annotations

import os
import resource
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..core.encoding import Encoding
from ..core.errors import BackendError, PuzzlesatError, SolverTimeout
from ..core.model import CnfModel
from ..core.result import Result, Status
from ..core.timing import UNLIMITED, Deadline
from ..formats.answers import Answer, read_answer
from ..formats.dimacs import to_dimacs, violated_clause
from ..processes.children import die_with_parent
from .base import Backend, Capability, Session

#: solvers that print no model on stdout but write MiniSat's result file, named as their second argument
RESULT_FILE_SOLVERS = frozenset({"minisat", "glucose", "glucose-syrup"})

#: solvers that write a DRAT proof (binary, by default) to the file named as their second argument
PROOF_FILE_SOLVERS = frozenset({"cadical", "kissat"})


class ExternalBackend(Backend):
    capabilities = frozenset({Capability.SAT, Capability.ENUMERATE})
    description = "DIMACS solver binary on the PATH (SAT-competition output)"

    #: the family prefix of the backend's name
    prefix = "external"

    def __init__(self, spec: str, proving: bool = False) -> None:
        """``spec`` is the binary, optionally with arguments (``"rc2.py -vv"``)."""
        try:
            words = shlex.split(spec) or [""]
        except ValueError as exc:  # an unclosed quote
            raise BackendError(f"backend {self.prefix}:{spec[:60]}: {str(exc).lower()}") from None
        self.spec = spec
        self.binary, self.arguments = words[0], words[1:]
        self.name = f"{self.prefix}:{spec}"
        self.proving = proving
        if Capability.SAT in self.capabilities and os.path.basename(self.binary) in PROOF_FILE_SOLVERS:
            self.capabilities = self.capabilities | {Capability.PROOF}

    def with_proofs(self) -> Backend:
        """The solver asked for a proof file beside its input; its UNSAT answers count only with it."""
        if Capability.PROOF not in self.capabilities:
            raise BackendError(f"backend {self.name} writes no proof that puzzlesat knows how to ask for "
                               f"(proof-writing binaries: {', '.join(sorted(PROOF_FILE_SOLVERS))})")
        return type(self)(self.spec, proving=True)

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

    def solve(self, deadline: Deadline = UNLIMITED) -> Result:
        name, binary, proving = self.backend.name, self.backend.binary, self.backend.proving
        result_file = os.path.basename(binary) in RESULT_FILE_SOLVERS
        original = self.encoding.original_file if not self.added else None
        with scratch_file(".cnf", "" if original else to_dimacs(self.encoding, extra=self.added)) as path:
            second = [path + ".out"] if result_file or proving else []
            proc, elapsed = run_tool([binary, *self.backend.arguments, original or path, *second], deadline, name)
            output = _read_result(path + ".out") if result_file else proc.stdout
            answer = read_tool_answer(proc, output, name)
            if answer.status == Status.UNSAT and proving:
                return Result(Status.UNSAT, None, name, elapsed, certificate=self.certified(_read_proof(path + ".out")))
        status, literals = answer.status, answer.literals
        if status == Status.SAT:
            broken = violated_clause(self.encoding.clauses, literals)  # then what was added: no copy of both
            if broken is None and self.added:
                added = violated_clause(self.added, literals)
                broken = None if added is None else len(self.encoding.clauses) + added
            if broken is not None:
                raise BackendError(f"{name}: its model violates clause {broken + 1} of the formula it was given")
            return Result(status, CnfModel.from_literals(literals, self.encoding.num_vars), name, elapsed)
        return Result(status, None, name, elapsed)


@contextmanager
def scratch_file(suffix: str, text: str) -> Iterator[str]:
    """A file holding ``text`` in a private directory (``mkdtemp``: mode 0700), removed afterwards with
    anything the tool wrote beside it (PATH.out: a result or a proof). A name in a shared directory
    would let another user plant a symlink where PATH.out will be written (through the Python API or a
    Dask worker, which run without the supervisor's own scratch directory)."""
    with tempfile.TemporaryDirectory(prefix="puzzlesat-") as directory:
        path = os.path.join(directory, "formula" + suffix)
        with open(path, "x") as handle:
            handle.write(text)
        yield path


#: the most a tool may print, stdout and stderr together: a model line of ten million variables fits
#: (some 100 MB); past it the tool is flooding, and is stopped before its output fills the memory cap
MAX_TOOL_OUTPUT = 256 << 20


def run_tool(command: list[str], deadline: Deadline, name: str,
             limit: int = MAX_TOOL_OUTPUT) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run an outside tool (it dies with us), killed at the ``deadline`` or once it has printed more than
    ``limit`` bytes (a one-line error, not a MemoryError: capturing a flood whole ended in exit 3);
    (its run, seconds). A byte that is not UTF-8 is kept visible (``\\xff``) for the reader to refuse
    in one line."""
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                preexec_fn=die_with_parent)
    except OSError as exc:
        raise BackendError(f"{name}: cannot run '{command[0]}': {exc.strerror}") from None
    with proc:
        try:
            out, err = _capped_output(proc, deadline, _within_memory(limit), name)
        except BaseException:
            proc.kill()  # what it started is in the command's process group, which the supervisor ends
            raise
        code = proc.wait()
    text = [data.decode("utf-8", errors="backslashreplace") for data in (out, err)]
    return subprocess.CompletedProcess(command, code, text[0], text[1]), time.perf_counter() - start


def _within_memory(limit: int) -> int:
    """``limit``, at most a quarter of the address space this process may use (``--max-memory``): the
    output is held twice while it is decoded."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return limit if soft == resource.RLIM_INFINITY else min(limit, soft // 4)


def _capped_output(proc: subprocess.Popen[bytes], deadline: Deadline, limit: int, name: str) -> tuple[bytes, bytes]:
    """Everything ``proc`` prints on stdout and stderr until it closes both, read as it comes."""
    import selectors

    pieces: dict[int, list[bytes]] = {1: [], 2: []}
    size = 0
    assert proc.stdout is not None and proc.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ, 1)
        selector.register(proc.stderr, selectors.EVENT_READ, 2)
        while selector.get_map():
            if deadline.passed():
                raise SolverTimeout(name, deadline.seconds or 0.0)
            left = deadline.left()
            for key, _ in selector.select(left):
                data = os.read(key.fd, 1 << 16)
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                pieces[key.data].append(data)
                size += len(data)
                if size > limit:
                    raise BackendError(f"{name}: printed more than {limit >> 20} MiB: a flood, not an answer "
                                       "(stopped)")
    return b"".join(pieces[1]), b"".join(pieces[2])


def read_tool_answer(proc: subprocess.CompletedProcess[str], output: str, name: str) -> Answer:
    """What the tool printed, read as any standard answer; unreadable, a one-line error that also
    quotes the tool's last line on stderr (or its exit code)."""
    try:
        return read_answer(output, f"{name} output")
    except PuzzlesatError as exc:
        detail = proc.stderr.strip().splitlines()[-1:] or [f"exit code {proc.returncode}"]
        raise BackendError(f"{exc} ({detail[0]})") from None


def _read_proof(path: str) -> bytes:
    """The proof file, or nothing when the solver wrote none (then the checker rejects the answer)."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def _read_result(path: str) -> str:
    """A result file, or nothing when the solver wrote none (then the answer reader says so)."""
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return ""
