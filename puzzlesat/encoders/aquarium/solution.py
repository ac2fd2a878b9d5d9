"""An aquarium solution: which cells hold water."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AquariumSolution:
    #: ``water[r][c]`` is True for a water cell
    water: tuple[tuple[bool, ...], ...]

    @classmethod
    def from_lines(cls, lines: list[str]) -> AquariumSolution:
        return cls(tuple(tuple(ch == "#" for ch in line) for line in lines))

    def lines(self) -> list[str]:
        return ["".join("#" if cell else "." for cell in row) for row in self.water]

    def render(self, colour: bool = False) -> str:
        water = "\033[44m#\033[0m" if colour else "#"
        return "\n".join(" ".join(water if ch == "#" else ch for ch in line) for line in self.lines())

    def answers(self) -> dict[str, Any]:
        return {"grid": self.lines()}

    def to_json(self) -> dict[str, Any]:
        return {"grid": self.lines()}
