"""How the Dirac games end: universes won by each player against the turn on which the game ends, as a
bar chart. The bars come from the forward DP; their totals must equal the counted wins of the solution,
so the picture doubles as one more cross-check."""
from __future__ import annotations

from ...core.errors import CheckFailed
from ...formats.picture import Picture
from .instance import DiceInstance
from .reference import wins_by_turn
from .rules import advance
from .solution import DiceSolution, Universe

PLAYERS = ((31, 119, 180), (255, 127, 14))
AXIS = (60, 60, 60)
HEIGHT = 12.0  # of the tallest bar, in cells


def picture(instance: DiceInstance, solution: DiceSolution | Universe) -> Picture:
    """The win distribution of a solved game; for one universe (a decoded model), its score race."""
    if isinstance(solution, Universe):
        return _universe(instance, solution)
    ended = wins_by_turn(instance)
    totals = tuple(sum(won[p] for won in ended.values()) for p in (0, 1))
    if totals != solution.wins:
        raise CheckFailed(f"the DP's wins by turn add up to {totals}, the solution counted {solution.wins}")
    turns = sorted(ended)
    tallest = max(max(won) for won in ended.values())
    left = 4.0  # room for the value axis and its labels
    width = max(left + len(turns) + 1, 20.0)
    pic = Picture(width, HEIGHT + 7)
    base = HEIGHT + 4.5
    pic.label(width / 2, 0.7, "Dirac dice: universes won, by the turn on which the game ends", 0.6)
    for player, x in ((0, width * 0.08), (1, width * 0.55)):  # the legend: a swatch, then its total
        text = f"player {player + 1}: {solution.wins[player]} universes"
        pic.rect(x, 1.6, 0.5, 0.5, PLAYERS[player])
        pic.label(x + 0.8, 1.85, text, 0.4, start=True)
    for fraction in (0.0, 0.5, 1.0):  # the value axis: its line, ticks and values
        y = base - HEIGHT * fraction
        pic.rect(left - 0.35, y - 0.02, 0.3, 0.04, AXIS)
        pic.label(left - 1.9, y, f"{tallest * fraction:.2g}", 0.4)
    pic.rect(left - 0.07, base - HEIGHT, 0.05, HEIGHT, AXIS)
    for k, turn in enumerate(turns):
        player = 0 if ended[turn][0] else 1
        height = HEIGHT * ended[turn][player] / tallest
        pic.rect(left + k + 0.1, base - height, 0.8, height, PLAYERS[player])
        if ended[turn][player]:
            pic.label(left + k + 0.5, base - height - 0.35, f"{ended[turn][player]:.1e}".replace("e+", "e"), 0.24)
        pic.label(left + k + 0.5, base + 0.5, str(turn), 0.4)
    pic.rect(left - 0.1, base, len(turns) + 0.2, 0.05, AXIS)
    pic.label(left + len(turns) / 2, base + 1.4, "turn on which the game ends (odd: player 1 moved, even: player 2)", 0.4)
    pic.label(1.0, base - HEIGHT / 2 - 2.2, "universes", 0.4)
    return pic


def _universe(instance: DiceInstance, universe: Universe) -> Picture:
    """Both scores after every turn of one universe (bars side by side), up to the winning turn, under a
    line at the target."""
    game = instance.game
    positions, scores, history = list(instance.starts), [0, 0], []
    for turn, rolls in enumerate(universe.rolls):
        mover = turn % 2
        positions[mover] = advance(positions[mover], sum(rolls), game.track)
        scores[mover] += positions[mover]
        history.append((tuple(scores), "".join(map(str, rolls))))
        if scores[mover] >= game.target:
            break
    top = max(game.target, max(max(s) for s, _ in history))
    pic = Picture(len(history) * 1.2 + 3, HEIGHT + 5)
    base = HEIGHT + 2.5
    for k, (pair, shown) in enumerate(history):
        for player in (0, 1):
            height = HEIGHT * pair[player] / top
            pic.rect(2 + k * 1.2 + player * 0.5, base - height, 0.45, height, PLAYERS[player])
        pic.label(2 + k * 1.2 + 0.5, base + 0.5, shown, 0.35)
    pic.rect(1.9, base - HEIGHT * game.target / top, len(history) * 1.2 + 0.2, 0.05, AXIS)
    pic.rect(1.9, base, len(history) * 1.2 + 0.2, 0.05, AXIS)
    pic.label(pic.width / 2, base + 1.3, "die values of each turn; line: the target score", 0.45)
    pic.label(pic.width / 2, 0.6, f"one universe won by player {universe.winner}", 0.45)
    return pic
