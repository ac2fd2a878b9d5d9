"""Lines as the solvers of every format read them.

MiniSat, CaDiCaL, kissat and the model counters end a line at ``\\n`` only (a ``\\r`` before it is
white space to them); Python's :meth:`str.splitlines` also ends one at ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``,
U+0085 and U+2028/2029. A comment holding a form feed, split there, would have the rest of it read as
clauses: a different formula. Every reader of puzzlesat (DIMACS, WCNF, solver outputs, proofs,
variable maps, puzzle texts) takes its lines from :func:`lines_of`.
"""
from __future__ import annotations

#: white space inside a line, as C's ``isspace`` in the solvers' readers sees it (``str.split()`` with
#: no argument also splits at ``\x1c``-``\x1f`` and Unicode spaces, which solvers refuse as tokens)
BLANKS = " \t\r\v\f"


def lines_of(text: str) -> list[str]:
    """``text``'s lines, ended at ``\\n`` alone, each without its ``\\r`` of a ``\\r\\n`` ending. A final
    ``\\n`` ends the last line (no empty line after it)."""
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
