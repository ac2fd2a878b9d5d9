"""puzz.link URLs of aquarium puzzles, read and written as pzprjs reads and writes them.

``https://puzz.link/p?aquarium[/r]/COLS/ROWS/BORDERS/CLUES`` (pzprjs ``src/variety/aquarium.js`` and
``src/variety-common/Encode.js``):

- ``r``: puzzle-aquarium.com's rule, one water level per region; without it water obeys physics
  (:mod:`.physics`);
- ``BORDERS``: the (COLS-1)*ROWS walls between side-by-side cells, then the COLS*(ROWS-1) walls between
  cells above each other, row by row, 5 to a base-32 character, the first the highest bit;
- ``CLUES``: the columns' counts left to right, then the rows' top to bottom: a hexadecimal digit, ``-``
  and two hexadecimal digits, ``.`` for a clue shown as unknown, and ``g``..``z`` for a run of 1..20
  clues not given.

The regions are the grid's rooms: the cells that reach each other without crossing a wall (a wall may
also stand inside a room, where it only stops water under the physics rule). pzprjs's player also opens
URLs of the same puzzle on its other hosts (pzv.jp, the older pzprv3 page); they are read here alike and
written back as puzz.link's.
"""
from __future__ import annotations

import re

from ...core.errors import PuzzleFormatError, PuzzlesatError
from .instance import MAX_SIDE, AquariumInstance

#: the hosts whose player pages pzprjs serves, and the page each puts the puzzle after
_URL = re.compile(r"(?:https?://)?(?:puzz\.link/p|pzv\.jp/p(?:\.html)?|pzprxs\.vercel\.app/p"
                  r"|indi\.s58\.xrea\.com/pzpr/v3/p(?:\.html)?)\?(?P<query>.*)")
#: the largest clue two hexadecimal digits hold
MAX_CLUE = 255


def is_url(text: str) -> bool:
    """Whether ``text`` (a file's one line, or a command-line argument) is a puzzle URL."""
    return bool(_URL.fullmatch(text.strip()))


def _fault(path: str, column: int, message: str) -> PuzzleFormatError:
    return PuzzleFormatError(path, 1, column, message)


def parse_url(text: str, path: str) -> AquariumInstance:
    """The puzzle of a puzz.link aquarium URL; errors name the column of the URL where it goes wrong."""
    line = text.strip()
    found = _URL.fullmatch(line)
    if found is None:
        raise _fault(path, 1, "not a puzz.link URL ('https://puzz.link/p?aquarium/COLS/ROWS/...')")
    offset = found.start("query") + len(text) - len(text.lstrip())
    parts = found.group("query").split("/")
    if parts[0] not in ("aquarium", "aquarium_edit", "aquarium_play"):
        raise _fault(path, offset + 1, f"a URL of '{parts[0][:20]}', not of an aquarium")
    at = 1
    region_rule = len(parts) > at and parts[at] == "r"
    at += region_rule
    if len(parts) < at + 4:
        raise _fault(path, len(line), "the URL ends early: expected .../COLS/ROWS/BORDERS/CLUES")
    column = offset + len("/".join(parts[:at])) + 2  # where COLS starts
    sizes = []
    for what in ("COLS", "ROWS"):
        token = parts[at]
        if not re.fullmatch(r"[1-9]\d{0,8}", token):
            raise _fault(path, column, f"{what} '{token[:20]}' is not a positive number")
        if int(token) > MAX_SIDE:
            raise _fault(path, column, f"{what} {token} is over this toolkit's limit of {MAX_SIDE}")
        sizes.append(int(token))
        column += len(token) + 1
        at += 1
    width, height = sizes
    borders, clues = parts[at], "/".join(parts[at + 1:])
    walls = _walls(borders, width, height, path, column)
    column += len(borders) + 1
    counts, places = _clues(clues, width + height, path, column)
    cols, rows = tuple(counts[:width]), tuple(counts[width:])
    for index, (count, place) in enumerate(zip(counts, places)):
        side = height if index < width else width
        if count is not None and count > side:
            kind, number = ("column", index + 1) if index < width else ("row", index - width + 1)
            raise _fault(path, place, f"{kind} {number}'s clue {count} is more than its {side} cells")
    return AquariumInstance(height, width, cols, rows, _rooms(walls, width, height), walls, region_rule, path)


