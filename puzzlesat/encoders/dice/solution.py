"""Dice answers: part 1 from the solver's unrolling (turns and scores), part 2 from universe counts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Part1:
    turns: int
    scores: tuple[int, int]
    rolls_per_turn: int

    @property
    def answer(self) -> int:
        return min(self.scores) * self.turns * self.rolls_per_turn

    def render(self, colour: bool = False) -> str:
        return (f"deterministic game: ends after {self.turns} turns ({self.turns * self.rolls_per_turn} rolls), "
                f"scores {self.scores[0]} and {self.scores[1]}")

    def answers(self) -> dict[str, Any]:
        return {"part1": self.answer}

    def to_json(self) -> dict[str, Any]:
        return {"turns": self.turns, "rolls": self.turns * self.rolls_per_turn, "scores": list(self.scores)}


@dataclass(frozen=True)
class DiceSolution:
    part1: Part1
    wins: tuple[int, int]

    def render(self, colour: bool = False) -> str:
        return (self.part1.render() + "\n" +
                f"Dirac game: player 1 wins in {self.wins[0]} universes, player 2 in {self.wins[1]}")

    def answers(self) -> dict[str, Any]:
        return {"part1": self.part1.answer, "part2": max(self.wins), "wins": list(self.wins)}

    def warnings(self) -> list[str]:
        """Part 2 asks for the player who wins in more universes: on a tie there is none (the number is
        the same either way, but the question does not hold)."""
        if self.wins[0] != self.wins[1]:
            return []
        return [f"both players win in {self.wins[0]} universes, and the puzzle assumes one wins in more: part 2 "
                "is that number either way"]

    def to_json(self) -> dict[str, Any]:
        return {"deterministic_game": self.part1.to_json(), "wins": list(self.wins)}


@dataclass(frozen=True)
class Universe:
    """One model of the counting CNF: every die value of every turn up to the horizon, and the player
    (1 or 2) the encoding says wins it."""
    rolls: tuple[tuple[int, ...], ...]
    winner: int

    def render(self, colour: bool = False) -> str:
        return f"player {self.winner} wins: " + " ".join("".join(map(str, turn)) for turn in self.rolls)

    def answers(self) -> dict[str, Any]:
        return {"winner": self.winner}

    def to_json(self) -> dict[str, Any]:
        return {"rolls": [list(turn) for turn in self.rolls], "winner": self.winner}
