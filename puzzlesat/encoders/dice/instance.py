"""Parser of the two-line Dirac Dice input, and the game parameters (track, die sides, rolls, targets)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import PuzzleFormatError, PuzzlesatError

_LINE = re.compile(r"^Player (\d+) starting position: *(-?\d+)$")


@dataclass(frozen=True)
class Game:
    track: int = 10
    sides: int = 3  # Dirac die
    rolls: int = 3
    target: int = 21
    det_sides: int = 100  # part 1's deterministic die
    det_target: int = 1000

    def check(self) -> None:
        for name, value in vars(self).items():
            if value < 1:
                raise PuzzlesatError(f"--{name.replace('_', '-')} must be positive, got {value}")


@dataclass(frozen=True)
class DiceInstance:
    starts: tuple[int, int]
    game: Game = Game()
    source: str = field(default="", compare=False)


def parse(text: str, path: str, game: Game | None = None) -> DiceInstance:
    game = game or Game()
    game.check()
    lines = [(n, line.strip()) for n, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1) if line.strip()]
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
