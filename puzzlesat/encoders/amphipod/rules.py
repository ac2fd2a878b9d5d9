"""The rules of one move, written from the puzzle text: used by the checker (to replay a plan) and by the
reference search (its start and goal). Nothing here knows about any encoding.

A state is ``(hall, rooms)``: ``hall[x]`` and ``rooms[k][slot]`` hold a type or ``None``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .burrow import LETTERS, Burrow, between

Cell = int | None
State = tuple[tuple[Cell, ...], tuple[tuple[Cell, ...], ...]]
#: ("room", k, slot) or ("hall", x)
Place = tuple[Any, ...]


@dataclass(frozen=True)
class Move:
    kind: int
    source: Place
    target: Place

    def describe(self) -> str:
        def where(place: Place) -> str:
            return f"hall {place[1]}" if place[0] == "hall" else f"room {LETTERS[place[1]]} slot {place[2]}"
        return f"{LETTERS[self.kind]}: {where(self.source)} -> {where(self.target)}"


class IllegalMove(Exception):
    """A move that breaks a rule; the message says which."""


def start_state(burrow: Burrow) -> State:
    return (None,) * burrow.hallway, burrow.rooms


def is_goal(burrow: Burrow, state: State) -> bool:
    return all(all(kind == k for kind in room) for k, room in enumerate(state[1]))


def _x(burrow: Burrow, place: Place) -> int:
    return place[1] if place[0] == "hall" else burrow.room_x[place[1]]


def apply(burrow: Burrow, state: State, move: Move) -> tuple[State, int]:
    """The state after ``move`` and its number of steps; raises :class:`IllegalMove`."""
    hall, rooms = list(state[0]), [list(room) for room in state[1]]
    source, target, kind = move.source, move.target, move.kind

    def at(place: Place) -> Cell:
        return hall[place[1]] if place[0] == "hall" else rooms[place[1]][place[2]]

    if at(source) != kind:
        raise IllegalMove(f"{move.describe()}: no {LETTERS[kind]} at the start of the move")
    if source[0] == "hall" and target[0] == "hall":
        raise IllegalMove(f"{move.describe()}: an amphipod that stopped in the hallway only moves into its room")
    steps = 0
    if source[0] == "room":
        room, slot = source[1], source[2]
        if any(rooms[room][s] is not None for s in range(slot)):
            raise IllegalMove(f"{move.describe()}: the way out of the room is blocked")
        if room == kind and all(rooms[room][s] == kind for s in range(slot, burrow.depth)):
            raise IllegalMove(f"{move.describe()}: it and everyone below it are already home")
        steps += slot + 1
        rooms[room][slot] = None
    else:
        hall[source[1]] = None
    start, end = _x(burrow, source), _x(burrow, target)
    for x in between(start, end) if start != end else ():
        if hall[x] is not None:
            raise IllegalMove(f"{move.describe()}: hallway cell {x} is occupied")
    steps += abs(end - start)
    if target[0] == "hall":
        if target[1] not in burrow.stops:
            raise IllegalMove(f"{move.describe()}: amphipods never stop above a room")
        hall[target[1]] = kind
    else:
        room, slot = target[1], target[2]
        if room != kind:
            raise IllegalMove(f"{move.describe()}: that room is not its destination")
        if any(other is not None and other != kind for other in rooms[room]):
            raise IllegalMove(f"{move.describe()}: the room still holds another type")
        if rooms[room][slot] is not None or any(rooms[room][s] is None for s in range(slot + 1, burrow.depth)):
            raise IllegalMove(f"{move.describe()}: slot {slot} is not the deepest free slot")
        steps += slot + 1
        rooms[room][slot] = kind
    return (tuple(hall), tuple(tuple(room) for room in rooms)), steps
