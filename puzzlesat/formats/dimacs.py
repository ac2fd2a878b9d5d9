"""DIMACS CNF, WCNF and model-counting files, with named variables and projection lines (the JSON
variable map is :mod:`.varmap`, solver output is read by :mod:`.answers`)."""
from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..core.clauses import FlatClauses
from ..core.encoding import Encoding
from ..core.errors import PuzzleFormatError, PuzzlesatError
from ..core.text import BLANKS, lines_of
from ..core.weights import completed, parse_weight, weight_text

#: a DIMACS integer: variables are below 2^31, so ten digits at most (a longer token is refused, not read)
LITERAL = re.compile(r"-?\d{1,10}")
#: a weight: the MaxSAT evaluation allows up to 2^63 - 1, so nineteen digits at most
WEIGHT = re.compile(r"\d{1,19}")
WEIGHT_LIMIT = 1 << 63


def _comments(encoding: Encoding, title: str) -> list[str]:
    """Title, encoding name and facts and ``c var ID meaning`` lines (auxiliary variables stay unnamed)."""
    lines = [f"c {title}"] if title else []
    lines += [f"c info encoding {encoding.name}"] if encoding.name else []
    lines.extend(f"c info {key} {value}" for key, value in encoding.info.items())
    lines.extend(f"c var {vid} {name}" for vid, name in sorted(encoding.names().items()))
    return lines


def _clause_lines(clauses: Iterable[Sequence[int]], prefix: str = "") -> list[str]:
    return [prefix + " ".join(map(str, clause)) + " 0" for clause in clauses]


def _projection(encoding: Encoding) -> list[str]:
    """The solution-defining variables in both spellings counters read: the model-counting
    competition's ``c p show ... 0`` and the older ``c ind ... 0`` (ApproxMC, Ganak, sharpSAT-TD).
    SAT solvers skip them as comments. None when every variable is shown: a plain count is then the
    projected one (a formula file with no projection of its own, free variables and all). An empty
    projection (a file's ``c p show 0``: a count is 1 or 0) is written in the competition's spelling only:
    older tools read an empty ``c ind`` as no projection at all."""
    if _shows_everything(encoding):
        return []
    if not encoding.show:
        return ["c p show 0"]
    shown = " ".join(map(str, encoding.show))
    return [f"c p show {shown} 0", f"c ind {shown} 0"]


def _shows_everything(encoding: Encoding) -> bool:
    return len(set(encoding.show)) == encoding.num_vars


def to_dimacs(encoding: Encoding, title: str = "", extra: Sequence[list[int]] = (), export: bool = False) -> str:
    """DIMACS text whose ``c`` lines name each meaningful variable, e.g. ``c var 17 water(3,5)``, and
    give the projection (:func:`_projection`). ``extra`` clauses (e.g. blocking clauses) are appended
    to the encoding's own; the header counts their variables too (a descent's bound takes fresh ones).
    An ``export`` (the file a user takes elsewhere) declares the encoding's free shown variables too,
    so an outside counter counts what puzzlesat counts; a backend's own copy leaves them out, because
    puzzlesat multiplies its count for them (:attr:`Encoding.free_shown`)."""
    lines = _comments(encoding, title)
    declared = encoding.declared_vars if export else encoding.num_vars
    top = max(declared, max((abs(lit) for clause in extra for lit in clause), default=0))
    lines.append(f"p cnf {top} {len(encoding.clauses) + len(extra)}")
    lines += _projection(encoding) + _weight_lines(encoding) + _clause_lines(encoding.clauses) + _clause_lines(extra)
    return "\n".join(lines) + "\n"


def _weight_lines(encoding: Encoding) -> list[str]:
    """A weighted encoding's ``c p weight LIT W 0`` lines, both literals of each weighted variable, each
    weight exact (:func:`~puzzlesat.core.weights.weight_text`); SAT solvers skip them as comments."""
    weights = encoding.weights or {}
    return [f"c p weight {lit} {weight_text(weights[lit])} 0" for lit in sorted(weights, key=lambda lit: (abs(lit), lit < 0))]


