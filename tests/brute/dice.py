"""Dirac dice by brute force: part 1 by playing the deterministic game, part 2 by walking every universe
one roll at a time, without memory (docs/puzzles.md, section 5). Only for small games."""
from __future__ import annotations

import random
import re


def parse(text: str) -> tuple[int, int]:
    found = dict(re.findall(r"Player (\d) starting position: (\d+)", text))
    return int(found["1"]), int(found["2"])


def part1(starts: tuple[int, int], track: int, rolls: int, det_sides: int, det_target: int) -> int:
    position, score = list(starts), [0, 0]
    die, rolled, player = 1, 0, 0
    while True:
        for _ in range(rolls):
            position[player] = (position[player] - 1 + die) % track + 1
            die = die + 1 if die < det_sides else 1
            rolled += 1
        score[player] += position[player]
        if score[player] >= det_target:
            return score[1 - player] * rolled
        player = 1 - player


class TooMany(Exception):
    pass


def universes(starts: tuple[int, int], track: int, sides: int, rolls: int, target: int,
              most: int = 300_000) -> tuple[int, int]:
    """(universes player 1 wins, universes player 2 wins); TooMany past ``most`` universes."""
    wins = [0, 0]

    def turn(position: list[int], score: list[int], player: int) -> None:
        def roll(left: int, at: int) -> None:
            if left == 0:
                moved, points = list(position), list(score)
                moved[player], points[player] = at, score[player] + at
                if points[player] >= target:
                    wins[player] += 1
                    if wins[0] + wins[1] > most:
                        raise TooMany
                else:
                    turn(moved, points, 1 - player)
                return
            for value in range(1, sides + 1):
                roll(left - 1, (at - 1 + value) % track + 1)
        roll(rolls, position[player])

    turn(list(starts), [0, 0], 0)
    return wins[0], wins[1]


def random_game(rng: random.Random) -> tuple[str, dict[str, int]]:
    """A start text and game options (track, sides, rolls, target, det_sides, det_target)."""
    track = rng.randint(1, 10)
    options = {"track": track, "sides": rng.randint(1, 3), "rolls": rng.randint(1, 3), "target": rng.randint(1, 8),
               "det_sides": rng.randint(1, 12), "det_target": rng.randint(1, 60)}
    text = f"Player 1 starting position: {rng.randint(1, track)}\nPlayer 2 starting position: {rng.randint(1, track)}\n"
    return text, options
