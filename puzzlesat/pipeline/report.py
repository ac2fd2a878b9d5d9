"""What a task learned about one instance: a frozen :class:`Report`, returned by the task and printed by
the surfaces (``--json`` is :meth:`Report.to_json`). Nobody fills one in after it is made; a task that
gathers answers in several steps keeps them in locals (or a :class:`Claims`) and builds the report once.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import CheckFailed, PuzzlesatError
from ..core.result import Status
from ..core.timing import Stopwatch
from .stop import Stop

if TYPE_CHECKING:
    from ..core.puzzle import Solution
    from ..formats.picture import Picture
    from ..proofs.certificate import Certificate
    from .request import Request

#: the ``backend`` of a report that no solver answered (a count by the puzzle's own search)
NO_BACKEND = "none"


@dataclass(frozen=True)
class Report:
    """Everything ``solve`` or ``count`` learned, in the shape ``--json`` prints.

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> report = puzzlesat.solve("aquarium", grid)
    >>> report.status.value, report.answers["unique"], report.checked, sorted(report.to_json()["solution"])
    ('SAT', True, True, ['grid'])
    """

    #: the puzzle's name (``aquarium``, ``cnf``, ...)
    puzzle: str
    #: the instance's file, or its URL, as given
    source: str
    #: the backend asked (a portfolio's name: see ``solved_by``); :data:`NO_BACKEND` where no solver
    #: answered (a count by the puzzle's own solver-free search)
    backend: str
    #: the encoding solved (``cnf``, ``smt``, or a puzzle's own such as ``unroll``)
    encoding: str
    #: SAT (a solution), UNSAT (none, proven), UNKNOWN (no answer: stopped before one), OPTIMAL, or
    #: PARTIAL (an instance of parts, some without a solution): a :class:`~puzzlesat.Status`
    status: Status
    #: the solution found, checked (None without one); ``render()`` draws it as text, ``answers()``
    #: gives what every method must agree on, ``to_json()`` what ``--json`` prints of it
    solution: Solution | None = None
    #: the answers by name, as the text output prints them: a puzzle's own (``energy``, ``part1``),
    #: ``unique`` or ``optimal`` where they were proven, a count's counts by label
    answers: Mapping[str, Any] = field(default_factory=dict)
    #: every solution reported (or, for a count, counted) passed the independent checker
    checked: bool = False
    #: the formula's size: ``variables`` and ``clauses`` (``soft`` for a weighted one), or an SMT
    #: encoding's ``terms`` and ``assertions``; a count's ``shown``, where it is projected
    size: Mapping[str, int] = field(default_factory=dict)
    #: seconds by phase (``parse``, ``encode``, ``solve``, ``decode``, ``check``, ...; a count's
    #: ``forks``, the side-by-side children's time beyond their phases, and ``race``, a race's own time:
    #: a head start waited, the forks, the answer handed back), together the work's wall time
    times: Mapping[str, float] = field(default_factory=dict)
    #: the backend that answered each solver call; differs from ``backend`` for a portfolio (the winners)
    solved_by: tuple[str, ...] = ()
    #: under ``--certify``, per claim resting on an UNSAT answer (``unique``, ``optimal``, ``unsat``, a
    #: count's label), its checked proof, or None where the backend could not prove (best-effort)
    certificates: Mapping[str, Certificate | None] = field(default_factory=dict)
    #: counts only: how they were made (``exact counter``, ``enumeration``, ``cube and conquer``) and
    #: whether they are complete (False: stopped at ``--limit`` or by :attr:`stopped`, so each means
    #: "at least")
    counted_by: str = ""
    #: the counts are every solution (False: stopped at ``--limit`` or by :attr:`stopped`, each count
    #: then a lower bound)
    complete: bool = True
    #: why the task ended before its end (a time limit, a signal), what it had found being reported
    stopped: Stop | None = None
    #: counts only, when no backend was named: the methods raced for the count (the winner is
    #: ``counted_by``, on ``backend``)
    raced: tuple[str, ...] = ()
    #: counts only: the solutions of the first count, when they were asked to be listed
    solutions: tuple[Solution, ...] = ()
    #: cube and conquer: per count label, the cubes' number, the refuted ones and the slowest cube times
    cubes: Mapping[str, Any] = field(default_factory=dict)
    #: what the task noticed that leaves the puzzle's stated assumptions (a jigsaw that assembles in two
    #: ways); with the solution's own, these are :attr:`warnings`
    noticed: tuple[str, ...] = ()
    #: an instance of independent parts (amphipod's two burrows): each part's own status, by answer label;
    #: ``status`` is SAT when all are, UNSAT when none has a solution, PARTIAL otherwise (see .parts)
    parts: Mapping[str, Status] = field(default_factory=dict)
    #: ``solve --forced``: what every solution shares (the puzzle's :meth:`~puzzlesat.core.puzzle.Puzzle.forced`)
    forced: Any = None
    #: draws a solution of this instance (the puzzle's ``picture``), so that a report shows itself in Jupyter
    draw: Callable[[Any], Picture] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The times as they were when the report was made: a copy, never the task's live stopwatch
        (which kept growing after a frozen report was handed out). A task that times more phases after
        making its report makes the report again, with ``replace(report, times=watch.times)``."""
        object.__setattr__(self, "times", dict(self.times))

    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: the solution as the SVG picture ``--svg`` writes."""
        if self.solution is None or self.draw is None:
            return None
        from ..formats.picture import to_svg

        try:
            picture = self.draw(self.solution)
        except PuzzlesatError:  # a puzzle with no picture (a formula file's model): the table alone
            return None
        return to_svg(picture)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the status, the backend and the answers as a table, then the picture."""
        rows = [("status", self.status.value), ("backend", self.backend), *self.answers.items(),
                ("checked", "yes" if self.checked else "no")]
        if self.counted_by:
            rows.append(("counted by", self.counted_by))
        return html_table(f"{self.puzzle} {self.source}", rows) + (self._repr_svg_() or "")

    def to_json(self) -> dict[str, Any]:
        """The report as ``--json`` prints it (a count adds ``method`` and ``complete``; work stopped before
        its end, ``stopped``)."""
        out: dict[str, Any] = {
            "puzzle": self.puzzle, "source": self.source, "backend": self.backend, "encoding": self.encoding,
            "status": self.status.value, "answers": jsonable(self.answers), "checked": self.checked,
            "solved_by": list(self.solved_by), "size": dict(self.size),
            "times": {k: round(v, 6) for k, v in self.times.items()}}
        if self.parts:
            out["parts"] = {label: status.value for label, status in self.parts.items()}
        if self.solution is not None:
            out["solution"] = self.solution.to_json()
        if self.warnings:
            out["warnings"] = self.warnings
        if self.cubes:
            out["cubes"] = dict(self.cubes)
        if self.certificates:
            out["certified"] = self.certified()
            out["certificates"] = {claim: cert.to_json() for claim, cert in self.certificates.items() if cert}
        if self.counted_by:
            out["method"] = self.counted_by
            out["complete"] = self.complete
        if self.stopped is not None:
            out["stopped"] = self.stopped.to_json()
        if self.raced:
            out["raced"] = list(self.raced)
        if self.forced is not None:
            out["forced"] = self.forced.to_json()
        return out

    @property
    def warnings(self) -> list[str]:
        """Where the input leaves the puzzle's stated assumptions: what the solution says (a solution may
        have a ``warnings()`` method: jigsaw's monsters in several orientations), then what the task
        noticed."""
        return solution_warnings(self.solution) + list(self.noticed)

    def certified(self) -> dict[str, bool]:
        """Per claim under ``--certify``, whether its proof was checked (empty without --certify)."""
        return {claim: cert is not None for claim, cert in self.certificates.items()}


