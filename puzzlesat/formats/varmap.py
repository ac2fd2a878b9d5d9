"""The variable map written beside every export (``OUT.vars.json``), and read back by ``decode``.

It names every variable (id -> puzzle meaning) and the projection, and it pins what the file is: the
puzzle, a SHA-256 of the instance text, the options it was read with, the encoding and its options,
and a SHA-256 of the formula itself. ``decode`` rebuilds the formula from the map's own choices and
refuses, in one line, a model of another instance, another encoding, or a formula that this version
of puzzlesat no longer builds the same way.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from ..core.encoding import Encoding
from ..core.errors import PuzzlesatError

MAP_FORMAT = "puzzlesat variable map"
MAP_VERSION = 1


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def formula_digest(encoding: Encoding) -> str:
    """A SHA-256 of the formula: clauses and weighted soft clauses (CNF), or Z3's print of each
    assertion and the objective (SMT)."""
    digest = hashlib.sha256()
    if encoding.kind == "cnf":
        for clause in encoding.clauses:
            digest.update(" ".join(map(str, clause)).encode() + b" 0\n")
        for clause, weight in encoding.soft:
            digest.update(f"{weight} ".encode() + " ".join(map(str, clause)).encode() + b" 0\n")
    else:  # each term printed on its own: a whole solver's print names shared subterms by global ids
        for term in [*encoding.assertions, *([encoding.objective] if encoding.objective is not None else [])]:
            digest.update(term.sexpr().encode() + b"\n")
    return digest.hexdigest()


@dataclass(frozen=True)
class VariableMap:
    puzzle: str
    source: str
    instance_sha256: str
    reading: dict[str, Any]
    encoding: str
    options: dict[str, Any]
    formula_sha256: str


def variable_map_json(encoding: Encoding, puzzle: str, source: str, instance_text: str,
                      reading: dict[str, Any], fmt: str) -> str:
    payload = {
        "format": MAP_FORMAT,
        "version": MAP_VERSION,
        "puzzle": puzzle,
        "source": source,
        "instance_sha256": sha256(instance_text),
        "reading": reading,
        "encoding": encoding.name,
        "options": asdict(encoding.options),
        "file_format": fmt,
        "formula_sha256": formula_digest(encoding),
        **encoding.size(),
        "cost_offset": encoding.cost_offset,
        "show": list(encoding.show),
        "variables": {str(vid): name for vid, name in sorted(encoding.names().items())},
        "terms": [str(term) for term in encoding.show_terms],
    }
    return json.dumps(payload, indent=1) + "\n"


def _map_integer(token: str) -> int:
    """A JSON integer of a variable map: a version, a variable, an option; never past 2^63 (a longer
    one is refused before its conversion, whose cost grows with the square of its length)."""
    if len(token.lstrip("-")) > 19:
        raise ValueError(token[:20])
    return int(token)


def read_variable_map(text: str, path: str) -> VariableMap:
    """The pinned facts of a map; anything else is a one-line error naming the file."""
    try:
        payload = json.loads(text, parse_int=_map_integer)
    except json.JSONDecodeError as exc:
        raise PuzzlesatError(f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})") from None
    except ValueError:  # an integer longer than any a map holds
        raise PuzzlesatError(f"{path}: a number too long for a variable map") from None
    except RecursionError:
        raise PuzzlesatError(f"{path}: nested too deeply for a variable map") from None
    if not isinstance(payload, dict) or payload.get("format") != MAP_FORMAT:
        raise PuzzlesatError(f"{path}: not a puzzlesat variable map (written by 'puzzlesat export')")
    if payload.get("version") != MAP_VERSION:
        raise PuzzlesatError(f"{path}: variable map version {payload.get('version')}; this puzzlesat reads "
                             f"version {MAP_VERSION}: export again")
    pinned = {}
    for name, kind in (("puzzle", str), ("source", str), ("instance_sha256", str), ("reading", dict),
                       ("encoding", str), ("options", dict), ("formula_sha256", str)):
        if name not in payload:
            raise PuzzlesatError(f"{path}: variable map without '{name}'")
        if not isinstance(payload[name], kind):
            raise PuzzlesatError(f"{path}: the variable map's '{name}' is not a {'string' if kind is str else 'JSON object'}")
        pinned[name] = payload[name]
    return VariableMap(**pinned)
