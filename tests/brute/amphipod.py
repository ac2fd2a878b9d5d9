"""Amphipod by brute force: Dijkstra over every burrow state, every move the rules of docs/puzzles.md
(section 4) allow, no estimate and no shortcut (an amphipod may even stop in a slot of its room above
an empty one). Only for small burrows."""
from __future__ import annotations

import heapq
import random


def parse(text: str) -> tuple[int, list[int], list[list[int | None]]]:
    """(hallway length, the hallway cell above each room, each room's amphipods from the top)."""
    lines = [line for line in text.splitlines() if line.strip()]
    hallway = lines[1].index("#", 1) - 1
    room_lines = [line for line in lines[2:] if any(ch.isalpha() for ch in line)]
    columns = [c for c, ch in enumerate(room_lines[0]) if ch.isalpha()]
    rooms = [[ord(line[c]) - ord("A") for line in room_lines] for c in columns]
    return hallway, [c - 1 for c in columns], rooms  # type: ignore[return-value]


def least_energy(text: str, most_states: int = 200_000) -> int | None:
    """The least energy, or None when no plan sorts the burrow."""
    hallway, doors, start_rooms = parse(text)
    kinds = len(doors)
    stops = [x for x in range(hallway) if x not in doors]
    start = (tuple([None] * hallway), tuple(tuple(room) for room in start_rooms))
    best = {start: 0}
    queue = [(0, 0, start)]
    tie = 1
    while queue:
        energy, _, state = heapq.heappop(queue)
        if energy > best[state]:
            continue
        hall, rooms = state
        if all(all(a == k for a in room) for k, room in enumerate(rooms)):
            return energy
        if len(best) > most_states:
            raise RuntimeError("too many states for brute force")
        for cost, after in _moves(hall, rooms, doors, stops, kinds):
            total = energy + cost
            if total < best.get(after, total + 1):
                best[after] = total
                heapq.heappush(queue, (total, tie, after))
                tie += 1
    return None


def _clear(hall: tuple, a: int, b: int) -> bool:
    """No amphipod on the hallway cells from a to b, a excluded."""
    step = 1 if b > a else -1
    return all(hall[x] is None for x in range(a + step, b + step, step)) if a != b else True


def _entries(rooms: tuple, kind: int) -> list[int]:
    """The slots an amphipod of ``kind`` may stop in when entering its room: free, reachable from the
    door, and only while the room holds no amphipod of another type."""
    room = rooms[kind]
    if any(a is not None and a != kind for a in room):
        return []
    slots = []
    for s, a in enumerate(room):
        if a is not None:
            break
        slots.append(s)
    return slots


def _put(rooms: tuple, k: int, slot: int, value) -> tuple:
    room = list(rooms[k])
    room[slot] = value
    return rooms[:k] + (tuple(room),) + rooms[k + 1:]


def _moves(hall: tuple, rooms: tuple, doors: list[int], stops: list[int], kinds: int):
    for x, kind in enumerate(hall):  # hallway -> own room
        if kind is not None and _clear(hall, x, doors[kind]):
            for slot in _entries(rooms, kind):
                after_hall = hall[:x] + (None,) + hall[x + 1:]
                yield (abs(x - doors[kind]) + slot + 1) * 10 ** kind, (after_hall, _put(rooms, kind, slot, kind))
    for k, room in enumerate(rooms):
        top = next((s for s, a in enumerate(room) if a is not None), None)
        if top is None:
            continue
        kind = room[top]
        if all(a == k for a in room[top:]):
            continue  # it and everyone below are home: it never moves
        emptied = _put(rooms, k, top, None)
        for stop in stops:  # room -> a hallway stop
            if hall[stop] is None and _clear(hall, doors[k], stop) and hall[doors[k]] is None:
                yield (top + 1 + abs(stop - doors[k])) * 10 ** kind, (hall[:stop] + (kind,) + hall[stop + 1:], emptied)
        if kind != k and hall[doors[k]] is None and _clear(hall, doors[k], doors[kind]):  # room -> own room
            for slot in _entries(emptied, kind):
                steps = top + 1 + abs(doors[k] - doors[kind]) + slot + 1
                yield steps * 10 ** kind, (hall, _put(emptied, kind, slot, kind))


def random_burrow(rng: random.Random, rooms: int, depth: int) -> str:
    """A drawing in the puzzle's shape (two hallway cells at each end, one between rooms) with the
    amphipods shuffled: some such burrows have no plan at all."""
    amphipods = [k for k in range(rooms) for _ in range(depth)]
    rng.shuffle(amphipods)
    width = 2 * rooms + 3
    lines = ["#" * (width + 2), "#" + "." * width + "#"]
    for slot in range(depth):
        cells = "#".join(chr(ord("A") + amphipods[k * depth + slot]) for k in range(rooms))
        lines.append(("###" if slot == 0 else "  #") + cells + ("###" if slot == 0 else "#"))
    lines.append("  " + "#" * (2 * rooms + 1))
    return "\n".join(lines) + "\n"
