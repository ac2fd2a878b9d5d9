"""Cross-checking: the same instance through several methods (backends, encodings, the reference), each
under its own limit, all within a budget, their answers compared.

The task plans the methods (:meth:`~.tasks.Task.plan_crosscheck`, built from :mod:`.plans`); this module
runs them and marks each row. Every solution passes the independent checker; the answers (uniqueness
included) must agree exactly. A method that refuses an input by design (the reference past its size) is
a SKIPPED row with its reason, never a disagreement.

Agreement is worth something only between methods that share no code. Each method belongs to a
*family*: the reference is one; the runs of an encoding are one (they solve the same formula); and
encodings that share a pre-processing step (a tiling's pruning and anchoring, amphipod's movers,
dice's game rules) are one family named after that step. On a formula file (``cnf``, ``wcnf``) there
is no encoder to share: the solvers share only the file reader, so each solver is a family of its own.
The summary counts families, not runs. A reader fault would fool every solver that reads through it,
so each row of a formula file also names its *reader*: puzzlesat's (:mod:`puzzlesat.formats.dimacs`),
the reference's own (:mod:`puzzlesat.encoders.cnf.reference`, written apart from the format's
definition), or an outside solver's own, given the original file; the verdict says how many readers
the agreement spans.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from ..core.errors import NotApplicable, OutOfMemory, PuzzlesatError, SolverTimeout
from ..core.reporting import report_phase, report_progress
from ..core.timing import Deadline, since_start
from .stop import STOPPING, Stop

if TYPE_CHECKING:
    from .executors import Executor

#: (status, answers or None, error): what running one method gives
Outcome = tuple[str, dict[str, Any] | None, str]

#: the limit of each method, and of the whole cross-check, when the command line sets none: every
#: bundled instance is cross-checked within two minutes (methods past the limit are TIMEOUT rows)
DEFAULT_METHOD_LIMIT = 10.0
DEFAULT_BUDGET = 100.0

#: statuses that say a method gave no answer, without contradicting anyone: out of time, out of memory
#: (``--max-memory``), or not run (the budget spent, an input it refuses by design)
NO_ANSWER = ("TIMEOUT", "MEMOUT", "SKIPPED")


@dataclass
class Method:
    label: str
    #: methods of one family share an encoding or a pre-processing step (see the module docstring)
    family: str
    #: the method, run until the deadline it is given (its own limit, from its start)
    run: Callable[[Deadline], Outcome]
    #: on a formula file, whose reading of the file the method's answer rests on (see the module
    #: docstring); empty for a puzzle
    reader: str = ""


@dataclass
class Row:
    """One method's line of a cross-check (:attr:`CrossChecked.rows`): what it answered, in what time,
    and whether it agrees with the yardstick (the first method that answered whole)."""

    #: the method, as the table names it ("reference", "pysat:cadical195 [cnf, pruned]", "z3 [smt]")
    method: str
    #: SAT, UNSAT, OPTIMUM, PARTIAL, UNKNOWN, TIMEOUT, MEMOUT, ERROR or SKIPPED
    status: str
    #: its wall time, in seconds
    seconds: float
    #: its answers (the puzzle's :meth:`~puzzlesat.core.puzzle.Solution.answers`, or a count per label);
    #: None where it gave none
    answers: dict[str, Any] | None
    #: why it has no answer, or where it disagrees ('' where it agrees)
    error: str = ""
    #: its answers are the yardstick's
    agrees: bool = False
    #: the independent method it belongs to: methods of one family share an encoding or a step, and
    #: count once in "N independent methods agree"
    family: str = ""
    #: the file reader its answer rests on (formula files: puzzlesat's, the reference's own, a binary's)
    reader: str = ""
    #: under ``--certify``: per claim resting on an UNSAT answer, whether its proof was checked
    certified: dict[str, bool] | None = None
    #: where the method found the input outside the puzzle's stated assumptions (:attr:`.Report.warnings`)
    warnings: list[str] = field(default_factory=list)
    #: a count stopped by its limit (a TIMEOUT or MEMOUT row): what it had counted by then, by label, each
    #: a lower bound; one above the yardstick's exact count makes the row a culprit (:func:`exceeds`)
    at_least: dict[str, int] | None = None
    #: those lower bounds exceed the yardstick's count somewhere (:attr:`error` says where)
    overcounted: bool = False


#: the key under which a method's answers carry, under ``--certify``, what its proofs certified; taken out
#: of the answers (into :attr:`Row.certified`) before they are compared
CERTIFIED = "certified"
#: likewise, the key under which a count stopped by its limit carries its lower bounds (into
#: :attr:`Row.at_least`): they are no answer to compare, but they can contradict one
LOWER_BOUNDS = "at_least"
#: likewise, the key of a method's warnings (into :attr:`Row.warnings`): two solvers may find different
#: second solutions, so a warning's words are not an answer to compare
WARNINGS = "warnings"


def run_methods(methods: list[Method], limit: float | None, budget: float | None = None,
                executor: Executor | None = None) -> Iterator[Row]:
    """Run the methods, each under ``limit`` and all within ``budget`` seconds (methods not started when
    it is spent are SKIPPED rows), and yield each row in plan order, already marked: a row agrees when
    it has exactly the yardstick's answers, the yardstick being the first row that answered (the
    reference's, unless it ran out of time or failed); of a puzzle found not unique, only that is
    compared (:func:`compared`). Here, the methods run one after the other and
    each row comes as its method ends; on an ``executor`` (local processes, a Dask cluster) they run at
    the same time, and each row comes as soon as every row before it is in."""
    rows = _rows_on(executor, methods, limit, budget) if executor is not None else _rows_here(methods, limit, budget)
    expected: dict[str, Any] | None = None
    bounded: list[Row] = []  # stopped counts that came before the yardstick, held to it once it is in
    for row in rows:
        if row.answers is not None:
            row.certified = row.answers.pop(CERTIFIED, None)
            row.warnings = row.answers.pop(WARNINGS, [])
            row.at_least = row.answers.pop(LOWER_BOUNDS, None)
            if row.status in NO_ANSWER:
                row.answers = None
        if row.answers is not None and not row.error:
            expected = compared(row.answers) if expected is None else expected
            row.agrees = compared(row.answers) == expected
        if row.at_least is not None:
            bounded.append(row)
        if expected is not None:
            for held in bounded:
                _hold_to(held, expected)
            bounded.clear()
        yield row


def exceeds(at_least: dict[str, int], expected: dict[str, Any]) -> list[str]:
    """The labels where a stopped count had already found more solutions than the yardstick's exact
    count: checked solutions past a count prove one of the two wrong."""
    return [label for label, found in at_least.items()
            if isinstance(expected.get(label), int) and not isinstance(expected[label], bool) and found > expected[label]]


def _hold_to(row: Row, expected: dict[str, Any]) -> None:
    """Mark a stopped count whose lower bounds contradict the yardstick (its error says where)."""
    assert row.at_least is not None
    over = exceeds(row.at_least, expected)
    if over:
        row.overcounted = True
        row.error = "it had found more than the count: " + ", ".join(
            f"{label} at least {row.at_least[label]:,} against {expected[label]:,}" for label in over)


def cross_check(methods: list[Method], limit: float | None, budget: float | None = None,
                executor: Executor | None = None, on_row: Callable[[Row], None] | None = None) -> CrossChecked:
    """:func:`run_methods` to the end, each row handed to ``on_row`` as it comes, and their verdict; a
    cross-check stopped before its end (a signal: its own limits make TIMEOUT and SKIPPED rows) is the
    verdict of the rows that were in, saying so."""
    rows: list[Row] = []
    started = time.monotonic()
    report_phase("cross-check")  # the methods' own phases are in their children
    try:
        report_progress(_waiting(methods, 0))
        for row in run_methods(methods, limit, budget, executor):
            rows.append(row)
            if on_row is not None:
                on_row(row)
            report_progress(_waiting(methods, len(rows)))
    except STOPPING as stopped:
        return CrossChecked(tuple(rows), len(methods), Stop.of(stopped, since_start(started)))
    return CrossChecked(tuple(rows), len(methods))


def _waiting(methods: list[Method], done: int) -> str:
    """The status line's text: the rows in, and the method whose row comes next (rows come in plan
    order)."""
    return f"{done} of {len(methods)} methods done" + (f", waiting for {methods[done].label}"
                                                       if done < len(methods) else "")


def compared(answers: dict[str, Any]) -> dict[str, Any]:
    """The answers two methods must share: all of them, except where a method found a second solution
    (``unique`` False): each method's answers then depend on the solution it found (an aquarium's grid,
    a jigsaw's corners), every one of which passed the checker, so only ``unique`` is compared."""
    return {"unique": False} if answers.get("unique") is False else answers


