"""Parser of the burrow drawing (AoC 2021 day 23), general in hallway length, room count and depth.

An instance holds the burrows to solve, labelled by answer: ``part1`` (the drawing) and ``part2`` (the
drawing with the two lines ``#D#C#B#A#`` and ``#D#B#A#C#`` inserted below the first room line), or only
``energy`` when the drawing is solved as it is (``--no-unfold``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core.errors import PuzzleFormatError
from ...core.text import lines_of
from .burrow import LETTERS, Burrow

UNFOLD_LINES = ((3, 2, 1, 0), (3, 1, 0, 2))  # D C B A / D B A C
#: the deepest rooms read (and generated): AoC's are 2 and 4 deep, and an encoding's size grows with the
#: square of the slots; a 64 MiB file of deeper rooms would only be refused later for memory or time
MAX_DEPTH = 50


@dataclass(frozen=True)
class AmphipodInstance:
    burrows: tuple[tuple[str, Burrow], ...]  # (answer label, burrow)
    source: str = field(default="", compare=False)


def parse_burrow(text: str, path: str) -> Burrow:
    lines = [line.rstrip() for line in lines_of(text)]
    while lines and not lines[-1]:
        lines.pop()

    def fail(line: int, col: int | None, message: str) -> PuzzleFormatError:
        return PuzzleFormatError(path, line + 1, None if col is None else col + 1, message)

    if len(lines) < 4:
        raise fail(len(lines) - 1 if lines else 0, None,
                   "a burrow needs a wall, a hallway, at least one room line and a bottom wall")
    if set(lines[0].strip()) != {"#"}:
        raise fail(0, None, "the first line must be the top wall ('#' only)")
    hall_line = lines[1]
    start = hall_line.find("#") + 1
    end = hall_line.find("#", start)
    if start == 0 or end < 0 or end == start:
        raise fail(1, None, "no hallway: expected '#' followed by hallway cells and '#'")
    for col in range(start, end):
        if hall_line[col] != ".":
            raise fail(1, col, f"the hallway must start empty, found '{hall_line[col]}'")
    if hall_line[end:].strip("#") or hall_line[:start - 1].strip():
        raise fail(1, end, "unexpected characters after the hallway")
    hallway = end - start

    room_lines = []
    row = 2
    while row < len(lines) and any(ch.isalpha() or ch == "." for ch in lines[row]):
        room_lines.append(row)
        row += 1
    if not room_lines:
        raise fail(2, None, "no room line below the hallway")
    if len(room_lines) > MAX_DEPTH:
        raise fail(room_lines[MAX_DEPTH], None, f"rooms {len(room_lines)} deep: this toolkit's limit is {MAX_DEPTH}")
    if row >= len(lines) or set(lines[row].strip()) != {"#"}:
        raise fail(min(row, len(lines) - 1), None, "expected the bottom wall ('#' only) below the rooms")
    if row + 1 < len(lines):
        raise fail(row + 1, None, "unexpected line after the bottom wall")

    columns = [col for col, ch in enumerate(lines[room_lines[0]]) if ch not in "# "]
    types = len(columns)
    if types > len(LETTERS):
        raise fail(room_lines[0], columns[len(LETTERS)],
                   f"{types} rooms: this toolkit's limit is {len(LETTERS)} (types {LETTERS[0]}-{LETTERS[-1]})")
    grid: list[list[int]] = [[] for _ in range(types)]
    for line_no in room_lines:
        line = lines[line_no]
        for col, ch in enumerate(line):
            if ch in "# ":
                continue
            if col not in columns:
                raise fail(line_no, col, f"'{ch}' is outside the rooms of the first room line (ragged rooms)")
            if ch not in LETTERS[:types]:
                raise fail(line_no, col, f"unknown amphipod '{ch}': {types} rooms allow only {LETTERS[0]}-{LETTERS[types - 1]}")
            grid[columns.index(col)].append(LETTERS.index(ch))
        for k, col in enumerate(columns):
            if len(grid[k]) != room_lines.index(line_no) + 1:
                raise fail(line_no, col, "room slot is empty or missing (ragged rooms)")
    for col in columns:
        if not start <= col < end:
            raise fail(room_lines[0], col, "room is not below a hallway cell")
    depth = len(room_lines)
    for kind in range(types):
        found = sum(room.count(kind) for room in grid)
        if found != depth:
            raise fail(room_lines[0], None, f"{found} amphipods of type {LETTERS[kind]}, expected {depth} (the room depth)")
    return Burrow(hallway, tuple(col - start for col in columns), tuple(tuple(room) for room in grid))


def unfold(burrow: Burrow) -> Burrow:
    """Part 2: two known lines inserted below the first room line (defined for four rooms)."""
    rooms = tuple((room[0],) + tuple(line[k] for line in UNFOLD_LINES) + room[1:]
                  for k, room in enumerate(burrow.rooms))
    return Burrow(burrow.hallway, burrow.room_x, rooms)


def parse(text: str, path: str, unfold_part2: bool = True) -> AmphipodInstance:
    burrow = parse_burrow(text, path)
    if not unfold_part2:
        return AmphipodInstance((("energy", burrow),), path)
    if burrow.types != 4:
        raise PuzzleFormatError(path, None, None,
                                f"part 2 unfolds a burrow of 4 rooms, this one has {burrow.types}: use --no-unfold")
    return AmphipodInstance((("part1", burrow), ("part2", unfold(burrow))), path)
