"""Property-based: any text fed to the aquarium parser either parses or fails with PuzzleFormatError."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlesat.core.errors import PuzzleFormatError
from puzzlesat.encoders import get_puzzle

from .conftest import aquarium_instances

AQUARIUM = get_puzzle("aquarium")
VALID = [p.read_text() for p in aquarium_instances()[:6]]


def parses_or_says_why(text: str) -> None:
    try:
        instance = AQUARIUM.parse(text, "fuzz.txt")
    except PuzzleFormatError as exc:
        assert str(exc).startswith("fuzz.txt") and "\n" not in str(exc)
        return
    assert len(instance.regions) == instance.n and all(len(row) == instance.n for row in instance.regions)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789_;,\n -x", max_size=80))
def test_random_text(text):
    parses_or_says_why(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VALID), st.integers(min_value=0, max_value=400), st.sampled_from(["", "_", ";", ",", "9", "a", "\n"]),
       st.integers(min_value=0, max_value=3))
def test_mutated_instances(text, position, insert, delete):
    position %= len(text)
    parses_or_says_why(text[:position] + insert + text[position + delete:])
