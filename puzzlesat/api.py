"""The Python interface, in PySAT's habits: formulas are ``pysat.formula.CNF``/``WCNF`` objects whose
variables come from the caller's ``IDPool``, so a puzzle can share a solver with other constraints.

    import puzzlesat
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    instance = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    formula = puzzlesat.encode("aquarium", instance, vpool=IDPool())
    with Solver(name="cadical195", bootstrap_with=formula) as solver:
        solver.solve()
        solution = puzzlesat.decode(formula, solver.get_model())
    assert puzzlesat.check("aquarium", instance, solution) == []

or the whole pipeline at once: ``puzzlesat.solve("aquarium", instance, backend="kissat")`` returns the
report the command line prints (it renders as a picture in Jupyter), and ``puzzlesat.count(...)`` the
report ``puzzlesat count`` prints, and ``puzzlesat.explain(...)`` the checked steps ``puzzlesat explain``
prints. They call the puzzle's task, as the command line does, so every
surface gives the same checked answer.
"""
from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any

from pysat.formula import CNF, WCNF, IDPool

from .core.errors import PuzzlesatError
from .core.model import CnfModel
from .core.puzzle import Puzzle, Solution
from .core.result import Status
from .core.timing import Deadline
from .deduction import Explanation
from .encoders import get_puzzle
from .pipeline.crosscheck import DEFAULT_BUDGET, DEFAULT_METHOD_LIMIT, CrossChecked, Row, cross_check
from .pipeline.explaining import Explained, explain_instance
from .pipeline.hinting import Hinted, hint_instance
from .pipeline.report import Report
from .pipeline.request import request
from .pipeline.steps import load
from .pipeline.stop import Stop
from .pipeline.tasks import count as _count
from .pipeline.tasks import solve as _solve

__all__ = ["CrossChecked", "Explained", "Explanation", "Hinted", "PuzzleCNF", "PuzzleWCNF", "PuzzlesatError", "Report", "Row",
           "Solution", "Status", "Stop", "check", "count", "crosscheck", "decode", "encode", "explain", "read", "solve"]

if TYPE_CHECKING:
    from .core.encoding import Encoding


class _Decodable:
    """What :func:`decode` reads back from a formula :func:`encode` made: the puzzle, the instance and
    the encoding. Kept by ``copy()`` (PySAT's ``copy`` makes a plain formula, which would forget it)."""

    puzzlesat: tuple[Puzzle[Any, Any, Any], Any, Encoding]


class PuzzleCNF(CNF, _Decodable):
    """A puzzle's hard clauses (a ``pysat.formula.CNF``) that :func:`decode` reads models of."""

    def copy(self) -> PuzzleCNF:
        duplicate = PuzzleCNF(from_clauses=[list(clause) for clause in self.clauses])
        duplicate.comments = list(self.comments)
        duplicate.puzzlesat = self.puzzlesat
        return duplicate


class PuzzleWCNF(WCNF, _Decodable):
    """A puzzle's weighted clauses (a ``pysat.formula.WCNF``) that :func:`decode` reads models of. Its
    soft clauses carry the whole cost, the part no choice changes included (one always-broken soft
    clause of that weight), so a MaxSAT solver's optimum is the puzzle's answer (amphipod: the energy)."""

    def copy(self) -> PuzzleWCNF:
        duplicate = PuzzleWCNF()
        duplicate.extend([list(clause) for clause in self.hard])
        for clause, weight in zip(self.soft, self.wght):
            duplicate.append(list(clause), weight=weight)
        duplicate.comments = list(self.comments)
        duplicate.puzzlesat = self.puzzlesat
        return duplicate


def read(puzzle: str, path: str, /, **reading: Any) -> Any:
    """The instance in the file at ``path``, parsed as ``puzzle``.

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them).
    :param path: the file (``-``: stdin; a formula file may be gzip-, bzip2- or xz-compressed); for
        aquarium, a puzz.link URL itself.
    :param reading: the puzzle's reading options by name, e.g. a jigsaw's ``rows``/``cols``, amphipod's
        ``unfold``, dice's game (``target``, ``sides``, ...): ``puzzlesat solve PUZZLE --help`` lists them.
    :raises PuzzlesatError: a file that cannot be read or parsed, in one line naming its line and column.

    >>> burrow = puzzlesat.read("amphipod", "instances/aoc/2021-23/example.txt", unfold=False)
    >>> puzzlesat.solve("amphipod", burrow, backend="glucose4").answers["energy"]
    12521
    """
    return load(get_puzzle(puzzle), path, **reading)


