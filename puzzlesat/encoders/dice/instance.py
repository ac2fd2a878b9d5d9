"""Parser of the two-line Dirac Dice input, and the game parameters (track, die sides, rolls, targets)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import PuzzleFormatError, PuzzlesatError
from ...core.text import lines_of

#: numbers of at most 9 digits: a longer one is no position (and Python refuses over 4,300 digits)
_LINE = re.compile(r"^Player (\d{1,9}) starting position: *(-?\d{1,9})$")


@dataclass(frozen=True)
class Game:
    track: int = 10
    sides: int = 3  # Dirac die
    rolls: int = 3
    target: int = 21
    det_sides: int = 100  # part 1's deterministic die
    det_target: int = 1000

    def check(self) -> None:
        """Refuse, at once, games this toolkit cannot play: a turn's outcomes are enumerated
        (``sides ** rolls`` of them), the formulas grow with the target times the track, and the
        reference recurses once a turn (at most ``2 * target`` deep)."""
        for name, value in vars(self).items():
            flag = f"--{name.replace('_', '-')}"
            if value < 1:
                raise PuzzlesatError(f"{flag} must be positive, got {value}")
            if value > MAXIMA[name]:
                raise PuzzlesatError(f"{flag} {value} is over this toolkit's limit of {MAXIMA[name]:,}")
        if self.sides ** self.rolls > MAX_OUTCOMES:
            raise PuzzlesatError(f"--sides {self.sides} --rolls {self.rolls}: {self.sides}^{self.rolls} outcomes a "
                                 f"turn is over this toolkit's limit of {MAX_OUTCOMES:,}")


#: the largest game parameters accepted (docs/limits.md, the table of sizes)
MAXIMA = {"track": 100, "sides": 20, "rolls": 10, "target": 300, "det_sides": 1_000_000, "det_target": 1_000_000}
#: the most outcomes of one turn (``sides ** rolls``)
MAX_OUTCOMES = 100_000


@dataclass(frozen=True)
class DiceInstance:
    starts: tuple[int, int]
    game: Game = Game()
    source: str = field(default="", compare=False)


def parse(text: str, path: str, game: Game | None = None) -> DiceInstance:
    game = game or Game()
    game.check()
    lines = [(n, line.strip()) for n, line in enumerate(lines_of(text), 1) if line.strip()]
    starts = {}
    for number, line in lines:
        match = _LINE.match(line)
        if not match:
            raise PuzzleFormatError(path, number, 1, f"expected 'Player N starting position: P', got '{line[:40]}'")
        player, position = int(match[1]), int(match[2])
        if player not in (1, 2) or player in starts:
            raise PuzzleFormatError(path, number, 8, f"player {player}: expected players 1 and 2, once each")
        if not 1 <= position <= game.track:
            raise PuzzleFormatError(path, number, line.rindex(match[2]) + 1,
                                    f"position {position} is off the track 1..{game.track}")
        starts[player] = position
    for player in (1, 2):
        if player not in starts:
            raise PuzzleFormatError(path, None, None, f"missing the line for player {player}")
    return DiceInstance((starts[1], starts[2]), game, path)
