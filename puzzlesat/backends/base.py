"""The backend interface and its registry.

A backend turns an :class:`Encoding` into answers. It opens a :class:`Session` on one encoding; a session
solves, and can block the current model on the encoding's ``show`` set, which is all that enumeration,
uniqueness proofs and counting by enumeration need. Non-incremental solvers (Kissat, external binaries)
implement the same interface by re-solving from scratch, so callers never special-case them.

Adding a solver means registering one factory; names resolve through :func:`get_backend`.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..core.encoding import Encoding
from ..core.errors import BackendError, PuzzlesatError, SolverTimeout
from ..core.model import CnfModel, SmtModel
from ..core.processes import die_with_parent
from ..core.result import Result, Status
from ..core.timing import Deadline

#: capability names: ``sat`` solves CNF, ``smt`` solves native SMT encodings, ``enumerate`` can block
#: models and solve again (uniqueness, counting by enumeration), ``count`` counts models exactly.
CAPABILITIES = ("sat", "smt", "enumerate", "count", "optimize")


class Session(ABC):
    """One encoding loaded into one solver."""

    def __init__(self, backend: Backend, encoding: Encoding) -> None:
        self.backend = backend
        self.encoding = encoding

    @abstractmethod
    def solve(self, timeout: float | None = None) -> Result:
        """Solve; raise :class:`SolverTimeout` when ``timeout`` seconds pass without an answer."""

    def models(self, timeout: float | None = None) -> Iterator[Result]:
        """Every model in turn, each blocked on ``show`` before the next solve; the last result is the
        one that ends the enumeration (UNSAT, or UNKNOWN from an incomplete solver). ``timeout`` bounds
        the whole enumeration, not each call."""
        deadline = Deadline(timeout)
        while True:
            result = self.solve(deadline.left())
            yield result
            if result.status != Status.SAT:
                return
            self.block(result.model)

    def block(self, model: CnfModel | SmtModel) -> None:
        """Exclude every later model that agrees with ``model`` on the encoding's ``show`` set."""
        if isinstance(model, CnfModel):
            self.add_clause([-v if model.value(v) else v for v in self.encoding.show])
        else:
            self.add_smt_block(model)

    def add_clause(self, clause: list[int]) -> None:
        raise BackendError(f"{self.backend.name}: cannot add clauses to an SMT session")

    def add_smt_block(self, model: SmtModel) -> None:
        raise BackendError(f"{self.backend.name}: cannot block SMT models")

    def close(self) -> None:
        """Free solver memory; the session is unusable afterwards."""

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Backend(ABC):
    """A named solver with capability flags."""

    name: str
    capabilities: frozenset[str]
    description: str = ""
    #: ``count_each`` answers all its queries from one compilation, so conditional counts are cheap
    compiles: bool = False

    def unavailable_reason(self) -> str | None:
        """``None`` when the backend works on this machine, else why not (e.g. binary not on PATH)."""
        return None

    def require(self, capability: str) -> None:
        """Fail before any work starts when this backend cannot do what is asked."""
        reason = self.unavailable_reason()
        if reason:
            raise BackendError(f"backend {self.name} is not available here: {reason}")
        if capability not in self.capabilities:
            have = ", ".join(sorted(self.capabilities))
            raise BackendError(f"backend {self.name} cannot do '{capability}' (it can: {have})")

    def open(self, encoding: Encoding) -> Session:
        """Load ``encoding`` into a new session, after checking the backend can take its kind."""
        self.require("sat" if encoding.kind == "cnf" else "smt")
        return self._open(encoding)

    @abstractmethod
    def _open(self, encoding: Encoding) -> Session: ...

    def count(self, encoding: Encoding, timeout: float | None = None) -> int:
        """Exact number of models projected on ``encoding.show`` (backends with capability ``count``)."""
        self.require("count")
        raise NotImplementedError

    def count_each(self, encoding: Encoding, queries: list[list[int]], timeout: float | None = None) -> list[int]:
        """The projected model count of ``encoding`` under each query (a list of literals assumed true),
        in one call: a compiling counter answers all queries from one compilation."""
        self.require("count")
        raise NotImplementedError


# --- registry ------------------------------------------------------------------------------------

_FACTORIES: dict[str, Callable[[], Backend]] = {}
_PREFIXES: dict[str, Callable[[str], Backend]] = {}
_ALIASES: dict[str, str] = {}
_LOADED = False


def register(name: str, factory: Callable[[], Backend]) -> None:
    _FACTORIES[name] = factory


def register_prefix(prefix: str, factory: Callable[[str], Backend]) -> None:
    """Names ``prefix:ARG`` build a backend from ARG (e.g. ``external:cadical``)."""
    _PREFIXES[prefix] = factory


def alias(short: str, full: str) -> None:
    _ALIASES[short] = full


def _load_all() -> None:
    global _LOADED
    if not _LOADED:
        _LOADED = True
        from . import (  # noqa: F401  (they register themselves)
            d4_backend,
            external,
            ganak_backend,
            portfolio,
            pysat_backend,
            z3_backend,
        )


