"""The web app: the page, and the JSON API under it.

``POST /api/solve`` takes ``{"puzzle": NAME, "text": TEXT_OR_URL, "backend": NAME?, "forced": true?,
"timeout": S?}`` and answers with the object ``puzzlesat solve --json`` prints (``--forced``'s with
``forced``; schema report-1.json) plus ``"svg"`` (the
solution's picture, where the puzzle draws one); ``POST /api/hint`` takes ``{"puzzle", "text", "marks"}``
and answers with ``explain --from --json``'s object (hint-1.json) plus its ``"svg"``; ``POST
/api/explain`` (``{"puzzle", "text", "certify"?: true}``) with ``explain --json``'s (explain-1.json;
``--certify``'s with ``certify``) and the steps' picture;
``POST /api/export`` (``{"puzzle", "text", "format"}``) with ``{"text": THE FILE, "map": ITS VARIABLE
MAP}`` as ``export --format FORMAT -o FILE`` writes them.

Two jobs are followed as they run: ``POST /api/count`` (``{"puzzle", "text", "backend"?}``) and ``POST
/api/crosscheck`` (``{"puzzle", "text", "backends"?: [NAME, ...], "count"?: true}``) answer with JSON
lines (``application/x-ndjson``): first ``{"job": NAME}``, then ``{"progress": {...}}`` about twice a
second (and each cross-check row as its method finishes, ``{"row": {...}}``), and last ``{"result":
OBJECT}``, the object ``count --json`` or ``crosscheck --json`` prints (or ``{"error": LINE, "exit_code":
N}``). ``POST /api/stop`` with ``{"job": NAME}`` stops that job as Ctrl-C stops the command: its last line
then holds what it had found (``"stopped"``). A command's one-line
error is ``{"error": LINE, "exit_code": N}`` with status 400 (bad input) or 500 (a fault of ours); a
command stopped by its limit answers 200 with what it had found (``stopped``), as the command line does.

Safe by default: the server listens on 127.0.0.1; it reads no path a request names (the text comes in the
request); a body over :data:`MAX_BODY` is refused with 413, a compressed one with 415; a POST from another origin with 403; every
job runs under the server's time and memory limits (a request may only lower the time); past ``jobs``
running at once, 503 with ``Retry-After``; a job whose client goes away is stopped; only the backends
``puzzlesat backends`` lists as available and built in may be named (an ``external:`` backend would run a
program of the request's choosing).
"""
from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..backends import available_backends
from ..encoders import get_puzzle, puzzle_names
from .jobs import Busy, Finished, Jobs, Reservation

#: the largest request body accepted, in bytes (the largest bundled instance is some 20 KB)
MAX_BODY = 1 << 20
#: seconds a client is told to wait before asking again when every job slot is taken
RETRY_AFTER = 2
#: how often a running job looks whether its client is still there, in seconds
DISCONNECT_POLL = 0.25
#: a cross-check's time limit per method, in seconds, where the job's whole time is longer
METHOD_LIMIT = 10.0


