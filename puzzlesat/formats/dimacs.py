"""DIMACS CNF with named variables, its JSON variable map, and SAT-competition solver output."""
from __future__ import annotations

import json
import re

from ..core.encoding import Encoding
from ..core.errors import PuzzlesatError
from ..core.result import Status


def to_dimacs(encoding: Encoding, title: str = "", extra: list[list[int]] = ()) -> str:
    """DIMACS text whose ``c`` lines name each meaningful variable, e.g. ``c var 17 water(3,5)``, and list
    the solution-defining variables as ``c show``; auxiliary variables (cardinality encodings) are unnamed.
    ``extra`` clauses (e.g. blocking clauses) are appended to the encoding's own."""
    names = encoding.names()
    lines = []
    if title:
        lines.append(f"c {title}")
    for key, value in encoding.info.items():
        lines.append(f"c info {key} {value}")
    lines.extend(f"c var {vid} {name}" for vid, name in sorted(names.items()))
    if encoding.show:
        lines.append("c show " + " ".join(map(str, encoding.show)) + " 0")
    lines.append(f"p cnf {encoding.num_vars} {len(encoding.clauses) + len(extra)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in encoding.clauses)
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in extra)
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
    (solvers print statistics as ``c`` lines). Errors name the line."""
    status: Status | None = None
    literals: list[int] = []
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
                if not re.fullmatch(r"-?\d+", token):
                    raise PuzzlesatError(f"{path}:{number}: '{token}' is not a literal")
                lit = int(token)
                if lit == 0:
                    ended = True
                else:
                    literals.append(lit)
    if status is None:
        raise PuzzlesatError(f"{path}: no 's SATISFIABLE' / 's UNSATISFIABLE' line: not SAT-competition output")
    if status == Status.SAT and not ended:
        raise PuzzlesatError(f"{path}: the model ('v' lines) does not end with 0: output cut short?")
    return status, literals
