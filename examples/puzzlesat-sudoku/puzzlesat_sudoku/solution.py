"""A filled Sudoku grid."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SudokuSolution:
    digits: tuple[tuple[int, ...], ...]

    def lines(self) -> list[str]:
        return ["".join(map(str, row)) for row in self.digits]

    def render(self, colour: bool = False) -> str:
        return "\n".join(" ".join(line) for line in self.lines())

    def answers(self) -> dict[str, Any]:
        return {"grid": self.lines()}

    def to_json(self) -> dict[str, Any]:
        return {"grid": self.lines()}
