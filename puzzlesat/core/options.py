"""How a formula is built, beyond its kind: the typed options an encoder reads.

Each puzzle names its options type (:attr:`puzzlesat.core.puzzle.Puzzle.options_type`): this base
class, which has none, or a subclass in the puzzle's package (aquarium's ``cardinality`` and ``pb``, a
tiling's ``break_symmetry``, dice's ``winner``). An option the puzzle does not declare is refused, so
``--pb`` on a jigsaw is a one-line error, not an option silently ignored. The options are frozen, so a
request and the encodings built from it cannot drift apart; variants are made with
:func:`dataclasses.replace`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from .errors import PuzzlesatError

OptionsT = TypeVar("OptionsT", bound="EncoderOptions")


@dataclass(frozen=True)
class EncoderOptions:
    """No options: the encoder builds one formula per kind (amphipod)."""

    @classmethod
    def of(cls: type[OptionsT], puzzle_name: str, given: dict[str, Any]) -> OptionsT:
        """The options from keyword values, refusing in one line a name this puzzle does not take."""
        known = {f.name for f in fields(cls)}
        for name in given:
            if name not in known:
                raise PuzzlesatError(f"--{name.replace('_', '-')} does not apply to {puzzle_name}")
        return cls(**given)