def to_mcc(encoding: Encoding, title: str = "", export: bool = False) -> str:
    """Model-counting competition DIMACS: ``c t pmc`` (projected counting; ``c t mc`` when every
    variable is a function of the projection, so the plain count is the projected one; ``wmc`` and
    ``pwmc`` for a weighted encoding), then the DIMACS file with its projection and weight lines
    (``export`` as in :func:`to_dimacs`)."""
    kind = "mc" if encoding.show_determines_all or _shows_everything(encoding) else "pmc"
    weighted = "w" if encoding.weights is not None else ""
    return f"c t {kind[:-2]}{weighted}{kind[-2:]}\n" + to_dimacs(encoding, title, export=export)


def to_wcnf(encoding: Encoding, title: str = "", old_format: bool = False) -> str:
    """MaxSAT-evaluation WCNF. The 2022 format: hard clauses ``h ... 0``, soft ``WEIGHT ... 0``; with
    ``old_format`` the one clasp and older solvers read: a ``p wcnf VARS CLAUSES TOP`` header and hard
    clauses weighted TOP (more than all soft weights together). The cost no choice changes is stated
    in a comment (add it to the optimum)."""
    lines = _comments(encoding, title) + [f"c cost offset {encoding.cost_offset}"]
    soft = [f"{weight} " + " ".join(map(str, clause)) + " 0" for clause, weight in encoding.soft]
    if old_format:
        top = sum(weight for _, weight in encoding.soft) + 1
        if top >= WEIGHT_LIMIT:
            raise PuzzlesatError(f"the soft clauses weigh {top - 1:,} in all: the old format's TOP (that sum + 1) "
                                 "would be past 2^63 - 1, which its readers refuse; write the 2022 format (wcnf)")
        lines.append(f"p wcnf {encoding.num_vars} {len(encoding.clauses) + len(encoding.soft)} {top}")
        return "\n".join(lines + _clause_lines(encoding.clauses, f"{top} ") + soft) + "\n"
    return "\n".join(lines + _clause_lines(encoding.clauses, "h ") + soft) + "\n"


def violated_clause(clauses: Sequence[Sequence[int]], literals: list[int]) -> int | None:
    """The index of the first clause that ``literals`` (a solver's model) makes false, every literal of
    it assigned and false; None when there is none. Checked before any puzzle decoding, so a model of
    another file, or a wrong one, is named as such. A large file's flat arrays are checked at once."""
    if isinstance(clauses, FlatClauses):
        return clauses.first_violated(literals)
    true = set(literals)
    assigned = true | {-lit for lit in literals}
    for index, clause in enumerate(clauses):
        if not any(lit in true for lit in clause) and all(lit in assigned for lit in clause):
            return index
    return None


@dataclass(frozen=True)
class Dimacs:
    """A DIMACS CNF or WCNF file as read: its clauses, the projection it declares, and for WCNF the
    weighted soft clauses.

    Its variables are the header's, as the model-counting competition counts them (Ganak, D4 and
    sharpSAT alike): ``p cnf 10 1`` with the clause ``10 0`` has 512 models, and so has ``1 0``. The
    variables past the last one any clause or the projection names are not held one by one: they are
    ``free`` (each doubles an unprojected count), so a header of a billion variables costs nothing."""

    #: the variables its clauses and projection use, 1..num_vars (the ones an encoding holds)
    num_vars: int
    #: the hard clauses: a tuple of tuples, or flat arrays for a large file read in bulk
    clauses: Sequence[tuple[int, ...]]
    #: the declared projection (``c p show ... 0`` or ``c ind ... 0``); None when the file declares
    #: none, so every variable is shown, and () for ``c p show 0``: nothing shown, a count is 0 or 1
    show: tuple[int, ...] | None = None
    soft: tuple[tuple[tuple[int, ...], int], ...] = ()
    #: the header's variable count (num_vars when the file has no header: the 2022 WCNF format)
    declared: int = 0
    #: what the reader noticed and read past, each one line (a header that miscounts its clauses)
    warnings: tuple[str, ...] = ()
    #: the formula ended at SATLIB's ``%`` line, which most solvers refuse (CaDiCaL, MiniSat, PicoSAT
    #: and CryptoMiniSat in Debian 12)
    end_marker: bool = False
    #: the model counting competition's weighted task (``c t wmc`` or ``c t pwmc``, or ``c p weight``
    #: lines): where the first such line is, as "line N" (None: an unweighted file). Its count is the
    #: sum of its models' weights (:mod:`puzzlesat.core.weights`), made beside the count of models
    weighted_counting: str | None = None
    #: the literal weights a weighted count uses, both literals of each weighted variable (of the shown
    #: ones only, where the file projects), in variable order; every other literal weighs 1
    weights: tuple[tuple[int, Fraction], ...] = ()
    #: how the weights were read where a file leaves it open (:func:`_counted_weights`), each one line
    weight_notes: tuple[str, ...] = ()

    @property
    def plain(self) -> bool:
        """Read with nothing noticed: no ``%`` end and a header that counts its clauses right, so that
        a strict reader (CaDiCaL refuses both) reads the file as it stands."""
        return not self.warnings and not self.end_marker

    @property
    def free(self) -> int:
        """The declared variables past :attr:`num_vars`: no clause names them, and with no projection
        each doubles the count."""
        return max(self.declared - self.num_vars, 0)


