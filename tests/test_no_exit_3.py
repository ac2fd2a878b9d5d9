"""No command ends in exit 3 from the command line (issue 70, item 2): every command and subcommand
click declares, with no arguments, with ``--help``, with each required option left out and with a
value of the wrong type for each typed option (the puzzles' declared ones too), is a usage error (exit 2)
or a documented code, never "internal error". ``generate aquarium`` with no ``--size`` was exit 3."""
from __future__ import annotations

from collections.abc import Iterator

import click
import pytest

from puzzlesat.cli import main
from puzzlesat.core.errors import EXIT_INTERNAL


def commands() -> Iterator[tuple[list[str], click.Command]]:
    """Every command click declares, with the words that name it (generate's subcommands too)."""
    top = click.Context(main, info_name="puzzlesat")
    for name in main.list_commands(top):
        command = main.get_command(top, name)
        assert command is not None
        yield [name], command
        if isinstance(command, click.Group):
            inner = click.Context(command, parent=top, info_name=name)
            for sub in command.list_commands(inner):
                found = command.get_command(inner, sub)
                assert found is not None
                yield [name, sub], found


COMMANDS = list(commands())
IDS = [" ".join(words) for words, _ in COMMANDS]
#: what a wrong-typed value is for each kind of typed option
WRONG = "not-a-value"


def typed_options(command: click.Command) -> list[click.Option]:
    """The options whose values click converts (numbers, choices, sizes): a string of letters is wrong
    for each."""
    return [param for param in command.params if isinstance(param, click.Option) and not param.is_flag
            and not isinstance(param.type, (click.types.StringParamType, click.Path))]


@pytest.mark.parametrize("words, command", COMMANDS, ids=IDS)
def test_help_and_no_arguments_are_never_exit_3(run_cli, words, command):
    code, out, _ = run_cli(*words, "--help")
    assert code == 0 and "Usage:" in out
    if words in (["bench"], ["serve"]):  # with no arguments they benchmark everything (minutes) and serve until
        return                            # stopped: their options are below
    code, _, err = run_cli(*words)
    assert code != EXIT_INTERNAL and "internal error" not in err, err


@pytest.mark.parametrize("words, command", COMMANDS, ids=IDS)
def test_a_wrong_typed_value_is_a_usage_error(run_cli, words, command):
    for option in typed_options(command):
        code, _, err = run_cli(*words, option.opts[0], WRONG)
        assert code == 2 and err.count("\n") == 1 and "internal error" not in err, (option.opts, err)


@pytest.mark.parametrize("words, command", [(w, c) for w, c in COMMANDS if any(
    isinstance(p, click.Option) and p.required for p in c.params)], ids=lambda value: " ".join(value)
    if isinstance(value, list) else "")
def test_each_required_option_left_out_is_a_usage_error(run_cli, words, command):
    required = [param for param in command.params if isinstance(param, click.Option) and param.required]
    arguments = {"puzzle": "aquarium", "file": "instances/aquarium/pa-6x6-easy-681742.txt"}
    positional = [arguments[param.name or ""] for param in command.params if isinstance(param, click.Argument)]
    for left_out in required:
        given = [part for option in required if option is not left_out for part in (option.opts[0], "3")]
        code, _, err = run_cli(*words, *positional, *given)
        assert code == 2 and f"Missing option '{left_out.opts[0]}'" in err, err


def puzzle_commands() -> list[tuple[str, str]]:
    from puzzlesat.encoders import puzzle_names

    takes_puzzle = [words[0] for words, command in COMMANDS if any(
        isinstance(param, click.Argument) and param.name == "puzzle" for param in command.params)]
    return [(name, puzzle) for name in takes_puzzle for puzzle in puzzle_names()]


@pytest.mark.parametrize("name, puzzle", puzzle_commands())
def test_a_puzzles_declared_options_take_wrong_values_as_usage_errors(run_cli, name, puzzle):
    from puzzlesat.cli.declared import declared_params

    for option in declared_params(puzzle, formula=name in ("export", "decode")):
        if option.is_flag or isinstance(option.type, (click.types.StringParamType, click.Path)):
            continue
        code, _, err = run_cli(name, puzzle, "instances/aquarium/pa-6x6-easy-681742.txt", option.opts[0], WRONG)
        assert code == 2 and "internal error" not in err, (option.opts, err)
    code, _, err = run_cli(name, puzzle)  # the file left out
    assert code == 2 and "internal error" not in err, err