def _walls(borders: str, width: int, height: int, path: str,
           column: int) -> frozenset[tuple[tuple[int, int], tuple[int, int]]]:
    """The walls BORDERS spells (5 to a character, side-by-side pairs first)."""
    pairs = [((r, c), (r, c + 1)) for r in range(height) for c in range(width - 1)]
    beside = len(pairs)
    pairs += [((r, c), (r + 1, c)) for r in range(height - 1) for c in range(width)]
    expected = (beside + 4) // 5 + (len(pairs) - beside + 4) // 5
    if len(borders) != expected:
        raise _fault(path, column, f"{len(borders)} border characters for a {width}x{height} grid: expected "
                     f"{expected}")
    bits: list[bool] = []
    for start, count in ((0, beside), ((beside + 4) // 5, len(pairs) - beside)):
        for offset in range((count + 4) // 5):
            char = borders[start + offset]
            if not re.fullmatch(r"[0-9a-v]", char):
                raise _fault(path, column + start + offset, f"'{char}' is not a border character (0-9, a-v)")
            value = int(char, 32)
            bits += [bool(value >> (4 - k) & 1) for k in range(5)][:count - 5 * offset]
    return frozenset(pair for pair, wall in zip(pairs, bits) if wall)


def _clues(text: str, expected: int, path: str, column: int) -> tuple[list[int | None], list[int]]:
    """The counts CLUES spells (``expected`` of them, None where no clue is given), and the column of
    the URL where each is spelt."""
    counts: list[int | None] = []
    places: list[int] = []
    at = 0
    while at < len(text) and len(counts) < expected:
        char, place = text[at], column + at
        if char in "0123456789abcdef":
            counts.append(int(char, 16))
            at += 1
        elif char == "-" and re.fullmatch(r"[0-9a-f]{2}", text[at + 1:at + 3]):
            counts.append(int(text[at + 1:at + 3], 16))
            at += 3
        elif char == ".":  # pzprjs's "?" clue: shown, its number unknown; no count to hold
            counts.append(None)
            at += 1
        elif "g" <= char <= "z":
            counts += [None] * (int(char, 36) - 16)
            places += [place] * (int(char, 36) - 16)
            counts.append(None)
            at += 1
        else:
            raise _fault(path, column + at, f"'{char}' is not a clue (0-f, -XX, '.', g-z)")
        places.append(place)
    if at < len(text):
        raise _fault(path, column + at, f"'{text[at:at + 20]}' after the last of the {expected} clues")
    if len(counts) < expected:
        raise _fault(path, column + at, f"{len(counts)} clues: the grid has {expected} columns and rows")
    return counts[:expected], places[:expected]


def _rooms(walls: frozenset[tuple[tuple[int, int], tuple[int, int]]], width: int,
           height: int) -> tuple[tuple[int, ...], ...]:
    """Region ids 1, 2, ... in reading order of each room's first cell: the cells that reach each other
    without crossing a wall."""
    ids = [[0] * width for _ in range(height)]
    number = 0
    for r in range(height):
        for c in range(width):
            if ids[r][c]:
                continue
            number += 1
            ids[r][c] = number
            stack = [(r, c)]
            while stack:
                y, x = stack.pop()
                for y2, x2 in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    pair = (min((y, x), (y2, x2)), max((y, x), (y2, x2)))
                    if 0 <= y2 < height and 0 <= x2 < width and not ids[y2][x2] and pair not in walls:
                        ids[y2][x2] = number
                        stack.append((y2, x2))
    return tuple(tuple(line) for line in ids)


def to_url(instance: AquariumInstance) -> str:
    """The puzzle as puzz.link's URL, spelt as pzprjs spells it (a URL read and written is the same).
    A URL spells walls, and its regions are the rooms they close: a region in separate pieces (a task
    string may number two pieces alike) cannot be written, nor a clue past :data:`MAX_CLUE`; either is
    refused in one line, since what would be written is another puzzle."""
    height, width, walls = instance.height, instance.width, instance.wall_set
    rooms = {room for line in _rooms(walls, width, height) for room in line}
    regions = {region for line in instance.regions for region in line}
    if len(rooms) != len(regions):
        separate = next(region for region in sorted(regions) if _pieces(instance, region) > 1)
        name = instance.source or "the puzzle"
        raise PuzzlesatError(f"{name}: region {separate} is in {_pieces(instance, separate)} separate pieces, and a "
                             "puzz.link URL's regions are the rooms its walls close: the URL would be another puzzle")
    beside = [((r, c), (r, c + 1)) in walls for r in range(height) for c in range(width - 1)]
    below = [((r, c), (r + 1, c)) in walls for r in range(height - 1) for c in range(width)]
    borders = _bits(beside) + _bits(below)
    clues, blanks = "", 0
    for count in instance.cols + instance.rows:
        if count is None:
            blanks += 1
            if blanks == 20:
                clues, blanks = clues + "z", 0
            continue
        if count > MAX_CLUE:
            raise PuzzlesatError(f"{instance.source or 'the puzzle'}: a clue of {count} is past what puzz.link's URL "
                                 f"holds ({MAX_CLUE})")
        clues += _run(blanks) + (format(count, "x") if count < 16 else f"-{count:02x}")
        blanks = 0
    clues += _run(blanks)
    rule = "r/" if instance.region_rule else ""
    return f"https://puzz.link/p?aquarium/{rule}{width}/{height}/{borders}/{clues}"


def _pieces(instance: AquariumInstance, region: int) -> int:
    """How many separate pieces (cells joined side by side) ``region`` is in."""
    cells = {(r, c) for r, line in enumerate(instance.regions) for c, g in enumerate(line) if g == region}
    pieces = 0
    while cells:
        pieces += 1
        stack = [cells.pop()]
        while stack:
            r, c = stack.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in cells:
                    cells.remove(near)
                    stack.append(near)
    return pieces


def _run(blanks: int) -> str:
    """A run of 1..20 clues not given (nothing for none)."""
    return "" if not blanks else "0123456789abcdefghijklmnopqrstuvwxyz"[15 + blanks]


def _bits(walls: list[bool]) -> str:
    digits = "0123456789abcdefghijklmnopqrstuv"
    out = ""
    for start in range(0, len(walls), 5):
        chunk = walls[start:start + 5]
        out += digits[sum(1 << (4 - k) for k, wall in enumerate(chunk) if wall)]
    return out