def parse_dimacs(text: str, path: str, weighted: bool = False) -> Dimacs:
    """Read DIMACS CNF (``p cnf V C``) or, with ``weighted``, WCNF: the 2022 format (``h`` hard clauses,
    ``W`` soft ones, no header) or the older one (``p wcnf V C TOP``, clauses weighted TOP are hard).

    Read as the solvers that wrote the dialects read them: a line ``%`` ends the formula (SATLIB's
    ``uf``/``uuf`` files put ``%`` and ``0`` after the last clause: that ``0`` is not an empty clause);
    ``c p show ... 0`` and ``c ind ... 0`` declare a projection (``c p show 0``: an empty one); a clause
    may span lines; a header whose clause count differs from the clauses is read as written, with a
    warning. Errors name the line and column.

    A CNF file whose clauses are plain integers after its header (what generators and solvers write) is
    read in bulk (:func:`_bulk_clauses`); any other, and any fault, is read line by line, which names
    where the fault is."""
    bulk = None if weighted or len(text) < BULK_SIZE else _bulk_clauses(text)
    if bulk is not None:
        head, clauses, used = bulk
        return _finished(text, path, weighted, _read_lines(head, path, weighted), clauses, used)
    lines = _read_lines(text, path, weighted)
    if lines.header is None and not weighted:
        raise PuzzleFormatError(path, None, None, "no 'p cnf VARIABLES CLAUSES' header: not a DIMACS CNF file")
    every = [*lines.clauses, *(c for c, _ in lines.soft)]
    used = max(max(map(max, filter(None, every)), default=0), -min(map(min, filter(None, every)), default=0))
    return _finished(text, path, weighted, lines, lines.clauses, used)


#: a header line (``p cnf ...``) at the start of a line
_HEADER = re.compile(r"^p[ \t]", re.MULTILINE)
#: files from this many characters are read in bulk where they can be (smaller ones are read line by line
#: in less time than numpy takes to import)
BULK_SIZE = 1 << 20


def _bulk_clauses(text: str) -> tuple[str, FlatClauses, int] | None:
    """(the text up to the end of the header line, the clauses after it, the largest variable they
    use) when everything after the header is whitespace and plain DIMACS integers ending in 0; None
    otherwise (a comment or ``%`` line among the clauses, a token that is no DIMACS integer, a
    clause left open), and the caller reads line by line.

    numpy reads the integers in C (``fromstring``, its faults raised, not warned); ``+3`` and non-ASCII
    digits, which it or ``int()`` would take, are refused before. The clauses stay flat
    (:class:`~puzzlesat.core.clauses.FlatClauses`). 10^6 clauses: 2.5 s line by line, 0.3 s here."""
    import numpy as np

    found = _HEADER.search(text)
    if found is None:
        return None
    end = text.find("\n", found.start())
    end = len(text) if end < 0 else end + 1
    if any(line.strip(BLANKS) and line.lstrip(BLANKS)[0] != "c" for line in lines_of(text[:found.start()])):
        return None  # clauses before the header
    if text.find("+", end) >= 0 or not (text.isascii() or text[end:].isascii()):  # (a comment may be UTF-8)
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy warns and stops at a token it cannot read: refuse instead
        try:
            literals = np.fromstring(text[end:], dtype=np.int64, sep=" ")
        except (ValueError, DeprecationWarning):
            return None
    if not len(literals):
        return text[:end], FlatClauses.from_dimacs_numbers(literals), 0
    used = max(int(literals.max()), -int(literals.min()))
    if literals[-1] != 0 or used >= 1 << 31:  # a clause left open, a number past DIMACS (said line by line)
        return None
    return text[:end], FlatClauses.from_dimacs_numbers(literals), used