def get_backend(name: str) -> Backend:
    """Resolve a backend name or alias; unknown names fail with the list of known ones."""
    _load_all()
    full = _ALIASES.get(name, name)
    if full in _FACTORIES:
        return _FACTORIES[full]()
    prefix, _, arg = full.partition(":")
    if arg and prefix in _PREFIXES:
        return _PREFIXES[prefix](arg)
    known = ", ".join(sorted(_FACTORIES) + [f"{p}:NAME" for p in _PREFIXES])
    raise BackendError(f"unknown backend '{name}' (known: {known}; aliases: {', '.join(sorted(_ALIASES))})")


def all_backends() -> list[Backend]:
    """Every registered named backend (prefix families such as ``external:`` are listed separately)."""
    _load_all()
    return [factory() for factory in _FACTORIES.values()]


def aliases() -> dict[str, str]:
    _load_all()
    return dict(_ALIASES)


DEFAULT_BACKEND = "pysat:cadical195"


# --- running a solver call under a hard time limit --------------------------------------------------

def call_with_timeout(fn: Callable[[], Any], timeout: float | None, backend: str) -> Any:
    """Run ``fn`` with a hard time limit.

    Most PySAT solvers (CaDiCaL, Kissat, Lingeling, CryptoMiniSat) cannot be interrupted, so a limit is
    enforced by running the call in a forked child that is killed when time is up. The child inherits
    the loaded solver through fork, so nothing is rebuilt; its result comes back through a pipe.
    """
    if timeout is None:
        return fn()
    return run_forked([fn], timeout, backend)[0]


def run_forked(fns: list[Callable[[], Any]], timeout: float | None, backend: str) -> list[Any]:
    """Run every ``fn`` at the same time, each in its own forked child, and return their results in
    order: independent solver calls (dice's two counts) use all cores. Past ``timeout`` seconds, or when
    one fails, all children are killed."""
    ctx = multiprocessing.get_context("fork")
    end = None if timeout is None else time.perf_counter() + timeout
    running = []
    for fn in fns:
        receiver, sender = ctx.Pipe(duplex=False)
        # not a daemon, so that the call may start processes of its own (a portfolio's members)
        process = ctx.Process(target=_send_result, args=(sender, fn))
        process.start()
        sender.close()
        running.append((receiver, process))
    try:
        return [_receive(receiver, process, end, timeout, backend)[1] for receiver, process in running]
    finally:
        for receiver, process in running:
            _stop(receiver, process)


def stream_forked(items: Callable[[], Iterator[Any]], timeout: float | None, backend: str) -> Iterator[Any]:
    """Yield what ``items()`` yields, produced in one forked child under one hard time limit.

    An enumeration under :func:`call_with_timeout` would fork once per solve, and each child's learnt
    clauses die with it; here one child keeps its solver for the whole loop, and the parent reads each
    item as it comes. Closing the generator early (a ``limit`` reached) kills the child."""
    ctx = multiprocessing.get_context("fork")
    end = None if timeout is None else time.perf_counter() + timeout
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_send_stream, args=(sender, items))
    process.start()
    sender.close()
    try:
        while True:
            kind, payload = _receive(receiver, process, end, timeout, backend)
            if kind == "done":
                return
            yield payload
    finally:
        _stop(receiver, process)


def _receive(receiver: Any, process: Any, end: float | None, timeout: float | None,
             backend: str) -> tuple[str, Any]:
    """The child's next message, or the error that its silence, death or report means."""
    left = None if end is None else max(0.0, end - time.perf_counter())
    if not receiver.poll(left):
        raise SolverTimeout(backend, timeout or 0.0)
    try:
        kind, payload = receiver.recv()
    except EOFError:
        process.join()
        raise BackendError(f"{backend}: the solver process died (exit code {process.exitcode})") from None
    if kind == "error":
        raise BackendError(f"{backend}: solver failed: {payload.splitlines()[0]}")
    if kind == "refused":  # the child's own one-line message (bad option, failed check), kept as it was
        raise PuzzlesatError(payload)
    return kind, payload


def _stop(receiver: Any, process: Any) -> None:
    if process.is_alive():
        process.kill()
    process.join()
    receiver.close()


def _send_result(sender: Any, fn: Callable[[], Any]) -> None:
    die_with_parent()
    try:
        sender.send(("ok", fn()))
    except BaseException as exc:  # report anything, the parent turns it into an error
        sender.send(_failure(exc))


def _send_stream(sender: Any, items: Callable[[], Iterator[Any]]) -> None:
    die_with_parent()
    try:
        for item in items():
            sender.send(("item", item))
        sender.send(("done", None))
    except BaseException as exc:
        sender.send(_failure(exc))


def _failure(exc: BaseException) -> tuple[str, str]:
    """A user-facing error travels as its message; anything else as a solver failure with its trace."""
    if isinstance(exc, PuzzlesatError):
        return "refused", str(exc)
    return "error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"


@contextmanager
def quiet_stdout() -> Iterator[None]:
    """Native counters (Ganak, D4) print progress lines ("c ...") on the process's stdout, which would
    corrupt --json and tables: point file descriptor 1 at /dev/null while they run."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
