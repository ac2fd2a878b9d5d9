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


@dataclass(frozen=True)
class AquariumForced:
    """The cells every solution agrees on (``solve --forced``): water, dry, or None where solutions differ.
    A unique puzzle's is its whole solution, the answer key."""

    cells: tuple[tuple[bool | None, ...], ...]

    def lines(self) -> list[str]:
        return ["".join("?" if cell is None else "#" if cell else "." for cell in row) for row in self.cells]

    def render(self, colour: bool = False) -> str:
        return "\n".join(" ".join(line) for line in self.lines())

    def to_json(self) -> dict[str, Any]:
        known = sum(cell is not None for row in self.cells for cell in row)
        return {"grid": self.lines(), "forced": known, "cells": sum(len(row) for row in self.cells)}
