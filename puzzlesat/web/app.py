"""The web app: the page, and the JSON API under it.

``POST /api/solve`` takes ``{"puzzle": NAME, "text": TEXT_OR_URL, "backend": NAME?, "timeout": S?}`` and
answers with the object ``puzzlesat solve --json`` prints (schema report-1.json) plus ``"svg"`` (the
solution's picture, where the puzzle draws one); ``POST /api/hint`` takes ``{"puzzle", "text", "marks"}``
and answers with ``explain --from --json``'s object (hint-1.json) plus its ``"svg"``; ``POST
/api/explain`` (``{"puzzle", "text"}``) with ``explain --json``'s (explain-1.json) and the steps' picture;
``POST /api/export`` (``{"puzzle", "text", "format"}``) with ``{"text": THE FILE, "map": ITS VARIABLE
MAP}`` as ``export --format FORMAT -o FILE`` writes them. A command's one-line
error is ``{"error": LINE, "exit_code": N}`` with status 400 (bad input) or 500 (a fault of ours); a
command stopped by its limit answers 200 with what it had found (``stopped``), as the command line does.

Safe by default: the server listens on 127.0.0.1; it reads no path a request names (the text comes in the
request); a body over :data:`MAX_BODY` is refused with 413; a POST from another origin with 403; every
job runs under the server's time and memory limits (a request may only lower the time); past ``jobs``
running at once, 503 with ``Retry-After``; a job whose client goes away is stopped; only the backends
``puzzlesat backends`` lists as available and built in may be named (an ``external:`` backend would run a
program of the request's choosing).
"""
from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..backends import available_backends
from ..encoders import get_puzzle, puzzle_names
from .jobs import Busy, Finished, Jobs

#: the largest request body accepted, in bytes (the largest bundled instance is some 20 KB)
MAX_BODY = 1 << 20
#: seconds a client is told to wait before asking again when every job slot is taken
RETRY_AFTER = 2
#: how often a running job looks whether its client is still there, in seconds
DISCONNECT_POLL = 0.25


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
            return JSONResponse({"error": refused.message}, refused.status, headers=refused.headers)
        except Busy:
            return JSONResponse({"error": f"every job slot is taken ({jobs.slots}): ask again in {RETRY_AFTER} s"},
                                503, headers={"Retry-After": str(RETRY_AFTER)})

    async def _solve_job(given: dict[str, Any]) -> Finished:
        puzzle, text = _puzzle(given), _text(given, "text")
        backend = given.get("backend")
        if backend is not None and backend not in backends:
            raise Refused(400, f"backend {str(backend)[:40]!r} is not one this server offers: {', '.join(backends)}")
        picture = ["--svg", "{picture.svg}"] if get_puzzle(puzzle).draws else []
        args = ["solve", puzzle, "-", "--json", *picture, *(["--backend", backend] if backend else [])]
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
        args = ["explain", _puzzle(given), "-", "--json", "--svg", "{picture.svg}"]
        return await jobs.run(args, _text(given, "text"), outputs=["picture.svg"], seconds=_seconds(given))

    async def _export_job(given: dict[str, Any]) -> Finished:
        fmt = given.get("format", "dimacs")
        if not isinstance(fmt, str) or not fmt.replace("-", "").isalnum():
            raise Refused(400, "'format' is a format's name: dimacs, wcnf, wcnf-old, mcc, smt2, or a spelling (url)")
        args = ["export", _puzzle(given), "-", "--format", fmt, "-o", "{export}"]
        return await jobs.run(args, _text(given, "text"), outputs=["export", "export.vars.json"],
                              seconds=_seconds(given))

    return Starlette(routes=[Route("/", page), Route("/app.js", script), Route("/api/puzzles", puzzles),
                             Route("/api/solve", solve, methods=["POST"]), Route("/api/hint", hint, methods=["POST"]),
                             Route("/api/explain", explain, methods=["POST"]),
                             Route("/api/export", export, methods=["POST"])])


def _asset(name: str) -> str:
    return (resources.files("puzzlesat.web") / "page" / name).read_text()


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, from this origin, within :data:`MAX_BODY`."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise Refused(403, f"a request from another origin ({origin[:60]}) is refused")
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
        line = finished.stderr.strip().splitlines()[-1] if finished.stderr.strip() else "the job printed nothing"
        status = 500 if finished.code == 3 else 400
        return JSONResponse({"error": line.removeprefix("puzzlesat: error: "), "exit_code": finished.code}, status)
    if "picture.svg" in finished.files:
        answer["svg"] = finished.files["picture.svg"]
    answer["exit_code"] = finished.code
    return JSONResponse(answer)
