"""Options shared by several commands, defined once so that they mean the same thing everywhere."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..backends import DEFAULT_BACKEND
from ..core.choices import CARDINALITY_ENCODINGS, PB_ENCODINGS
from ..core.errors import PuzzlesatError, did_you_mean
from ..core.files import write_bytes_atomic, write_text_atomic
from ..core.options import quoted
from ..core.puzzle import Puzzle
from ..core.version import __version__
from ..encoders import builtin_names, puzzle_names
from ..pipeline.request import CERTIFY_MODES

if TYPE_CHECKING:
    from ..pipeline.executors import Executor
    from ..pipeline.report import Report

#: a command's function, and a click decorator that adds options to one
Fn = TypeVar("Fn", bound=Callable[..., Any])
Decorator = Callable[[Fn], Fn]

class PuzzleName(click.Choice[str]):
    """A puzzle name: a built-in one is accepted at once; anything else, and the list shown in help and
    errors, reads the puzzles other packages register (entry points), which only then costs an import."""

    def __init__(self) -> None:
        super().__init__(builtin_names())

    @property
    def choices(self) -> tuple[str, ...]:
        return puzzle_names()

    @choices.setter
    def choices(self, _: object) -> None:
        """Ignored: the names come from :func:`puzzle_names`."""

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        """``PUZZLE``: the names are listed in the help's text (:func:`puzzles_in_words`), the plug-ins
        marked as such, which a ``{a|b|...}`` list in the usage line cannot do."""
        return "PUZZLE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value in builtin_names() or value in self.choices:
            return str(value)
        self.fail(f"'{value}' is not a puzzle.{did_you_mean(str(value), self.choices)} (puzzles: "
                  f"{', '.join(self.choices)})", param, ctx)


def puzzles_in_words() -> str:
    """What PUZZLE may be, for help texts: the built-in puzzles, then the plug-ins installed (each a
    package of its own, named), which a plain install lacks."""
    from ..core.plugins import PUZZLE_GROUP, registered

    builtin = builtin_names()
    points = registered(PUZZLE_GROUP)
    plugins = [f"{name} (from {dist.name})" if (dist := points[name].dist) is not None else name
               for name in puzzle_names() if name not in builtin]
    return (f"PUZZLE is a built-in puzzle ({', '.join(builtin)})"
            + (f" or a plug-in, installed separately: {', '.join(plugins)}." if plugins else "."))


puzzle_argument = click.argument("puzzle", type=PuzzleName())
file_argument = click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def complete_backends(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of backend names (``--backends``: the last of a comma-separated list): every
    registered name and alias, and the prefixes of the families (external:, portfolio:, ...)."""
    from ..backends import aliases, all_backends

    done, _, last = incomplete.rpartition(",")
    names = sorted({b.name for b in all_backends()} | set(aliases())
                   | {"external:", "external-maxsat:", "external-count:", "portfolio:"})
    return [f"{done}," * bool(done) + name for name in names if name.startswith(last)]


backend_option = click.option("--backend", "-b", default=None, shell_complete=complete_backends,
                              help="Solver: pysat:NAME, an alias (cadical, kissat, ...), z3 or external:BINARY. "
                                   f"See 'puzzlesat backends'. Default: {DEFAULT_BACKEND}, or the puzzle's "
                                   "measured fastest ('puzzlesat COMMAND PUZZLE --help' names it).")
encoding_option = click.option("--encoding", "kind", default=None, metavar="KIND",
                               help="Encoding (default: the puzzle's first; 'puzzlesat COMMAND PUZZLE --help' "
                                    "lists them). An encoding the puzzle lacks is refused with the list of its own.")
timeout_option = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                              help="Time limit in seconds of the whole command (reading, encoding, solving, checking); "
                                   "its end is exit code 4.")
