"""DIMACS CNF, WCNF and model-counting files, with named variables and projection lines (the JSON
variable map is :mod:`.varmap`, solver output is read by :mod:`.answers`)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.encoding import Encoding


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
    to the encoding's own."""
    lines = _comments(encoding, title)
    lines.append(f"p cnf {encoding.num_vars} {len(encoding.clauses) + len(extra)}")
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
