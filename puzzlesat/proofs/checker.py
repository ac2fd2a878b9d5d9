"""A DRUP/DRAT proof checker, written from the definitions and sharing no code with any solver.

A proof refutes a CNF formula when every lemma it adds is implied, in the sense below, by the formula
with the lemmas before it (less the clauses it deleted before it), and unit propagation on the formula
with all the lemmas reaches a conflict (the empty clause).

- A lemma ``C`` is **RUP** (reverse unit propagation) when assigning every literal of ``C`` false and
  propagating units reaches a conflict: then ``C`` is implied by the clauses used.
- A lemma ``C`` with first literal ``p`` is **RAT** (resolution asymmetric tautology) when for every
  clause ``D`` containing ``-p`` the resolvent ``C ∪ (D - {-p})`` is a tautology or RUP. Adding a RAT
  clause keeps the formula satisfiable (not equivalent), which is all a refutation needs.

The check runs the way drat-trim's backward mode does. A forward pass adds every clause and lemma and
propagates units at the top level until the conflict appears, without checking anything. The backward
pass then walks the proof from the conflict to the start: it marks the clauses the conflict was derived
from, and checks only marked lemmas, each against the clauses alive just before it was added, marking
in turn the clauses that check used. Lemmas that nothing needs are never checked; on solver proofs that
is most of them. Propagation is **core-first**: units are drawn from marked clauses before unmarked ones,
so that the conflicts found lean on clauses already in the core and the core stays small.

Deleting a clause that is the reason of a top-level unit is ignored, as drat-trim does (CaDiCaL, for one,
deletes satisfied reasons): keeping a clause only makes the formula stronger, and every clause kept is
itself part of the refutation's premises, so the check stays sound.

Two cores run this check: this module's, in pure Python, and :mod:`.compiled`'s, the same algorithm
compiled by numba, some ten times faster but with about 0.35 s of start-up. By
default a check starts in Python and starts again compiled once it has taken a quarter second, unless
its pace so far says it ends sooner than the compiled core could start
(:mod:`~puzzlesat.core.compiled`). Both walk alike, so they check the same lemmas and fail at the same
step with the same message.

Sizes: every clause and lemma is a Python list of ints (about 60 bytes plus 8 per literal) with two watch
entries, so memory is about 100-150 bytes per clause plus the literals; a proof of a million lemmas of
length 30 needs about 0.5 GB (the compiled core: 8 bytes a literal, about 100 a clause). Speed is
measured in BENCHMARKS.md.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..core import compiled as plain_then_compiled
from ..core.compiled import CompiledUnusable, TimeIsUp, compiled_available, interrupted_after
from ..core.errors import PuzzlesatError
from ..core.reporting import report_progress
from .reading import Step

#: the backward pass says how far it has come every this many proof steps (the status line's text)
PROGRESS_EVERY = 4096

_ADD, _DELETE, _KEPT = 0, 1, 2  # a lemma; a deletion carried out; a deletion of a reason, ignored

Core = Literal["auto", "python", "compiled"]


class ProofRejected(PuzzlesatError):
    """The proof does not refute the formula: names the first step that fails and why."""


@dataclass(frozen=True)
class Verdict:
    """What a successful check established, and what it cost."""

    lemmas: int  # lemmas in the proof
    checked: int  # lemmas the refutation needed, each checked (RUP or RAT)
    seconds: float
    core: str  # which core checked: "python" or "compiled"


class _Database:
    """Clauses with two watched literals and a top-level trail. Literals index lists directly: a list of
    ``2n+1`` entries holds literal ``-k`` at index ``-k`` (Python counts negative indexes from the end)."""

    def __init__(self, num_vars: int) -> None:
        size = 2 * num_vars + 1
        self.value = [0] * size  # per literal: 1 true, -1 false, 0 unassigned
        #: per literal, the clauses watching it, in two families so that the core pass of propagation
        #: reads only marked clauses and the other pass only unmarked ones (a clause marked later gets
        #: core watches then; its old entries are dropped when the other pass meets them)
        self.core_watches: list[list[int]] = [[] for _ in range(size)]
        self.rest_watches: list[list[int]] = [[] for _ in range(size)]
        self.reason = [-1] * (num_vars + 1)  # per variable: the clause that implied it (-1: assumed)
        self.position = [0] * (num_vars + 1)  # per variable: its place on the trail
        self.walked = bytearray(num_vars + 1)  # per variable: the reasons behind it are marked already
        self.trail: list[int] = []
        self.since: list[int] = []  # per trail entry: how far propagation had read the trail when it came
        self.core_head = self.all_head = 0  # how far each propagation mode has read the trail
        #: whether the trail is known to be the whole fixpoint; after undoing part of a top level that
        #: rested on a removed lemma, propagation resumes where it had been and may miss a unit, which
        #: can only make a check fail, never pass; a failing check then rereads the whole trail
        self.exact = True
        self.clauses: list[list[int]] = []
        self.alive = bytearray()
        self.marked = bytearray()
        self.units: set[int] = set()  # alive clauses of one literal: they watch nothing

    def add(self, literals: list[int]) -> int:
        self.clauses.append(literals)
        self.alive.append(0)
        self.marked.append(0)
        return len(self.clauses) - 1

    def attach(self, cid: int) -> int:
        """Make clause ``cid`` alive and watched, implying its literal when it is unit at the top level;
        returns ``cid`` when it is false there (a conflict), else -1. Propagation is the caller's."""
        self.alive[cid] = 1
        literals, value = self.clauses[cid], self.value
        if len(literals) == 1:
            self.units.add(cid)
            return self._imply(literals[0], cid)
        if value[literals[0]] == -1 or value[literals[1]] == -1:
            # watch the literals that are not false, else the false ones assigned last
            position = self.position
            literals.sort(key=lambda lit: len(position) if value[lit] != -1 else position[abs(lit)], reverse=True)
        watches = self.core_watches if self.marked[cid] else self.rest_watches
        watches[literals[0]].append(cid)
        watches[literals[1]].append(cid)
        if value[literals[1]] == -1 and value[literals[0]] != 1:
            return self._imply(literals[0], cid)
        return -1

    def _imply(self, literal: int, cid: int) -> int:
        value = self.value[literal]
        if value == -1:
            return cid
        if value == 0:
            self.assign(literal, cid)
        return -1

    def assign(self, literal: int, cid: int) -> None:
        self.value[literal] = 1
        self.value[-literal] = -1
        var = abs(literal)
        self.reason[var] = cid
        self.position[var] = len(self.trail)
        self.since.append(min(self.core_head, self.all_head))
        self.trail.append(literal)

    def undo(self, length: int) -> None:
        """Unassign the trail back to ``length`` entries; propagation rereads from where it had read when
        the first entry undone came, so that the clauses skipped as satisfied by it are seen again."""
        if length >= len(self.trail):
            return
        value, reason, walked = self.value, self.reason, self.walked
        again = self.since[length]
        for literal in self.trail[length:]:
            value[literal] = value[-literal] = 0
            var = abs(literal)
            reason[var] = -1
            walked[var] = 0
        del self.trail[length:]
        del self.since[length:]
        self.core_head = min(self.core_head, again)
        self.all_head = min(self.all_head, again)

    def propagate(self) -> int:
        """Unit propagation to a fixpoint, core-first: a conflict clause, or -1."""
        value, clauses, alive, marked, trail = self.value, self.clauses, self.alive, self.marked, self.trail
        reason, position, since = self.reason, self.position, self.since
        core, core_head, all_head = True, self.core_head, self.all_head
        while True:
            if core:
                if core_head == len(trail):
                    core = False
                    continue
                false = -trail[core_head]
                core_head += 1
                watches = self.core_watches
            else:
                if all_head == len(trail):
                    self.core_head, self.all_head = core_head, all_head
                    return -1
                false = -trail[all_head]
                all_head += 1
                watches = self.rest_watches
            watching = watches[false]
            j, found = 0, False
            for i, cid in enumerate(watching):
                literals = clauses[cid]
                first = literals[0]
                if not alive[cid] or (first != false and literals[1] != false) or (not core and marked[cid]):
                    continue  # removed, a watch since moved, or marked (watched in the core lists now)
                if first == false:
                    first = literals[1]
                    literals[0], literals[1] = first, false
                if value[first] != 1:
                    for k in range(2, len(literals)):
                        candidate = literals[k]
                        if value[candidate] != -1:
                            literals[1], literals[k] = candidate, false
                            watches[candidate].append(cid)
                            break
                    else:
                        if value[first] == -1:
                            watching[j] = cid
                            watching[j + 1:] = watching[i + 1:]
                            self.core_head, self.all_head = core_head, all_head
                            return cid
                        value[first], value[-first] = 1, -1  # assign(first, cid), inlined: the hot path
                        var = first if first > 0 else -first
                        reason[var], position[var] = cid, len(trail)
                        since.append(core_head if core_head < all_head else all_head)
                        trail.append(first)
                        found = True
                    if literals[1] != false:
                        continue  # the watch moved away: the entry goes
                watching[j] = cid
                j += 1
            del watching[j:]
            if found:  # back to the core clauses after any unit, from whichever clauses it came
                core = True

    def repropagate(self) -> int:
        """Reread the whole trail (and the unit clauses): the exact fixpoint; a conflict clause, or -1."""
        for cid in sorted(self.units):  # oldest first, as the compiled core does
            literal = self.clauses[cid][0]
            if self.value[literal] == 0:
                self.assign(literal, cid)
        self.core_head = self.all_head = 0
        self.exact = True
        return self.propagate()

    def mark_reasons(self, literals: Iterable[int]) -> None:
        """Mark the clauses that set each of ``literals``, and theirs in turn, back to the start. A
        variable walked once keeps its reasons marked while it stays assigned (marks are never taken
        back, and undo forgets the walk), so top-level chains are walked once, not once per check."""
        reason, clauses, marked, walked = self.reason, self.clauses, self.marked, self.walked
        stack = [lit if lit > 0 else -lit for lit in literals]
        while stack:
            var = stack.pop()
            if walked[var]:
                continue
            walked[var] = 1
            cid = reason[var]
            if cid >= 0:
                if not marked[cid]:
                    self.mark(cid)
                for lit in clauses[cid]:
                    var = lit if lit > 0 else -lit
                    if not walked[var]:
                        stack.append(var)

    def mark(self, cid: int) -> None:
        """Put a clause in the core: checked if it is a lemma, propagated first from now on."""
        self.marked[cid] = 1
        literals = self.clauses[cid]
        if self.alive[cid] and len(literals) > 1:
            self.core_watches[literals[0]].append(cid)
            self.core_watches[literals[1]].append(cid)

    def conflict_at(self, cid: int) -> None:
        if not self.marked[cid]:
            self.mark(cid)
        self.mark_reasons(self.clauses[cid])


