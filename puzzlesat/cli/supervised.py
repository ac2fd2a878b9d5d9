"""How every command ends: one line on stderr and a documented exit code, under hard limits.

:class:`SupervisedCommand` is the click command class of every command that does real work: it adds
``--max-memory`` and runs the command in a supervised worker (:mod:`puzzlesat.processes.supervisor`) whose
time limit is the command's ``--timeout`` (crosscheck and bench, whose ``--timeout`` is per method or
per run, have no whole-command limit). :func:`run_reported` maps every way a command can end to its
message and exit code (docs/limits.md, "Limits, signals and exit codes").
"""
from __future__ import annotations

import errno
import os
import re
import sys
import traceback
from collections.abc import Callable
from typing import Any

import click

from ..core import timing
from ..core.errors import (
    EXIT_BROKEN_PIPE,
    EXIT_DISK_FULL,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OUT_OF_MEMORY,
    EXIT_TIMEOUT,
    PuzzlesatError,
    SolverTimeout,
)
from ..core.files import preload_stdin
from ..core.reporting import (
    Limits,
    announce_said,
    current_phase,
    current_progress,
    follow_phases,
    format_bytes,
    in_worker,
    limit_message,
)
from ..core.timing import Deadline
from ..processes.supervisor import supervise
from .grouped_help import format_grouped_options
from .verbosity import NORMAL, VERBOSE, add_options, phase_printer, take

_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def escaped(text: str) -> str:
    """``text`` safe for a terminal: control characters (escape sequences, CR, ...) from the input are
    shown as ``\\xNN``, never sent raw; only newlines stay (click's usage text has them)."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def fail(message: str) -> None:
    """Print one error line (its control characters and line breaks escaped)."""
    # on a terminal, from the start of a clean line: a worker killed mid status line (progress.py)
    # leaves it drawn, and the supervisor's message must not run on from it
    wipe = "\r\x1b[K" if sys.stderr.isatty() else ""
    announce_said()  # first: a signal from now on lets the worker end with this line, adding none
    click.echo(f"{wipe}puzzlesat: error: {escaped(message).replace(chr(10), ' ')}", err=True)


def fail_usage(exc: click.ClickException) -> int:
    """Click's own errors (a bad option value, a missing argument) as one line, with the way to help."""
    message = " ".join(exc.format_message().split())  # click lays out choices with tabs and line breaks
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        message += f" (see '{exc.ctx.command_path} --help')"
    fail(message)
    return exc.exit_code


def run_reported(work: Callable[[], Any]) -> int:
    """Run ``work`` and return the exit code, after printing the one-line message of any failure."""
    try:
        work()
        sys.stdout.flush()  # a full disk or a closed pipe shows here, while it can still be reported
        return 0
    except SystemExit as exc:
        sys.stdout.flush()
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except SolverTimeout as exc:
        fail(limit_message(exc.backend, str(exc)))
        return exc.exit_code
    except PuzzlesatError as exc:
        fail(str(exc))
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        return fail_usage(exc)
    except click.exceptions.Abort:
        fail("aborted")
        return 1
    except KeyboardInterrupt:
        fail("interrupted")
        return EXIT_INTERRUPTED
    except MemoryError:
        if in_worker():  # end at once, making nothing: the supervisor says it
            raise
        # said below, once this handler has let go of the traceback and the memory its frames hold
    except BrokenPipeError:  # `puzzlesat ... | head`: the reader has what it wanted; end as Unix tools do
        _silence_stdout()
        announce_said()  # nothing to say, and the supervisor is to add nothing either
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            return _internal(exc)
        _silence_stdout()
        fail("cannot write the output: no space left on the device")
        return EXIT_DISK_FULL
    except Exception as exc:  # a bug: still one line, with PUZZLESAT_DEBUG=1 for the traceback
        return _internal(exc)
    fail("out of memory")  # reached only from the MemoryError handler (unsupervised: no cap to name)
    return EXIT_OUT_OF_MEMORY


def _internal(exc: Exception) -> int:
    if os.environ.get("PUZZLESAT_DEBUG"):
        traceback.print_exception(exc)
        return EXIT_INTERNAL
    fail(f"internal error: {type(exc).__name__}: {exc} (set PUZZLESAT_DEBUG=1 for details)")
    return EXIT_INTERNAL


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of a broken or full stdout
    does not print a second error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _doing() -> str:
    """What the status line says the command is doing: its phase, and how far it has come."""
    progress = current_progress()
    return f"{current_phase()} phase" + (f", {progress}" if progress else "")


