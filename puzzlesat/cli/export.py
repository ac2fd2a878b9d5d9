"""``puzzlesat export``: the encoding as DIMACS, WCNF, model-counting DIMACS or SMT-LIB2, with a variable map."""

from __future__ import annotations

from typing import Any

import click

from ..core.encoding import Encoding
from ..core.errors import PuzzlesatError
from ..core.files import instance_text, publish, write_text_atomic, writes_a_file
from ..core.options import EncoderOptions
from ..core.puzzle import Puzzle
from ..core.timing import Deadline, Stopwatch
from ..encoders import get_puzzle
from ..formats.dimacs import to_dimacs, to_mcc, to_wcnf
from ..formats.smt2 import to_smt2
from ..formats.varmap import variable_map_json
from ..pipeline.steps import load
from .declared import PuzzleCommand, formula_given, reading_given
from .options import (
    cnf_options,
    common,
    encoder_options,
    encoding_option,
    instance_input,
    puzzle_argument,
    timeout_option,
)
from .verbosity import note

#: export formats -> the formula kind they carry
FORMATS = {"dimacs": "cnf", "wcnf": "cnf", "wcnf-old": "cnf", "mcc": "cnf", "smt2": "smt"}


def exported_kind(spec: Puzzle[Any, Any, Any], fmt: str, kind: str | None) -> str:
    """The encoding a format carries: the one asked for, else the puzzle's first of the right formula
    kind. ``decode`` calls this too, when it has no variable map to read the encoding from."""
    wanted = FORMATS[fmt]
    kind = kind or next((k for k in spec.encodings if spec.formula_kind(k) == wanted), spec.encodings[0])
    if kind not in spec.encodings or spec.formula_kind(kind) != wanted:
        raise PuzzlesatError(f"--format {fmt} does not fit {spec.name}'s {kind} encoding "
                             f"(it has: {', '.join(spec.encodings)})")
    return kind


def export_options(spec: Puzzle[Any, Any, Any], fmt: str, cardinality: str | None, pb: str | None) -> EncoderOptions:
    """Encoder options of an export (and of a decode without a variable map): the CNF's counting
    encodings, and the formula options the puzzle declares (which formula: dice's player, a tiling's
    symmetry breaking) as the command line gave them."""
    options = encoder_options(cardinality, pb) if FORMATS[fmt] == "cnf" else {}
    chosen: EncoderOptions = spec.options(**options, **formula_given(spec))
    return chosen


def formatted(fmt: str, encoding: Encoding, title: str) -> str:
    """The export's text in format ``fmt``."""
    if fmt == "smt2":
        return to_smt2(encoding, title)
    if fmt in ("wcnf", "wcnf-old"):
        return to_wcnf(encoding, title, old_format=fmt == "wcnf-old")
    return to_mcc(encoding, title, export=True) if fmt == "mcc" else to_dimacs(encoding, title, export=True)


@click.command("export", cls=PuzzleCommand, formula=True)
@common(puzzle_argument, instance_input)
@click.option(
    "-o",
    "--output",
    default="-",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Output file (default '-': stdout, as a pipe into a solver takes it). A file gets its variable map "
         "beside it, OUT.vars.json.",
)
@click.option("--format", "fmt", default="dimacs", show_default=True,
              help="dimacs (SAT), wcnf (MaxSAT, 2022 format: an optimisation puzzle's soft clauses), wcnf-old (the 'p wcnf' "
                   "format of clasp and older solvers), mcc (model counting competition), smt2 (SMT-LIB); or the puzzle "
                   "itself in a spelling it declares for other tools (url: a puzz.link URL, where the puzzle has one).")
@encoding_option
@cnf_options
@timeout_option
def command(
    puzzle: str,
    file: str,
    output: str,
    fmt: str,
    kind: str | None,
    cardinality: str | None,
    pb: str | None,
    timeout: Deadline,
) -> None:
    """Write the encoding of FILE for an external solver, with a variable map (OUT.vars.json) that
    names every variable and pins the instance and options, so that 'decode' can read the answer back.

    \b
    Example:
      puzzlesat export aquarium instances/aquarium/pa-6x6-easy-681742.txt -o a.cnf
      cadical a.cnf > a.out
      puzzlesat decode aquarium instances/aquarium/pa-6x6-easy-681742.txt --model a.out --map a.cnf.vars.json
      puzzlesat export dice instances/aoc/2021-21/example.txt --format mcc --player 2 -o p2.cnf
      puzzlesat export amphipod instances/aoc/2021-23/example.txt --format wcnf -o burrow.wcnf
    """
    spec = get_puzzle(puzzle)
    if fmt not in FORMATS and fmt not in spec.spellings:
        raise click.BadParameter(f"'{fmt}' is not one of {', '.join([*FORMATS, *spec.spellings])} (for {puzzle})",
                                 param_hint="'--format'")
    watch = Stopwatch()
    text, chosen = instance_text(spec, file), reading_given(spec)
    instance = load(spec, file, watch, text, **chosen)
    if fmt in spec.spellings:  # the puzzle itself, not a formula: no variable map
        write_text_atomic(output, spec.spell(instance, fmt) + "\n")
        return
    kind = exported_kind(spec, fmt, kind)
    with watch.phase("encode"):
        encoding = spec.encode(instance, kind, export_options(spec, fmt, cardinality, pb))
    if fmt.startswith("wcnf") and not encoding.soft:
        raise PuzzlesatError(f"--format {fmt}: {puzzle}'s {kind} encoding has no soft clauses (nothing to optimise)")
    exported = formatted(fmt, encoding, f"puzzlesat {puzzle} {file}")
    if writes_a_file(output):  # the map goes beside a file, not beside a device or pipe
        varmap = variable_map_json(encoding, puzzle, file, text, chosen, fmt)
        publish([(output, exported.encode()), (output + ".vars.json", varmap.encode())])
    else:
        write_text_atomic(output, exported)
    if output != "-":
        sizes = ", ".join(f"{v} {k}" for k, v in encoding.size().items())
        note(f"wrote {output} ({fmt}: {sizes})", err=True)
