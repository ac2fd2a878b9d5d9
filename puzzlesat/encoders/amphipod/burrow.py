"""The burrow: hallway, rooms, amphipods, and the geometry every method shares (costs, path cells).

Room ``k`` lies below hallway cell ``room_x[k]`` and is the home of type ``k`` (A, B, C, ...); moving one
step costs ``10**type``. Room slots are numbered from the top (slot 0 touches the hallway).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

LETTERS = "ABCDEFGHIJ"


@dataclass(frozen=True)
class Burrow:
    hallway: int  # number of hallway cells
    room_x: tuple[int, ...]  # hallway cell above each room
    #: rooms[k][slot] = type of the amphipod there, slot 0 at the top
    rooms: tuple[tuple[int, ...], ...]

    @property
    def depth(self) -> int:
        return len(self.rooms[0])

    @property
    def types(self) -> int:
        return len(self.rooms)

    @cached_property
    def stops(self) -> tuple[int, ...]:
        """Hallway cells an amphipod may stop on: every cell not directly above a room."""
        above = set(self.room_x)
        return tuple(x for x in range(self.hallway) if x not in above)

    def settled(self, room: int) -> int:
        """How many amphipods at the bottom of ``room`` are home with only home types below: they never move."""
        count = 0
        for kind in reversed(self.rooms[room]):
            if kind != room:
                break
            count += 1
        return count

    def draw(self, hall: tuple[int | None, ...] | None = None,
             rooms: tuple[tuple[int | None, ...], ...] | None = None) -> str:
        """The drawing in the puzzle's format, of this burrow or of a state of it."""
        hall = hall if hall is not None else (None,) * self.hallway
        rooms = rooms if rooms is not None else self.rooms

        def cell(kind: int | None) -> str:
            return "." if kind is None else LETTERS[kind]

        width = self.hallway + 2
        lines = ["#" * width, "#" + "".join(cell(k) for k in hall) + "#"]
        for slot in range(self.depth):
            row = [" "] * width if slot else ["#"] * width
            for k, x in enumerate(self.room_x):
                row[x] = "#"
                row[x + 1] = cell(rooms[k][slot])
                row[x + 2] = "#"
            lines.append("".join(row).rstrip())
        bottom = [" "] * width
        for x in self.room_x:
            bottom[x:x + 3] = "###"
        lines.append("".join(bottom).rstrip())
        return "\n".join(lines)


def step_cost(kind: int) -> int:
    return int(10 ** kind)


def between(a: int, b: int) -> range:
    """Hallway cells strictly between ``a`` and ``b``, plus ``b`` (the cells a walk from ``a`` to ``b``
    enters)."""
    return range(a + 1, b + 1) if b > a else range(a - 1, b - 1, -1)