def _spent(budget: float | None) -> Outcome:
    return "SKIPPED", None, f"not run: the budget of {budget:g} s is spent"


def _rows_here(methods: list[Method], limit: float | None, budget: float | None) -> Iterator[Row]:
    """The methods one after the other, each timed alone, in one forked worker that is killed with the
    method at min(its limit, the budget's end) and replaced (:func:`~puzzlesat.processes.runner.run_each`):
    all of a method's work stays within its limit, and a method past the memory cap is a MEMOUT row. The
    worker is reused from method to method, so what the first method imported the next ones need not
    (a fork per method cost a 14-method cross-check a quarter of its time)."""
    from ..processes.runner import run_each

    end = Deadline.after(budget)
    tasks = [partial(outcome_of, method, limit) for method in methods]
    spent = [False] * len(methods)  # decided here, before the runner is asked for the method's turn
    ran = run_each(tasks, 1, limit, skip=lambda number: spent[number], until=end)
    try:
        for number, method in enumerate(methods):
            spent[number] = end.passed()
            if spent[number]:
                status, answers, error = _spent(budget)
                yield Row(method.label, status, 0.0, answers, error, family=method.family, reader=method.reader)
                continue
            _, outcome = next(ran)
            if outcome.status == "OK" and outcome.value is not None:
                status, answers, error = outcome.value
            else:
                status, answers, error = outcome.status, None, f"{method.label}: {outcome.error}"
            yield Row(method.label, status, outcome.seconds, answers, error, family=method.family, reader=method.reader)
    finally:
        ran.close()  # stops the worker


