"""Instances made of independent parts (amphipod's part 1 and part 2 burrows, see
:meth:`~puzzlesat.core.puzzle.Puzzle.parts`): each part is solved alone and the answers are joined, so
that a part without a solution does not hide the others' answers.

Solved as one formula, the two burrows were UNSAT together as soon as one was stuck, and the report
said nothing of the other. Joined here, a report has each part's status in ``parts``; its status is SAT
when every part has a solution, UNSAT when none has, and PARTIAL otherwise (the command exits 1, as for
UNSAT, and prints the answers it has). Proofs join likewise: the claim ``optimal`` (or ``unique``) rests
on every solved part's proof, the claim ``unsat`` on every stuck part's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from ..core.result import Status
from ..core.timing import Stopwatch
from ..proofs.certificate import Certificate
from .report import Report
from .request import Request

if TYPE_CHECKING:
    from .crosscheck import Outcome

#: solving one whole instance (a task's ``solve_whole``)
SolveWhole = Callable[[Request, Any, Stopwatch], Report]


def overall(statuses: Sequence[Status]) -> Status:
    """SAT when every part has a solution, UNSAT when none has, PARTIAL between."""
    if all(status == Status.SAT for status in statuses):
        return Status.SAT
    if all(status == Status.UNSAT for status in statuses):
        return Status.UNSAT
    return Status.PARTIAL


def solve_by_parts(solve_whole: SolveWhole, request: Request, instance: Any,
                   parts: tuple[tuple[str, Any], ...], watch: Stopwatch) -> Report:
    """Each part solved alone, one after the other within the request's one deadline, then joined. A
    part stopped before its end (its best plan, not proven optimal) is the last one solved: the joined
    report is stopped too, and the parts after it are UNKNOWN."""
    reports: list[tuple[str, Report]] = []
    for label, part in parts:
        reports.append((label, solve_whole(request, part, Stopwatch())))
        if reports[-1][1].stopped is not None:
            break
    return joined_report(request, instance, reports, watch, [label for label, _ in parts[len(reports):]])


def joined_report(request: Request, instance: Any, reports: list[tuple[str, Report]], watch: Stopwatch,
                  not_solved: Sequence[str] = ()) -> Report:
    """One report of the whole instance from its parts' reports: their answers and sizes added up, the
    phase times summed into ``watch`` (the parts ran one after the other), the solved parts' solutions joined by the
    puzzle, each part's status in ``parts`` (UNKNOWN for the ``not_solved`` ones, after a part that was
    stopped)."""
    puzzle = request.puzzle
    first = reports[0][1]
    solved = [report for _, report in reports if report.solution is not None]
    merged: dict[str, Any] = {}
    for report in solved:
        merged.update(report.answers)
    labels = [label for label, _ in reports]  # each part's answer first, in part order; then the claims
    answers = {label: merged[label] for label in labels if label in merged} | {
        key: value for key, value in merged.items() if key not in labels}
    times = watch.times  # the caller's stopwatch holds the whole run (bench reads it)
    size: dict[str, int] = {}
    for _, report in reports:
        for phase, seconds in report.times.items():
            times[phase] = times.get(phase, 0.0) + seconds
        for key, value in report.size.items():
            size[key] = size.get(key, 0) + value
    stopped = next((report.stopped for _, report in reports if report.stopped is not None), None)
    statuses = {label: report.status for label, report in reports} | dict.fromkeys(not_solved, Status.UNKNOWN)
    return Report(puzzle.name, getattr(instance, "source", ""), first.backend, first.encoding,
                  overall(list(statuses.values())),
                  solution=puzzle.joined(instance, [report.solution for report in solved]) if solved else None,
                  answers=answers, checked=bool(solved) and all(report.checked for report in solved), size=size,
                  times=times, solved_by=tuple(dict.fromkeys(name for _, report in reports for name in report.solved_by)),
                  certificates=_joined_claims([report for _, report in reports]),
                  parts=statuses, draw=partial(puzzle.picture, instance), stopped=stopped)


def _joined_claims(reports: list[Report]) -> dict[str, Certificate | None]:
    """Per claim, the parts' proofs of it joined (None when one part's backend wrote none)."""
    claims: dict[str, list[Certificate | None]] = {}
    for report in reports:
        for claim, certificate in report.certificates.items():
            claims.setdefault(claim, []).append(certificate)
    return {claim: Certificate.joined(certificates) for claim, certificates in claims.items()}


def joined_outcome(outcomes: list[tuple[str, Outcome]]) -> Outcome:
    """The reference's outcome on the whole instance from its parts' outcomes: the first part that gave
    no answer (an error, a refusal) stands for the whole; otherwise the answers merged and the status as
    :func:`overall` says."""
    answers: dict[str, Any] = {}
    for _, (status, part_answers, error) in outcomes:
        if part_answers is None or error:
            return status, part_answers, error
        answers.update(part_answers)
    return overall([Status(status) for _, (status, _, _) in outcomes]).value, answers, ""
