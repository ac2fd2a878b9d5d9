"""The interface every puzzle implements, so that the pipeline, CLI and cross-checks are written once.

A puzzle is a small object whose methods are the arrows of the pipeline: ``parse`` (text -> instance),
``build`` (instance -> Encoding, called through ``encode``), ``decode`` (model -> solution), ``check``
(solution -> violations, written from the rules, never from the encoding), ``reference`` (a solver-free
method) and ``picture``. A puzzle is typed by its instance, its solution and its encoder options.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from pysat.formula import IDPool

from .declared import Generator, Option
from .encoding import Encoding
from .model import CnfModel, SmtModel
from .options import OptionsT
from .timing import UNLIMITED, Deadline

if TYPE_CHECKING:
    from ..deduction import Facts
    from ..formats.picture import Picture
    from ..pipeline.executors import Executor
    from ..pipeline.tasks import Task


class Solution(Protocol):
    """What a decoder returns; puzzle-specific, comparable with ``==``."""

    def render(self, colour: bool = False) -> str:
        """Terminal text of the solution; ``colour`` adds ANSI colours (when printing to a terminal)."""
        ...

    def answers(self) -> dict[str, Any]:
        """The puzzle's answers as JSON-ready values: what every method must agree on."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The solution itself as JSON-ready values (a grid, a layout, a plan, a model): ``--json``'s
        ``solution`` and ``count --jsonl``'s lines. Two methods may find different ones."""
        ...


class Searched(NamedTuple):
    """What a puzzle's own search counted (:meth:`Puzzle.search_count`): the counts by label, how they
    were made (the report names it), and whether every solution counted passed the checker (False: a
    count that multiplies alike choices instead of listing them, as an exact counter counts)."""

    counts: dict[str, int]
    method: str
    checked: bool = True


#: a puzzle's parsed instance type, and its solution type
InstanceT = TypeVar("InstanceT")
SolutionT = TypeVar("SolutionT", bound=Solution)