def contained(method: Method, limit: float | None) -> Outcome:
    """Run one method in a forked child killed at its limit, so that all of its work (reading options,
    encoding, pruning, a reference's search, not only its solver calls) stays within the limit, and a
    method that runs out of memory ends as its own MEMOUT row, not the executor's task."""
    from ..backends.forking import call_with_timeout

    def forked(deadline: Deadline) -> Outcome:
        return call_with_timeout(partial(_outcome_until, method, deadline), deadline, method.label)
    return outcome_of(Method(method.label, method.family, forked, method.reader), limit)


def outcome_of(method: Method, limit: float | None) -> Outcome:
    """Run one method under ``limit`` seconds from now; a timeout, a refusal by design and a failure are
    outcomes, not exceptions."""
    return _outcome_until(method, Deadline.after(limit))


def _outcome_until(method: Method, deadline: Deadline) -> Outcome:
    try:
        return method.run(deadline)
    except SolverTimeout as exc:
        return "TIMEOUT", None, str(exc)
    except NotApplicable as exc:
        return "SKIPPED", None, str(exc)
    except OutOfMemory as exc:
        return "MEMOUT", None, str(exc)
    except PuzzlesatError as exc:
        return "ERROR", None, str(exc)


def _in_budget(method: Method, end: float | None, budget: float | None, limit: float | None) -> Outcome:
    """A method's outcome where it runs, unless its turn came after the budget's end (wall clock, which
    a worker on this machine shares). It runs :func:`contained` there too, so that running out of
    memory is its MEMOUT row wherever it runs; the executor's guard is the backstop of the limit."""
    if end is not None and time.time() >= end:
        return _spent(budget)
    return contained(method, limit)


def _rows_on(executor: Executor, methods: list[Method], limit: float | None, budget: float | None) -> Iterator[Row]:
    """Every method as one task on ``executor`` (its own hard limit is the executor's guard)."""
    end = None if budget is None else time.time() + budget
    done: dict[int, Row] = {}
    following = 0
    for number, ran in executor.run([partial(_in_budget, method, end, budget, limit) for method in methods], limit):
        method = methods[number]
        if ran.status == "OK" and ran.value is not None:
            status, answers, error = ran.value
        else:
            status, answers, error = ran.status, None, ran.error
        seconds = 0.0 if status == "SKIPPED" else ran.seconds
        done[number] = Row(method.label, status, seconds, answers, error, family=method.family, reader=method.reader)
        while following in done:
            yield done.pop(following)
            following += 1