class Refused(Exception):
    """A request the server answers with an error status and one line."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def create_app(jobs: Jobs) -> Starlette:
    """The app, its jobs run by ``jobs``."""
    backends = sorted(backend.name for backend in available_backends() if ":" not in backend.name
                      or backend.name.startswith("pysat:"))

    async def page(request: Request) -> Response:
        return HTMLResponse(_asset("index.html"))

    async def script(request: Request) -> Response:
        return Response(_asset("app.js"), media_type="text/javascript")

    async def puzzles(request: Request) -> Response:
        return JSONResponse({"puzzles": sorted(puzzle_names()), "backends": backends})

    async def solve(request: Request) -> Response:
        return await _answer(request, _solve_job)

    async def hint(request: Request) -> Response:
        return await _answer(request, _hint_job)

    async def _answer(request: Request, job: Any) -> Response:
        """The job's answer; a job whose client has gone away is stopped (its child killed)."""
        try:
            given = await _body(request)
            work = asyncio.ensure_future(job(given))
            while not (await asyncio.wait({work}, timeout=DISCONNECT_POLL))[0]:
                if await request.is_disconnected():
                    work.cancel()
                    with suppress(asyncio.CancelledError):
                        await work
                    return Response(status_code=499)  # (nobody reads it: nginx's "client closed request")
            return _reply(work.result())
        except Refused as refused:
            return _refusal(refused)
        except Busy:
            return _refusal(busy())

    def busy() -> Refused:
        return Refused(503, f"every job slot is taken ({jobs.slots}): ask again in {RETRY_AFTER} s",
                       {"Retry-After": str(RETRY_AFTER)})

    async def _followed(request: Request, job: Callable[[dict[str, Any]], tuple[list[str], str]]) -> Response:
        """A job followed as it runs (JSON lines, see the module's docstring); ``job`` gives its command's
        arguments and standard input, or raises :class:`Refused`."""
        try:
            given = await _body(request)
            args, text = job(given)
            seconds = _seconds(given)
            reservation = jobs.reserve()
        except Refused as refused:
            return _refusal(refused)
        except Busy:
            return _refusal(busy())
        whole = "--budget" if args[0] == "crosscheck" else "--timeout"
        return _Followed(_follow(reservation, args, text, seconds, whole), reservation)

    async def count(request: Request) -> Response:
        return await _followed(request, _count_job)

    async def crosscheck(request: Request) -> Response:
        return await _followed(request, _crosscheck_job)

    def _count_job(given: dict[str, Any]) -> tuple[list[str], str]:
        backend = _backend(given.get("backend"))
        return ["count", _puzzle(given), "-", "--json", "--progress-json",
                *(["--backend", backend] if backend else [])], _text(given, "text")

    def _crosscheck_job(given: dict[str, Any]) -> tuple[list[str], str]:
        named = given.get("backends")
        if named is not None and (not isinstance(named, list) or not named
                                  or not all(isinstance(name, str) for name in named)):
            raise Refused(400, "'backends' is a list of backends' names")
        chosen = [str(_backend(name)) for name in named or []]
        seconds = min(jobs.seconds, _seconds(given) or jobs.seconds)
        return ["crosscheck", _puzzle(given), "-", "--jsonl", "--progress-json", "--timeout",
                f"{min(METHOD_LIMIT, seconds):g}", *(["--backends", ",".join(chosen)] if chosen else []),
                *(["--count"] if given.get("count") is True else [])], _text(given, "text")

    async def stop(request: Request) -> Response:
        try:
            given = await _body(request)
        except Refused as refused:
            return _refusal(refused)
        name = given.get("job")
        if not isinstance(name, str) or not jobs.stop(name):
            return JSONResponse({"error": "no such job is running"}, 404)
        return JSONResponse({"stopping": name})

    def _backend(name: Any) -> str | None:
        if name is not None and name not in backends:
            raise Refused(400, f"backend {str(name)[:40]!r} is not one this server offers: {', '.join(backends)}")
        return None if name is None else str(name)

    async def _solve_job(given: dict[str, Any]) -> Finished:
        puzzle, text, backend = _puzzle(given), _text(given, "text"), _backend(given.get("backend"))
        picture = ["--svg", "{picture.svg}"] if get_puzzle(puzzle).draws else []
        forced = ["--forced"] if given.get("forced") is True else []
        args = ["solve", puzzle, "-", "--json", *picture, *forced, *(["--backend", backend] if backend else [])]
        return await jobs.run(args, text, outputs=["picture.svg"], seconds=_seconds(given))

    async def _hint_job(given: dict[str, Any]) -> Finished:
        puzzle, text, marks = _puzzle(given), _text(given, "text"), _text(given, "marks")
        args = ["explain", puzzle, "-", "--from", "{marks}", "--json", "--svg", "{picture.svg}"]
        return await jobs.run(args, text, inputs={"marks": marks}, outputs=["picture.svg"], seconds=_seconds(given))

    async def explain(request: Request) -> Response:
        return await _answer(request, _explain_job)

    async def export(request: Request) -> Response:
        return await _answer(request, _export_job)

    async def _explain_job(given: dict[str, Any]) -> Finished:
        certify = ["--certify"] if given.get("certify") is True else []
        args = ["explain", _puzzle(given), "-", "--json", "--svg", "{picture.svg}", *certify]
        return await jobs.run(args, _text(given, "text"), outputs=["picture.svg"], seconds=_seconds(given))

    async def _export_job(given: dict[str, Any]) -> Finished:
        fmt = given.get("format", "dimacs")
        if not isinstance(fmt, str) or not fmt.replace("-", "").isalnum():
            raise Refused(400, "'format' is a format's name: dimacs, wcnf, wcnf-old, mcc, smt2, or a spelling (url)")
        args = ["export", _puzzle(given), "-", "--format", fmt, "-o", "{export}"]
        return await jobs.run(args, _text(given, "text"), outputs=["export", "export.vars.json"],
                              seconds=_seconds(given))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        jobs.kill_all()  # the server is ending: the requests still open were cancelled, their jobs go too

    return Starlette(lifespan=lifespan, routes=[Route("/", page), Route("/app.js", script), Route("/api/puzzles", puzzles),
                             Route("/api/solve", solve, methods=["POST"]), Route("/api/hint", hint, methods=["POST"]),
                             Route("/api/explain", explain, methods=["POST"]),
                             Route("/api/export", export, methods=["POST"]),
                             Route("/api/count", count, methods=["POST"]),
                             Route("/api/crosscheck", crosscheck, methods=["POST"]),
                             Route("/api/stop", stop, methods=["POST"])])


