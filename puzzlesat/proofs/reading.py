"""DRAT proofs as a solver writes them, in either of the two formats of the SAT competition.

Text: one step per line, a clause ending in ``0``, a deletion starting with ``d``, ``c`` comment lines.
Binary (CaDiCaL's and Kissat's default): each step is the byte ``a`` (addition) or ``d`` (deletion), then
every literal as a variable-length number (``2*var`` for a positive literal, ``2*var+1`` for a negative
one, seven bits per byte, the high bit meaning "more bytes follow"), then a zero byte.

A proof arrives as text lines (PySAT's ``get_proof``), as a ``str`` or as the bytes of a file; which
format bytes are in is told by their first bytes, as drat-trim tells it.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.errors import PuzzlesatError
from ..core.text import lines_of


class ProofFormatError(PuzzlesatError):
    """A proof that cannot be read: names where (line or byte offset) and what is wrong."""


@dataclass(frozen=True)
class Step:
    """One proof step: a lemma added, or a clause deleted (``deletion``)."""

    literals: tuple[int, ...]
    deletion: bool = False


def read_proof(data: bytes | str | Iterable[str], name: str = "proof") -> list[Step]:
    """The steps of a proof in either format; a malformed one is a :class:`ProofFormatError`."""
    if isinstance(data, bytes):
        if is_binary(data):
            return read_binary(data, name)
        try:
            data = data.decode("ascii")
        except UnicodeDecodeError as exc:
            raise ProofFormatError(f"{name}: byte {exc.start}: not a DRAT proof (neither text nor binary)") from None
    lines = lines_of(data) if isinstance(data, str) else data
    return read_text(lines, name)


def is_binary(data: bytes) -> bool:
    """Whether ``data`` is a binary DRAT proof: its first step is ``a``, or ``d`` followed by a number's
    byte rather than the space of a text deletion (a text proof starts with a digit, ``-``, ``c``, ``d ``
    or white space)."""
    return data[:1] == b"a" or (data[:1] == b"d" and data[1:2] not in (b" ", b"\t"))


def read_text(lines: Iterable[str], name: str = "proof") -> list[Step]:
    steps: list[Step] = []
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0].startswith("c"):
            continue
        deletion = words[0] == "d"
        if deletion:
            words = words[1:]
        try:
            literals = [int(word) for word in words]
        except ValueError:
            bad = next(word for word in words if not word.lstrip("-").isdigit())
            raise ProofFormatError(f"{name}: line {number}: '{bad}' is not a literal") from None
        if not literals or literals[-1] != 0:
            raise ProofFormatError(f"{name}: line {number}: the clause does not end with 0")
        if 0 in literals[:-1]:
            raise ProofFormatError(f"{name}: line {number}: 0 in the middle of a clause (one step per line)")
        steps.append(Step(tuple(literals[:-1]), deletion))
    return steps


def read_binary(data: bytes, name: str = "proof") -> list[Step]:
    steps: list[Step] = []
    position, size = 0, len(data)
    while position < size:
        start = data[position]
        if start not in (0x61, 0x64):  # "a", "d"
            raise ProofFormatError(f"{name}: byte {position}: a binary step starts with 'a' or 'd', not {start:#04x}")
        begin = position
        position += 1
        literals: list[int] = []
        while True:
            number, shift = 0, 0
            while True:
                if position >= size:
                    raise ProofFormatError(f"{name}: byte {begin}: the proof ends inside this step")
                byte = data[position]
                position += 1
                number |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            if number == 0:
                break
            if number < 2:
                raise ProofFormatError(f"{name}: byte {begin}: {number} is no literal's code")
            literals.append(-(number >> 1) if number & 1 else number >> 1)
        steps.append(Step(tuple(literals), start == 0x64))
    return steps