class MethodName(click.Choice[str]):
    """An optimisation method's name, read from the methods' registry (:mod:`puzzlesat.pipeline.optimize`)
    only when help or a given name needs it, so that commands that optimise nothing do not import it."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from ..pipeline.optimize import METHODS

        return tuple(METHODS)

    @choices.setter
    def choices(self, _: object) -> None:
        """Ignored: the names come from the registry."""


method_option = click.option("--method", default=None, type=MethodName(),
                             help="Optimisation method of a puzzle that asks for an optimum: RC2 MaxSAT variants, "
                                  "SAT descent under a pseudo-Boolean bound, or Z3 Optimize (with an SMT encoding). "
                                  "Default: the puzzle's own for each encoding.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
certify_option = click.option(
    "--certify", is_flag=False, flag_value="strict", default=None, type=click.Choice(CERTIFY_MODES),
    help="Check a DRAT proof of every UNSAT answer a claim rests on (unique, optimal, a count's last search, no "
         "solution) with puzzlesat's own checker before printing it. The backend must write proofs (PySAT's "
         "CaDiCaL, Glucose, Lingeling, MapleChrono; external:cadical); --certify=best-effort marks the claims of "
         "one that cannot as uncertified instead of refusing it.")
cardinality_option = click.option("--cardinality", default=None,
                                  type=click.Choice(CARDINALITY_ENCODINGS),
                                  help="pysat.card encoding of the CNF's cardinality constraints.")


pb_option = click.option("--pb", default=None,
                         type=click.Choice(PB_ENCODINGS),
                         help="pysat.pb encoding of the CNF's weighted (pseudo-Boolean) constraints.")


def encoder_options(cardinality: str | None, pb: str | None = None) -> dict[str, Any]:
    """Only the options the user set, so each encoder keeps its own measured defaults."""
    chosen = {"cardinality": cardinality, "pb": pb}
    return {key: value for key, value in chosen.items() if value}


def instance_input(fn: Fn) -> Fn:
    """FILE; the options that say how to read it are the puzzle's own (:mod:`.declared`)."""
    return file_argument(fn)


def cnf_options(fn: Fn) -> Fn:
    """``--cardinality`` and ``--pb``: how the CNF encodes counting constraints (export/decode must match)."""
    return cardinality_option(pb_option(fn))


def common(*decorators: Decorator[Fn]) -> Decorator[Fn]:
    def apply(fn: Fn) -> Fn:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn
    return apply


png_option = click.option("--png", type=click.Path(dir_okay=False), default=None,
                          help="Also draw the solution as a PNG picture (the same picture as --svg, labels included).")
svg_option = click.option("--svg", type=click.Path(dir_okay=False), default=None,
                          help="Also draw the solution as an SVG picture.")


def picture_options(fn: Fn) -> Fn:
    """``--png`` and ``--svg``: the same picture of a checked solution, in either format."""
    return png_option(svg_option(fn))


def check_picture_outputs(png: str | None, svg: str | None) -> None:
    """Refuse, before any work, pictures that would overwrite each other (``--svg X --png X`` kept only
    the second) or share stdout with the command's own report (two documents mixed in one stream)."""
    if png and svg and os.path.realpath(png) == os.path.realpath(svg):
        raise PuzzlesatError(f"--png and --svg name the same file ({quoted(png)}): give each its own")
    for flag, path in (("--png", png), ("--svg", svg)):
        if path in ("-", "/dev/stdout") or (path and os.path.realpath(path) == "/proc/self/fd/1"):
            raise PuzzlesatError(f"{flag} {path}: stdout carries the command's report; write the picture to a file")


def write_pictures(puzzle: Puzzle[Any, Any, Any], instance: Any, solution: Any, png: str | None, svg: str | None) -> None:
    """Draw a checked solution into the files asked for (atomically: never a half-written picture)."""
    if not (png or svg):
        return
    from ..formats.picture import to_png, to_svg

    picture = puzzle.picture(instance, solution)
    if png:
        write_bytes_atomic(png, to_png(picture))
    if svg:
        write_text_atomic(svg, to_svg(picture))


def command_executor(spec: str | None) -> Executor:
    """The executor ``--executor`` names (:func:`~puzzlesat.pipeline.executors.executor_for`), closed when
    the command ends, however it ends: a Dask client left open kept its connection and thread for the
    life of the process (a command run in-process, as the tests and the Python API run them)."""
    from ..pipeline.executors import executor_for  # here: a command without one does not pay for it

    engine = executor_for(spec)
    click.get_current_context().call_on_close(engine.close)
    return engine


def backend_list(text: str) -> list[str]:
    """A comma-separated ``--backends`` value; a portfolio inside it joins its members with ``+``."""
    return [name.strip() for name in text.split(",") if name.strip()]


def echo_json(payload: dict[str, Any], schema: str, indent: int | None = 1) -> None:
    """One JSON object, led by its ``schema`` (what shape follows, e.g. ``puzzlesat/report/1``) and the
    ``version`` of puzzlesat that wrote it, so that scripts can check both (``indent`` None: on one line)."""
    import json  # here: the text output, the default, does not pay for it at start-up

    click.echo(json.dumps({"schema": f"puzzlesat/{schema}/1", "version": __version__, **payload}, indent=indent))


def certified_note(report: Report, claim: str) -> str:
    """What backs ``claim`` under --certify, for the text output: '' when --certify is off."""
    if claim not in report.certificates:
        return ""
    certificate = report.certificates[claim]
    return "; " + (certificate.describe() if certificate else "not certified: the backend writes no proof")


def format_seconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"
