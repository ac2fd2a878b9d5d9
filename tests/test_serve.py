"""``puzzlesat serve`` (issue 73): the JSON API, driven through Starlette's test client and a real server
(the page itself is driven in a browser by test_browser.py). Every answer is the command line's own: the
same report, the same one-line errors."""
from __future__ import annotations

import asyncio
import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import puzzlesat
from puzzlesat.encoders import get_puzzle
from puzzlesat.web.app import MAX_BODY, _result, create_app
from puzzlesat.web.jobs import Finished, Jobs

from .conftest import INSTANCES

EASY = INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"


@pytest.fixture()
def client():
    return TestClient(create_app(Jobs(2, 30, "2G")))


def test_solve_answers_as_the_command_line_does(client, run_cli):
    """The report of `solve --json` (a task string and a puzz.link URL alike), with the picture."""
    text = EASY.read_text()
    answer = client.post("/api/solve", json={"puzzle": "aquarium", "text": text}).json()
    code, out, _ = run_cli("solve", "aquarium", str(EASY), "--json")
    cli = json.loads(out)
    assert (answer["status"], answer["answers"], answer["checked"]) == (cli["status"], cli["answers"], cli["checked"])
    assert answer["svg"].startswith("<svg") and answer["exit_code"] == 0
    url = get_puzzle("aquarium").spell(puzzlesat.read("aquarium", str(EASY)), "url")
    by_url = client.post("/api/solve", json={"puzzle": "aquarium", "text": url, "backend": "z3"}).json()
    assert by_url["answers"] == cli["answers"] and by_url["backend"] == "z3"


def test_a_hint_from_marks(client):
    marks = (INSTANCES / "aquarium" / "pa-6x6-easy-681742.marks").read_text()
    answer = client.post("/api/hint", json={"puzzle": "aquarium", "text": EASY.read_text(), "marks": marks}).json()
    assert [mark["cell"] for mark in answer["wrong"]] == [[1, 5]] and answer["svg"].startswith("<svg")


@pytest.mark.parametrize("body, status, said", [
    ({"puzzle": "aquarium", "text": "1_2;3"}, 400, "-:1: row 0 count 2 exceeds the grid size 1"),
    ({"puzzle": "nope", "text": "x"}, 400, "unknown puzzle 'nope'"),
    ({"puzzle": "aquarium"}, 400, "'text' is missing"),
    ({"puzzle": "aquarium", "text": "x", "backend": "external:rm"}, 400, "is not one this server offers"),
    ({"puzzle": "aquarium", "text": "x", "timeout": -1}, 400, "'timeout' is a number of seconds above 0"),
    ([1, 2], 400, "the request is not a JSON object"),
])
def test_bad_requests_get_one_line(client, body, status, said):
    answer = client.post("/api/solve", json=body)
    assert answer.status_code == status and said in answer.json()["error"] and "\n" not in answer.json()["error"]


def test_what_is_refused_by_default(client):
    """Another origin's POST (403), a body over the limit (413), and past the job slots 503 with
    Retry-After."""
    text = EASY.read_text()
    refused = client.post("/api/solve", json={"puzzle": "aquarium", "text": text},
                          headers={"Origin": "http://elsewhere.example"})
    assert refused.status_code == 403
    big = client.post("/api/solve", content=b" " * (MAX_BODY + 1), headers={"content-type": "application/json"})
    assert big.status_code == 413
    jobs = Jobs(1, 30, "2G")
    jobs.running = 1  # the one slot taken
    busy = TestClient(create_app(jobs)).post("/api/solve", json={"puzzle": "aquarium", "text": text})
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"


def test_a_job_under_the_servers_time_limit_says_what_it_had():
    """A request may lower the time limit; a job stopped by it answers as the command does (stopped),
    and a request cannot raise it past the server's."""
    jobs = Jobs(1, 0.3, "2G")
    text = (INSTANCES / "jig" / "zhurgut_13x9.jig").read_text()
    answer = asyncio.run(jobs.run(["count", "jig", "-", "--json"], text, seconds=60))
    assert answer.code == 4 and '"stopped"' in answer.stdout