def agreeing_readers(rows: list[Row]) -> int:
    """How many independent readings of a formula file the agreeing rows rest on (0 for a puzzle)."""
    return len({row.reader for row in rows if row.agrees and row.reader})


def independent_agreement(rows: list[Row]) -> int:
    """How many families (methods that share no code) gave the yardstick's answers."""
    return len({row.family for row in rows if row.agrees})


@dataclass(frozen=True)
class CrossChecked:
    """What a cross-check's rows say together: the methods that disagree (culprits), those with no
    answer, how many independent methods (families) and readers agree; :meth:`summary` is the verdict
    line the command line prints, and a notebook shows the rows and that line (``_repr_html_``). A
    cross-check ``stopped`` before its end has fewer rows than the ``planned`` methods."""

    #: one :class:`Row` per method, in the order they ran
    rows: tuple[Row, ...]
    #: how many methods were planned (more than the rows where the cross-check was stopped)
    planned: int = 0
    #: why the cross-check ended before its end (a time budget, a signal), None where it ran whole
    stopped: Stop | None = None

    @property
    def culprits(self) -> list[Row]:
        """The rows that disagree: an answer other than the yardstick's, a failure, or a stopped count
        that had found more solutions than the yardstick counted."""
        return [row for row in self.rows if not row.agrees and (row.status not in NO_ANSWER or row.overcounted)]

    @property
    def unanswered(self) -> list[Row]:
        """The rows with no answer: timed out, out of memory, or skipped by design."""
        return [row for row in self.rows if row.status in NO_ANSWER]

    @property
    def agree(self) -> bool:
        """No disagreement, and at least one method answered (the command's exit code 0, unless it was
        stopped)."""
        return not self.culprits and len(self.unanswered) < len(self.rows)

    @property
    def independent_methods(self) -> int:
        """How many independent methods (families) gave the agreed answer."""
        return independent_agreement(list(self.rows))

    def summary(self, formula_file: bool = False) -> str:
        """The verdict line: the culprits, or how many independent methods agree, in how many runs (a
        lone family is no independent confirmation); on a formula file, how many readers of the file."""
        if self.culprits:
            return "DISAGREEMENT: " + ", ".join(r.method for r in self.culprits)
        timeouts = self.unanswered
        runs = sum(row.agrees for row in self.rows)
        memouts = any(row.status == "MEMOUT" for row in timeouts)
        if not runs:
            memory = ", ran out of memory" if memouts else ""
            counted = (f"NOTHING COMPARED: all {len(timeouts)} methods timed out{memory} or were skipped"
                       if self.rows else "NOTHING COMPARED")
        else:
            families = self.independent_methods
            counted = (f"{families} independent method agrees" if families == 1
                       else f"{families} independent methods agree") + f" ({runs} run{'s' if runs > 1 else ''})"
            if families == 1:
                counted += ": no independent confirmation"
            if timeouts:
                counted += f", {len(timeouts)} timed out{', out of memory' if memouts else ''} or skipped"
        if self.stopped is not None:
            counted += f"; {self.stopped.said()}, {len(self.rows)} of {self.planned} methods run"
        if not formula_file:
            return counted
        readers = agreeing_readers(list(self.rows))
        if readers <= 1:
            return counted + ("; every method that answered read the file through one reader, so a fault of that "
                              "reader would go unseen")
        return counted + f"; the file read by {readers} independent readers (each row's last column)"

    def _repr_html_(self) -> str:
        """Jupyter's rich display: a row per method, then the verdict."""
        from html import escape

        head = "".join(f"<th style='text-align:left'>{name}</th>" for name in ("method", "status", "seconds", "answer",
                                                                              "agrees"))
        body = "".join(
            "<tr>" + "".join(f"<td style='text-align:left'>{escape(str(cell))}</td>" for cell in (
                row.method, row.status, f"{row.seconds:.3f}", row.answers if row.answers is not None else "-",
                "yes" if row.agrees else row.error or "-")) + "</tr>" for row in self.rows)
        return f"<table><tr>{head}</tr>{body}</table><p>{escape(self.summary())}</p>"
