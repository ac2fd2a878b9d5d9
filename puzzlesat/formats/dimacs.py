"""DIMACS CNF, WCNF and model-counting files, with named variables and projection lines (the JSON
variable map is :mod:`.varmap`, solver output is read by :mod:`.answers`)."""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.encoding import Encoding
from ..core.errors import PuzzleFormatError

#: a DIMACS integer: variables are below 2^31, so ten digits at most (a longer token is refused, not read)
LITERAL = re.compile(r"-?\d{1,10}")


def _comments(encoding: Encoding, title: str) -> list[str]:
    """Title, encoding name and facts and ``c var ID meaning`` lines (auxiliary variables stay unnamed)."""
    lines = [f"c {title}"] if title else []
    lines += [f"c info encoding {encoding.name}"] if encoding.name else []
    lines.extend(f"c info {key} {value}" for key, value in encoding.info.items())
    lines.extend(f"c var {vid} {name}" for vid, name in sorted(encoding.names().items()))
    return lines


def _clause_lines(clauses: Iterable[list[int]], prefix: str = "") -> list[str]:
    return [prefix + " ".join(map(str, clause)) + " 0" for clause in clauses]


def _projection(encoding: Encoding) -> list[str]:
    """The solution-defining variables in both spellings counters read: the model-counting
    competition's ``c p show ... 0`` and the older ``c ind ... 0`` (ApproxMC, Ganak, sharpSAT-TD).
    SAT solvers skip them as comments."""
    if not encoding.show:
        return []
    shown = " ".join(map(str, encoding.show))
    return [f"c p show {shown} 0", f"c ind {shown} 0"]


def to_dimacs(encoding: Encoding, title: str = "", extra: Sequence[list[int]] = ()) -> str:
    """DIMACS text whose ``c`` lines name each meaningful variable, e.g. ``c var 17 water(3,5)``, and
    give the projection (:func:`_projection`). ``extra`` clauses (e.g. blocking clauses) are appended
    to the encoding's own; the header counts their variables too (a descent's bound takes fresh ones)."""
    lines = _comments(encoding, title)
    top = max(encoding.num_vars, max((abs(lit) for clause in extra for lit in clause), default=0))
    lines.append(f"p cnf {top} {len(encoding.clauses) + len(extra)}")
    lines += _projection(encoding) + _clause_lines(encoding.clauses) + _clause_lines(extra)
    return "\n".join(lines) + "\n"


def to_mcc(encoding: Encoding, title: str = "") -> str:
    """Model-counting competition DIMACS: ``c t pmc`` (projected counting; ``c t mc`` when every
    variable is a function of the projection, so the plain count is the projected one), then the
    DIMACS file with its projection lines."""
    kind = "mc" if encoding.show_determines_all else "pmc"
    return f"c t {kind}\n" + to_dimacs(encoding, title)


def to_wcnf(encoding: Encoding, title: str = "", old_format: bool = False) -> str:
    """MaxSAT-evaluation WCNF. The 2022 format: hard clauses ``h ... 0``, soft ``WEIGHT ... 0``; with
    ``old_format`` the one clasp and older solvers read: a ``p wcnf VARS CLAUSES TOP`` header and hard
    clauses weighted TOP (more than all soft weights together). The cost no choice changes is stated
    in a comment (add it to the optimum)."""
    lines = _comments(encoding, title) + [f"c cost offset {encoding.cost_offset}"]
    soft = [f"{weight} " + " ".join(map(str, clause)) + " 0" for clause, weight in encoding.soft]
    if old_format:
        top = sum(weight for _, weight in encoding.soft) + 1
        lines.append(f"p wcnf {encoding.num_vars} {len(encoding.clauses) + len(encoding.soft)} {top}")
        return "\n".join(lines + _clause_lines(encoding.clauses, f"{top} ") + soft) + "\n"
    return "\n".join(lines + _clause_lines(encoding.clauses, "h ") + soft) + "\n"


def violated_clause(clauses: list[list[int]], literals: list[int]) -> int | None:
    """The index of the first clause that ``literals`` (a solver's model) makes false, every literal of
    it assigned and false; None when there is none. Checked before any puzzle decoding, so a model of
    another file, or a wrong one, is named as such."""
    true = set(literals)
    assigned = true | {-lit for lit in literals}
    for index, clause in enumerate(clauses):
        if not any(lit in true for lit in clause) and all(lit in assigned for lit in clause):
            return index
    return None


