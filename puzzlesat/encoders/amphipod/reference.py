"""Reference method without any solver: A* over burrow states, plan rebuilt from parent links. Used by
``crosscheck`` and the tests as the independent optimum. It takes the burrow and the checker's notion
of a state and a goal, and no helper of the encoders (step costs and walks are its own).

Moves are generated here directly from the rules (not through the checker's ``apply``, which validates
every detail and is several times slower). One safe pruning: an amphipod that can go home does so at
once, and then no other move is tried from that state (going home never blocks anybody and its cost is
the same whenever it happens). The A* estimate is admissible: every amphipod still to move walks at
least to its room's door and one step in.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterator
from itertools import count

from .burrow import Burrow
from .rules import Cell, Move, State, is_goal, start_state

Rooms = tuple[tuple[Cell, ...], ...]


def step_cost(kind: int) -> int:
    """Energy per step: 1 for A, 10 for B, 100 for C, ..."""
    return int(10 ** kind)


def between(a: int, b: int) -> range:
    """The hallway cells a walk from ``a`` to ``b`` enters (``b`` included, ``a`` not)."""
    return range(a + 1, b + 1) if b > a else range(a - 1, b - 1, -1)


def cheapest_plan(burrow: Burrow) -> tuple[int, list[Move]] | None:
    """The least energy and one plan reaching it; None when no plan reaches the goal."""
    start = start_state(burrow)
    best: dict[State, int] = {start: 0}
    parent: dict[State, tuple[State, Move]] = {}
    tie = count()
    queue = [(_estimate(burrow, start), next(tie), 0, start)]
    while queue:
        _, _, energy, state = heapq.heappop(queue)
        if energy > best[state]:
            continue
        if is_goal(burrow, state):
            plan = []
            while state in parent:
                state, move = parent[state]
                plan.append(move)
            return energy, plan[::-1]
        for move, after, cost in _successors(burrow, state):
            total = energy + cost
            if total < best.get(after, total + 1):
                best[after] = total
                parent[after] = (state, move)
                heapq.heappush(queue, (total + _estimate(burrow, after), next(tie), total, after))
    return None


def _estimate(burrow: Burrow, state: State) -> int:
    """A lower bound on the energy still needed (blocking ignored)."""
    hall, rooms = state
    total = 0
    for x, kind in enumerate(hall):
        if kind is not None:
            total += (abs(x - burrow.room_x[kind]) + 1) * step_cost(kind)
    for k, room in enumerate(rooms):
        stays = True
        for slot in range(len(room) - 1, -1, -1):
            kind = room[slot]
            if kind is None:
                continue
            stays = stays and kind == k
            if not stays:
                across = abs(burrow.room_x[k] - burrow.room_x[kind]) or 2
                total += (slot + 1 + across + 1) * step_cost(kind)
    return total


def _successors(burrow: Burrow, state: State) -> Iterator[tuple[Move, State, int]]:
    hall, rooms = state
    home_moves = list(_home_moves(burrow, hall, rooms))
    if home_moves:
        yield home_moves[0]
        return
    for k, room in enumerate(rooms):
        slot = next((s for s, kind in enumerate(room) if kind is not None), None)
        if slot is None or all(kind == k for kind in room[slot:]):
            continue
        kind, x = room[slot], burrow.room_x[k]
        assert kind is not None  # the slot was found as the first occupied one
        emptied = _set(rooms, k, slot, None)
        for stop in burrow.stops:
            if _clear(hall, x, stop):
                steps = slot + 1 + abs(stop - x)
                after = (hall[:stop] + (kind,) + hall[stop + 1:], emptied)
                yield Move(kind, ("room", k, slot), ("hall", stop)), after, steps * step_cost(kind)


def _home_moves(burrow: Burrow, hall: tuple[Cell, ...], rooms: Rooms) -> Iterator[tuple[Move, State, int]]:
    for x, kind in enumerate(hall):
        if kind is not None:
            slot = _home_slot(rooms, kind)
            home_x = burrow.room_x[kind]
            if slot is not None and _clear(hall, x, home_x):
                after_hall = hall[:x] + (None,) + hall[x + 1:]
                steps = abs(home_x - x) + slot + 1
                yield (Move(kind, ("hall", x), ("room", kind, slot)), (after_hall, _set(rooms, kind, slot, kind)),
                       steps * step_cost(kind))
    for k, room in enumerate(rooms):
        top = next((s for s, kind in enumerate(room) if kind is not None), None)
        if top is None or room[top] == k:
            continue
        kind = room[top]
        assert kind is not None  # the first occupied slot
        slot = _home_slot(rooms, kind)
        if slot is not None and _clear(hall, burrow.room_x[k], burrow.room_x[kind]):
            steps = top + 1 + abs(burrow.room_x[kind] - burrow.room_x[k]) + slot + 1
            after_rooms = _set(_set(rooms, k, top, None), kind, slot, kind)
            yield Move(kind, ("room", k, top), ("room", kind, slot)), (hall, after_rooms), steps * step_cost(kind)


def _set(rooms: Rooms, k: int, slot: int, value: Cell) -> Rooms:
    room = rooms[k]
    return rooms[:k] + (room[:slot] + (value,) + room[slot + 1:],) + rooms[k + 1:]


def _home_slot(rooms: Rooms, kind: int) -> int | None:
    """The slot an amphipod of ``kind`` would enter now, or None while its room holds strangers."""
    room = rooms[kind]
    free = -1
    for s, other in enumerate(room):
        if other is None:
            free = s
        elif other != kind:
            return None
    return free if free >= 0 else None


def _clear(hall: tuple[Cell, ...], start: int, end: int) -> bool:
    return start == end or all(hall[x] is None for x in between(start, end))
