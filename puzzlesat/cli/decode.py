"""``puzzlesat decode``: read an outside solver's answer to an export, decode it and check it."""

from __future__ import annotations

from typing import Any

import click

from ..core.encoding import Encoding
from ..core.errors import PuzzlesatError
from ..core.files import instance_text, read_text
from ..core.model import CnfModel, SmtModel
from ..core.puzzle import Puzzle
from ..core.result import Status
from ..core.timing import Deadline, Stopwatch
from ..encoders import get_puzzle
from ..formats.answers import Answer, read_answer
from ..formats.dimacs import violated_clause
from ..formats.varmap import formula_digest, read_variable_map, sha256
from ..pipeline.report import Report
from ..pipeline.steps import check_reading, checked_solution, load
from .declared import PuzzleCommand, formula_given, reading_given
from .export import export_options, exported_kind
from .options import (
    check_picture_outputs,
    cnf_options,
    common,
    echo_json,
    encoding_option,
    instance_input,
    json_option,
    picture_options,
    puzzle_argument,
    timeout_option,
    write_pictures,
)
from .verbosity import note


def mapped_encoding(spec: Puzzle[Any, Any, Any], file: str, map_path: str, watch: Stopwatch,
                    given: dict[str, Any]) -> tuple[Any, Encoding]:
    """The instance and the formula an export's variable map pins, rebuilt; a model of another
    instance, or a formula this version builds differently, is refused in one line."""
    varmap = read_variable_map(read_text(map_path), map_path)
    if varmap.puzzle != spec.name:
        raise PuzzlesatError(f"{map_path}: the export is of a {varmap.puzzle} puzzle, not {spec.name}")
    if given and given != varmap.reading:
        raise PuzzlesatError(f"{map_path}: the export was read with {varmap.reading or 'no options'}, not {given}")
    text = instance_text(spec, file)
    if sha256(text) != varmap.instance_sha256:
        raise PuzzlesatError(f"{map_path}: exported from another instance than {file} (its SHA-256 differs)")
    if varmap.encoding not in spec.encodings:
        raise PuzzlesatError(f"{map_path}: {spec.name} has no encoding '{varmap.encoding[:40]}' "
                             f"(it has {', '.join(spec.encodings)})")
    try:
        check_reading(spec, varmap.reading)
        options = spec.options(**varmap.options)
    except PuzzlesatError as exc:
        raise PuzzlesatError(f"{map_path}: {exc}") from None
    instance = load(spec, file, watch, text, **varmap.reading)
    with watch.phase("encode"):
        encoding = spec.encode(instance, varmap.encoding, options)
    if formula_digest(encoding) != varmap.formula_sha256:
        raise PuzzlesatError(f"{map_path}: this version of puzzlesat builds another formula from the same "
                             "instance and options: export again")
    return instance, encoding


def cnf_model(encoding: Encoding, answer: Answer, path: str) -> CnfModel:
    """The literals as a model of the export, checked against its clauses before any decoding."""
    if encoding.kind != "cnf":
        raise PuzzlesatError(f"{path}: a {answer.form} answer, but the export is SMT-LIB")
    bad = [lit for lit in answer.literals if abs(lit) > encoding.num_vars]
    if bad:
        raise PuzzlesatError(f"{answer.where(path, abs(bad[0]))}: literal {bad[0]} is beyond the encoding's {encoding.num_vars} "
                             "variables: not a model of this export")
    broken = violated_clause(encoding.clauses, answer.literals)
    if broken is not None:
        raise PuzzlesatError(f"{path}: the model violates clause {broken + 1} of the export "
                             f"({' '.join(map(str, encoding.clauses[broken][:8]))}"
                             f"{' ...' if len(encoding.clauses[broken]) > 8 else ''} 0)")
    model = CnfModel.from_literals(answer.literals, encoding.num_vars)
    if answer.cost is not None:
        broken_weight = encoding.broken_weight(model)
        if broken_weight != answer.cost:
            raise PuzzlesatError(f"{path}: the cost line says {answer.cost}, but the model breaks soft clauses "
                                 f"weighing {broken_weight}")
    return model


def smt_model(encoding: Encoding, answer: Answer, path: str) -> SmtModel:
    """The solver's values of the solution terms, which must extend to a model of the assertions."""
    import z3

    if encoding.kind != "smt":
        raise PuzzlesatError(f"{path}: an SMT model, but the export is DIMACS")
    terms = {str(term): term for term in encoding.show_terms}
    missing = [name for name in terms if name not in answer.values]
    if missing:
        raise PuzzlesatError(f"{path}: the model gives no value to {missing[0]}: not a model of this export")
    solver = z3.Solver()
    solver.add(*encoding.assertions)
    solver.add(*[term == answer.values[name] for name, term in terms.items()])
    if solver.check() != z3.sat:
        raise PuzzlesatError(f"{path}: the model's values break the export's assertions")
    return SmtModel(solver.model())