class _Followed(StreamingResponse):
    """JSON lines of a followed job. However the response ends (its job's end, its client gone, the
    server stopping), the job is stopped and its slot given back."""

    def __init__(self, lines: AsyncGenerator[str, None], reservation: Reservation) -> None:
        super().__init__(lines, media_type="application/x-ndjson")
        self.lines, self.reservation = lines, reservation

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            try:
                with suppress(Exception):
                    await self.lines.aclose()
            finally:  # (even when the close is cancelled: the server stopping)
                self.reservation.release()


async def _follow(reservation: Reservation, args: list[str], text: str, seconds: float | None,
                  whole: str) -> AsyncGenerator[str, None]:
    """The lines of a followed job: its name, what it says as it runs, its answer."""
    heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    work = asyncio.ensure_future(reservation.run(args, text, seconds=seconds, heard=heard.put_nowait, whole=whole))
    try:
        yield json.dumps({"job": reservation.name}) + "\n"
        while True:
            waiting = asyncio.ensure_future(heard.get())
            await asyncio.wait({work, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if not waiting.done():
                waiting.cancel()
                break
            yield json.dumps(waiting.result()) + "\n"
        while not heard.empty():
            yield json.dumps(heard.get_nowait()) + "\n"
        yield json.dumps(_result(work.result())) + "\n"
    finally:
        if not work.done():
            work.cancel()
            with suppress(asyncio.CancelledError):
                await work


def _refusal(refused: Refused) -> Response:
    return JSONResponse({"error": refused.message}, refused.status, headers=refused.headers)


def _result(finished: Finished) -> dict[str, Any]:
    """A followed job's last line: ``{"result": ITS OBJECT}``, or its one-line error; a cross-check's
    object is the last line of its output (the rows came before it)."""
    lines = finished.stdout.strip().splitlines()
    try:
        return {"result": json.loads(lines[-1] if lines and lines[-1].startswith('{"schema"') else finished.stdout)
                | {"exit_code": finished.code}}
    except ValueError:
        return _failure(finished)


def _failure(finished: Finished) -> dict[str, Any]:
    """A job's one-line error (the last line it wrote on stderr) and exit code; a job stopped before its
    command could catch the signal (Stop pressed at once) is said to be, with the shell's exit code."""
    if finished.code < 0 and not finished.stderr.strip():
        name = signal.Signals(-finished.code).name
        return {"error": f"stopped ({name}) before it had begun", "exit_code": 128 - finished.code}
    line = finished.stderr.strip().splitlines()[-1] if finished.stderr.strip() else "the job printed nothing"
    return {"error": line.removeprefix("puzzlesat: error: "), "exit_code": finished.code}


def _asset(name: str) -> str:
    return (resources.files("puzzlesat.web") / "page" / name).read_text()


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, from this origin, within :data:`MAX_BODY`."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise Refused(403, f"a request from another origin ({origin[:60]}) is refused")
    encoding = request.headers.get("content-encoding", "identity").strip().lower()
    if encoding != "identity":  # never inflated here: a few KB of gzip can stand for gigabytes
        raise Refused(415, f"a compressed request (Content-Encoding: {encoding[:20]}) is not taken: send the JSON itself")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise Refused(413, f"the request is {int(declared):,} bytes; at most {MAX_BODY:,} are taken")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"the request is over {MAX_BODY:,} bytes, the most taken")
    try:
        given = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "the request is not a JSON object") from None
    if not isinstance(given, dict):
        raise Refused(400, "the request is not a JSON object")
    return given


def _puzzle(given: dict[str, Any]) -> str:
    puzzle = given.get("puzzle")
    if puzzle not in puzzle_names():
        raise Refused(400, f"unknown puzzle {str(puzzle)[:40]!r}: one of {', '.join(sorted(puzzle_names()))}")
    return str(puzzle)


def _text(given: dict[str, Any], field: str) -> str:
    text = given.get(field)
    if not isinstance(text, str) or not text.strip():
        raise Refused(400, f"'{field}' is missing: the puzzle's text (or a puzz.link URL) as a string")
    return text


def _seconds(given: dict[str, Any]) -> float | None:
    seconds = given.get("timeout")
    if seconds is None:
        return None
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise Refused(400, "'timeout' is a number of seconds above 0")
    return float(seconds)


def _reply(finished: Finished) -> Response:
    """A job's answer: its JSON (and picture), an export's text and variable map, or its one-line error
    with the status its exit code means."""
    if "export" in finished.files and finished.code == 0:
        kept = finished.files.get("export.vars.json")
        return JSONResponse({"text": finished.files["export"], "map": json.loads(kept) if kept else None,
                             "exit_code": finished.code})
    try:
        answer = json.loads(finished.stdout)
    except ValueError:
        return JSONResponse(_failure(finished), 500 if finished.code == 3 else 400)
    if "picture.svg" in finished.files:
        answer["svg"] = finished.files["picture.svg"]
    answer["exit_code"] = finished.code
    return JSONResponse(answer)