def encode(puzzle: str, instance: Any, vpool: IDPool | None = None, encoding: str | None = None,
           **options: Any) -> PuzzleCNF | PuzzleWCNF:
    """The puzzle's CNF encoding as a PySAT ``CNF`` (a ``WCNF`` when it has soft clauses: amphipod).
    The encoder takes every variable from ``vpool`` (a new pool when None), as PySAT's encoders do: a
    puzzle variable under its meaning, e.g. ``("fill", 3, 7)``, an auxiliary one as a fresh id, so the
    formula shares a solver with your own clauses without renumbering. The returned object remembers
    what :func:`decode` needs, and so do its copies.

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them).
    :param instance: what :func:`read` returned for the same puzzle (another puzzle's instance is refused).
    :param vpool: the ``pysat.formula.IDPool`` every variable is taken from; None: a new one.
    :param encoding: one of the puzzle's CNF encodings (``cnf``; amphipod's ``unroll``); None: the first.
    :param options: the puzzle's encoder options by name (for example ``cardinality="totalizer"``); an unknown
        one is refused.

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> from pysat.formula import IDPool
    >>> pool = IDPool()
    >>> formula = puzzlesat.encode("aquarium", grid, vpool=pool)
    >>> len(formula.clauses), pool.id(("fill", 1, 0))
    (203, 1)
    """
    spec = _puzzle_of(puzzle, instance)
    pool = vpool if vpool is not None else IDPool()
    built = spec.encode(instance, encoding or spec.encodings[0], spec.options(**options), pool)
    if built.kind != "cnf":
        raise PuzzlesatError(f"{puzzle}'s {built.name} encoding is SMT; encode() returns CNF encodings")
    formula: PuzzleCNF | PuzzleWCNF
    if built.soft:
        formula = PuzzleWCNF()
        formula.extend(list(clause) for clause in built.clauses)
        for clause, weight in built.soft:
            formula.append(clause, weight=weight)
        if built.cost_offset:  # the fixed part of the cost, broken in every model
            fixed = pool.id((puzzle, "fixed cost"))
            formula.append([-fixed])
            formula.append([fixed], weight=built.cost_offset)
    else:
        formula = PuzzleCNF(from_clauses=[list(clause) for clause in built.clauses])
    formula.puzzlesat = (spec, instance, built)
    return formula


def decode(formula: CNF | WCNF, model: list[int]) -> Solution:
    """The solution a model of ``formula`` (from :func:`encode`, or a copy of it) stands for, not yet
    checked.

    :param formula: what :func:`encode` returned (or its ``copy()``).
    :param model: a solver's model, a list of literals (``solver.get_model()``).

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> from pysat.solvers import Solver
    >>> formula = puzzlesat.encode("aquarium", grid)
    >>> with Solver(name="cadical195", bootstrap_with=formula) as solver:
    ...     solver.solve()
    ...     solution = puzzlesat.decode(formula, solver.get_model())
    True
    >>> puzzlesat.check("aquarium", grid, solution)
    []
    """
    if not isinstance(formula, _Decodable):
        raise PuzzlesatError("decode() reads formulas made by puzzlesat.encode() (or their copies)")
    spec, instance, built = formula.puzzlesat
    solution: Solution = spec.decode(instance, built, CnfModel.from_literals(model, built.num_vars))
    return solution


def check(puzzle: str, instance: Any, solution: Solution) -> list[str]:
    """Every rule the solution breaks, as sentences (the independent checker); empty when it is valid.

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them).
    :param instance: what :func:`read` returned for the same puzzle (another puzzle's instance is refused).
    :param solution: a solution of this instance (a report's ``solution``, or :func:`decode`'s).

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> solution = puzzlesat.solve("aquarium", grid).solution
    >>> puzzlesat.check("aquarium", grid, solution)
    []
    """
    return _puzzle_of(puzzle, instance).check(instance, solution)


