"""The checker of :mod:`.checker`, compiled by numba: the same check, step for step.

The pure-Python checker spends about 1.9 us on each literal it propagates, and the refutation behind an
8x8 jig's count propagates millions; this core runs the same algorithm over flat arrays, compiled. It is
written from :mod:`.checker`'s definitions, not from any solver's code, and it walks the same way: the
same forward pass, the same backward pass, the same core-first propagation in the same order, the same
deletion rule, the same RAT pivot. So both cores accept and reject the same proofs and check the same
lemmas (tests/test_proofs.py holds them to it, lemma count for lemma count, on real and on randomly
mutated proofs); the pure-Python core stays as the fallback without numba and as this one's cross-check.

Layout. A literal ``l`` indexes per-literal arrays at ``l + n`` (``n`` variables). Clauses live in one
arena (``start``/``size`` per clause; watching reorders their literals in place, as the Python core
reorders its lists). Watch lists are growable vectors in one pool: list ``w`` holds ``count[w]`` clause
numbers from ``begin[w]``, with room for ``room[w]``; a full list moves to the pool's end with twice the
room, and a full pool is copied into one twice as big, which is why every function that may add a watch
returns the pool. Lists ``0 .. 2n`` are the core family (marked clauses), ``2n+1 ..`` the others.
Deletions find their clause through an open-addressed table keyed by a hash of the literal set (the same
in any order), each slot chaining its clauses newest first; a match is confirmed literal by literal.

The kernel returns a verdict code and the step it concerns; :func:`check` turns it into the message the
pure-Python core raises.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from ..processes.kernels import Kernel
from .reading import Step

#: the kernel's verdicts
ACCEPTED, EMPTY_NOT_IMPLIED, NO_REFUTATION, NOT_RAT, INTERNAL = range(5)
#: scalars kept in one array: propagation's two read heads, the trail's length, whether the trail is the
#: exact fixpoint, the pool's first free slot, the clauses made so far and the arena's first free slot,
#: ``n`` (a literal's offset), the last stamp used to mark a set of literals, and the unit clauses made
CORE_HEAD, ALL_HEAD, TRAIL, EXACT, POOL_TOP, CLAUSES, ARENA, OFFSET, TOKEN, UNITS = range(10)
#: what the forward pass did at each proof step (as in :mod:`.checker`): nothing, a lemma added, a
#: clause deleted, a deletion of a top-level reason ignored
NOTHING, ADDED, DELETED, KEPT = range(4)

def kernel() -> Any:
    """The compiled check, built on first use or loaded from numba's cache (numba is imported only
    then, and only when a proof is checked this way)."""
    return KERNEL.entry()


# -- watch lists


def _push(st: Any, begin: Any, count: Any, room: Any, pool: Any, w: int, cid: int) -> Any:
    """Append ``cid`` to watch list ``w``; returns the pool (a bigger copy when it was full)."""
    if count[w] == room[w]:
        size = max(4, 2 * room[w])
        top = st[POOL_TOP]
        if top + size > pool.shape[0]:
            bigger = np.zeros(2 * (top + size), dtype=np.int64)
            bigger[:top] = pool[:top]
            pool = bigger
        for k in range(count[w]):
            pool[top + k] = pool[begin[w] + k]
        begin[w] = top
        room[w] = size
        st[POOL_TOP] = top + size
    pool[begin[w] + count[w]] = cid
    count[w] += 1
    return pool




# -- the trail (``db``: see :func:`_database` for what each entry is)


def _assign(db: Any, lit: int, cid: int) -> None:
    st, value, reason, position, trail, since = db[0], db[1], db[2], db[3], db[5], db[6]
    n = st[OFFSET]
    value[n + lit] = 1
    value[n - lit] = -1
    var = lit if lit > 0 else -lit
    reason[var] = cid
    t = st[TRAIL]
    position[var] = t
    since[t] = st[CORE_HEAD] if st[CORE_HEAD] < st[ALL_HEAD] else st[ALL_HEAD]
    trail[t] = lit
    st[TRAIL] = t + 1


def _undo(db: Any, length: int) -> None:
    """Unassign the trail back to ``length`` entries; propagation rereads from where it had read when
    the first entry undone came."""
    st, value, reason, walked, trail, since = db[0], db[1], db[2], db[4], db[5], db[6]
    if length >= st[TRAIL]:
        return
    n = st[OFFSET]
    again = since[length]
    for t in range(length, st[TRAIL]):
        lit = trail[t]
        value[n + lit] = 0
        value[n - lit] = 0
        var = lit if lit > 0 else -lit
        reason[var] = -1
        walked[var] = 0
    st[TRAIL] = length
    if again < st[CORE_HEAD]:
        st[CORE_HEAD] = again
    if again < st[ALL_HEAD]:
        st[ALL_HEAD] = again


def _imply(db: Any, lit: int, cid: int) -> int:
    v = db[1][db[0][OFFSET] + lit]
    if v == -1:
        return cid
    if v == 0:
        _assign(db, lit, cid)
    return -1


# -- clauses


def _attach(db: Any, pool: Any, cid: int) -> tuple[int, Any]:
    """Make clause ``cid`` alive and watched, implying its literal when it is unit at the top level:
    (``cid`` when it is false there, else -1; the pool)."""
    st, value, position, start, size, alive, marked, arena = db[0], db[1], db[3], db[7], db[8], db[9], db[10], db[11]
    n = st[OFFSET]
    alive[cid] = 1
    s, length = start[cid], size[cid]
    if length == 1:
        return _imply(db, arena[s], cid), pool
    if value[n + arena[s]] == -1 or value[n + arena[s + 1]] == -1:
        # watch the literals that are not false (in their order), then the false ones assigned last
        literals = arena[s:s + length].copy()
        k = s
        for lit in literals:
            if value[n + lit] != -1:
                arena[k] = lit
                k += 1
        first_false = k
        for lit in literals:
            if value[n + lit] == -1:
                at = lit if lit > 0 else -lit
                j = k
                while j > first_false and position[abs(arena[j - 1])] < position[at]:
                    arena[j] = arena[j - 1]
                    j -= 1
                arena[j] = lit
                k += 1
    family = 0 if marked[cid] else 2 * n + 1
    pool = _push(db[0], db[12], db[13], db[14], pool, family + n + arena[s], cid)
    pool = _push(db[0], db[12], db[13], db[14], pool, family + n + arena[s + 1], cid)
    if value[n + arena[s + 1]] == -1 and value[n + arena[s]] != 1:
        return _imply(db, arena[s], cid), pool
    return -1, pool


def _propagate(db: Any, pool: Any) -> tuple[int, Any]:
    """Unit propagation to a fixpoint, core-first: (a conflict clause or -1, the pool)."""
    st, value, reason, position, trail, since = db[0], db[1], db[2], db[3], db[5], db[6]
    start, size, alive, marked, arena, begin, count = db[7], db[8], db[9], db[10], db[11], db[12], db[13]
    n = st[OFFSET]
    core_head, all_head = st[CORE_HEAD], st[ALL_HEAD]
    core = True
    while True:
        if core:
            if core_head == st[TRAIL]:
                core = False
                continue
            false = -trail[core_head]
            core_head += 1
            family = 0
        else:
            if all_head == st[TRAIL]:
                st[CORE_HEAD], st[ALL_HEAD] = core_head, all_head
                return -1, pool
            false = -trail[all_head]
            all_head += 1
            family = 2 * n + 1
        w = family + n + false
        b, c = begin[w], count[w]
        j, i, found = 0, 0, False
        while i < c:
            cid = pool[b + i]
            i += 1
            s = start[cid]
            first = arena[s]
            if alive[cid] == 0 or (first != false and arena[s + 1] != false) or (family != 0 and marked[cid] == 1):
                continue  # removed, a watch since moved, or marked (watched in the core lists now)
            if first == false:
                first = arena[s + 1]
                arena[s], arena[s + 1] = first, false
            if value[n + first] != 1:
                moved = False
                for k in range(s + 2, s + size[cid]):
                    candidate = arena[k]
                    if value[n + candidate] != -1:
                        arena[s + 1], arena[k] = candidate, false
                        pool = _push(db[0], db[12], db[13], db[14], pool, family + n + candidate, cid)
                        moved = True
                        break
                if moved:
                    continue  # the watch moved away: the entry goes
                if value[n + first] == -1:
                    pool[b + j] = cid
                    j += 1
                    for k in range(i, c):
                        pool[b + j] = pool[b + k]
                        j += 1
                    count[w] = j
                    st[CORE_HEAD], st[ALL_HEAD] = core_head, all_head
                    return cid, pool
                value[n + first], value[n - first] = 1, -1
                var = first if first > 0 else -first
                t = st[TRAIL]
                reason[var], position[var] = cid, t
                since[t] = core_head if core_head < all_head else all_head
                trail[t] = first
                st[TRAIL] = t + 1
                found = True
            pool[b + j] = cid
            j += 1
        count[w] = j
        if found:  # back to the core clauses after any unit, from whichever clauses it came
            core = True


def _repropagate(db: Any, pool: Any) -> tuple[int, Any]:
    """Reread the whole trail (and the unit clauses, oldest first): the exact fixpoint."""
    st, value, start, alive, arena, units = db[0], db[1], db[7], db[9], db[11], db[16]
    n = st[OFFSET]
    for u in range(st[UNITS]):
        cid = units[u]
        if alive[cid] == 1:
            lit = arena[start[cid]]
            if value[n + lit] == 0:
                _assign(db, lit, cid)
    st[CORE_HEAD], st[ALL_HEAD], st[EXACT] = 0, 0, 1
    return _propagate(db, pool)


# -- the core


def _mark(db: Any, pool: Any, cid: int) -> Any:
    """Put a clause in the core: checked if it is a lemma, propagated first from now on."""
    st, start, size, alive, marked, arena = db[0], db[7], db[8], db[9], db[10], db[11]
    n = st[OFFSET]
    marked[cid] = 1
    if alive[cid] == 1 and size[cid] > 1:
        pool = _push(db[0], db[12], db[13], db[14], pool, n + arena[start[cid]], cid)
        pool = _push(db[0], db[12], db[13], db[14], pool, n + arena[start[cid] + 1], cid)
    return pool


def _mark_reasons(db: Any, pool: Any, literals: Any) -> Any:
    """Mark the clauses that set each of ``literals``, and theirs in turn, back to the start (a
    variable walked once stays walked while it is assigned)."""
    reason, walked, start, size, marked, arena = db[2], db[4], db[7], db[8], db[10], db[11]
    stack = np.empty(max(64, 2 * literals.shape[0]), dtype=np.int64)
    top = 0
    for lit in literals:
        stack[top] = lit if lit > 0 else -lit
        top += 1
    while top > 0:
        top -= 1
        var = stack[top]
        if walked[var] == 1:
            continue
        walked[var] = 1
        cid = reason[var]
        if cid >= 0:
            if marked[cid] == 0:
                pool = _mark(db, pool, cid)
            for k in range(start[cid], start[cid] + size[cid]):
                lit = arena[k]
                other = lit if lit > 0 else -lit
                if walked[other] == 0:
                    if top == stack.shape[0]:
                        bigger = np.empty(2 * top, dtype=np.int64)
                        bigger[:top] = stack
                        stack = bigger
                    stack[top] = other
                    top += 1
    return pool


def _conflict_at(db: Any, pool: Any, cid: int) -> Any:
    if db[10][cid] == 0:
        pool = _mark(db, pool, cid)
    s = db[7][cid]
    return _mark_reasons(db, pool, db[11][s:s + db[8][cid]].copy())


def _rup(db: Any, pool: Any, literals: Any) -> tuple[bool, Any]:
    """Whether assuming every literal false propagates to a conflict; marks what the conflict used."""
    st, value = db[0], db[1]
    n = st[OFFSET]
    for k in range(literals.shape[0]):
        if value[n + literals[k]] == 1:  # true at the top level: its negation conflicts at once
            return True, _mark_reasons(db, pool, literals[k:k + 1])
    length = st[TRAIL]
    for lit in literals:
        if value[n + lit] == 0:
            _assign(db, -lit, -1)
    conflict, pool = _propagate(db, pool)
    if conflict >= 0:
        pool = _conflict_at(db, pool, conflict)
    _undo(db, length)
    return conflict >= 0, pool


def _implied(db: Any, pool: Any, literals: Any) -> tuple[int, Any]:
    """1 when the clause is RUP (on the trail as it stands or, where that may be short of the fixpoint,
    on the whole fixpoint), 0 when not, -1 when the top level conflicts early (a defect of ours)."""
    ok, pool = _rup(db, pool, literals)
    if ok:
        return 1, pool
    if db[0][EXACT] == 1:
        return 0, pool
    conflict, pool = _repropagate(db, pool)
    if conflict >= 0:
        return -1, pool
    ok, pool = _rup(db, pool, literals)
    return (1 if ok else 0), pool


def _detach(db: Any, pool: Any, cid: int) -> tuple[bool, Any]:
    """Take a lemma out, and with it every top-level unit that rested on it; False when the top level
    then conflicts (a defect of ours)."""
    st, value, reason, position, start, alive, arena = db[0], db[1], db[2], db[3], db[7], db[9], db[11]
    alive[cid] = 0
    first = arena[start[cid]]
    var = first if first > 0 else -first
    if value[st[OFFSET] + first] == 1 and reason[var] == cid:
        _undo(db, position[var])
        st[EXACT] = 0
        conflict, pool = _propagate(db, pool)
        if conflict >= 0:
            return False, pool
    return True, pool


# -- clauses made from the input, and found again for deletion


def _key(literals: Any) -> int:
    """A hash of a set of literals, the same in any order (a sum of each literal's mix)."""
    h = literals.shape[0] * 1442695040888963407
    for lit in literals:
        x = lit * 6364136223846793005 + 1442695040888963407
        x ^= x >> 29
        x *= 2862933555777941757
        h += x ^ (x >> 32)
    return int(h)


def _same_set(db: Any, cid: int, literals: Any, token: int) -> bool:
    """Whether clause ``cid`` has exactly ``literals`` (stamped with ``token``, repeats removed)."""
    stamp, n, s = db[15], db[0][OFFSET], db[7][cid]
    if db[8][cid] != literals.shape[0]:
        return False
    for k in range(s, s + db[8][cid]):
        if stamp[n + db[11][k]] != token:
            return False
    return True


def _unique(db: Any, literals: Any) -> tuple[Any, bool, int]:
    """``literals`` with repeats removed (first occurrence kept), whether they hold a literal and its
    negation, and the stamp that marks them."""
    st, stamp = db[0], db[15]
    n = st[OFFSET]
    st[TOKEN] += 1
    token = st[TOKEN]
    unique = np.empty(literals.shape[0], dtype=np.int64)
    k, tautology = 0, False
    for lit in literals:
        if stamp[n + lit] == token:
            continue
        if stamp[n - lit] == token:
            tautology = True
        stamp[n + lit] = token
        unique[k] = lit
        k += 1
    return unique[:k], tautology, token


def _new_clause(db: Any, table: Any, literals: Any) -> int:
    """Store a clause (repeats merged) and index it by its literal set: its number, -1 for the empty
    clause, -2 for a tautology (true under every assignment: never a reason nor a conflict)."""
    st, start, size, arena, chained = db[0], db[7], db[8], db[11], db[17]
    unique, tautology, _ = _unique(db, literals)
    if tautology:
        return -2
    if unique.shape[0] == 0:
        return -1
    cid, top = st[CLAUSES], st[ARENA]
    st[CLAUSES] = cid + 1
    start[cid], size[cid] = top, unique.shape[0]
    arena[top:top + unique.shape[0]] = unique
    st[ARENA] = top + unique.shape[0]
    if unique.shape[0] == 1:
        db[16][st[UNITS]] = cid
        st[UNITS] += 1
    h = _key(unique)
    slot = _slot(table, h)
    table[0, slot] = h
    chained[cid] = table[1, slot]
    table[1, slot] = cid
    return int(cid)


def _slot(table: Any, h: int) -> int:
    """The table slot of hash ``h``, or the empty slot where it would go: row 0 holds the hashes, row 1
    each slot's newest clause (-1: an empty slot)."""
    mask = table.shape[1] - 1
    slot = h & mask
    while table[1, slot] != -1 and table[0, slot] != h:
        slot = (slot + 1) & mask
    return int(slot)


def _delete(db: Any, table: Any, literals: Any) -> tuple[int, int]:
    """Delete the latest alive clause with these literals, unless it is a top-level reason: (what was
    done, the clause)."""
    st, value, reason, start, alive, arena, chained = db[0], db[1], db[2], db[7], db[9], db[11], db[17]
    unique, tautology, token = _unique(db, literals)
    if tautology:
        return NOTHING, -1
    cid = table[1, _slot(table, _key(unique))]
    while cid >= 0 and not (alive[cid] == 1 and _same_set(db, cid, unique, token)):
        cid = chained[cid]
    if cid < 0:
        return NOTHING, -1  # deleting what is not there changes nothing
    first = arena[start[cid]]
    if value[st[OFFSET] + first] == 1 and reason[first if first > 0 else -first] == cid:
        return KEPT, cid
    alive[cid] = 0
    return DELETED, cid


# -- the check


def _check(db: Any, pool: Any, table: Any, pivot: Any, done: Any, f_lits: Any, f_start: Any, p_lits: Any,
           p_start: Any, p_deleted: Any, out: Any) -> None:
    """The forward pass, then the backward pass (as :class:`~.checker._Checker`); writes the verdict,
    the step it concerns, the clause a failed RAT check resolved with, and the lemmas checked to
    ``out``."""
    conflict, stop = -1, 0
    out[0], out[1], out[2], out[3] = ACCEPTED, 0, -1, 0
    for i in range(f_start.shape[0] - 1):
        cid = _new_clause(db, table, f_lits[f_start[i]:f_start[i + 1]])
        if cid == -1:
            return  # the formula holds the empty clause: refuted with nothing to check
        if cid == -2:
            continue
        conflict, pool = _attach(db, pool, cid)
        if conflict < 0:
            conflict, pool = _propagate(db, pool)
        if conflict >= 0:
            break
    if conflict < 0:
        for step in range(p_start.shape[0] - 1):
            number = step + 1
            literals = p_lits[p_start[step]:p_start[step + 1]]
            if p_deleted[step] == 1:
                done[0, step], done[1, step] = _delete(db, table, literals)
                continue
            cid = _new_clause(db, table, literals)
            if cid == -1:
                out[0], out[1] = EMPTY_NOT_IMPLIED, number
                return
            if cid == -2:
                continue
            done[0, step], done[1, step] = ADDED, cid
            pivot[cid] = literals[0]
            conflict, pool = _attach(db, pool, cid)
            if conflict < 0:
                conflict, pool = _propagate(db, pool)
            if conflict >= 0:
                stop = number
                break
        if conflict < 0:
            out[0] = NO_REFUTATION
            return
    pool = _conflict_at(db, pool, conflict)
    st, start, size, alive, marked, arena = db[0], db[7], db[8], db[9], db[10], db[11]
    checked = 0
    for number in range(stop, 0, -1):
        kind, cid = done[0, number - 1], done[1, number - 1]
        if kind == DELETED:
            conflict, pool = _attach(db, pool, cid)
            if conflict < 0:
                conflict, pool = _propagate(db, pool)
            if conflict >= 0:
                out[0], out[1] = INTERNAL, number
                return
            st[EXACT] = 0
        elif kind == ADDED:
            ok, pool = _detach(db, pool, cid)
            if not ok:
                out[0], out[1] = INTERNAL, number
                return
            if marked[cid] == 0:
                continue
            checked += 1
            out[3] = checked
            lemma = arena[start[cid]:start[cid] + size[cid]].copy()
            implied, pool = _implied(db, pool, lemma)
            if implied == 1:
                continue
            if implied < 0:
                out[0], out[1] = INTERNAL, number
                return
            # RAT on the pivot: every resolvent with a clause holding its negation is a tautology or RUP
            for other in range(st[CLAUSES]):
                if alive[other] == 0:
                    continue
                s, length = start[other], size[other]
                holds = False
                for k in range(s, s + length):
                    if arena[k] == -pivot[cid]:
                        holds = True
                        break
                if not holds:
                    continue
                resolvent = np.empty(lemma.shape[0] + length - 1, dtype=np.int64)
                resolvent[:lemma.shape[0]] = lemma
                r = lemma.shape[0]
                for k in range(s, s + length):
                    if arena[k] != -pivot[cid]:
                        resolvent[r] = arena[k]
                        r += 1
                resolvent = resolvent[:r]
                _, tautology, _ = _unique(db, resolvent)
                if tautology:
                    continue
                implied, pool = _implied(db, pool, resolvent)
                if implied < 0:
                    out[0], out[1] = INTERNAL, number
                    return
                if implied == 0:
                    out[0], out[1], out[2] = NOT_RAT, number, other
                    return
    out[3] = checked


#: the kernel's functions, callees before callers (the order :func:`kernel` compiles them in)
_ORDER = ("_push", "_assign", "_undo", "_imply", "_attach", "_propagate", "_repropagate", "_mark",
          "_mark_reasons", "_conflict_at", "_rup", "_implied", "_detach", "_key", "_same_set", "_unique",
          "_slot", "_new_clause", "_delete", "_check")


#: the small functions called per literal, compiled into their callers (a call passes ``db``'s arrays
#: and counts their references, which costs more than the work)
_INLINED = frozenset({"_push", "_assign", "_undo", "_imply"})


def _warm() -> None:
    """Compile the kernel for the types every check passes: a check of the smallest refutation."""
    from .checker import check_proof

    check_proof([[1], [-1]], [Step(())], core="compiled")


#: the proof checker's kernel (:class:`~puzzlesat.processes.kernels.Kernel`)
KERNEL = Kernel(globals(), _ORDER, "the proof checker", _warm, _INLINED)


def flattened(clauses: Sequence[Sequence[int]]) -> tuple[Any, Any]:
    """Clauses as one array of literals and the offsets where each starts (and the last ends)."""
    sizes = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
    starts = np.zeros(len(clauses) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    literals = np.fromiter(chain.from_iterable(clauses), dtype=np.int64, count=int(starts[-1]))
    return literals, starts


def run(formula: Sequence[Sequence[int]], proof: Sequence[Step]) -> tuple[int, int, int, int, list[int]]:
    """Check ``proof`` against ``formula``: (verdict, the step it concerns, lemmas checked, lemmas in the
    proof, the clause a failed RAT check resolved with: its literals as they stood)."""
    f_lits, f_start = flattened(formula)
    p_lits, p_start = flattened([step.literals for step in proof])
    p_deleted = np.fromiter((step.deletion for step in proof), dtype=np.uint8, count=len(proof))
    lemmas = len(proof) - int(p_deleted.sum())
    n = int(max(np.abs(f_lits).max(initial=0), np.abs(p_lits).max(initial=0)))
    clauses = len(formula) + lemmas
    literals = 2 * n + 1
    st = np.zeros(UNITS + 1, dtype=np.int64)
    st[OFFSET], st[EXACT] = n, 1
    db = (st, np.zeros(literals, dtype=np.int8), np.full(n + 1, -1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
          np.zeros(n + 1, dtype=np.uint8), np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
          np.zeros(clauses, dtype=np.int64), np.zeros(clauses, dtype=np.int64), np.zeros(clauses, dtype=np.uint8),
          np.zeros(clauses, dtype=np.uint8), np.zeros(len(f_lits) + len(p_lits), dtype=np.int64),
          np.zeros(2 * literals, dtype=np.int64), np.zeros(2 * literals, dtype=np.int64),
          np.zeros(2 * literals, dtype=np.int64), np.zeros(literals, dtype=np.int64),
          np.zeros(clauses, dtype=np.int64), np.full(clauses, -1, dtype=np.int64))
    table = np.full((2, 1 << max(4, (2 * clauses).bit_length())), -1, dtype=np.int64)
    done = np.zeros((2, len(proof)), dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    pool = np.zeros(8 * clauses + 16, dtype=np.int64)
    kernel()(db, pool, table, np.zeros(clauses, dtype=np.int64), done, f_lits, f_start, p_lits, p_start, p_deleted, out)
    other = int(out[2])
    resolved = [] if other < 0 else [int(x) for x in db[11][db[7][other]:db[7][other] + db[8][other]]]
    return int(out[0]), int(out[1]), int(out[3]), lemmas, resolved
