"""A jig layout: piece and quarter-turns per cell, with the rotated sides."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .instance import Sides


def rotate(sides: Sides, turns: int) -> Sides:
    """Quarter-turns clockwise: (T, R, B, L) -> (L, T, R, B) per turn."""
    t = turns % 4
    return sides[-t:] + sides[:-t] if t else sides  # type: ignore[return-value]


@dataclass(frozen=True)
class JigSolution:
    rows: int
    cols: int
    #: (piece id, quarter-turns) per cell, row-major
    placement: tuple[tuple[int, int], ...]
    #: the rotated (T, R, B, L) of each cell
    sides: tuple[Sides, ...]

    def answers(self) -> dict[str, Any]:
        return {"layout": [[list(self.placement[r * self.cols + c]) for c in range(self.cols)] for r in range(self.rows)]}

    def to_json(self) -> dict[str, Any]:
        """Per cell, row by row: [piece id, quarter-turns clockwise] and its sides as placed (T, R, B, L)."""
        return {"layout": self.answers()["layout"],
                "sides": [[list(self.sides[r * self.cols + c]) for c in range(self.cols)] for r in range(self.rows)]}

    def render(self, colour: bool = False) -> str:
        """Each cell as ``id/turns`` with its top and bottom sides above and below it and its left and
        right sides beside it (plain text whatever ``colour`` says). Field widths come from the widest
        value, with a space between fields, so two-digit ids and sides never run together."""
        labels = [f"{piece}/{turns}" for piece, turns in self.placement]
        side = max(len(str(v)) for sides in self.sides for v in sides)
        label = max(map(len, labels))
        width = 2 * side + label + 2
        lines = []
        for r in range(self.rows):
            cells = range(r * self.cols, (r + 1) * self.cols)
            lines.append("  ".join(f"{self.sides[i][0]:^{width}}" for i in cells).rstrip())
            lines.append("  ".join(f"{self.sides[i][3]:>{side}} {labels[i]:^{label}} {self.sides[i][1]:<{side}}"
                                   for i in cells).rstrip())
            lines.append("  ".join(f"{self.sides[i][2]:^{width}}" for i in cells).rstrip())
        return "\n".join(lines)