class Claims:
    """The certificates of one request's claims, gathered while it runs (see :attr:`Report.certificates`)."""

    def __init__(self, request: Request, watch: Stopwatch) -> None:
        self.request = request
        self.watch = watch
        self.certificates: dict[str, Certificate | None] = {}

    def claim(self, claim: str, certificate: Certificate | None) -> None:
        """Record what backs ``claim`` (an UNSAT answer) under ``--certify``; the proof's checking time
        moves from the ``solve`` phase, where the session spent it, to a ``certify`` phase of its own."""
        if self.request.certify is None:
            return
        if certificate is None and self.request.proving:
            raise CheckFailed(f"{self.request.backend.name}: an UNSAT answer came without its proof")
        self.certificates[claim] = certificate
        if certificate is not None:
            times = self.watch.times
            times["certify"] = times.get("certify", 0.0) + certificate.seconds
            times["solve"] = max(0.0, times.get("solve", 0.0) - certificate.seconds)

    def merge(self, certificates: Mapping[str, Certificate | None]) -> None:
        """Claims certified elsewhere (a forked child), already with their times."""
        self.certificates.update(certificates)


def html_table(caption: str, rows: list[tuple[str, Any]]) -> str:
    """A caption and label/value rows as an HTML table, every text escaped (notebook displays)."""
    from html import escape

    cells = "".join(f"<tr><th style='text-align:left'>{escape(str(label))}</th><td style='text-align:left'>"
                    f"{_cell(value)}</td></tr>" for label, value in rows)
    return f"<table><caption>{escape(caption)}</caption>{cells}</table>"


def _cell(value: Any) -> str:
    """A value as a person reads it: yes/no, a grid's lines one under the other, a number as written
    (a list's Python repr was shown: "['..##', '.#..']")."""
    from html import escape

    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)) and value and all(isinstance(item, str) for item in value):
        return "<pre style='margin:0'>" + escape("\n".join(value)) + "</pre>"
    if isinstance(value, (list, tuple)):
        return escape(", ".join(map(str, value)))
    return escape(str(value))


def solution_warnings(solution: Solution | None) -> list[str]:
    """What a solution says of the puzzle's stated assumptions: its ``warnings()``, where it has one."""
    said = getattr(solution, "warnings", None)
    return list(said()) if callable(said) else []


def jsonable(answers: Mapping[str, Any]) -> dict[str, Any]:
    """Answers as JSON gives them: a weighted count (a fraction) as the string of its exact value
    (``"1.9"``, ``"143/840"``), which a float would round."""
    from fractions import Fraction

    from ..core.weights import weight_text

    return {label: weight_text(value) if isinstance(value, Fraction) else value for label, value in answers.items()}


def answered(first: int) -> Status:
    """The status of a count, from its first number: SAT when there is a solution at all."""
    return Status.SAT if first else Status.UNSAT
