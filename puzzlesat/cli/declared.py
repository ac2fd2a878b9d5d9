"""The command line built from what puzzles declare (:mod:`puzzlesat.core.declared`): a command whose
first argument names a puzzle offers that puzzle's reading options (and, for ``export`` and ``decode``,
its formula options) after its own, under a heading of the puzzle's own in ``--help``.

Click needs a command's options before it parses, and which options exist depends on the puzzle named,
so :class:`PuzzleCommand` looks for the puzzle's name among the arguments first (:func:`named_puzzle`:
the first one that is not an option or an option's value) and loads only that puzzle. The values of the
declared options do not reach the command's function as parameters: the command asks
:func:`reading_given` and :func:`formula_given` for them, by keyword, as the puzzle's ``parse`` and
options take them.
"""
from __future__ import annotations

from typing import Any

import click

from ..core.declared import Option
from ..core.errors import PuzzlesatError
from .supervised import SupervisedCommand

#: where a command's context keeps the puzzle its arguments name, and the declared options' values
_PUZZLE, _READING, _FORMULA = "puzzlesat.puzzle", "puzzlesat.reading", "puzzlesat.formula"


class DeclaredOption(click.Option):
    """A click option made from a puzzle's :class:`~puzzlesat.core.declared.Option`."""

    def __init__(self, declared: Option, kind: str, heading: str) -> None:
        self.declared, self.kind, self.heading = declared, kind, heading
        attributes: dict[str, Any] = {"help": declared.help, "required": declared.required,
                                      "metavar": _METAVARS.get(declared.type) if not declared.choices else
                                      "[" + "|".join(map(str, declared.choices)) + "]"}
        if declared.type is bool:
            attributes |= {"is_flag": True, "flag_value": not declared.default, "default": None}
        else:
            attributes |= {"type": click_type(declared), "show_default": declared.default is not None}
            if declared.default is not None:  # (click 8.3 on takes an explicit default None for a value given,
                attributes["default"] = declared.default  # so a required option left out went unnoticed)
        super().__init__([declared.spelling, f"{_declared_prefix(kind)}{declared.name}"], **attributes)


#: what a person writes for a declared option's value (the option's own name, ``declared_generator__size``,
#: showed in the reference as its placeholder)
_METAVARS: dict[type, str] = {int: "N", float: "X", str: "TEXT"}


def _declared_prefix(kind: str) -> str:
    return f"declared_{kind}__"


def click_type(option: Option) -> click.ParamType[Any]:
    """The click type that checks a declared option's values as it declares them."""
    if option.choices:
        return click.Choice([str(choice) for choice in option.choices]) if option.type is str else \
            click.Choice(option.choices)
    if option.type is int:
        return click.IntRange(None if option.minimum is None else int(option.minimum),
                              None if option.maximum is None else int(option.maximum))
    if option.type is float:
        return click.FloatRange(option.minimum, option.maximum, max_open=option.below_maximum)
    return click.STRING


def declared_params(puzzle_name: str, formula: bool) -> list[DeclaredOption]:
    """The click options of the puzzle named: its reading options, and its formula options when asked."""
    from ..encoders import get_puzzle

    puzzle = get_puzzle(puzzle_name)
    heading = f"Options of {puzzle.name}"
    params = [DeclaredOption(option, "reading", heading) for option in puzzle.reading_options]
    if formula:
        params += [DeclaredOption(option, "formula", heading) for option in puzzle.formula_options]
    return params


def named_puzzle(command: click.Command, args: list[str]) -> str | None:
    """The puzzle the arguments name: the first argument that is neither an option of ``command`` nor the
    value of one (an option the command does not know, a puzzle's own, is taken to come after the name)."""
    takes_value = {name for param in command.params if isinstance(param, click.Option)
                   and not param.is_flag and not param.count for name in param.opts + param.secondary_opts}
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            return next(tokens, None)
        if token.startswith("-") and token != "-":
            if "=" not in token and token in takes_value:
                next(tokens, None)
            continue
        return token
    return None


