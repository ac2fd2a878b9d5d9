"""An amphipod solution: per burrow (part 1, part 2), the moves in order and the energy claimed for them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .burrow import LETTERS, Burrow, step_cost
from .rules import Move, apply, start_state


@dataclass(frozen=True)
class Plan:
    label: str
    burrow: Burrow
    moves: tuple[Move, ...]
    energy: int  # as the method claims; the checker replays the moves and must find the same


@dataclass(frozen=True)
class AmphipodSolution:
    plans: tuple[Plan, ...]

    def answers(self) -> dict[str, Any]:
        return {plan.label: plan.energy for plan in self.plans}

    def to_json(self) -> dict[str, Any]:
        """Each plan's moves in order: who moves, from where, to where (``["hall", x]`` or ``["room",
        room, slot]``, slot 0 the top), the steps walked and the energy they cost."""
        plans = {}
        for plan in self.plans:
            state, moves = start_state(plan.burrow), []
            for move in plan.moves:
                state, walked = apply(plan.burrow, state, move)
                moves.append({"amphipod": LETTERS[move.kind], "from": list(move.source), "to": list(move.target),
                              "steps": walked, "energy": walked * step_cost(move.kind)})
            plans[plan.label] = {"energy": plan.energy, "moves": moves}
        return {"plans": plans}

    def render(self, colour: bool = False, steps: bool = False) -> str:
        """The moves of each plan; with ``steps``, the burrow after every move (replayed, so only for
        checked plans)."""
        out = []
        for plan in self.plans:
            said = f"energy {plan.energy} in {len(plan.moves)} moves"
            out.append(said if plan.label == "energy" else f"{plan.label}: {said}")  # one burrow: no part label
            state = start_state(plan.burrow)
            if steps:
                out.append(plan.burrow.draw())
            for number, move in enumerate(plan.moves, 1):
                state, walked = apply(plan.burrow, state, move)
                out.append(f"  {number:2}. {move.describe()} ({walked} steps)")
                if steps:
                    out.append(plan.burrow.draw(*state))
        return "\n".join(out)
