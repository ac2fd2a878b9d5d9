"""Independent checker: replay every move under the rules, add up the energy, demand the goal."""
from __future__ import annotations

from .burrow import step_cost
from .instance import AmphipodInstance
from .rules import IllegalMove, apply, is_goal, start_state
from .solution import AmphipodSolution


def check(instance: AmphipodInstance, solution: AmphipodSolution) -> list[str]:
    problems = []
    if [label for label, _ in instance.burrows] != [plan.label for plan in solution.plans]:
        return ["the solution does not answer the instance's parts"]
    for (label, burrow), plan in zip(instance.burrows, solution.plans):
        if plan.burrow != burrow:
            problems.append(f"{label}: the plan is for another burrow")
            continue
        state, energy = start_state(burrow), 0
        try:
            for number, move in enumerate(plan.moves, 1):
                state, steps = apply(burrow, state, move)
                energy += steps * step_cost(move.kind)
        except IllegalMove as exc:
            problems.append(f"{label}: move {number}: {exc}")
            continue
        if not is_goal(burrow, state):
            problems.append(f"{label}: after the last move some amphipods are not home")
        if energy != plan.energy:
            problems.append(f"{label}: the moves cost {energy}, the plan claims {plan.energy}")
    return problems
