"""Satisfy, and prove unique: the solve of :class:`~.tasks.Satisfy`.

A solution is reported only after the independent checker accepted it; uniqueness is claimed only when
the solver answered UNSAT with the first solution blocked.
"""
from __future__ import annotations

import time
from contextlib import closing
from dataclasses import replace
from functools import partial
from typing import Any

from ..backends.base import Capability
from ..core.encoding import Encoding
from ..core.model import CnfModel, SmtModel
from ..core.result import Status
from ..core.timing import Stopwatch, since_start
from .forced import fixed_values
from .report import Claims, Report
from .request import Request
from .steps import checked_solution
from .stop import STOPPING, Stop


def solve_satisfying(request: Request, instance: Any, unique: bool, watch: Stopwatch,
                     assumed_unique: str | None = None) -> Report:
    """A checked solution; with ``unique``, a second search with the first solution blocked proves it
    unique (UNSAT) or refutes it (a second checked solution). With ``assumed_unique`` (what uniqueness
    is up to, '' for nothing), the answers assume one solution, so a second one is a warning."""
    puzzle, backend = request.puzzle, request.backend
    request.require_solving()
    if unique:
        backend.require(Capability.ENUMERATE)
    deadline = request.deadline
    with watch.phase("encode"):
        encoding = puzzle.encode(instance, request.encoding, request.options)
    claims = Claims(request, watch)
    with watch.phase("solve"):
        session = backend.open(encoding)
    with session, closing(session.models(deadline)) as results:  # a second model disproves uniqueness
        with watch.phase("solve"):
            first = next(results)
        report = Report(puzzle.name, getattr(instance, "source", ""), backend.name, request.encoding, first.status,
                        size=encoding.size(), times=watch.times, solved_by=(first.backend,),
                        draw=partial(puzzle.picture, instance))
        if first.status == Status.UNSAT:
            claims.claim("unsat", first.certificate)
        if first.status != Status.SAT or first.model is None:
            return replace(report, certificates=claims.certificates, times=watch.times)
        solution = checked_solution(puzzle, instance, encoding, first.model, backend.name, watch)
        answers = dict(solution.answers())
        noticed: tuple[str, ...] = ()
        models = [first.model]  # the models found, for --forced
        if unique:
            with watch.phase("solve"):
                second = next(results)
            if second.status == Status.SAT and second.model is not None:
                other = checked_solution(puzzle, instance, encoding, second.model, backend.name, watch)
                models.append(second.model)
                if assumed_unique is not None:
                    noticed = (second_solution_warning(puzzle.name, assumed_unique, answers, other.answers()),)
            if second.status == Status.UNSAT:
                claims.claim("unique", second.certificate)
            answers["unique"] = {Status.UNSAT: True, Status.SAT: False}.get(second.status)
            report = replace(report, solved_by=report.solved_by + (second.backend,))
    forced, stopped = None, None
    if request.forced:  # what every solution shares: all of it when the solver proved the solution unique
        if answers.get("unique") is True:  # the uniqueness proof backs it
            forced = puzzle.forced(instance, encoding, {v: models[0].value(v) for v in encoding.show})
        else:  # as hard as listing every solution where there are many: a stop keeps the solution found
            started = time.monotonic()
            try:
                with watch.phase("solve"):
                    fixed, backing = fixed_values(backend, encoding, [_true_shown(encoding, m) for m in models],
                                                  deadline)
            except STOPPING as stop:
                stopped = Stop.of(stop, since_start(started))
            else:
                if backing is not None:
                    claims.claim("forced", backing.certificate)
                forced = puzzle.forced(instance, encoding, fixed)
    return replace(report, solution=solution, checked=True, answers=answers, certificates=claims.certificates,
                   noticed=noticed, times=watch.times, forced=forced, stopped=stopped)


def _true_shown(encoding: Encoding, model: CnfModel | SmtModel) -> set[int]:
    """The shown variables a model makes true."""
    return {v for v in encoding.show if model.value(v)}


def second_solution_warning(puzzle: str, up_to: str, first: dict[str, Any], second: dict[str, Any]) -> str:
    """The one line that says a puzzle whose answers assume one solution has two, and what the second
    one answers (solvers may find different second solutions, so this is a warning, not an answer)."""
    differ = {key: value for key, value in second.items() if first.get(key) != value}
    tail = (f"it gives {', '.join(f'{key} = {value}' for key, value in differ.items())}" if differ
            else "its answers are the same")
    return f"{puzzle} assumes one solution{f' up to {up_to}' if up_to else ''}, and the solver found a second: {tail}"