def check_proof(formula: Iterable[Sequence[int]], proof: Sequence[Step], core: Core = "auto") -> Verdict:
    """Check that ``proof`` refutes ``formula``; a :class:`ProofRejected` names the failing step. ``core``:
    ``python``, ``compiled`` (numba must be installed), or ``auto``: Python for
    :data:`~puzzlesat.core.compiled.PLAIN_SECONDS`, then compiled where it can be, once the compiled
    core loads from numba's cache (compiled meanwhile in the background, the Python core going on)."""
    clauses = list(formula)
    if core == "compiled":
        return _compiled_check(clauses, proof)
    if core == "auto" and compiled_available():
        checker = _Checker(clauses, proof)
        try:
            with interrupted_after(plain_then_compiled.PLAIN_SECONDS,
                                   unless=lambda: checker.seconds_left() < plain_then_compiled.COMPILED_START
                                   or not _kernel_ready_soon()):
                return checker.run()
        except TimeIsUp:
            try:
                return _compiled_check(clauses, proof)
            except CompiledUnusable:  # numba cannot start here: Python to the end
                pass
    return _Checker(clauses, proof).run()


def _kernel_ready_soon() -> bool:
    """Whether the compiled core loads now (:meth:`~puzzlesat.processes.kernels.Kernel.ready_soon`: until it
    does, it is compiled in the background and the Python core goes on)."""
    from .compiled import KERNEL

    return KERNEL.ready_soon()