class Puzzle(ABC, Generic[InstanceT, SolutionT, OptionsT]):
    """One puzzle's arrows of the pipeline, typed by its instance, solution and encoder options."""

    name: str
    #: the dataclass of this puzzle's encoder options (:class:`EncoderOptions` or a subclass)
    options_type: type[OptionsT]
    #: encoding kinds this puzzle offers, the first being the default
    encodings: tuple[str, ...] = ("cnf", "smt")
    #: keyword options of ``parse`` (``rows``/``cols``, ``unfold``), declared (:mod:`.declared`): every
    #: command that reads a file offers them, and their types are checked before ``parse`` sees them (a
    #: variable map or the API may give any value)
    reading_options: ClassVar[tuple[Option, ...]] = ()
    #: fields of :attr:`options_type` that say which formula an export writes (a tiling's
    #: ``break_symmetry``, dice's player): ``export`` offers them, and ``decode`` without a variable map
    formula_options: ClassVar[tuple[Option, ...]] = ()
    #: ``puzzlesat generate NAME``'s parameters and maker; None: no generator (a formula file)
    generator: ClassVar[Generator | None] = None
    #: the directory of the bundled instances, as the repository names it (``instances/...``: an
    #: installed package finds them inside itself), which ``bench`` runs by default; None: none bundled
    bundled: ClassVar[str | None] = None
    #: what ``solve``, ``count`` and ``crosscheck`` do with this puzzle (a unique solution, an optimum,
    #: counted universes): the pipeline calls only the task (:mod:`puzzlesat.pipeline.tasks`)
    task: ClassVar[Task]
    #: how instance files of this puzzle end (``puzzlesat bench`` picks them out of a directory)
    instance_suffix: str = ".txt"
    #: the largest instance file read, in bytes (far above any puzzle; a file past it is refused in one
    #: line rather than swallowed); None: no cap but ``--max-memory`` (formula files, as large as solvers
    #: take them)
    max_input_bytes: int | None = 64 << 20
    #: its solutions have a picture (:meth:`picture`); a formula file's model has none, and the web app
    #: asks a job for a picture only where there is one
    draws: ClassVar[bool] = True

    #: the modules of this puzzle's numba kernels, each with a module-level ``KERNEL`` (a
    #: :class:`~puzzlesat.processes.kernels.Kernel`), which ``puzzlesat compile`` compiles ahead
    kernels: ClassVar[tuple[str, ...]] = ()

    #: the spellings of the puzzle itself that :meth:`spell` writes for other tools (an aquarium's
    #: puzz.link ``url``): ``export --format`` and ``generate --format`` offer them
    spellings: ClassVar[tuple[str, ...]] = ()

    def spell(self, instance: Any, spelling: str) -> str:
        """The instance written in one of :attr:`spellings`, as the tool that reads it writes it."""
        raise NotImplementedError(f"{self.name} declares no spelling {spelling!r}")

    def forced(self, instance: Any, encoding: Encoding, fixed: Mapping[int, bool]) -> Any:
        """What every solution shares, from the values of the encoding's shown variables that are the same
        in every model (``fixed``; the others are absent): a partial solution with ``render()``,
        ``to_json()`` and a ``picture``, or None where the puzzle does not offer it (``solve --forced``
        is then refused)."""
        return None

    @property
    def offers_forced(self) -> bool:
        """Whether ``solve --forced`` applies: the puzzle says what its forced cells are (:meth:`forced`),
        and its solutions are what it asks for (an optimisation's legal plans are not)."""
        return type(self).forced is not Puzzle.forced and self.task.counts_solutions

    def inline(self, argument: str) -> bool:
        """Whether a command's instance argument is the puzzle itself, not a file's path (an aquarium's
        puzz.link URL): read as the file's text, whether or not a file of that name exists."""
        return False
    #: the backend ``solve`` uses when none is chosen (the fastest measured for this puzzle)
    default_backend: str | None = None
    #: the backend ``count`` uses when none is chosen, where another solver is measured faster at
    #: enumerating every solution (proving the last UNSAT) than at finding one; None: ``default_backend``
    count_backend: str | None = None
    #: a solve returns one of several solutions, so a cross-check compares solution counts instead
    crosscheck_by_count: bool = False
    #: a formula file (``cnf``, ``wcnf``): no encoder stands between the file and the solvers, which share
    #: only the file reader, so in a cross-check each solver is an independent method of its own
    solvers_independent: bool = False
    #: encoding -> the pre-processing step it shares with other encodings (a tiling's pruning): a
    #: cross-check counts the encodings that share a step as one independent method, not several
    shared_steps: ClassVar[dict[str, str]] = {}

    def reference_counts(self, instance: InstanceT, options: OptionsT) -> dict[str, int]:
        """Every count of :meth:`count_variants` by the reference (a cross-check's reference row): the
        length of :meth:`reference`'s full list for each question; a puzzle whose reference counts
        faster than it lists (one search for all counts, compiled) says so here."""
        return {label: len(self.reference(instance, None, asked)) for label, asked in self.count_variants(options)}

    def search_count(self, instance: InstanceT, seconds: float | None = None, executor: Executor | None = None,
                     until: Deadline = UNLIMITED) -> Searched | tuple[dict[str, int], str] | None:
        """Every count of :meth:`count_variants` (default options) by the puzzle's own solver-free search,
        each solution counted having passed :meth:`check` (or :class:`Searched` saying it was counted
        without being listed), and how it was counted; None when the puzzle
        has no such search, or (with ``seconds``) when it does not end that soon. ``count`` with no
        backend named races it against the backend's count (:meth:`~puzzlesat.pipeline.tasks.Task.count`);
        a cross-check keeps the two apart. With ``executor`` (``count --executor`` without ``--cubes``)
        the search runs its parts as that executor's tasks, until the deadline ``until``."""
        return None

    def search_solution(self, instance: InstanceT, seconds: float | None = None) -> tuple[SolutionT | None, str] | None:
        """A first solution by the puzzle's own solver-free search, having passed :meth:`check`, and
        how it was found; (None, how) when the search ended with none; None when the puzzle has no such
        search, or (with ``seconds``) when it does not end that soon. ``solve`` with no backend named
        races it against the backend (:meth:`~puzzlesat.pipeline.tasks.Satisfy.solve_whole`)."""
        return None

    def other_counts(self) -> dict[str, Callable[[InstanceT, OptionsT], int]]:
        """Solver-free counting methods besides :meth:`reference`, by name, each written from the rules
        and sharing no code with the reference or the encoders (so each is its own family in a
        cross-check by count): ``count(instance, options)`` answers the question of the options, like
        the length of ``reference(instance, None, options)``."""
        return {}

    def reading_notes(self, instance: InstanceT) -> tuple[str, ...]:
        """What reading the instance's file noticed and read past (a formula file's header that
        miscounts its clauses), each one line: said with every answer, as a warning."""
        return ()

    def original_file(self, instance: InstanceT) -> str | None:
        """The file on disk that holds ``instance``'s formula as is (a formula file read unchanged, not
        stdin nor compressed): an outside solver is given it, so that its reading of the file is its
        own, and a cross-check says so (:func:`~puzzlesat.pipeline.plans.reader`); None for a puzzle,
        whose solvers read puzzlesat's encoding."""
        return None

    def parts(self, instance: InstanceT) -> tuple[tuple[str, InstanceT], ...]:
        """The instance's independent parts, each an instance of its own labelled by its answer, where
        one part can have no solution while another has one (amphipod's two burrows); () when the
        instance is one whole. The task solves each part alone and reports each one's status, so that a
        part without a solution does not hide the others' answers (:mod:`puzzlesat.pipeline.parts`)."""
        return ()

    def joined(self, instance: InstanceT, solutions: Sequence[SolutionT]) -> SolutionT:
        """One solution of ``instance`` from the solutions of some of its :meth:`parts`, in part order:
        the solved parts, shown together. Only a puzzle with parts is asked."""
        raise NotImplementedError(f"{self.name} has no parts to join")

    def facts(self, instance: InstanceT, options: OptionsT) -> Facts | None:
        """The puzzle's CNF as labelled facts, for ``explain`` (its shown variables numbered as in the
        ``cnf`` encoding); None where the puzzle cannot explain itself."""
        return None

    def read_marks(self, instance: InstanceT, text: str, path: str) -> dict[Any, bool] | None:
        """A player's marks for ``explain --from`` (:mod:`puzzlesat.deduction.hints`), read from ``text``
        (the file ``path``): each marked cell, named as :meth:`facts` names cells, and whether it holds
        the value a shown variable's truth stands for (an aquarium's water); a file that does not fit the
        puzzle is a :class:`~puzzlesat.core.errors.PuzzleFormatError` naming the line and column. None
        where the puzzle offers no hints (the default)."""
        return None

    def hint_options(self, options: OptionsT) -> OptionsT:
        """The options a hint reasons under (:meth:`hint_facts`, and the encoding that decodes marks that
        solve): by default the explanation's. A puzzle that solves with one solution of each symmetry
        class asks for every solution here: a right mark of a turned layout is right."""
        return options

    def hint_facts(self, instance: InstanceT, options: OptionsT, marks: Mapping[Any, bool]) -> Facts | None:
        """The facts a hint from ``marks`` (:meth:`read_marks`) reasons with, under :meth:`hint_options`
        (numbered as the ``cnf`` encoding of those options, where the marks are a solution): by default
        :meth:`facts`. A puzzle whose facts leave out what no solution has (a tiling's pruned placements)
        keeps the marked ones, so that facts refute them."""
        return self.facts(instance, options)

    def count_variants(self, options: OptionsT) -> tuple[tuple[str, OptionsT], ...]:
        """What ``puzzlesat count`` reports: (answer label, the options of the formula counted) per
        count, made from the request's ``options``; the first one is the count ``--list`` lists."""
        return (("solutions", options),)

    def lower_bounds(self, instance: InstanceT, found: dict[str, int]) -> dict[str, int]:
        """What the numbers of counts stopped side by side (each a lower bound from its own search) say
        together: by default each its own; a puzzle whose counts bound one another raises them (a
        tiling's classes)."""
        return found

    def options(self, **given: Any) -> OptionsT:
        """This puzzle's options from keyword values; a name it does not take is refused in one line."""
        return self.options_type.of(self.name, given)

    def encode(self, instance: InstanceT, kind: str, options: OptionsT | None = None,
               vpool: IDPool | None = None) -> Encoding:
        """The formula of one encoding, stamped with its name and options (what decoders and the
        variable map read back). Its variables come from ``vpool`` (PySAT's habit: the caller's pool,
        so the formula shares a solver with the caller's own clauses), a new pool when None."""
        options = options if options is not None else self.options_type()
        encoding = self.build(instance, kind, options, vpool if vpool is not None else IDPool())
        encoding.name, encoding.options = kind, options
        return encoding

    def formula_kind(self, encoding: str) -> str:
        """``cnf`` or ``smt``: what a backend must accept to take the named encoding."""
        return "smt" if encoding == "smt" else "cnf"

    @abstractmethod
    def parse(self, text: str, path: str, **shape: Any) -> InstanceT:
        """Validate and build the instance; raise ``PuzzleFormatError`` naming line and column."""

    @abstractmethod
    def build(self, instance: InstanceT, kind: str, options: OptionsT, vpool: IDPool) -> Encoding:
        """The formula of the encoding ``kind`` (one of :attr:`encodings`), every CNF variable taken from
        ``vpool``; call it through :meth:`encode`."""

    @abstractmethod
    def decode(self, instance: InstanceT, encoding: Encoding, model: CnfModel | SmtModel) -> SolutionT: ...

    @abstractmethod
    def check(self, instance: InstanceT, solution: SolutionT) -> list[str]:
        """Every broken rule, as readable sentences; empty when the solution is valid."""

    @abstractmethod
    def reference(self, instance: InstanceT, limit: int | None, options: OptionsT | None = None) -> list[SolutionT]:
        """Up to ``limit`` solutions (``None``: all) found without any SAT/SMT solver, for the question
        ``options`` ask (a tiling's ``break_symmetry``: one solution per symmetry class)."""

    @abstractmethod
    def picture(self, instance: InstanceT, solution: SolutionT) -> Picture:
        """The solution drawn for ``--png``/``--svg`` (see :mod:`puzzlesat.formats.picture`)."""
