"""Independent check of part 1: replay the deterministic game from the rules and compare."""
from __future__ import annotations

from .instance import DiceInstance
from .rules import advance, play_deterministic
from .solution import Part1, Universe


def check_part1(instance: DiceInstance, part1: Part1) -> list[str]:
    rolled, scores = play_deterministic(instance.starts, instance.game)
    problems = []
    if part1.turns * instance.game.rolls != rolled:
        problems.append(f"the game ends after {rolled} rolls, not {part1.turns * instance.game.rolls}")
    if part1.scores != scores:
        problems.append(f"the final scores are {scores}, not {part1.scores}")
    return problems


def check_universe(instance: DiceInstance, universe: Universe) -> list[str]:
    """Play the rolls: the claimed player must win, and every roll after the end must be 1 (so that a
    universe is one model)."""
    game = instance.game
    positions, scores = list(instance.starts), [0, 0]
    for t, turn in enumerate(universe.rolls):
        if len(turn) != game.rolls or not all(1 <= v <= game.sides for v in turn):
            return [f"turn {t + 1}: rolls {turn} are not {game.rolls} values of a {game.sides}-sided die"]
        if max(scores) >= game.target:
            if any(v != 1 for v in turn):
                return [f"turn {t + 1} comes after the end but its rolls are not fixed to 1"]
            continue
        player = t % 2
        positions[player] = advance(positions[player], sum(turn), game.track)
        scores[player] += positions[player]
    if max(scores) < game.target:
        return ["nobody reaches the target within the rolls"]
    winner = 1 if scores[0] >= game.target else 2
    return [] if winner == universe.winner else [f"player {winner} wins these rolls, not player {universe.winner}"]