def _compiled_check(formula: list[Sequence[int]], proof: Sequence[Step]) -> Verdict:
    """The compiled core's check, its verdict told as the Python core tells it."""
    from . import compiled

    start = time.perf_counter()
    verdict, number, checked, lemmas, resolved = compiled.run(formula, proof)
    if verdict == compiled.EMPTY_NOT_IMPLIED:
        raise ProofRejected(_empty_not_implied(number))
    if verdict == compiled.NO_REFUTATION:
        raise ProofRejected(_NO_REFUTATION)
    if verdict == compiled.NOT_RAT:
        raise ProofRejected(_not_rat(number, proof[number - 1].literals, resolved))
    if verdict == compiled.INTERNAL:
        raise AssertionError(f"the compiled checker's top level conflicts early, at proof step {number}")
    return Verdict(lemmas, checked, time.perf_counter() - start, "compiled")


def _empty_not_implied(number: int) -> str:
    return f"proof step {number}: the empty clause is not implied (unit propagation on the clauses so far finds no conflict)"


_NO_REFUTATION = ("the proof does not refute the formula: unit propagation on the formula with every lemma finds no "
                  "conflict (no empty clause derived)")


def _not_rat(number: int, lemma: Sequence[int], resolved: Sequence[int]) -> str:
    return (f"proof step {number} ({' '.join(map(str, lemma))} 0): neither RUP nor RAT on {lemma[0]} (its resolvent "
            f"with clause {' '.join(map(str, resolved))} 0 is not RUP)")


