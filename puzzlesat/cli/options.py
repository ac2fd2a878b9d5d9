"""Options shared by several commands, defined once so that they mean the same thing everywhere."""
from __future__ import annotations

import json
from typing import Any, Callable

import click

from ..backends.base import DEFAULT_BACKEND
from ..encoders import PUZZLES

puzzle_argument = click.argument("puzzle", type=click.Choice(PUZZLES))
file_argument = click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
rows_option = click.option("--rows", type=click.IntRange(min=1), default=None,
                           help="Grid rows, for inputs that do not say (a rectangular jigsaw).")
cols_option = click.option("--cols", type=click.IntRange(min=1), default=None,
                           help="Grid columns, for inputs that do not say (a rectangular jigsaw).")
backend_option = click.option("--backend", "-b", default=DEFAULT_BACKEND, show_default=True,
                              help="Solver: pysat:NAME, an alias (cadical, kissat, ...), z3 or external:BINARY. "
                                   "See 'puzzlesat backends'.")
encoding_option = click.option("--encoding", "kind", type=click.Choice(["cnf", "smt"]), default=None,
                               help="Encoding kind (default: the puzzle's first, cnf).")
timeout_option = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                              help="Overall solver time limit in seconds.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
cardinality_option = click.option("--cardinality", default=None,
                                  type=click.Choice(["seqcounter", "totalizer", "sortnetwrk", "cardnetwrk",
                                                     "mtotalizer", "kmtotalizer"]),
                                  help="pysat.card encoding of the CNF's cardinality constraints.")


pb_option = click.option("--pb", default=None,
                         type=click.Choice(["bdd", "binmerge", "seqcounter", "sortnetwrk", "totalizer", "adder", "best"]),
                         help="pysat.pb encoding of the CNF's weighted (pseudo-Boolean) constraints.")


def encoder_options(cardinality: str | None, pb: str | None = None) -> dict[str, Any]:
    """Only the options the user set, so each encoder keeps its own measured defaults."""
    chosen = {"cardinality": cardinality, "pb": pb}
    return {key: value for key, value in chosen.items() if value}


def instance_input(fn: Callable) -> Callable:
    """FILE plus the optional grid shape (``--rows``/``--cols``) used to read it."""
    return file_argument(rows_option(cols_option(fn)))


def shape(rows: int | None, cols: int | None) -> dict[str, int]:
    """Only the shape options the user set."""
    return {key: value for key, value in (("rows", rows), ("cols", cols)) if value is not None}


def cnf_options(fn: Callable) -> Callable:
    """``--cardinality`` and ``--pb``: how the CNF encodes counting constraints (export/decode must match)."""
    return cardinality_option(pb_option(fn))


def common(*decorators: Callable) -> Callable:
    def apply(fn: Callable) -> Callable:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn
    return apply


def echo_json(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=1))


def format_seconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"
