"""``puzzlesat serve`` (issue 73, begun): the JSON API, driven through Starlette's test client (no
browser yet). Every answer is the command line's own: the same report, the same one-line errors."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

import puzzlesat
from puzzlesat.encoders import get_puzzle
from puzzlesat.web.app import MAX_BODY, create_app
from puzzlesat.web.jobs import Jobs

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


@contextmanager
def serving() -> Iterator[tuple[subprocess.Popen, int]]:
    """``puzzlesat serve`` on a free port, as a user starts it, once it answers: (its process, its port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "puzzlesat", "serve", "--port", str(port)],
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


def test_a_job_whose_client_goes_away_is_stopped():
    """A hint that takes long (every cell of an 11x11 jig unmarked), its client gone after a second: the
    server kills the job's process within a second or two, and goes on serving."""
    with serving() as (server, port):
        def jobs() -> list[int]:
            """The server's children that run a job (the command line's `explain`)."""
            found = []
            for entry in os.listdir("/proc"):
                try:
                    status = open(f"/proc/{entry}/status").read()
                    command = open(f"/proc/{entry}/cmdline").read()
                except OSError:
                    continue
                if f"PPid:\t{server.pid}\n" in status and "explain" in command:
                    found.append(int(entry))
            return found

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
