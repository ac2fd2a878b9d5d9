"""Random amphipod burrows: ``rooms`` rooms of ``depth`` slots, hallway of the AoC shape (two cells at
each end, one between rooms), every one solvable as ``solve`` reads it.

A start is made by running a plan backwards from the sorted burrow (:func:`backward_start`), so it
is solvable by construction, in time linear in its moves. Each backward step undoes a legal forward
move in the state it leaves:

- *out*: the top amphipod of a room that holds only its own kind, never touched, steps to a hallway
  stop it can reach. Forward, that is a hallway amphipod going home into a room of its own kind only.
- *across*: the same amphipod goes straight to the top of another room with space. Forward, it leaves
  that room's top for its home, which holds its own kind only.
- *in*: a hallway amphipod goes to the top of a room with space it can reach. Forward, a room's top
  amphipod steps out to a hallway stop.

A room that has taken an amphipod (*across* or *in*) is never left by an *out* or *across* again.
Forward, its new amphipods leave before any of its own kind come home. An amphipod that went *out*
comes back only *in*, so forward it leaves its room, waits in the hallway, and goes home, as the rules
say. The walk ends by putting every hallway amphipod back *in*; the forward plan then starts with an
empty hallway and full rooms.

Random backward steps mix a burrow less than a shuffle does: a room that takes an amphipod stays
closed. So the steps that keep rooms open are weighted up, :data:`WALKS` walks are drawn, and the one
with the most amphipods away from home is kept. Shuffling and proving each start by SAT, as before,
took minutes from 4 rooms of depth 10 or 10 rooms of depth 4 (nearly every deep shuffle is stuck,
and each needed its own UNSAT proof). The walks take milliseconds each.

With four rooms ``solve`` also reads part 2's unfolded burrow, whose two inserted rows the walk does
not control. That part is proven solvable by the SAT solver, and a walk whose part 2 is stuck gives
way to the next most mixed one.
"""
from __future__ import annotations

import random

from ...core.errors import PuzzlesatError
from .burrow import LETTERS, Burrow

#: backward walks drawn per burrow; the most mixed one is kept
WALKS = 200
#: backward steps a walk takes (at most) per amphipod, before it puts the hallway back
STEPS_PER_AMPHIPOD = 4
#: weights of the backward steps: those that keep rooms open (``out``, and into a room that is already
#: closed or empty) are taken far more often than those that close a room with its own kind still in it
KEEPS_OPEN, CLOSES = 4.0, 0.1


def backward_start(rooms: int, depth: int, rng: random.Random) -> Burrow | None:
    """A start reached by undoing a random plan from the sorted burrow (the module docstring argues each
    step); None when the hallway cannot be put back (an amphipod reaches no room with space)."""
    room_x = tuple(2 + 2 * k for k in range(rooms))
    hallway: list[int | None] = [None] * (2 * rooms + 3)
    stacks = [[kind] * depth for kind in range(rooms)]  # top last
    untouched = [True] * rooms  # holds only its own kind, never given one

    def clear(a: int, b: int) -> bool:
        step = 1 if b > a else -1
        return all(hallway[x] is None for x in range(a + step, b + step, step))

    def stops_from(door: int) -> list[int]:
        found = []
        for step in (-1, 1):
            x = door + step
            while 0 <= x < len(hallway) and hallway[x] is None:
                if x not in room_x:
                    found.append(x)
                x += step
        return found

    def backs_in() -> list[tuple[str, int, int]]:
        return [("in", x, room) for x, kind in enumerate(hallway) if kind is not None for room in range(rooms)
                if len(stacks[room]) < depth and clear(x, room_x[room])]

    def weight(step: tuple[str, int, int]) -> float:
        kind, _, room = step
        return KEEPS_OPEN if kind == "out" or not (untouched[room] and stacks[room]) else CLOSES

    for _ in range(STEPS_PER_AMPHIPOD * rooms * depth):
        steps = backs_in()
        for room in range(rooms):
            if untouched[room] and stacks[room]:
                steps += [("out", room, x) for x in stops_from(room_x[room])]
                steps += [("across", room, other) for other in range(rooms) if other != room
                          and len(stacks[other]) < depth and clear(room_x[room], room_x[other])]
        if not steps:
            break
        kind, source, target = rng.choices(steps, [weight(step) for step in steps])[0]
        if kind == "out":
            hallway[target] = stacks[source].pop()
            continue
        stacks[target].append(stacks[source].pop() if kind == "across" else hallway[source])  # type: ignore[arg-type]
        untouched[target] = False
        if kind == "in":
            hallway[source] = None
    while any(kind is not None for kind in hallway):
        steps = backs_in()
        if not steps:
            return None
        _, source, target = rng.choice(steps)
        stacks[target].append(hallway[source])  # type: ignore[arg-type]
        untouched[target] = False
        hallway[source] = None
    return Burrow(len(hallway), room_x, tuple(tuple(reversed(stack)) for stack in stacks))


def away_from_home(burrow: Burrow) -> int:
    """Amphipods that have to move: all but those settled at the bottom of their own room."""
    return sum(burrow.depth - burrow.settled(room) for room in range(burrow.types))


def parts_read(burrow: Burrow) -> tuple[tuple[str, Burrow], ...]:
    """The burrows ``solve`` reads from the drawing: with four rooms, part 2's unfolded one too."""
    from .instance import parse

    return parse(burrow.draw(), "generated", unfold_part2=burrow.types == 4).burrows


def has_plan(burrow: Burrow) -> bool:
    """Whether a plan sorts the burrow (SAT on the event ordering)."""
    from pysat.solvers import Solver

    from .events import encode_events
    with Solver(name="glucose4", bootstrap_with=encode_events((("energy", burrow),)).pysat_clauses()) as solver:
        return solver.solve() is True


def generate(rooms: int, depth: int, seed: int) -> str:
    """The most mixed of :data:`WALKS` backward walks whose other parts (four rooms: part 2) have a plan
    too; the drawing itself has one by construction."""
    if not 1 <= rooms <= len(LETTERS) or depth < 1:
        raise PuzzlesatError(f"--rooms must be 1-{len(LETTERS)} and --depth >= 1")
    rng = random.Random(seed)
    walks = [burrow for burrow in (backward_start(rooms, depth, rng) for _ in range(WALKS)) if burrow is not None]
    for burrow in sorted(walks, key=away_from_home, reverse=True):  # stable: ties keep the order drawn
        if all(has_plan(part) for _, part in parts_read(burrow) if part != burrow):
            return burrow.draw() + "\n"
    raise PuzzlesatError(f"no solvable start found in {WALKS} walks")