@click.command("decode", cls=PuzzleCommand, formula=True, inputs=("file", "model_path", "map_path"))
@common(puzzle_argument, instance_input)
@click.option(
    "--model",
    "model_path",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="What the solver printed: SAT competition, MiniSat's result file, MaxSAT evaluation, model-counting "
         "competition or an SMT-LIB (get-model) answer.",
)
@click.option("--map", "map_path", type=click.Path(dir_okay=False), default=None,
              help="The variable map the export wrote (OUT.vars.json): decode then takes the encoding and its "
                   "options from it, and refuses a model of another instance or encoding.")
@encoding_option
@cnf_options
@json_option
@picture_options
@timeout_option
def command(
    puzzle: str,
    file: str,
    model_path: str,
    map_path: str | None,
    kind: str | None,
    cardinality: str | None,
    pb: str | None,
    as_json: bool,
    png: str | None,
    svg: str | None,
    timeout: Deadline,
) -> None:
    """Decode a solver's answer to the export of FILE, and check it. With --map the export's own choices
    are used; without it, give the export's options again (--encoding, --cardinality, the puzzle's own).

    For amphipod a model of the DIMACS export is a legal plan, checked, but not proven cheapest; a
    MaxSAT solver's answer to --format wcnf is checked against its cost line. For dice a model is one
    universe won by --player, and a model counter's answer to --format mcc is that player's count.

    \b
    Example:
      puzzlesat decode aquarium instances/aquarium/pa-6x6-easy-681742.txt --model a.out --map a.cnf.vars.json
    """
    spec = get_puzzle(puzzle)
    check_picture_outputs(png, svg)
    watch = Stopwatch()
    if map_path is not None:
        formula = [option.spelling for option in spec.formula_options if option.target in formula_given(spec)]
        if kind or cardinality or pb or formula:
            raise PuzzlesatError("--map carries the encoding and its options: drop "
                                 + ", ".join(["--encoding", *formula, "--cardinality", "--pb"]))
        instance, encoding = mapped_encoding(spec, file, map_path, watch, reading_given(spec))
    else:
        instance = load(spec, file, watch, **reading_given(spec))
        with watch.phase("encode"):
            chosen = exported_kind(spec, "dimacs" if kind is None or spec.formula_kind(kind) == "cnf" else "smt2", kind)
            encoding = spec.encode(instance, chosen, export_options(spec, "dimacs", cardinality, pb))
    with watch.phase("parse"):
        answer = read_answer(read_text(model_path), model_path)
    found = answer.status in (Status.SAT, Status.OPTIMAL)
    solution = None
    answers: dict[str, Any] = {}
    if answer.count is not None:
        answers = {"count": answer.count}
    elif found:
        model = smt_model(encoding, answer, model_path) if answer.values else cnf_model(encoding, answer, model_path)
        solution = checked_solution(spec, instance, encoding, model, model_path, watch)
        answers = dict(solution.answers())
        if answer.cost is not None:
            answers["cost"] = answer.cost + encoding.cost_offset
        write_pictures(spec, instance, solution, png, svg)
    report = Report(puzzle, file, f"decode:{model_path}", encoding.name, Status.SAT if found else answer.status,
                    solution, answers, checked=solution is not None, size=encoding.size(), times=watch.times)
    if as_json:
        echo_json(report.to_json() | {"read_as": answer.form, "optimal_claimed": answer.status == Status.OPTIMAL},
                  "report")
    elif answer.count is not None:
        click.echo(f"count: {answer.count} (the counter's word: a count is not checked here)")
    elif solution is not None:
        click.echo(solution.render())
        for warning in report.warnings:
            click.echo(f"warning: {warning}")
        if answer.cost is not None:
            click.echo(f"cost: {answer.cost + encoding.cost_offset} (the model's broken soft clauses agree with "
                       "the solver's cost line" + (f", plus the fixed {encoding.cost_offset}" if encoding.cost_offset
                                                   else "") + ")")
        if answer.status == Status.OPTIMAL:
            click.echo("optimal: the solver says so (OPTIMUM FOUND); not proven here")
        note("checked: yes (independent checker)")
    else:
        click.echo(f"the solver says {answer.status.value}")
        parts = spec.parts(instance)
        if answer.status == Status.UNSAT and parts:
            click.echo(f"the export holds {', '.join(label for label, _ in parts)} in one formula, so at least one "
                       f"of them has no solution: 'puzzlesat solve {puzzle}' solves each alone and says which")
    if not found:
        raise SystemExit(1)
