"""What outside solvers print, read back: one reader for every standard output format.

- SAT competition: ``s SATISFIABLE`` / ``s UNSATISFIABLE`` and ``v`` lines of literals (the closing 0
  may be missing: Debian's z3 4.8 leaves it out);
- MiniSat's result file: ``SAT`` / ``UNSAT`` / ``INDET`` and one line of literals;
- MaxSAT evaluation: ``s OPTIMUM FOUND``, ``o COST`` lines (the last one counts) and the model as ``v``
  literals or as one ``v`` string of 0/1 characters (variable 1 first); when a solver prints a model
  per improvement, the last one is the answer;
- model-counting competition: ``s mc N`` (2020) or ``s SATISFIABLE`` with ``c s exact arb int N``
  (2021 on);
- SMT-LIB ``(get-model)``: ``sat`` then ``(define-fun NAME () SORT VALUE)`` entries (Int and Bool);
  z3's model of a DIMACS or WCNF file (``z3 -wcnf -model``) names variable N ``k!N``.

Every problem names the file and line, in one line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.errors import PuzzlesatError
from ..core.result import Status
from ..core.text import lines_of
from .dimacs import LITERAL


@dataclass
class Answer:
    status: Status
    #: the model's literals (CNF), empty when there is none
    literals: list[int] = field(default_factory=list)
    #: an optimiser's last ``o`` line
    cost: int | None = None
    #: a counter's exact count
    count: int | None = None
    #: an SMT model: constant name -> int or bool value
    values: dict[str, int | bool] = field(default_factory=dict)
    #: which format it was read as, for messages
    form: str = ""
    #: each variable of the ``v`` lines: (its literal, the line that gave it), for messages
    given: dict[int, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: str, variable: int) -> str:
        """``path``, with the line that gave ``variable``'s literal where one did (``path:LINE``)."""
        line = self.given.get(variable, (0, None))[1]
        return path if line is None else f"{path}:{line}"


_SAT_WORDS = {"SATISFIABLE": Status.SAT, "UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.UNKNOWN,
              "OPTIMUM FOUND": Status.OPTIMAL}
_MINISAT_WORDS = {"SAT": Status.SAT, "UNSAT": Status.UNSAT, "INDET": Status.UNKNOWN}


#: the longest number read (Python's own limit on converting decimal text: longer ones cost quadratic time)
MAX_DIGITS = 4300


def _number(digits: str, path: str, number: int | None) -> int:
    """A cost, count or value as written; one longer than :data:`MAX_DIGITS` is refused in one line."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        where = f"{path}:{number}" if number is not None else path
        raise PuzzlesatError(f"{where}: a number of {len(digits.lstrip('-')):,} digits, longer than the "
                             f"{MAX_DIGITS:,} this reader takes")
    return int(digits)


def read_answer(text: str, path: str) -> Answer:
    """The answer in ``text``, whichever standard format it is in (see the module docstring)."""
    lines = lines_of(text)
    first = next((line.strip() for line in lines if line.strip()), "")
    if first in _MINISAT_WORDS:
        return _minisat(lines, path)
    if first in ("sat", "unsat", "unknown") or first.startswith("(model") or first.startswith("(define-fun"):
        return _smt(text, path)
    return _competition(lines, path)


class _Model:
    """Literals gathered from ``v`` lines. After a complete model (closing 0, or a 0/1 string), more
    literals are an error, unless :meth:`improved` was called since: an optimiser's next model
    supersedes the last one."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.literals: list[int] = []
        self.given: dict[int, tuple[int, int]] = {}  # variable -> (its literal, the line that gave it)
        self.complete = False
        self.superseded = False

    def improved(self) -> None:
        """An ``o`` line: a model that follows replaces the one before."""
        self.superseded = self.complete

    def add(self, tokens: list[str], number: int) -> None:
        if self.complete:
            if not self.superseded:
                raise PuzzlesatError(f"{self.path}:{number}: literals after the model's closing 0")
            self.literals, self.given, self.complete, self.superseded = [], {}, False, False
        if len(tokens) == 1 and len(tokens[0]) > 1 and set(tokens[0]) <= {"0", "1"}:
            self.literals = [v if bit == "1" else -v for v, bit in enumerate(tokens[0], 1)]
            self.complete = True
            return
        for token in tokens:
            if not LITERAL.fullmatch(token):
                raise PuzzlesatError(f"{self.path}:{number}: '{token[:20]}' is not a literal")
            lit = int(token)
            if lit == 0:
                self.complete = True
                return
            before, line = self.given.setdefault(abs(lit), (lit, number))
            if before != lit:
                raise PuzzlesatError(f"{self.path}:{number}: variable {abs(lit)} is given both values "
                                     f"(also at line {line})")
            self.literals.append(lit)


