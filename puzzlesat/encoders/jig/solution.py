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

    def render(self, colour: bool = False) -> str:
        """Each cell as ``id/turns`` with its top side above and its left/right sides beside it
        (plain text whatever ``colour`` says)."""
        lines = []
        for r in range(self.rows):
            cells = range(r * self.cols, (r + 1) * self.cols)
            lines.append(" ".join(f"{self.sides[i][0]:^11}" for i in cells))
            lines.append(" ".join(f"{self.sides[i][3]:>3}{str(self.placement[i][0]) + '/' + str(self.placement[i][1]):^5}{self.sides[i][1]:<3}"
                                  for i in cells))
            lines.append(" ".join(f"{self.sides[i][2]:^11}" for i in cells))
        return "\n".join(lines)