@dataclass
class _Lines:
    """A file as :func:`_read_lines` read it, line by line."""

    header: tuple[int, int, int | None] | None = None
    clauses: list[tuple[int, ...]] = field(default_factory=list)
    soft: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    show: list[int] | None = None
    #: a projected variable -> the line and column that named it
    shown_at: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: SATLIB's ``%`` ended the formula
    end_marker: bool = False
    last_line: int = 0
    #: ``c p weight`` lines: a literal -> its weight, and the line that gave it
    weights: dict[int, Fraction] = field(default_factory=dict)
    weighted_at: dict[int, int] = field(default_factory=dict)


def _read_lines(text: str, path: str, weighted: bool) -> _Lines:
    """The file read line by line."""
    read = _Lines()
    clauses, soft = read.clauses, read.soft
    pending: list[int] = []  # a clause may span lines
    weight: int | None = None  # the pending clause's weight (WCNF); -1: hard; None: not read yet
    for number, raw in enumerate(lines_of(text), 1):
        line = raw.strip(BLANKS)
        if not line:
            continue
        first = line[0]
        if first == "%":  # SATLIB's end of formula
            read.end_marker = True
            break
        if first == "c":
            words = _tokens(line)
            projection = words[3:] if words[:3] == ["c", "p", "show"] else words[2:] if words[:2] == ["c", "ind"] else None
            if projection is not None:
                read.show = read.show if read.show is not None else []
                for variable, column in _shown(projection, path, number, raw):
                    read.show.append(variable)
                    read.shown_at.setdefault(variable, (number, column))
            elif words[:3] == ["c", "p", "weight"]:
                _literal_weight(words[3:], path, number, raw, read)
            continue
        if first == "p":
            read.header = _header(line, path, number, read.header, weighted)
            continue
        read.last_line = number
        if "c" in line:  # a comment after literals, as kissat, CaDiCaL and MiniSat read it
            line = _TRAILING_COMMENT.sub("", line)
        if not weighted and not pending:
            numbers = _fast_literals(line)
            if numbers is not None and numbers and numbers[-1] == 0 and 0 not in numbers[:-1]:
                numbers.pop()
                clauses.append(tuple(numbers))  # the common case: one clause on one line
                continue
        for token in _tokens(line):
            if weighted and not pending and weight is None:
                weight = -1 if token == "h" else _weight(token, path, number, raw)
                continue
            lit = _literal(token, path, number, raw)
            if lit:
                pending.append(lit)
                continue
            clause = tuple(pending)
            top = read.header[2] if read.header else None
            if not weighted or weight == -1 or (top is not None and weight is not None and weight >= top):
                clauses.append(clause)
            else:
                soft.append((clause, weight or 0))
            pending, weight = [], None
    if pending or weight is not None:
        raise PuzzleFormatError(path, read.last_line or None, None, "the last clause does not end with 0")
    return read


def _literal_weight(words: list[str], path: str, number: int, line: str, read: _Lines) -> None:
    """A ``c p weight LIT W 0`` line (its closing 0 may be left out), into ``read``: a literal weighted
    twice must be weighted the same."""
    if len(words) not in (2, 3) or len(words) == 3 and words[2] != "0":
        raise PuzzleFormatError(path, number, 1, "expected 'c p weight LITERAL WEIGHT 0'")
    literal = _literal(words[0], path, number, line)
    if literal == 0:
        raise PuzzleFormatError(path, number, line.find(words[0]) + 1, "a weight is given to a literal, not to 0")
    try:
        value = parse_weight(words[1])
    except ValueError as exc:
        raise PuzzleFormatError(path, number, line.find(words[1], line.find(words[0]) + len(words[0])) + 1,
                                str(exc)) from None
    if read.weights.get(literal, value) != value:
        raise PuzzleFormatError(path, number, 1, f"literal {literal} is weighted {weight_text(read.weights[literal])} "
                                f"on line {read.weighted_at[literal]} and {weight_text(value)} here")
    read.weights[literal] = value
    read.weighted_at.setdefault(literal, number)


