"""What every encoding of a burrow shares: who must move, their parking options and detour costs, the
fixed part of the energy, and the hallway cells each move walks through.

An amphipod *moves* unless it and everyone below it are home. A mover leaves its start room once and
enters its home room once; the home room's free slots are filled from the bottom, so the energy of
climbing out, of walking straight from door to door, and of stepping down into the room is the same in
every plan (:attr:`Movers.fixed_energy`). A plan only chooses, for each mover, a parking cell or the
direct move, which adds ``detour * step_cost``, and the order of the leave/enter events.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from pysat.formula import IDPool

from ...core.encoding import Encoding
from .burrow import Burrow, between, step_cost

DIRECT = -1  # parking option "no stop: room to room in one move"


@dataclass(frozen=True)
class Mover:
    index: int
    kind: int
    room: int  # start room
    slot: int  # start slot (0 = top)

    @property
    def home(self) -> int:
        return self.kind


@dataclass(frozen=True)
class Movers:
    burrow: Burrow

    @cached_property
    def all(self) -> tuple[Mover, ...]:
        movers: list[Mover] = []
        for k, room in enumerate(self.burrow.rooms):
            for slot in range(self.burrow.depth - self.burrow.settled(k)):
                movers.append(Mover(len(movers), room[slot], k, slot))
        return tuple(movers)

    def options(self, mover: Mover) -> tuple[int, ...]:
        """Parking cells, plus DIRECT when the home room is another room."""
        direct = (DIRECT,) if mover.room != mover.home else ()
        return direct + self.burrow.stops

    def detour(self, mover: Mover, option: int) -> int:
        """Extra energy of ``option`` over walking straight from door to door."""
        if option == DIRECT:
            return 0
        start, home = self.burrow.room_x[mover.room], self.burrow.room_x[mover.home]
        return (abs(start - option) + abs(option - home) - abs(start - home)) * step_cost(mover.kind)

    @cached_property
    def fixed_energy(self) -> int:
        burrow = self.burrow
        total = 0
        for m in self.all:
            total += (m.slot + 1 + abs(burrow.room_x[m.room] - burrow.room_x[m.home])) * step_cost(m.kind)
        for kind in range(burrow.types):
            entering = burrow.depth - burrow.settled(kind)
            total += entering * (entering + 1) // 2 * step_cost(kind)
        return total

    def out_path(self, mover: Mover, option: int) -> range:
        """Hallway cells entered when leaving the start room (to the stop, or to the home door)."""
        start = self.burrow.room_x[mover.room]
        end = self.burrow.room_x[mover.home] if option == DIRECT else option
        return between(start, end) if start != end else range(0)

    def in_path(self, mover: Mover, option: int) -> range:
        """Hallway cells entered when walking from the stop to the home door (none for DIRECT)."""
        if option == DIRECT:
            return range(0)
        return between(option, self.burrow.room_x[mover.home])

    def starting_in(self, room: int) -> list[Mover]:
        return [m for m in self.all if m.room == room]


#: encodes one burrow into shared clause lists: (label, movers, pool, clauses, soft, show)
PartEncoder = Callable[[str, "Movers", IDPool, list[list[int]], list[tuple[list[int], int]], list[int]], None]


def encode_burrows(burrows: tuple[tuple[str, Burrow], ...], encode_part: PartEncoder,
                   decide_false_first: bool = False, pool: IDPool | None = None) -> Encoding:
    """One CNF for several burrows (part 1 and part 2) with separate variables (keys carry the label):
    their optima add up, so one optimisation proves each part optimal."""
    pool = pool if pool is not None else IDPool()
    clauses: list[list[int]] = []
    soft: list[tuple[list[int], int]] = []
    show: list[int] = []
    offset = 0
    for label, burrow in burrows:
        movers = Movers(burrow)
        offset += movers.fixed_energy
        encode_part(label, movers, pool, clauses, soft, show)
    return Encoding("cnf", pool=pool, clauses=clauses, show=show, soft=soft, cost_offset=offset,
                    decide_false_first=decide_false_first)
