"""`puzzlesat serve` under load (issue 73): a server on this machine, 100 solve requests of bundled
instances sent at once; every one must be answered with its right answer or refused with 503 (past the
job slots), and afterwards no job process and no scratch folder may be left, the server's memory measured
before and after. Then one 15x15 aquarium through the API against the same solve on the command line, and
the page's first load. Local only; it stops by itself. Writes its section of BENCHMARKS.md.

    .venv/bin/python bench/serve_load.py [--requests 100] [--jobs 2]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from run import update_benchmarks  # noqa: E402  (bench/ is not a package)

from tests.test_serve import children_running, long_formula, serving  # noqa: E402  (the API tests' server)

INSTANCES = ROOT / "instances" / "aquarium"
AQUARIUMS = sorted(INSTANCES.glob("pa-*.txt"))
BIG = INSTANCES / "pa-15x15-hard-1013539.txt"


def post(address: str, path: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(f"{address}{path}", json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def scratch_folders() -> set[str]:
    return {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("puzzlesat-web-")}


def stopped_count(address: str) -> tuple[float, float, int]:
    """A count of the API tests' long formula (3^20 models) followed (POST /api/count) and stopped after a
    second of progress: the seconds to its first progress line, from Stop to its answer, and the
    solutions it kept (each checked)."""
    request = urllib.request.Request(f"{address}/api/count", json.dumps(
        {"puzzle": "cnf", "text": long_formula(), "backend": "pysat:cadical195"}).encode(), {"Content-Type": "application/json"})
    begun = time.perf_counter()
    first = stop = None
    with urllib.request.urlopen(request, timeout=120) as answer:
        name = json.loads(answer.readline())["job"]
        for raw in answer:
            line = json.loads(raw)
            if "progress" in line:
                first = first or time.perf_counter() - begun
                if stop is None and line["progress"]["seconds"] >= 1.0:
                    post(address, "/api/stop", {"job": name})
                    stop = time.perf_counter()
            elif "result" in line and stop is not None:
                result = line["result"]
                if result.get("complete") is not False or not result["answers"]["solutions"]:
                    raise SystemExit(f"a stopped count kept nothing: {result}")
                return first or 0.0, time.perf_counter() - stop, int(result["answers"]["solutions"])
    raise SystemExit("the followed count ended without its answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    given = parser.parse_args()
    expected = {path.name: path.with_suffix(".solution").read_text().split() for path in AQUARIUMS}
    before_folders = scratch_folders()
    with serving("--jobs", str(given.jobs)) as (server, port):
        address = f"http://127.0.0.1:{port}"
        started = time.perf_counter()
        urllib.request.urlopen(f"{address}/", timeout=5).read()
        urllib.request.urlopen(f"{address}/app.js", timeout=5).read()
        urllib.request.urlopen(f"{address}/api/puzzles", timeout=5).read()
        first_load = time.perf_counter() - started
        memory_before = resident_kb(server.pid)
        results: list[tuple[str, int, dict, float]] = []
        lock = threading.Lock()

        def one(number: int) -> None:
            path = AQUARIUMS[number % len(AQUARIUMS)]
            begun = time.perf_counter()
            status, answer = post(address, "/api/solve", {"puzzle": "aquarium", "text": path.read_text()})
            with lock:
                results.append((path.name, status, answer, time.perf_counter() - begun))

        threads = [threading.Thread(target=one, args=(number,)) for number in range(given.requests)]
        burst = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        burst = time.perf_counter() - burst
        time.sleep(1)
        memory_after = resident_kb(server.pid)
        left = children_running(server)
        answered = [(name, answer) for name, status, answer, _ in results if status == 200]
        refused = sum(1 for _, status, _, _ in results if status == 503)
        wrong = [name for name, answer in answered if answer.get("answers", {}).get("grid") != expected[name]
                 or answer.get("answers", {}).get("unique") is not True]
        other = [(name, status) for name, status, _, _ in results if status not in (200, 503)]
        api, cli = [], []
        for _ in range(5):
            begun = time.perf_counter()
            status, _ = post(address, "/api/solve", {"puzzle": "aquarium", "text": BIG.read_text()})
            api.append(time.perf_counter() - begun)
            begun = time.perf_counter()
            subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "aquarium", str(BIG), "--json"], check=True,
                           stdout=subprocess.DEVNULL)
            cli.append(time.perf_counter() - begun)
        followed = [stopped_count(address) for _ in range(5)]
        time.sleep(0.5)
        left_stopped = children_running(server)
    leaked = scratch_folders() - before_folders
    table = "\n".join([
        f"## The web app under load (bench/serve_load.py; {given.requests} requests, {given.jobs} job slots)", "",
        "`puzzlesat serve` on this machine; every bundled puzzle-aquarium.com instance sent round-robin, all "
        "requests at once from as many threads; each must be answered with the published solution (and "
        "'unique') or refused with 503. Then the hard 15x15 through the API and on the command line "
        "(medians of 5, whole processes both: each API job is a command), and the page's first load (the "
        "page, its script and the puzzle list). Last, five counts followed as they run (POST /api/count, "
        "a formula of 3^20 models) and stopped after a second of progress (POST /api/stop).", "",
        "| measure | value |", "|---|---|",
        f"| requests answered right | {len(answered) - len(wrong)} of {given.requests} |",
        f"| refused with 503 (job slots taken) | {refused} |",
        f"| wrong answers, other statuses | {len(wrong)}, {len(other)} |",
        f"| burst wall time | {burst:.2f} s |",
        f"| job processes left after it, scratch folders left | {len(left)}, {len(leaked)} |",
        f"| server memory before, after (resident) | {memory_before / 1024:.0f} MB, {memory_after / 1024:.0f} MB |",
        f"| 15x15 through the API, median | {statistics.median(api):.3f} s |",
        f"| 15x15 on the command line, median | {statistics.median(cli):.3f} s |",
        f"| the page's first load | {first_load:.3f} s |",
        f"| a followed count: its first progress line, median | {statistics.median(f for f, _, _ in followed):.2f} s |",
        f"| Stop pressed to the answer that keeps what was found, median (worst) | "
        f"{statistics.median(s for _, s, _ in followed):.2f} s ({max(s for _, s, _ in followed):.2f} s) |",
        f"| solutions kept by a count stopped after 1 s, each checked (least) | {min(n for _, _, n in followed):,} |",
        f"| job processes left after the stopped counts | {len(left_stopped)} |"])
    print(table)
    if wrong or other or left or leaked or left_stopped:
        raise SystemExit("the load test failed: see the table")
    update_benchmarks([table])


if __name__ == "__main__":
    main()