@dataclass(frozen=True)
class Dimacs:
    """A DIMACS CNF or WCNF file as read: its clauses, the projection it declares (``c p show`` or
    ``c ind``; empty when none), and for WCNF the weighted soft clauses."""

    #: the variables its clauses and projection use (a header may declare more: they cost nothing)
    num_vars: int
    clauses: tuple[tuple[int, ...], ...]
    show: tuple[int, ...] = ()
    soft: tuple[tuple[tuple[int, ...], int], ...] = ()


def parse_dimacs(text: str, path: str, weighted: bool = False) -> Dimacs:
    """Read DIMACS CNF (``p cnf V C``) or, with ``weighted``, WCNF: the 2022 format (``h`` hard clauses,
    ``W`` soft ones, no header) or the older one (``p wcnf V C TOP``, clauses weighted TOP are hard).
    Errors name the line and column."""
    header: tuple[int, int, int | None] | None = None
    clauses: list[tuple[int, ...]] = []
    soft: list[tuple[tuple[int, ...], int]] = []
    show: list[int] = []
    shown_at: dict[int, tuple[int, int]] = {}  # a projected variable -> the line and column that named it
    pending: list[int] = []  # a clause may span lines
    weight: int | None = None  # the pending clause's weight (WCNF); None: hard
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("c"):
            words = line.split()
            projection = words[3:] if words[:3] == ["c", "p", "show"] else words[2:] if words[:2] == ["c", "ind"] else None
            if projection is not None:
                for variable, column in _shown(projection, path, number, raw):
                    show.append(variable)
                    shown_at.setdefault(variable, (number, column))
            continue
        if line.startswith("p"):
            words = line.split()
            kind = "wcnf" if weighted else "cnf"
            if header is not None or len(words) not in (4, 5) or words[1] != kind:
                raise PuzzleFormatError(path, number, 1, f"expected one header 'p {kind} VARIABLES CLAUSES"
                                        f"{' [TOP]' if weighted else ''}', got '{line[:40]}'")
            numbers = [_literal(token, path, number, raw) for token in words[2:]]
            header = (numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else None)
            continue
        tokens = line.split()
        for token in tokens:
            if weighted and not pending and weight is None:
                if token == "h":
                    weight = -1
                    continue
                weight = _literal(token, path, number, raw)
                if weight <= 0:
                    raise PuzzleFormatError(path, number, raw.find(token) + 1, "a soft clause's weight must be positive")
                continue
            lit = _literal(token, path, number, raw)
            if lit:
                pending.append(lit)
                continue
            clause = tuple(pending)
            top = header[2] if header else None
            if not weighted or weight == -1 or (top is not None and weight is not None and weight >= top):
                clauses.append(clause)
            else:
                soft.append((clause, weight or 0))
            pending, weight = [], None
    if pending:
        raise PuzzleFormatError(path, None, None, "the last clause does not end with 0")
    if header is None and not weighted:
        raise PuzzleFormatError(path, None, None, "no 'p cnf VARIABLES CLAUSES' header: not a DIMACS CNF file")
    used = max((abs(lit) for clause in [*clauses, *(c for c, _ in soft)] for lit in clause), default=0)
    if header is not None and used > header[0]:
        raise PuzzleFormatError(path, None, None, f"variable {used} is beyond the header's {header[0]}")
    if header is not None and show and max(show) > header[0]:
        named_on, column = shown_at[max(show)]
        raise PuzzleFormatError(path, named_on, column, f"projected variable {max(show)} is beyond the header's {header[0]}")
    # the formula's variables are the ones its clauses and projection use: a header that declares more
    # (DIMACS allows it) costs nothing, and its unused variables neither take memory nor double counts
    num_vars = max(used, max(show, default=0))
    return Dimacs(num_vars, tuple(clauses), tuple(sorted(set(show))), tuple(soft))


def _shown(tokens: list[str], path: str, number: int, line: str) -> list[tuple[int, int]]:
    """The variables of a ``c p show`` / ``c ind`` line, with their columns, up to its closing 0: each a
    positive variable (a literal there would project on a variable's sign, which means nothing)."""
    found = []
    for token in tokens:
        value = _literal(token, path, number, line)
        if value == 0:
            break
        if value < 0:
            raise PuzzleFormatError(path, number, line.find(token) + 1,
                                    f"the projection names variables, not literals: '{token[:20]}' is negative")
        found.append((value, line.find(token) + 1))
    return found


def _literal(token: str, path: str, number: int, line: str) -> int:
    if not LITERAL.fullmatch(token):
        raise PuzzleFormatError(path, number, line.find(token) + 1, f"'{token[:20]}' is not an integer")
    return int(token)

