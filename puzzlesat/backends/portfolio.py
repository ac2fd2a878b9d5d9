"""``portfolio:NAME,NAME,...``: race several backends on the same encoding, keep the first answer.

Members may also be joined with ``+`` (``portfolio:cadical+glucose``), which is how a portfolio is
written inside a comma-separated list of backends (``--backends cadical,portfolio:cadical+glucose``).

SAT solvers differ by orders of magnitude from one instance to the next, and which one wins is rarely
predictable; on two or more cores a race costs nothing but CPU. Each member runs in its own forked
worker process that holds an incremental session, so enumeration (blocking clauses, uniqueness proofs)
stays incremental for the member that keeps winning. The first member to answer wins; the others are
killed (most PySAT solvers cannot be interrupted) and rebuilt, with every clause added so far, only
when the next solve call needs them. The winner's name is carried in :attr:`Result.backend`.
"""
from __future__ import annotations

import signal
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, cast

from ..core.encoding import Encoding
from ..core.errors import BackendError, SolverTimeout
from ..core.reporting import STOP_POLL, check_stop
from ..core.result import Result
from ..core.timing import UNLIMITED, Deadline
from ..processes.runner import Child
from .base import Backend, Capability, Session

T = TypeVar("T")

#: what a race can share: models cross process boundaries as bytes, so Z3's native SMT models
#: (which are not picklable) are left out; Z3 still takes part on CNF encodings.
RACEABLE = frozenset({Capability.SAT, Capability.ENUMERATE, Capability.COUNT, Capability.PROOF})


def member_names(spelled: str) -> list[str]:
    """The member names of ``portfolio:SPELLED``: separated by commas or ``+``."""
    return [name.strip() for name in spelled.replace("+", ",").split(",") if name.strip()]


class PortfolioBackend(Backend):
    description = "race of several backends in separate processes; first answer wins"

    def __init__(self, spelled: str, members: list[Backend]) -> None:
        """``members`` are the backends ``spelled`` names (see :func:`member_names`)."""
        if len(members) < 2:
            raise BackendError(f"portfolio:{spelled}: name at least two backends (portfolio:NAME,NAME,...)")
        self.spelled = spelled
        self.members = members
        self.proving = all(member.proving for member in members)
        self.name = "portfolio:" + ",".join(member.name for member in self.members)
        shared = frozenset.intersection(*(member.capabilities for member in self.members))
        self.capabilities = shared & RACEABLE
        self.compiles = all(member.compiles for member in self.members)

    def with_proofs(self) -> Backend:
        """Every member writing proofs: whichever wins, its UNSAT answer comes with its checked proof."""
        return PortfolioBackend(self.spelled, [member.with_proofs() for member in self.members])

    def unavailable_reason(self) -> str | None:
        for member in self.members:
            reason = member.missing()
            if reason:
                return f"{member.name}: {reason}"
        return None

    def _open(self, encoding: Encoding) -> Session:
        return PortfolioSession(self, encoding)

    def count(self, encoding: Encoding, deadline: Deadline = UNLIMITED) -> int:
        """The first exact count any member finishes (they are all exact, so any one will do)."""
        self.require(Capability.COUNT)
        return self.race(lambda member: member.count(encoding), deadline)[1]

    def count_each(self, encoding: Encoding, queries: list[list[int]], deadline: Deadline = UNLIMITED) -> list[int]:
        """The first exact counts any member finishes."""
        self.require(Capability.COUNT)
        return self.race(lambda member: member.count_each(encoding, queries), deadline)[1]

    def race(self, call: Callable[[Backend], T], deadline: Deadline) -> tuple[str, T]:
        """Run ``call(member)`` for every member at once, each in its own process; (winner, its result).
        For whole computations that are not a solver session, such as an optimisation method."""
        workers = [_Worker(member, call=call) for member in self.members]
        try:
            winner, result = _race(workers, None, deadline, self.name)
            return winner.member.name, cast(T, result)
        finally:
            for worker in workers:
                worker.stop()


class PortfolioSession(Session):
    backend: PortfolioBackend

    def __init__(self, backend: PortfolioBackend, encoding: Encoding) -> None:
        super().__init__(backend, encoding)
        self.workers = [_Worker(member, encoding, self.added) for member in backend.members]

    def add_clause(self, clause: list[int]) -> None:
        self.added.append(clause)
        for worker in self.workers:
            worker.add_clause(clause)

    def solve(self, deadline: Deadline = UNLIMITED) -> Result:
        winner, answer = _race(self.workers, ("solve",), deadline, self.backend.name)
        result = cast(Result, answer)
        result.backend = winner.member.name
        return result

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()


class _Worker:
    """One member's forked process, started on demand. A session worker holds an incremental session of
    the encoding (replaying every clause added so far) and answers solve requests; a call worker runs
    one ``call(member)`` and reports its result."""

    def __init__(self, member: Backend, encoding: Encoding | None = None, added: list[list[int]] | None = None,
                 call: Callable[[Backend], Any] | None = None) -> None:
        self.member = member
        self.encoding = encoding
        self.added = added if added is not None else []
        self.call = call
        self.child: Child | None = None

    def start(self) -> Connection:
        if self.child is None:
            self.child = Child(partial(_serve, worker=self), duplex=True)
        conn: Connection = self.child.conn
        return conn

    def add_clause(self, clause: list[int]) -> None:
        """Pass a clause on to a running worker; a stopped one gets it from ``added`` when restarted."""
        if self.child is not None:
            self.child.conn.send(("add", clause))

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()
        self.child = None


def _serve(conn: Connection, worker: _Worker) -> None:
    """Worker process: run the one call, or keep one session and answer requests until killed.
    Ctrl-C is the parent's to handle (it kills the workers), so workers ignore it and stay quiet."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    member = worker.member
    try:
        if worker.call is not None:
            conn.send(("ok", worker.call(member)))
            return
        assert worker.encoding is not None, "a session worker has the encoding"
        session = member.open(worker.encoding)
        for clause in worker.added:
            session.add_clause(clause)
        while True:
            request = conn.recv()
            if request[0] == "add":
                session.add_clause(request[1])
            else:
                conn.send(("ok", session.solve()))
    except EOFError:  # the parent closed the pipe: the session is over
        return
    except Exception as exc:  # noqa: BLE001  (any failure goes back as one line; the race goes on without it)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        conn.send(("error", first if first.startswith(member.name) else f"{member.name}: {first}"))


def _race(workers: list[_Worker], request: tuple[Any, ...] | None, deadline: Deadline,
          name: str) -> tuple[_Worker, Any]:
    """Start the workers (sending ``request`` to session workers), return the first good answer and kill
    the ones still running. A member that fails drops out; only when all fail is it an error."""
    pending: dict[Any, _Worker] = {}
    for worker in workers:
        conn = worker.start()
        if request is not None:
            conn.send(request)
        pending[conn] = worker
    errors = []
    try:
        while pending:
            ready = wait(list(pending), deadline.left(most=STOP_POLL, at_least=0.0))
            check_stop()  # a signal's request: the members are killed, as at the deadline
            if not ready:
                if deadline.passed():
                    raise SolverTimeout(name, deadline.seconds or 0.0)
                continue
            for answered in ready:
                worker = pending.pop(answered)
                try:
                    kind, payload = cast(Connection, answered).recv()
                except EOFError:
                    kind, payload = "error", f"{worker.member.name}: the solver process died"
                if kind == "ok":
                    return worker, payload
                errors.append(payload)
                worker.stop()
        raise BackendError(f"{name}: every member failed ({'; '.join(errors)})")
    finally:
        for worker in pending.values():
            worker.stop()