class PuzzleCommand(SupervisedCommand):
    """A supervised command whose arguments name a puzzle, with that puzzle's declared options
    (``formula=True``: its formula options too, for ``export`` and ``decode``)."""

    def __init__(self, *args: Any, formula: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.formula = formula

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_PUZZLE] = named_puzzle(self, args)
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            raise _not_this_puzzles(exc, ctx.meta[_PUZZLE]) from exc

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        name = ctx.meta.get(_PUZZLE)
        if not name:
            return params
        try:
            declared: list[click.Parameter] = list(declared_params(name, self.formula))
        except PuzzlesatError:  # an unknown puzzle: the PUZZLE argument refuses it, with the list
            return params
        help_options = [param for param in params if param.name == "help"]
        return [param for param in params if param.name != "help"] + declared + help_options

    def invoke(self, ctx: click.Context) -> Any:
        for kind, key in (("reading", _READING), ("formula", _FORMULA)):
            prefix = _declared_prefix(kind)
            ctx.meta[key] = {name[len(prefix):]: ctx.params.pop(name) for name in list(ctx.params)
                             if name.startswith(prefix)}
        return super().invoke(ctx)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """After the options, with a puzzle named: its encodings, default backend and whether it offers
        ``--forced``, which the shared options' help leaves to the puzzle."""
        super().format_epilog(ctx, formatter)
        from ..backends import DEFAULT_BACKEND
        from ..encoders import get_puzzle

        name = ctx.meta.get(_PUZZLE)
        try:
            puzzle = get_puzzle(name) if name else None
        except PuzzlesatError:
            return
        if puzzle is not None:
            rows = [("encodings", f"{', '.join(puzzle.encodings)} (--encoding; default {puzzle.encodings[0]})"),
                    ("default backend", (puzzle.count_backend if self.name == "count" else None)
                     or puzzle.default_backend or DEFAULT_BACKEND)]
            if any(param.name == "forced" for param in self.params):
                rows.append(("--forced", "offered: what every solution shares" if puzzle.offers_forced
                             else "not offered"))
            if "method" in puzzle.task.options and any(param.name == "method" for param in self.params):
                from ..pipeline.optimize import METHODS

                rows += [(f"--method {method.name}", method.description) for method in METHODS.values()]
            with formatter.section(f"About {puzzle.name}"):
                formatter.write_dl(rows)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help_text(ctx, formatter)
        if not ctx.meta.get(_PUZZLE):
            from .options import puzzles_in_words  # here: options imports what a command needs, this does not

            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(puzzles_in_words())
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(f"Each puzzle's own options (how its files are read{', its formula' * self.formula}) "
                                     f"are listed by 'puzzlesat {self.name} PUZZLE --help'.")


def _not_this_puzzles(exc: click.NoSuchOption, puzzle: str | None) -> click.ClickException:
    """An option that another puzzle declares, given with this one: said so (else click's own message,
    with its suggestions)."""
    if puzzle is None:
        return exc
    from ..encoders import get_puzzle, puzzle_names

    for name in puzzle_names():
        try:
            other = get_puzzle(name)
        except PuzzlesatError:
            continue
        if any(option.spelling == exc.option_name for option in other.reading_options + other.formula_options):
            return click.UsageError(f"{exc.option_name} does not apply to {puzzle}")
    return exc


def _values(key: str, declared: tuple[Option, ...]) -> dict[str, Any]:
    given = click.get_current_context().meta.get(key, {})
    return {option.target: option.value(given[option.name]) for option in declared
            if given.get(option.name) is not None}


def reading_given(puzzle: Any) -> dict[str, Any]:
    """The reading options given on the command line, by ``parse``'s keywords (only those set: each
    puzzle keeps its own defaults)."""
    return _values(_READING, puzzle.reading_options)


def formula_given(puzzle: Any) -> dict[str, Any]:
    """The formula options given on the command line, by the keywords of the puzzle's options."""
    return _values(_FORMULA, puzzle.formula_options)
