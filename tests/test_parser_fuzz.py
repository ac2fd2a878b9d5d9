"""Property-based: any text fed to any puzzle's parser either parses or fails with one clear line.

Two kinds of input per parser: random text over the characters its format uses, and real instances
mutated by inserting, deleting or replacing characters at random places (the faults people make by hand:
a stray character, a missing line break, a truncated file). A traceback would be any other exception."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesat.core.errors import PuzzleFormatError, PuzzlesatError
from puzzlesat.encoders import get_puzzle

from .conftest import INSTANCES

#: per puzzle: a few real instances to mutate, and the characters its format is made of
FORMATS = {
    "aquarium": (sorted((INSTANCES / "aquarium").glob("pa-*.txt"))[:4], "0123456789_;,\n -x"),
    "jigsaw": ([INSTANCES / "aoc" / "2020-20" / "example.txt"], "Tile 0123456789:#.\n\r"),
    "jig": ([INSTANCES / "jig" / "matt5x5.jig", INSTANCES / "jig" / "zhurgut_4x4.jig"], "0123456789 -\n#x"),
    "amphipod": ([INSTANCES / "aoc" / "2021-23" / "example.txt"], "#.ABCDEZ \n"),
    "dice": ([INSTANCES / "aoc" / "2021-21" / "example.txt"], "Player 12starting position:0-9\n"),
}
EDITS = ["", "\n", " ", "#", ".", "-", "0", "9", ":", "A", "x", "\r\n"]


def parses_or_says_why(puzzle: str, text: str) -> None:
    try:
        get_puzzle(puzzle).parse(text, "fuzz.txt")
    except PuzzleFormatError as exc:
        assert str(exc).startswith("fuzz.txt") and "\n" not in str(exc)
    except PuzzlesatError as exc:  # errors about the whole input (e.g. a count) need no line number
        assert "\n" not in str(exc) and str(exc)


@pytest.mark.parametrize("puzzle", FORMATS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_text(puzzle, data):
    parses_or_says_why(puzzle, data.draw(st.text(alphabet=FORMATS[puzzle][1], max_size=120)))


@pytest.mark.parametrize("puzzle", FORMATS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_mutated_instances(puzzle, data):
    text = data.draw(st.sampled_from([p.read_text() for p in FORMATS[puzzle][0]]))
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        position = data.draw(st.integers(min_value=0, max_value=len(text)))
        delete = data.draw(st.integers(min_value=0, max_value=4))
        text = text[:position] + data.draw(st.sampled_from(EDITS)) + text[position + delete:]
    parses_or_says_why(puzzle, text)


@pytest.mark.parametrize("puzzle", FORMATS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_truncated_instances(puzzle, data):
    text = FORMATS[puzzle][0][0].read_text()
    parses_or_says_why(puzzle, text[:data.draw(st.integers(min_value=0, max_value=len(text)))])


#: edits that reach past the parser: a byte-order mark, non-ASCII, control characters and terminal
#: escapes, a lone CR, numbers too long for Python's int(), very long lines
WIDE_EDITS = ["\ufeff", "é", "\u2028", "\x00", "\x1b[2J", "\x1b]0;t\x07", "\r", "\t", "9" * 5000, "-" + "1" * 5000,
              "#" * 3000, "\n" * 50]
#: how each puzzle is run through the command line: small options, so that a case takes milliseconds
CLI_OPTIONS = {"aquarium": [], "jigsaw": [], "jig": [], "amphipod": ["--no-unfold"], "dice": ["--target", "6"]}


@pytest.mark.parametrize("puzzle", FORMATS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_instances_through_the_command_line(puzzle, data, run_cli, tmp_path_factory):
    """Parse, encode and solve under a short deadline: every end is a documented exit code, and an error
    is one line with no raw control character (they are shown escaped). (``run_cli`` and the temporary
    directories hold no state between cases.)"""
    text = data.draw(st.sampled_from([p.read_text() for p in FORMATS[puzzle][0]]))
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        position = data.draw(st.integers(min_value=0, max_value=len(text)))
        delete = data.draw(st.integers(min_value=0, max_value=4))
        text = text[:position] + data.draw(st.sampled_from(EDITS + WIDE_EDITS)) + text[position + delete:]
    path = tmp_path_factory.mktemp("fuzz") / "input.txt"
    path.write_text(text, encoding="utf-8")
    code, _, err = run_cli("solve", puzzle, str(path), *CLI_OPTIONS[puzzle], "--timeout", "5")
    assert code in (0, 1, 2, 4), err
    if code not in (0, 1):
        assert err.count("\n") == 1 and err.startswith("puzzlesat: error: ") and "internal error" not in err, err
        assert not any(ch < " " and ch not in "\n" or "\x7f" <= ch <= "\x9f" for ch in err), err