def solve(puzzle: str, instance: Any, backend: str | None = None, encoding: str | None = None,
          timeout: float | None = None, method: str | None = None, certify: str | None = None,
          forced: bool = False, **options: Any) -> Report:
    """Solve, check and prove as ``puzzlesat solve`` does; the report's ``solution`` passed the checker.

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them).
    :param instance: what :func:`read` returned for the same puzzle (another puzzle's instance is refused).
    :param backend: a backend name or alias as ``puzzlesat backends`` lists them (``cadical``, ``kissat``,
        ``glucose4``, ``z3``, ``ganak``, ``d4``, ``external:PATH``, ``portfolio:A,B``); None: the puzzle's measured
        default.
    :param encoding: one of the puzzle's encodings (``cnf`` first, then ``smt``, and puzzle-specific ones such
        as amphipod's ``unroll`` or dice's ``split``); None: the first.
    :param timeout: seconds for the whole call; None: no limit.
    :param method: an optimisation puzzle's method (amphipod): ``rc2``, ``rc2-stratified``, ``rc2-plain``,
        ``descent``, ``z3``, ``maxsat``; None: the one tuned for the encoding.
    :param certify: ``"strict"`` (every UNSAT claim backed by a checked DRAT proof, or refused) or
        ``"best-effort"`` (claims a backend cannot prove are marked uncertified); None: no proofs.
    :param forced: also find what every solution shares (``solve --forced``): the report's ``forced``.
    :param options: the puzzle's encoder options by name (for example ``cardinality="totalizer"``); an unknown
        one is refused.

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> report = puzzlesat.solve("aquarium", grid, backend="kissat")
    >>> report.status.value, report.answers["unique"], report.checked
    ('SAT', True, True)
    """
    return _solve(request(_puzzle_of(puzzle, instance), backend, encoding, timeout, method, certify, forced, **options),
                  instance)


def count(puzzle: str, instance: Any, backend: str | None = None, limit: int | None = None,
          timeout: float | None = None, encoding: str | None = None, certify: str | None = None,
          listing: bool = False, **options: Any) -> Report:
    """Count as ``puzzlesat count`` does: the report's ``answers`` are the counts by label (a tiling's
    ``solutions`` and its classes up to symmetry, dice's universes won by each player), each projected
    on the encoding's shown variables; every solution counted by enumeration passed the checker, and
    ``counted_by`` says how they were counted. An enumeration stopped by its ``timeout`` returns what
    it had: ``report.stopped`` says why (a :class:`~puzzlesat.pipeline.stop.Stop`), ``complete`` is
    False and each count is a lower bound.

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them).
    :param instance: what :func:`read` returned for the same puzzle (another puzzle's instance is refused).
    :param backend: as in :func:`solve`, and also an exact counter (``ganak``, ``d4``, ``frontier``); None:
        the method that fits, raced against the puzzle's own search where it has one.
    :param limit: stop once this many solutions are found (each count then means "at least").
    :param timeout: seconds for the whole call; None: no limit.
    :param encoding: one of the puzzle's encodings (``cnf`` first, then ``smt``, and puzzle-specific ones such
        as amphipod's ``unroll`` or dice's ``split``); None: the first.
    :param certify: ``"strict"`` (every UNSAT claim backed by a checked DRAT proof, or refused) or
        ``"best-effort"`` (claims a backend cannot prove are marked uncertified); None: no proofs.
    :param listing: keep the first count's solutions in ``report.solutions``.
    :param options: the puzzle's encoder options by name (for example ``cardinality="totalizer"``); an unknown
        one is refused.

    >>> jig = puzzlesat.read("jig", "instances/jig/matt5x5.jig")
    >>> report = puzzlesat.count("jig", jig, backend="glucose4")
    >>> dict(report.answers), report.counted_by
    ({'solutions': 8, 'up_to_rotation': 2}, 'enumeration')
    """
    spec = _puzzle_of(puzzle, instance)
    return _count(request(spec, backend, encoding, timeout, None, certify, counting=True, **options), instance,
                  listing=listing, limit=limit)


@typing.overload
def explain(puzzle: str, instance: Any, certify: bool = False, timeout: float | None = None,
            marks: None = None) -> Explained: ...


@typing.overload
def explain(puzzle: str, instance: Any, certify: bool = False, timeout: float | None = None, *,
            marks: str) -> Hinted: ...