def test_the_page_and_its_script(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="solve"' in page.text and "/app.js" in page.text
    script = client.get("/app.js")
    assert script.status_code == 200 and "textContent" in script.text and "innerHTML = report.svg" in script.text


def test_a_formula_file_is_solved_without_a_picture(client):
    """A CNF's model has no picture: the job asks for none (it was refused: "cnf: a model has no picture")."""
    answer = client.post("/api/solve", json={"puzzle": "cnf", "text": "p cnf 3 1\n1 2 3 0\n"})
    assert answer.status_code == 200 and answer.json()["answers"] == {"satisfiable": True} and "svg" not in answer.json()


@pytest.mark.parametrize("text, said", [
    ("1_1\x00;1", "-:1:3: count '1\\x00' is not a non-negative integer"),
    ("https://puzz.link/p?aquarium", "-:1:28: the URL ends early"),
    ("\x89PNG\r\n\x1a\n", "-:2:1: unexpected second line"),
])
def test_hostile_text_gets_the_commands_one_line(client, text, said):
    answer = client.post("/api/solve", json={"puzzle": "aquarium", "text": text})
    assert answer.status_code == 400 and answer.json()["error"].startswith(said) and answer.json()["exit_code"] == 2


def long_formula() -> str:
    """A formula with 3^20 models and no free variable: an enumeration counts it for hours."""
    return "p cnf 40 20\n" + "".join(f"{v} {v + 1} 0\n" for v in range(1, 41, 2))


def followed(client: TestClient, path: str, body: dict, stop_after: float | None = None) -> list[dict]:
    """The lines of a followed job; with ``stop_after``, the job is stopped (POST /api/stop) once its
    progress says it has run that long."""
    lines = []
    with client.stream("POST", path, json=body) as answer:
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/x-ndjson"
        for line in answer.iter_lines():
            lines.append(json.loads(line))
            progress = lines[-1].get("progress")
            if stop_after is not None and progress and progress["seconds"] >= stop_after:
                assert client.post("/api/stop", json={"job": lines[0]["job"]}).json() == {"stopping": lines[0]["job"]}
                stop_after = None
    return lines


def test_a_count_followed_and_stopped_keeps_what_it_found():
    """A long count says how far it has come, twice a second, in the work's units; stopped, it answers
    with the solutions it had counted (each checked) as the command stopped by Ctrl-C does: a lower
    bound, marked stopped and not complete. Its process is gone and its slot free."""
    jobs = Jobs(1, 60, "2G")
    client = TestClient(create_app(jobs))
    lines = followed(client, "/api/count", {"puzzle": "cnf", "text": long_formula(), "backend": "pysat:cadical195"},
                     stop_after=1.0)
    assert set(lines[0]) == {"job"} and set(lines[-1]) == {"result"}
    progress = [line["progress"] for line in lines[1:-1]]
    assert progress and all(p["command"] == "count" and p["done"].endswith("solutions so far") for p in progress)
    result = lines[-1]["result"]
    found = result["answers"]["solutions"]
    assert result["complete"] is False and result["stopped"]["by"] == "SIGINT" and result["exit_code"] == 130
    assert 0 < found < 3 ** 20 and result["checked"]
    so_far = int(progress[-1]["done"].split()[0].replace(",", ""))
    assert found >= so_far
    assert jobs.running == 0 and not jobs.children
    assert client.post("/api/stop", json={"job": lines[0]["job"]}).status_code == 404


@pytest.mark.parametrize("after", [0.0, 0.3])
def test_a_job_stopped_at_once_says_so_in_one_line(after):
    """Stop pressed as the job starts, before its command can catch the signal (then it dies of it,
    saying nothing) or before it has found anything: one line, never "the job printed nothing"."""
    jobs = Jobs(1, 60, "2G")
    reservation = jobs.reserve()

    async def stopped() -> Finished:
        work = asyncio.ensure_future(reservation.run(["count", "cnf", "-", "--json", "--backend", "cadical"],
                                                     long_formula()))
        while reservation.name not in jobs.children:
            await asyncio.sleep(0.001)
        await asyncio.sleep(after)
        jobs.stop(reservation.name)
        return await work

    said = _result(asyncio.run(stopped()))
    assert said in ({"error": "stopped (SIGINT) before it had begun", "exit_code": 130},
                    {"error": "interrupted (SIGINT)", "exit_code": 130}) or said["result"]["stopped"]["by"] == "SIGINT"


def test_a_count_followed_to_its_end_is_the_commands(client, run_cli):
    text = (INSTANCES / "jig" / "matt5x5.jig").read_text()
    lines = followed(client, "/api/count", {"puzzle": "jig", "text": text})
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--json")
    assert lines[-1]["result"]["answers"] == json.loads(out)["answers"] and lines[-1]["result"]["complete"]


def test_a_crosscheck_fills_in_row_by_row(client):
    """Each row as its method finishes, then the cross-check's object, whose rows are the same."""
    lines = followed(client, "/api/crosscheck", {"puzzle": "aquarium", "text": EASY.read_text(),
                                                "backends": ["pysat:cadical195", "z3"]})
    rows = [line["row"] for line in lines if "row" in line]
    result = lines[-1]["result"]
    assert result["agree"] and result["rows"] == rows and result["exit_code"] == 0
    assert [row["method"] for row in rows] == ["reference", "pysat:cadical195 [cnf]", "z3 [cnf]", "z3 [smt]"]


@pytest.mark.parametrize("path, body, said", [
    ("/api/crosscheck", {"puzzle": "aquarium", "text": "x", "backends": "z3"}, "'backends' is a list"),
    ("/api/crosscheck", {"puzzle": "aquarium", "text": "x", "backends": [None]}, "'backends' is a list"),
    ("/api/crosscheck", {"puzzle": "aquarium", "text": "x", "backends": ["external:sh"]}, "is not one this server"),
    ("/api/count", {"puzzle": "aquarium"}, "'text' is missing"),
    ("/api/stop", {"job": 3}, "no such job is running"),
])
def test_followed_jobs_refuse_bad_requests(client, path, body, said):
    answer = client.post(path, json=body)
    assert answer.status_code in (400, 404) and said in answer.json()["error"]


def test_a_followed_job_with_bad_input_ends_with_its_one_line(client):
    lines = followed(client, "/api/count", {"puzzle": "aquarium", "text": "1_2;3"})
    assert lines[-1] == {"error": "-:1: row 0 count 2 exceeds the grid size 1", "exit_code": 2}


def test_hostile_uploads_get_one_line(client):
    """A decompression bomb (50 MB of JSON in 49 KB of gzip) is refused unread; a gzip file pasted as
    text, a file of 10^6 lines (over the size limit however short its lines) and 300,000 comment lines
    without a header each get one line."""
    bomb = gzip.compress(json.dumps({"puzzle": "cnf", "text": "p cnf 1 1\n1 0\n" + "c" * 50_000_000}).encode())
    refused = client.post("/api/solve", content=bomb, headers={"content-type": "application/json",
                                                               "content-encoding": "gzip"})
    assert refused.status_code == 415 and refused.json()["error"].startswith("a compressed request")
    packed = gzip.compress(b"p cnf 1 1\n1 0\n").decode("latin-1")
    answer = client.post("/api/solve", json={"puzzle": "cnf", "text": packed})
    assert answer.status_code == 400 and answer.json()["error"].startswith("-:1:1: '\\x1f\\x8b")
    many = client.post("/api/solve", json={"puzzle": "cnf", "text": "\n" * 10 ** 6})
    assert many.status_code == 413 and "\n" not in many.json()["error"]
    comments = client.post("/api/solve", json={"puzzle": "cnf", "text": "c\n" * 300_000})
    assert comments.status_code == 400 and comments.json() == {
        "error": "-: no 'p cnf VARIABLES CLAUSES' header: not a DIMACS CNF file", "exit_code": 2}


@contextmanager
def serving(*options: str) -> Iterator[tuple[subprocess.Popen, int]]:
    """``puzzlesat serve OPTIONS`` on a free port, as a user starts it, once it answers: (its process, its
    port). Also bench/serve_load.py's server."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "puzzlesat", "serve", "--port", str(port), *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/puzzles", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer within 20 s")
        yield server, port
    finally:
        server.terminate()
        server.wait(10)


def children_running(server: subprocess.Popen, command: str = "") -> list[int]:
    """The server's children that run a job of the command line's ``command`` (every child: "")."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            status = open(f"/proc/{entry}/status").read()
            line = open(f"/proc/{entry}/cmdline").read()
        except OSError:
            continue
        if f"PPid:\t{server.pid}\n" in status and command in line:
            found.append(int(entry))
    return found


def test_a_followed_job_whose_client_goes_away_is_stopped():
    """A long count followed through a real server, its reader gone: the job's process goes too (the
    progress lines find the connection closed), and the slot is free for the next request."""
    with serving() as (server, port):
        body = json.dumps({"puzzle": "cnf", "text": long_formula(), "backend": "pysat:cadical195"}).encode()
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(b"POST /api/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        client.settimeout(30)
        heard = b""
        while b'"progress"' not in heard:  # the job runs, and says so
            heard += client.recv(4096)
        assert children_running(server, "count")
        client.close()
        for _ in range(50):
            if not children_running(server, "count"):
                break
            time.sleep(0.1)
        assert not children_running(server, "count")
        for _ in range(2):  # both slots free again (the default is 2)
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/solve", method="POST",
                                             data=json.dumps({"puzzle": "aquarium", "text": EASY.read_text()}).encode())
            assert json.load(urllib.request.urlopen(request, timeout=60))["checked"]


def test_a_job_whose_client_goes_away_is_stopped():
    """A hint that takes long (every cell of an 11x11 jig unmarked), its client gone after a second: the
    server kills the job's process within a second or two, and goes on serving."""
    with serving() as (server, port):
        def jobs() -> list[int]:
            return children_running(server, "explain")

        body = json.dumps({"puzzle": "jig", "text": (INSTANCES / "jig" / "zhurgut_11x11.jig").read_text(),
                           "marks": ("? " * 11 + "\n") * 11}).encode()
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        for _ in range(100):
            if jobs():
                break
            time.sleep(0.1)
        assert jobs(), "the job did not start"
        client.close()
        for _ in range(50):
            if not jobs():
                break
            time.sleep(0.1)
        assert not jobs()
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/api/puzzles", timeout=5).status == 200


def test_an_installed_plug_in_is_served_as_a_built_in_puzzle(client, run_cli):
    """The example plug-in (sudoku) is offered, solved, counted and exported through the API with the
    command line's answers; what it does not offer (hints) is the command's one line."""
    pytest.importorskip("puzzlesat_sudoku")
    path = Path(__file__).resolve().parent.parent / "examples" / "puzzlesat-sudoku" / "puzzles" / "small-4x4.txt"
    assert "sudoku" in client.get("/api/puzzles").json()["puzzles"]
    text = path.read_text()
    solved = client.post("/api/solve", json={"puzzle": "sudoku", "text": text}).json()
    cli = json.loads(run_cli("solve", "sudoku", str(path), "--json")[1])
    assert solved["answers"] == cli["answers"] and solved["checked"]
    assert followed(client, "/api/count", {"puzzle": "sudoku", "text": text})[-1]["result"]["answers"]["solutions"] == 1
    assert client.post("/api/export", json={"puzzle": "sudoku", "text": text}).json()["text"].startswith("c ")
    refused = client.post("/api/hint", json={"puzzle": "sudoku", "text": text, "marks": "1 ? ? ?\n" + "? ? ? ?\n" * 3})
    assert refused.status_code == 400 and refused.json()["error"].startswith("explain --from is not offered for sudoku")


@pytest.mark.parametrize("stop, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_server_stopped_while_a_count_streams_ends_and_takes_its_job_along(stop, code):
    """SIGTERM or Ctrl-C to `puzzlesat serve` while a followed count streams its progress: the server
    ends within seconds with the signal's exit code, and the job's process is gone (uvicorn waited for
    the stream, which runs to the job's 30 s limit, before it gave the shutdown a bound)."""
    with serving() as (server, port):
        body = json.dumps({"puzzle": "cnf", "text": long_formula(), "backend": "pysat:cadical195"}).encode()
        client = socket.create_connection(("127.0.0.1", port))
        client.settimeout(30)
        client.sendall(b"POST /api/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        heard = b""
        while b'"progress"' not in heard:
            heard += client.recv(4096)
        jobs = children_running(server, "count")
        assert jobs
        server.send_signal(stop)
        assert server.wait(10) == code
        for _ in range(50):
            if not any(Path(f"/proc/{pid}").exists() for pid in jobs):
                break
            time.sleep(0.1)
        assert not any(Path(f"/proc/{pid}").exists() for pid in jobs)
        client.close()
