"""How a formula is built, beyond its kind: the typed options an encoder reads.

Each puzzle names its options type (:attr:`puzzlesat.core.puzzle.Puzzle.options_type`): this base
class, which has none, or a subclass in the puzzle's package (aquarium's ``cardinality`` and ``pb``, a
tiling's ``break_symmetry``, dice's ``winner``). An option the puzzle does not declare is refused, so
``--pb`` on a jigsaw is a one-line error, not an option silently ignored. The options are frozen, so a
request and the encodings built from it cannot drift apart; variants are made with
:func:`dataclasses.replace`. Values are checked against the field's type (and its ``choices``) where
they come in, since they also come from a variable map or the Python API, not only from click: a wrong
one is a one-line refusal, not an error deep in an encoder.
"""
from __future__ import annotations

import types
import typing
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .errors import PuzzlesatError

OptionsT = TypeVar("OptionsT", bound="EncoderOptions")


def choice(default: Any, choices: tuple[Any, ...]) -> Any:
    """A field that takes one of ``choices`` (a PySAT encoding's name, a player), ``default`` when not given."""
    return field(default=default, metadata={"choices": choices})


def accepts(hint: Any, value: Any) -> bool:
    """Whether ``value`` is of the declared type: exactly (``True`` is not an ``int``), or one of a union's."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(accepts(member, value) for member in typing.get_args(hint))
    if hint is type(None) or hint is None:
        return value is None
    return type(value) is hint


def described(hint: Any) -> str:
    """A type as a person reads it: ``int or None``."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(described(member) for member in typing.get_args(hint))
    return "None" if hint is type(None) else getattr(hint, "__name__", str(hint))


@dataclass(frozen=True)
class EncoderOptions:
    """No options: the encoder builds one formula per kind (amphipod)."""

    @classmethod
    def of(cls: type[OptionsT], puzzle_name: str, given: dict[str, Any]) -> OptionsT:
        """The options from keyword values, refusing in one line a name this puzzle does not take."""
        known = {f.name: f for f in fields(cls)}
        hints = typing.get_type_hints(cls)
        for name, value in given.items():
            flag = f"--{name.replace('_', '-')}"
            if name not in known:
                raise PuzzlesatError(f"{flag} does not apply to {puzzle_name}")
            if not accepts(hints[name], value):
                raise PuzzlesatError(f"{flag} takes {described(hints[name])}, not {quoted(value)}")
            choices = known[name].metadata.get("choices")
            if choices is not None and value not in choices:
                raise PuzzlesatError(f"{flag} takes one of {', '.join(map(str, choices))}, not {quoted(value)}")
        return cls(**given)


def quoted(value: Any) -> str:
    """A value in an error message, cut short: it may come from a crafted file."""
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else f"an integer of {value.bit_length()} bits"
    return text if len(text) <= 40 else text[:37] + "..."

