"""DIMACS CNF with named variables, its JSON variable map, and SAT-competition solver output."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from ..core.encoding import Encoding
from ..core.errors import PuzzlesatError
from ..core.result import Status


def _comments(encoding: Encoding, title: str) -> list[str]:
    """Title, encoding name and facts and ``c var ID meaning`` lines (auxiliary variables stay unnamed)."""
    lines = [f"c {title}"] if title else []
    lines += [f"c info encoding {encoding.name}"] if encoding.name else []
    lines.extend(f"c info {key} {value}" for key, value in encoding.info.items())
    lines.extend(f"c var {vid} {name}" for vid, name in sorted(encoding.names().items()))
    return lines


def _clause_lines(clauses: Iterable[list[int]], prefix: str = "") -> list[str]:
    return [prefix + " ".join(map(str, clause)) + " 0" for clause in clauses]


def to_dimacs(encoding: Encoding, title: str = "", extra: Sequence[list[int]] = ()) -> str:
    """DIMACS text whose ``c`` lines name each meaningful variable, e.g. ``c var 17 water(3,5)``, and list
    the solution-defining variables as ``c show``. ``extra`` clauses (e.g. blocking clauses) are appended
    to the encoding's own."""
    lines = _comments(encoding, title)
    if encoding.show:
        lines.append("c show " + " ".join(map(str, encoding.show)) + " 0")
    lines.append(f"p cnf {encoding.num_vars} {len(encoding.clauses) + len(extra)}")
    lines += _clause_lines(encoding.clauses) + _clause_lines(extra)
    return "\n".join(lines) + "\n"


def to_mcc(encoding: Encoding, title: str = "") -> str:
    """Model-counting competition DIMACS (projected counting): ``c t pmc``, the projection as
    ``c p show ... 0``, variable names in comments."""
    lines = ["c t pmc"] + _comments(encoding, title)
    lines.append(f"p cnf {encoding.num_vars} {len(encoding.clauses)}")
    lines.append("c p show " + " ".join(map(str, encoding.show)) + " 0")
    lines += _clause_lines(encoding.clauses)
    return "\n".join(lines) + "\n"


def to_wcnf(encoding: Encoding, title: str = "") -> str:
    """MaxSAT-evaluation WCNF (2022 format): hard clauses ``h ... 0``, soft ``WEIGHT ... 0``; the cost
    no choice changes is stated in a comment (add it to the optimum)."""
    lines = _comments(encoding, title) + [f"c cost offset {encoding.cost_offset}"]
    lines += _clause_lines(encoding.clauses, "h ")
    lines += [f"{weight} " + " ".join(map(str, clause)) + " 0" for clause, weight in encoding.soft]
    return "\n".join(lines) + "\n"


def variable_map_json(encoding: Encoding, puzzle: str, source: str) -> str:
    """The JSON companion of an export: id -> meaning, the projection, and the sizes."""
    payload = {
        "puzzle": puzzle,
        "source": source,
        **encoding.size(),
        "show": encoding.show,
        "variables": {str(vid): name for vid, name in sorted(encoding.names().items())},
    }
    return json.dumps(payload, indent=1) + "\n"


_STATUS = {"SATISFIABLE": Status.SAT, "UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.UNKNOWN}


def parse_solver_output(text: str, path: str) -> tuple[Status, list[int]]:
    """Read SAT-competition output: one ``s`` line, ``v`` lines ending in ``0``. Other lines are ignored
    (solvers print statistics as ``c`` lines). A literal after the closing 0, or a variable given both
    values, is refused. Errors name the line."""
    status: Status | None = None
    literals: list[int] = []
    given: dict[int, int] = {}  # variable -> the line that gave its value
    given_literals: set[int] = set()
    ended = False
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line.startswith("s "):
            word = line[2:].strip()
            if word not in _STATUS:
                raise PuzzlesatError(f"{path}:{number}: unknown status line '{line}'")
            if status is not None:
                raise PuzzlesatError(f"{path}:{number}: a second status line")
            status = _STATUS[word]
        elif line.startswith("v ") or line == "v":
            for token in line[1:].split():
                if not re.fullmatch(r"-?\d{1,10}", token):  # DIMACS variables are below 2^31
                    raise PuzzlesatError(f"{path}:{number}: '{token[:20]}' is not a literal")
                lit = int(token)
                if lit == 0:
                    ended = True
                    continue
                if ended:
                    raise PuzzlesatError(f"{path}:{number}: literal {lit} after the model's closing 0")
                if -lit in given_literals:
                    raise PuzzlesatError(f"{path}:{number}: variable {abs(lit)} is given both values "
                                         f"(also at line {given[abs(lit)]})")
                given.setdefault(abs(lit), number)
                given_literals.add(lit)
                literals.append(lit)
    if status is None:
        raise PuzzlesatError(f"{path}: no 's SATISFIABLE' / 's UNSATISFIABLE' line: not SAT-competition output")
    if status == Status.SAT and not ended:
        raise PuzzlesatError(f"{path}: the model ('v' lines) does not end with 0: output cut short?")
    return status, literals


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
