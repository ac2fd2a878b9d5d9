"""Why is it the answer: explanations in puzzle terms, found by small unsatisfiable cores over the facts
an encoder labels, and checked by replaying them (issue 37).

A puzzle that can explain itself gives its CNF as :class:`Fact` groups ("row 3 count", "region 7 fills
level by level"), each a few clauses, and names the cells each shown variable stands for. An
explanation is a list of :class:`Step`: the facts it uses and the cells they force, given the cells the
steps before it fixed. :func:`~.search.explain` finds the steps (fewest facts first, as a person would);
:func:`~.replay.replay` checks them from scratch, one fresh solver call per claimed cell.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Count:
    """What a counting fact counts: so many cells of a line hold the true value (a row's water cells), so
    that a text can say why marks break it ("row 3 needs 4 water cells; with these marks at most 3 fit")."""

    #: the line, as a person names it ("row 3")
    line: str
    #: (shown variable, how many of the line's cells it stands for), for every variable of the line
    cells: tuple[tuple[int, int], ...]
    #: how many of the line's cells hold the true value
    total: int

    def totals(self, fixed: set[int]) -> set[int]:
        """Every number of true cells the line can hold with the literals ``fixed`` (the others free)."""
        reachable = {0}
        for var, many in self.cells:
            options = (many,) if var in fixed else (0,) if -var in fixed else (0, many)
            reachable = {sum_ + option for sum_ in reachable for option in options}
        return reachable


@dataclass(frozen=True)
class Fact:
    """A rule of the puzzle as it applies to one place, with the clauses that say it."""

    #: what it says, in puzzle terms ("row 3 has 4 filled cells")
    label: str
    #: the clauses that say it, over the puzzle's CNF variables
    clauses: Sequence[Sequence[int]]
    #: the label in a few characters, for a picture's titles (default: the label)
    short: str = ""
    #: what it counts, where it is a count (None: another kind of fact)
    count: Count | None = None


@dataclass(frozen=True)
class Facts:
    """A puzzle's CNF as labelled facts, and what its shown variables mean: each variable's cells (as
    the puzzle names them) and the words for its two values."""

    #: every rule as it applies to one place
    facts: Sequence[Fact]
    #: shown variable -> the cells it stands for (JSON-ready)
    cells: dict[int, tuple[Any, ...]]
    #: shown variable -> its cells as a person reads them ("r3c1 r3c2")
    names: dict[int, str]
    #: how a cell reads when its variable is false, true ("empty", "water")
    values: tuple[str, str] = ("false", "true")
    #: the values whose cells a text names one by one (the others are counted: a tiling's placements
    #: ruled out are many and dull)
    listed: tuple[bool, ...] = (False, True)
    #: the grid's thick lines for a picture, each between two side-by-side cells (r1, c1, r2, c2): an
    #: aquarium's region borders
    walls: tuple[tuple[int, int, int, int], ...] = ()


@dataclass(frozen=True)
class Step:
    """Facts that, with every cell fixed before, force these literals of shown variables."""

    #: the facts it uses, as indices into :attr:`Facts.facts`
    facts: tuple[int, ...]
    #: what they force, as literals over shown variables (positive: the variable's true value)
    forced: tuple[int, ...]


@dataclass(frozen=True)
class Explanation:
    """The steps, and where they end: every shown variable fixed (``solved``), or stuck (what is not
    forced has more than one value in the solutions), or a contradiction (``conflict``: facts that
    cannot hold together)."""

    #: the puzzle's CNF as labelled facts, and what its shown variables mean
    facts: Facts
    #: the steps, in order: each uses the cells the steps before it fixed
    steps: tuple[Step, ...]
    #: every shown variable is fixed at the end
    solved: bool
    #: where the puzzle has no solution: facts (indices into :attr:`Facts.facts`) that cannot hold
    #: together, given the steps' cells
    conflict: tuple[int, ...] = ()
    #: where the steps stop without a solution: two solutions that differ on every cell not forced
    differing: tuple[tuple[int, ...], ...] = field(default=())
    #: the search was stopped (a time limit, a signal) after these steps: it ends nowhere yet
    stopped: bool = False

    @property
    def difficulty(self) -> dict[str, int]:
        """How hard a person would find it: the steps, and the most facts one step needs."""
        return {"steps": len(self.steps), "widest": max((len(step.facts) for step in self.steps), default=0)}