def _finished(text: str, path: str, weighted: bool, lines: _Lines, clauses: Sequence[tuple[int, ...]],
              used: int) -> Dimacs:
    """The file as read, once its variables are checked against DIMACS's range and its header (a
    variable out of them is looked for in ``text``, to say where it is). A weighted variable counts as
    used: it is held, so that every variable past the used ones weighs 1 on both literals."""
    header, show, soft = lines.header, lines.show, lines.soft
    clause_count = len(clauses) + len(soft)
    if used >= 1 << 31:
        line, column = _first_use(text, used, weighted)
        raise PuzzleFormatError(path, line, column, f"variable {used} is past DIMACS's 2^31 - 1")
    if header is not None and used > header[0]:
        line, column = _first_use(text, used, weighted)
        raise PuzzleFormatError(path, line, column, f"variable {used} is beyond the header's {header[0]}")
    if header is not None and show and max(show) > header[0]:
        named_on, column = lines.shown_at[max(show)]
        raise PuzzleFormatError(path, named_on, column, f"projected variable {max(show)} is beyond the header's {header[0]}")
    weighed = max(map(abs, lines.weights), default=0)
    if header is not None and weighed > header[0]:
        at = lines.weighted_at.get(weighed, lines.weighted_at.get(-weighed))
        raise PuzzleFormatError(path, at, None, f"weighted variable {weighed} is beyond the header's {header[0]}")
    warnings = []
    if header is not None and header[1] != clause_count:
        warnings.append(f"{path}: the header says {header[1]:,} clauses and the file has {clause_count:,} "
                        "(read as written)")
    weights, notes = _counted_weights(lines)
    num_vars = max(used, max(show or (), default=0), weighed)
    kept = clauses if isinstance(clauses, FlatClauses) else tuple(clauses)
    weighting = _WEIGHTED_TASK.search(text)
    return Dimacs(num_vars, kept, None if show is None else tuple(sorted(set(show))), tuple(soft),
                  header[0] if header is not None else num_vars, tuple(warnings), lines.end_marker,
                  None if weighting is None else f"line {text.count(chr(10), 0, weighting.start()) + 1}",
                  tuple(sorted(weights.items(), key=lambda item: (abs(item[0]), item[0] < 0))), notes)


def _counted_weights(lines: _Lines) -> tuple[dict[int, Fraction], tuple[str, ...]]:
    """The weights a count uses (both literals of each weighted variable, :func:`completed`), and what
    was read past: in a projected count the weights of variables it does not show are not used (the
    competition's ``pwmc``; Ganak's test ``wpmc_rational.cnf``), and a variable weighted on its negative
    literal alone has its positive one weigh ``1 - w`` (said, as no counter's documentation says so)."""
    given = lines.weights
    notes = []
    if lines.show is not None:
        shown = set(lines.show)
        unused = sorted({abs(lit) for lit in given} - shown)
        if unused:
            notes.append(f"the weights of variables the projection does not show are not used ({_listed(unused)}), "
                         "as in the competition's projected weighted count")
        given = {lit: weight for lit, weight in given.items() if abs(lit) in shown}
    negative_only = sorted(-lit for lit in given if lit < 0 and -lit not in given)
    if negative_only:
        notes.append(f"variables weighted on their negative literal alone ({_listed(negative_only)}): the positive "
                     "literal weighs 1 minus that weight, as a positive literal's weight alone is read")
    return completed(given), tuple(notes)


def _listed(variables: list[int]) -> str:
    """Variables as a short list: the first five, and how many more."""
    shown = ", ".join(map(str, variables[:5]))
    return shown + (f" and {len(variables) - 5:,} more" if len(variables) > 5 else "")


#: a line of the model counting competition's weighted formats: ``c t wmc``, ``c t pwmc``, ``c p weight``
#: (lines end at ``\n`` only, as everywhere here)
_WEIGHTED_TASK = re.compile(r"^[ \t]*c[ \t]+(t[ \t]+p?wmc|p[ \t]+weight)(?![^ \t\n])", re.MULTILINE)