class MemorySize(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click stubs
    """A byte count such as ``4G``, ``512M`` or ``100000000``, or ``none`` for no cap."""

    name = "size"
    _UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | None:
        if isinstance(value, int) or value is None:
            return value
        text = str(value).strip().upper().removesuffix("B").removesuffix("I")
        if text == "NONE":
            return None
        match = re.fullmatch(r"(\d{1,15}(?:\.\d{1,6})?)([KMGT]?)", text)
        if not match or float(match.group(1)) * self._UNITS[match.group(2)] < 64 << 20:
            self.fail(f"{value!r} is not a memory size of at least 64M (e.g. 512M, 4G, none)", param, ctx)
        return int(float(match.group(1)) * self._UNITS[match.group(2)])


def default_memory() -> int | None:
    """Half the machine's memory: room for the worker and a solver child at once, never swapping."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return None


def import_limits(args: list[str]) -> tuple[float | None, int | None]:
    """The time and memory a plug-in's import may take in the supervisor (:mod:`puzzlesat.core.plugins`):
    the command's ``--timeout`` and ``--max-memory`` as its arguments give them (read before click
    parses them, which needs the plug-in's options first), else no time limit and the default cap. A
    value that does not parse is click's to refuse later: the default is taken here."""
    values: dict[str, str] = {}
    for at, token in enumerate(args):
        name, equals, value = token.partition("=")
        if name in ("--timeout", "--max-memory"):
            values[name] = value if equals else (args[at + 1] if at + 1 < len(args) else "")
    try:
        seconds = float(values["--timeout"]) if "--timeout" in values else None
    except ValueError:
        seconds = None
    try:
        memory = MemorySize().convert(values.get("--max-memory", default_memory()), None, None)
    except click.BadParameter:
        memory = default_memory()
    return (seconds if seconds is None or seconds > 0 else None), within_hard_limit(memory)[0]


def within_hard_limit(memory: int | None) -> tuple[int | None, bool]:
    """``memory`` lowered to the hard address-space limit the command was started under, and whether
    it was: a worker may not raise its cap past that limit (setrlimit refuses, and every command
    ended with exit 3 under a ``ulimit -v`` below the default cap)."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or (memory is not None and memory <= hard):
        return memory, False
    return hard, True


class SupervisedCommand(click.Command):
    """A command run in a supervised worker; ``deadline`` names the parameter whose value bounds the
    whole command (``None``: no whole-command limit), ``inputs`` those that may read stdin (``-``).
    The command receives that parameter as the :class:`Deadline` made as the worker starts, the one
    time limit it passes down (the supervisor kills the worker a grace period after the same limit)."""

    def __init__(self, *args: Any, deadline: str | None = "timeout", inputs: tuple[str, ...] = ("file",),
                 progress: bool = True, limit_answer: Callable[[dict[str, Any]], tuple[str, int] | None] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: what the command prints and exits with, given its parameters, when the supervisor ends it at
        #: the time limit (a competition solver's 's UNKNOWN' and 0, wherever the limit strikes);
        #: None: the limit's one line and exit 4
        self.limit_answer = limit_answer
        self.deadline = deadline
        self.inputs = inputs
        self.progress = progress
        memory = default_memory()
        self.params.append(click.Option(
            ["--max-memory"], type=MemorySize(), default=memory, metavar="SIZE",
            show_default="half the machine's memory" if memory else "none",
            help="Memory cap of the command (address space of each of its processes), e.g. 2G; 'none': no cap."))
        if progress:
            self.params.append(click.Option(
                ["--progress-json"], is_flag=True,
                help='Also write how far the command has come on stderr, a JSON line every half second '
                     '({"progress": {"command", "phase", "done", "seconds"}}), for a program that shows it.'))
        add_options(self)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        format_grouped_options(self, ctx, formatter)

    def _spelling(self, name: str) -> str:
        """How the parameter ``name`` is written on the command line (an argument: its name in capitals)."""
        param = next(param for param in self.params if param.name == name)
        return name.upper() if isinstance(param, click.Argument) else param.opts[0]

    def invoke(self, ctx: click.Context) -> Any:
        memory = ctx.params.pop("max_memory")
        progress_json = ctx.params.pop("progress_json", False)
        verbosity = take(ctx)
        seconds = ctx.params.get(self.deadline) if self.deadline else None
        from_stdin = [name for name in self.inputs if ctx.params.get(name) == "-"]
        if len(from_stdin) > 1:  # the second would read nothing and blame its empty text
            first, second = (self._spelling(name) for name in from_stdin[:2])
            raise PuzzlesatError(f"stdin (-) is given for both {first} and {second}: it can be read once; give one "
                                 "of them as a file")
        if from_stdin and sys.stdin is not None and sys.stdin.isatty():
            preload_stdin()  # typed at a terminal, which a worker in its own process group cannot read
        memory, lowered = within_hard_limit(memory)
        if lowered and memory is not None and verbosity == VERBOSE:
            click.echo(f"--max-memory lowered to {format_bytes(memory)}: the hard address-space limit this command "
                       "runs under (ulimit -v)", err=True)
        start = timing.PROCESS_START  # the limit counts from the process's start, start-up included
        limits = Limits(seconds, memory, start=start)
        if self.deadline:  # from the same start as the supervisor's limit: it never ends after it
            ctx.params[self.deadline] = Deadline.after(seconds, start)
        # a status line on a terminal (progress.py), unless the output is a record printed as it comes
        status = (self.progress and verbosity == NORMAL
                  and not any(ctx.params.get(name) for name in ("as_json", "jsonl", "list_all")))
        answer = self.limit_answer(ctx.params) if self.limit_answer is not None else None
        code = supervise(lambda: run_reported(lambda: self._run(ctx, status, verbosity == VERBOSE, progress_json)),
                         limits, fail)
        if code == EXIT_TIMEOUT and answer is not None:
            click.echo(answer[0])
            code = answer[1]
        if code:
            raise SystemExit(code)

    def _run(self, ctx: click.Context, status: bool, verbose: bool, progress_json: bool) -> Any:
        if verbose:
            follow_phases(phase_printer())
        line = reporting = None
        if status:
            from .progress import shown_while  # here: a command in a pipe pays nothing for it

            line = shown_while(self.name or "puzzlesat", _doing)
        if progress_json:
            from .progress import reported_while

            reporting = reported_while(self.name or "puzzlesat", current_phase, current_progress)
        try:
            return click.Command.invoke(self, ctx)
        finally:
            if line is not None:
                line.clear()
            if reporting is not None:
                reporting.set()