def explain(puzzle: str, instance: Any, certify: bool = False, timeout: float | None = None,
            marks: str | None = None) -> Explained | Hinted:
    """Explain as ``puzzlesat explain`` does: the steps from nothing known to the solution (each the facts
    it uses and the cells they force), every step replayed, the solution checked; ``explanation.solved``
    is False for a puzzle with no solution (``conflict``) or several (``differing``). Stopped by its
    ``timeout`` (seconds), it returns the steps found by then, replayed: ``stopped`` says why. With
    ``marks``, a hint from a player's marks as ``explain --from`` gives it (:class:`Hinted`): the marks
    no solution has, each with the facts that refute it, else the next step from them.

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them). Explanations are offered for aquarium,
        jigsaw and jig, and so are hints.
    :param instance: what :func:`read` returned for the same puzzle (another puzzle's instance is refused).
    :param certify: also check a DRAT proof of every replayed UNSAT answer.
    :param timeout: seconds for the whole call; None: no limit.
    :param marks: a player's marks in the solution's text format, ``?`` for a cell not marked, one line per
        row (an aquarium's ``#`` water and ``.`` dry; a jig's or jigsaw's ``ID/ORIENTATION`` per cell); None:
        explain from the empty grid.

    >>> grid = puzzlesat.read("aquarium", "instances/aquarium/pa-6x6-easy-681742.txt")
    >>> explained = puzzlesat.explain("aquarium", grid)
    >>> explained.explanation.difficulty
    {'steps': 10, 'widest': 1}
    """
    spec = _puzzle_of(puzzle, instance)
    if marks is not None:
        return hint_instance(spec, instance, marks, "marks", certify=certify, deadline=Deadline.after(timeout))
    return explain_instance(spec, instance, certify=certify, deadline=Deadline.after(timeout))


def crosscheck(puzzle: str, instance: Any, backends: list[str] | None = None, timeout: float = DEFAULT_METHOD_LIMIT,
               budget: float = DEFAULT_BUDGET, by_count: bool = False, **options: Any) -> CrossChecked:
    """Cross-check as ``puzzlesat crosscheck`` does: every method (the solver-free reference, each
    backend on each encoding) under ``timeout`` seconds each and ``budget`` in all, their rows, and the
    verdict (``agree``, ``independent_methods``, :meth:`~CrossChecked.summary`).

    :param puzzle: the puzzle's name: ``aquarium``, ``jigsaw``, ``jig``, ``amphipod``, ``dice``, ``cnf``,
        ``wcnf``, or a plug-in's (``puzzlesat solve --help`` lists them).
    :param instance: what :func:`read` returned for the same puzzle (another puzzle's instance is refused).
    :param backends: the backends to run, each on each encoding (names as for :func:`solve`); None: the
        puzzle's default set. The reference always runs.
    :param timeout: seconds each method may take (a method past it is a TIMEOUT row).
    :param budget: seconds for all the methods together (those left out are SKIPPED rows).
    :param by_count: compare the solution counts instead of the answers (``crosscheck --count``).
    :param options: the puzzle's encoder options by name (for example ``cardinality="totalizer"``); an unknown
        one is refused.

    >>> jig = puzzlesat.read("jig", "instances/jig/matt5x5.jig")
    >>> checked = puzzlesat.crosscheck("jig", jig, backends=["cadical"])
    >>> checked.agree, checked.summary()
    (True, '4 independent methods agree (4 runs)')
    """
    spec = _puzzle_of(puzzle, instance)
    names = backends if backends else spec.task.crosscheck_backends(spec)
    methods = spec.task.plan_crosscheck(request(spec, None, None, timeout, **options), instance, names, by_count)
    return cross_check(methods, timeout, budget)


def _puzzle_of(puzzle: str, instance: Any) -> Puzzle[Any, Any, Any]:
    """The puzzle named, once ``instance`` is one of its instances (another puzzle's instance failed deep
    inside, with an AttributeError that named neither)."""
    spec = get_puzzle(puzzle)
    expected = _instance_class(spec)
    if expected is not None and not isinstance(instance, expected):
        raise PuzzlesatError(f"instance: expected {expected.__name__}, the {spec.name} instance that puzzlesat.read("
                             f"{spec.name!r}, PATH) makes; got {type(instance).__name__}")
    return spec


def _instance_class(spec: Puzzle[Any, Any, Any]) -> type | None:
    """The instance class a puzzle declares as the first type argument of its generic base
    (``Puzzle[AquariumInstance, ...]``, ``TilingPuzzle[JigInstance, ...]``: every generic puzzle base
    takes the instance type first), None where it declares none."""
    for klass in type(spec).__mro__:
        for base in klass.__dict__.get("__orig_bases__", ()):
            origin, arguments = typing.get_origin(base), typing.get_args(base)
            if (isinstance(origin, type) and issubclass(origin, Puzzle) and arguments
                    and isinstance(arguments[0], type)):
                return arguments[0]
    return None