def _first_use(text: str, variable: int, weighted: bool) -> tuple[int | None, int | None]:
    """The line and column of the first literal of ``variable`` in the clauses (not a WCNF clause's
    weight), for the error that names it: the readers keep no positions, and this runs only then."""
    wanted = {str(variable), f"-{variable}"}
    at_start = True  # the next token starts a clause: in WCNF, its weight
    for number, raw in enumerate(lines_of(text), 1):
        line = raw.lstrip(BLANKS)
        if not line or line[0] in "cp%":
            continue
        for token in _TOKEN.finditer(_TRAILING_COMMENT.sub("", raw)):
            if weighted and at_start:
                at_start = False
                continue
            if token.group() in wanted:
                return number, token.start() + 1
            at_start = token.group() == "0"
    return None, None


def _header(line: str, path: str, number: int, seen: tuple[int, int, int | None] | None,
            weighted: bool) -> tuple[int, int, int | None]:
    """``p cnf V C``, or ``p wcnf V C [TOP]`` when ``weighted``: one per file."""
    words = _tokens(line)
    kind = "wcnf" if weighted else "cnf"
    if seen is not None or len(words) not in ((4, 5) if weighted else (4,)) or words[1] != kind:
        raise PuzzleFormatError(path, number, 1, f"expected one header 'p {kind} VARIABLES CLAUSES"
                                f"{' [TOP]' if weighted else ''}', got '{line[:40]}'")
    variables, clauses = (_literal(token, path, number, line) for token in words[2:4])
    top = _weight(words[4], path, number, line) if len(words) == 5 else None
    if variables < 0 or clauses < 0:
        raise PuzzleFormatError(path, number, 1, f"the header's counts must not be negative: '{line[:40]}'")
    if variables >= 1 << 31:
        raise PuzzleFormatError(path, number, 1, f"the header declares {variables} variables, past DIMACS's 2^31 - 1")
    return variables, clauses, top


def _fast_literals(line: str) -> list[int] | None:
    """The line's integers when every token is a plain DIMACS integer (the common case, read in C);
    None otherwise, and the caller reads token by token to say where the fault is. ``int()`` alone
    would take ``+3``, ``1_0`` and other scripts' digits, which DIMACS does not."""
    if not line.isascii() or "_" in line or "+" in line or _ODD_SPACE.search(line):
        return None
    try:
        return list(map(int, line.split()))
    except ValueError:
        return None


#: a token: what the solvers' readers take between their white space (:data:`~puzzlesat.core.text.BLANKS`)
_TOKEN = re.compile(f"[^{BLANKS}]+")
#: the rest of a clause line from a ``c`` that starts a token or ends a number's digits: a comment to the
#: line's end, as kissat, CaDiCaL (``1 2 c note``) and MiniSat (``1 0c note``) read it
_TRAILING_COMMENT = re.compile(f"(?:^|(?<=[{BLANKS}0-9]))c.*", re.DOTALL)
#: ASCII white space of ``str.split()`` that the solvers take for part of a token (and refuse)
_ODD_SPACE = re.compile("[\x1c-\x1f]")


def _tokens(line: str) -> list[str]:
    """The tokens of a line, split at the solvers' white space only."""
    return _TOKEN.findall(line)


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


def _weight(token: str, path: str, number: int, line: str) -> int:
    """A soft clause's weight (or a header's TOP): a positive integer below 2^63."""
    if re.fullmatch(r"\d{20,}", token):
        raise PuzzleFormatError(path, number, line.find(token) + 1, f"a weight of {len(token)} digits: weights go "
                                "from 1 to 2^63 - 1")
    if not WEIGHT.fullmatch(token):
        raise PuzzleFormatError(path, number, line.find(token) + 1, f"'{token[:20]}' is not a weight (a positive "
                                "integer)")
    value = int(token)
    if not 0 < value < WEIGHT_LIMIT:
        raise PuzzleFormatError(path, number, line.find(token) + 1, f"a weight must be from 1 to 2^63 - 1, not {token[:20]}")
    return value