class _Checker:
    """One check: the forward pass, then the backward pass over the steps it took."""

    def __init__(self, formula: list[Sequence[int]], proof: Sequence[Step]) -> None:
        self.start = time.perf_counter()
        self.formula, self.proof = formula, proof
        num_vars = max((abs(lit) for clause in formula for lit in clause), default=0)
        num_vars = max([num_vars] + [abs(lit) for step in proof for lit in step.literals])
        self.db = _Database(num_vars)
        self.by_key: dict[tuple[int, ...], list[int]] = {}  # sorted literals -> clauses, for deletions
        #: per proof step taken: (_ADD | _DELETE | _KEPT, clause), or None for a step that changes nothing
        self.done: list[tuple[int, int] | None] = []
        self.pivot: dict[int, int] = {}  # lemma -> its first literal as written (the RAT pivot)
        #: the backward pass's first step and start time, and the step it has walked back to
        self.backward: tuple[int, float] | None = None
        self.at = 0

    def seconds_left(self) -> float:
        """A guess at how long the check still takes: the backward pass's pace so far over the steps it
        has left (infinite before it starts, when nothing is known)."""
        if self.backward is None:
            return float("inf")
        stop, started = self.backward
        walked = stop - self.at + 1
        return (time.perf_counter() - started) / walked * self.at

    def run(self) -> Verdict:
        conflict, stop = self._forward()
        checked = 0
        if conflict >= 0:
            self.db.conflict_at(conflict)
            self.backward = (stop, time.perf_counter())
            checked = self._backward(stop)
        lemmas = sum(1 for step in self.proof if not step.deletion)
        return Verdict(lemmas, checked, time.perf_counter() - self.start, "python")

    def _new(self, literals: Iterable[int]) -> int | None:
        """A clause with repeated literals merged, or None for a tautology (true under every assignment,
        so never a reason nor a conflict, and implied by anything); -1 for the empty clause."""
        unique = list(dict.fromkeys(literals))
        if len(set(map(abs, unique))) < len(unique):
            return None
        if not unique:
            return -1
        cid = self.db.add(unique)
        self.by_key.setdefault(tuple(sorted(unique)), []).append(cid)
        return cid

    def _forward(self) -> tuple[int, int]:
        """Add everything until the top level conflicts: (the conflict clause, the steps taken), the
        clause -1 when the formula holds the empty clause."""
        db = self.db
        for clause in self.formula:
            cid = self._new(clause)
            if cid == -1:
                return -1, 0
            if cid is not None:
                conflict = db.attach(cid)
                if conflict < 0:
                    conflict = db.propagate()
                if conflict >= 0:
                    return conflict, 0
        for number, step in enumerate(self.proof, 1):
            if step.deletion:
                self.done.append(self._delete(step.literals))
                continue
            cid = self._new(step.literals)
            if cid == -1:  # the empty clause, but propagation has found no conflict
                raise ProofRejected(_empty_not_implied(number))
            self.done.append(None if cid is None else (_ADD, cid))
            if cid is None:
                continue
            self.pivot[cid] = step.literals[0]
            conflict = db.attach(cid)
            if conflict < 0:
                conflict = db.propagate()
            if conflict >= 0:
                return conflict, number
        raise ProofRejected(_NO_REFUTATION)

    def _delete(self, literals: tuple[int, ...]) -> tuple[int, int] | None:
        """Delete the latest alive clause with these literals, unless it is a top-level reason."""
        db = self.db
        ids = self.by_key.get(tuple(sorted(set(literals))), [])
        alive = [cid for cid in ids if db.alive[cid]]
        if not alive:
            return None  # deleting what is not there (or a tautology) changes nothing
        cid = alive[-1]
        first = db.clauses[cid][0]
        if db.value[first] == 1 and db.reason[abs(first)] == cid:
            return _KEPT, cid
        db.alive[cid] = 0
        db.units.discard(cid)
        return _DELETE, cid

    def _backward(self, stop: int) -> int:
        """Walk back from step ``stop``, checking every marked lemma: how many were checked."""
        db = self.db
        checked = 0
        for number in range(stop, 0, -1):
            self.at = number
            if not number % PROGRESS_EVERY:
                report_progress(f"proof check: {stop - number:,} of {stop:,} steps walked back, {checked:,} lemmas "
                                f"checked, about {max(1, round(self.seconds_left()))} s left")
            item = self.done[number - 1]
            if item is None:
                continue
            kind, cid = item
            if kind == _DELETE:
                if db.attach(cid) >= 0 or db.propagate() >= 0:
                    raise AssertionError("a clause deleted without a conflict conflicts when put back")
                db.exact = False
            elif kind == _ADD:
                self._detach(cid)
                if db.marked[cid]:
                    checked += 1
                    if not self._implied(db.clauses[cid]):
                        self._rat(cid, number)
        return checked

    def _detach(self, cid: int) -> None:
        """Take a lemma out, and with it every top-level unit that rested on it."""
        db = self.db
        db.alive[cid] = 0
        db.units.discard(cid)
        first = db.clauses[cid][0]
        if db.value[first] == 1 and db.reason[abs(first)] == cid:
            db.undo(db.position[abs(first)])
            db.exact = False
            if db.propagate() >= 0:
                raise AssertionError("the top level conflicts before the conflict the forward pass found")

    def _implied(self, literals: Sequence[int]) -> bool:
        """Whether the clause is RUP, first on the trail as it stands and, if that fails while the trail
        may be short of the fixpoint, again on the whole fixpoint."""
        if self._rup(literals):
            return True
        if self.db.exact:
            return False
        if self.db.repropagate() >= 0:
            raise AssertionError("the top level conflicts before the conflict the forward pass found")
        return self._rup(literals)

    def _rup(self, literals: Sequence[int]) -> bool:
        """Whether assuming every literal false propagates to a conflict; marks what the conflict used."""
        db = self.db
        value = db.value
        for literal in literals:
            if value[literal] == 1:  # true at the top level: its negation conflicts at once
                db.mark_reasons([literal])
                return True
        length = len(db.trail)
        for literal in literals:
            if value[literal] == 0:
                db.assign(-literal, -1)
        conflict = db.propagate()
        if conflict >= 0:
            db.conflict_at(conflict)
        db.undo(length)
        return conflict >= 0

    def _rat(self, cid: int, number: int) -> None:
        """Check the lemma is RAT on its first literal; a :class:`ProofRejected` when it is not."""
        db = self.db
        pivot, lemma = self.pivot[cid], db.clauses[cid]
        for other, literals in enumerate(db.clauses):
            if not db.alive[other] or -pivot not in literals:
                continue
            resolvent = lemma + [lit for lit in literals if lit != -pivot]
            if any(-lit in resolvent for lit in resolvent):
                continue  # a tautology
            if not self._implied(resolvent):
                raise ProofRejected(_not_rat(number, self.proof[number - 1].literals, literals))
