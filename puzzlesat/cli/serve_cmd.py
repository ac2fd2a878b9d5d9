"""``puzzlesat serve``: the web app on this machine (:mod:`puzzlesat.web`)."""
from __future__ import annotations

import click

from ..core.errors import PuzzlesatError
from .supervised import MemorySize
from .verbosity import VerboseCommand, note

#: the address the server listens on unless --host says otherwise: this machine only
LOCAL = "127.0.0.1"
#: seconds a stopped server waits for the requests it is answering before it cancels them (their jobs'
#: processes killed): a followed count streams until its limit, and uvicorn waits for it by default
SHUTDOWN_GRACE = 1


@click.command("serve", cls=VerboseCommand)
@click.option("--host", default=LOCAL, show_default=True,
              help="The address to listen on; another than 127.0.0.1 lets other machines in (a warning says so).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Jobs that run at once; a request past them is refused with 503 and Retry-After.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              help="Each job's time limit in seconds (a request may ask for less, never more).")
@click.option("--max-memory", "memory", type=MemorySize(), default="2G", show_default=True, metavar="SIZE",
              help="Each job's memory cap (as a command's --max-memory).")
def command(host: str, port: int, jobs: int, timeout: float, memory: int | None) -> None:
    """Serve puzzlesat in a browser: paste a puzzle, see it solved and checked, ask for a hint from your
    own marks. Every answer is a job of the command line (solve --json, count --json, crosscheck --jsonl,
    explain --json, explain --from --json) under the limits given here. Open the address it prints
    (http://127.0.0.1:8000/ by default); Ctrl-C stops it, and the jobs still running with it.
    Needs the web extra: pip install 'puzzlesat[web]'.
    """
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.jobs import Jobs
    except ImportError as missing:
        raise PuzzlesatError(f"puzzlesat serve needs the web extra ({missing.name} is not installed): pip install "
                             "'puzzlesat[web]'") from None
    if host != LOCAL:
        note(f"puzzlesat: warning: listening on {host}: other machines can reach this server", err=True)
    app = create_app(Jobs(jobs, timeout, "none" if memory is None else str(memory)))
    note(f"puzzlesat serve: http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_GRACE)