def _competition(lines: list[str], path: str) -> Answer:
    status: Status | None = None
    model = _Model(path)
    cost: int | None = None
    count: int | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("s "):
            word = " ".join(line[2:].split())
            counted = re.fullmatch(r"p?mc (\d+)", word)
            if counted:
                word, count = "SATISFIABLE", _number(counted.group(1), path, number)
            if word not in _SAT_WORDS:
                raise PuzzlesatError(f"{path}:{number}: unknown status line '{line[:60]}'")
            if status is not None:
                raise PuzzlesatError(f"{path}:{number}: a second status line")
            status = _SAT_WORDS[word]
        elif line.startswith("o "):
            if not re.fullmatch(r"o\s+\d+", line):
                raise PuzzlesatError(f"{path}:{number}: '{line[:60]}' is not a cost line ('o COST')")
            cost = _number(line.split()[1], path, number)
            model.improved()
        elif line.startswith("c s exact"):
            found = re.fullmatch(r"c s exact arb int (\d+)", " ".join(line.split()))
            if not found:
                raise PuzzlesatError(f"{path}:{number}: '{line[:60]}': only exact integer counts are read")
            count = _number(found.group(1), path, number)
        elif line.startswith("v ") or line == "v":
            model.add(line[1:].split(), number)
    if status is None:
        raise PuzzlesatError(f"{path}: no status line ('s SATISFIABLE', 's OPTIMUM FOUND', 's mc N', ...): "
                             "not the output of a SAT, MaxSAT or model-counting solver")
    form = "model count" if count is not None else "MaxSAT" if cost is not None or status == Status.OPTIMAL else "SAT"
    if status in (Status.SAT, Status.OPTIMAL) and count is None and not model.literals and not model.complete:
        raise PuzzlesatError(f"{path}: '{status.value}' without a model ('v' lines)")
    return Answer(status, model.literals, cost, count, form=form, given=model.given)


def _minisat(lines: list[str], path: str) -> Answer:
    """MiniSat's (and Glucose's) result file: the status word, then the literals ending in 0."""
    content = [(number, line.strip()) for number, line in enumerate(lines, 1) if line.strip()]
    status = _MINISAT_WORDS[content[0][1]]
    model = _Model(path)
    for number, line in content[1:]:
        model.add(line.split(), number)
    if status == Status.SAT and not model.complete:
        raise PuzzlesatError(f"{path}: the model does not end with 0: output cut short?")
    return Answer(status, model.literals, form="MiniSat result", given=model.given)


_DEFINE = re.compile(r"\(define-fun\s+(\|[^|]*\||[^\s()]+)\s+\(\)\s+(Int|Bool)\s+(\(\s*-\s*\d+\s*\)|-?\d+|true|false)\s*\)")


def _smt(text: str, path: str) -> Answer:
    """An SMT solver's ``check-sat`` answer and ``get-model`` (z3, cvc5): Int and Bool constants."""
    word = text.strip().split(None, 1)[0]
    status = {"sat": Status.SAT, "unsat": Status.UNSAT, "unknown": Status.UNKNOWN}.get(word, Status.SAT)
    values: dict[str, int | bool] = {}
    for name, sort, value in _DEFINE.findall(text):
        name = name.strip("|")
        if sort == "Bool":
            values[name] = value == "true"
        else:
            values[name] = _number(re.sub(r"[()\s]", "", value), path, None)
    if status == Status.SAT and not values:
        raise PuzzlesatError(f"{path}: 'sat' without a model: run the solver on the whole export "
                             "(it ends with (get-model))")
    if values and all(re.fullmatch(r"k!\d+", name) and isinstance(v, bool) for name, v in values.items()):
        # z3 -dimacs/-wcnf -model names DIMACS variable N k!N
        literals = sorted((int(name[2:]) if value else -int(name[2:]) for name, value in values.items()), key=abs)
        return Answer(status, literals, form="z3 model of a DIMACS file")
    return Answer(status, values=values, form="SMT-LIB model")
