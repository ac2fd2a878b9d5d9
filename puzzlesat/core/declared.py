"""What a puzzle declares it takes, so that the command line, the Python API and the documentation are
built from the puzzle instead of from a list of puzzles kept elsewhere.

A puzzle (:class:`~puzzlesat.core.puzzle.Puzzle`) declares

- its **reading options** (:attr:`~puzzlesat.core.puzzle.Puzzle.reading_options`): how its files are
  read (a rectangular jigsaw's ``rows`` and ``cols``, amphipod's ``unfold``, the dice game's rules);
  every command that reads a file offers them, under a heading of the puzzle's own in ``--help``;
- its **encoder flags** (:attr:`~puzzlesat.core.puzzle.Puzzle.encoder_flags`): the fields of its encoder
  options that the commands which build a formula offer (``--cardinality``, dice's ``--player``);
- its **generator** (:attr:`~puzzlesat.core.puzzle.Puzzle.generator`): ``puzzlesat generate PUZZLE``'s
  parameters and the function that makes an instance;
- its **bundled instances** (:attr:`~puzzlesat.core.puzzle.Puzzle.bundled`), what ``bench`` runs by
  default.

This module knows nothing of click: ``puzzlesat/cli/declared.py`` turns an :class:`Option` into a click
option, and the values a command receives come back here by name. A built-in puzzle and a plug-in
declare alike, so a plug-in gets every flag and subcommand a built-in one has.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One option a puzzle takes: ``name`` is its keyword (``parse``'s, the generator's or a field of
    the puzzle's encoder options), ``type`` one of ``int``, ``float``, ``str`` or ``bool``."""

    name: str
    type: type
    help: str
    #: the value when the option is not given; None: the puzzle's own default, which ``help`` says
    default: Any = None
    #: the least (and greatest) value an ``int`` or ``float`` takes, where there is one
    minimum: float | None = None
    maximum: float | None = None
    #: the maximum itself is not taken (a chance below 1)
    below_maximum: bool = False
    #: the values a ``str`` (or ``int``) option takes; empty: any of its type
    choices: tuple[Any, ...] = ()
    required: bool = False
    #: the command-line spelling, where it is not ``--NAME`` (with ``-`` for ``_``): a ``bool`` option
    #: is a flag that sets ``not default`` (``--no-unfold`` sets ``unfold`` False)
    flag: str | None = None
    #: how the command line's value becomes the keyword's (dice's ``--player 1`` is ``winner=0``)
    convert: Callable[[Any], Any] | None = None
    #: the keyword the value goes to, where it is not ``name`` (``--player`` sets ``winner``)
    keyword: str | None = None

    @property
    def spelling(self) -> str:
        """How the option is written on the command line."""
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def target(self) -> str:
        """The keyword its value is passed as."""
        return self.keyword or self.name

    def value(self, given: Any) -> Any:
        """The keyword's value for what the command line gave."""
        return self.convert(given) if self.convert is not None else given


@dataclass(frozen=True)
class Generator:
    """``puzzlesat generate PUZZLE``: a one-line ``summary`` (the list of generators), a ``description``
    with examples (its ``--help``), the ``parameters`` it takes besides ``--seed``, ``-o`` and
    ``--timeout``, and ``make(seed=..., deadline=..., **parameters)``, which returns the instance text
    (the same seed and parameters give the same text)."""

    summary: str
    description: str
    parameters: tuple[Option, ...]
    make: Callable[..., str]
