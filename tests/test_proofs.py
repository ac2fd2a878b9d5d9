"""The DRAT checker (puzzlesat/proofs) and --certify.

The checker is tested harder than anything else: on real proofs of every PySAT solver we let prove (and
the CaDiCaL binary's, binary format), on planted faults that must each be rejected, and on random small
formulas with mutated proofs, where every accepted proof must belong to a formula that brute force finds
unsatisfiable (soundness) and every proof a naive forward checker accepts must be accepted (completeness
on deletion-free proofs). Every one of these runs on both cores, the pure-Python one and the compiled
one, and the two are held to the same verdicts: the same lemmas checked, the same failing step.
"""
from __future__ import annotations

import ast
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from puzzlesat.backends import get_backend
from puzzlesat.backends.pysat_backend import PROOF_WRITERS
from puzzlesat.core import compiled as plain_then_compiled
from puzzlesat.encoders import get_puzzle
from puzzlesat.pipeline.steps import load
from puzzlesat.proofs.checker import ProofRejected, Verdict, check_proof
from puzzlesat.proofs.reading import ProofFormatError, Step, read_proof
from tests.tools.proofs import naive_drup, satisfiable, write_binary

INSTANCES = Path(__file__).resolve().parent.parent / "instances"
AQUARIUM_15 = str(INSTANCES / "aquarium" / "pa-15x15-hard-1013539.txt")

#: (a or b), (a or not b), (not a or c), (not a or not c): unsatisfiable, and "a" is its one lemma
SMALL = [[1, 2], [1, -2], [-1, 3], [-1, -3]]
#: the checker's cores (the compiled one needs numba, a required dependency)
CORES = ["python", "compiled"]


@pytest.fixture(params=CORES)
def core(request):
    return request.param


def verdicts(formula: list[list[int]], proof: list[Step]) -> tuple[Verdict | str, Verdict | str]:
    """Both cores' answers: a verdict, or the rejection's message."""
    answers: list[Verdict | str] = []
    for name in CORES:
        try:
            answers.append(check_proof(formula, proof, core=name))
        except ProofRejected as exc:
            answers.append(str(exc))
    return answers[0], answers[1]


def same_verdicts(formula: list[list[int]], proof: list[Step]) -> Verdict | str:
    """The answer both cores give, failing when they differ in anything but time and name."""
    python, compiled = verdicts(formula, proof)
    if isinstance(python, Verdict) and isinstance(compiled, Verdict):
        assert (python.lemmas, python.checked) == (compiled.lemmas, compiled.checked), (formula, proof)
    else:
        assert python == compiled, (formula, proof)
    return python


def steps(*clauses: list[int], deleted: tuple[int, ...] = ()) -> list[Step]:
    return [Step(tuple(clause), number in deleted) for number, clause in enumerate(clauses)]


def random_3sat(num_vars: int, num_clauses: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[v * rng.choice((1, -1)) for v in rng.sample(range(1, num_vars + 1), 3)] for _ in range(num_clauses)]


def proof_of(formula: list[list[int]], solver: str = "glucose4") -> list[Step] | None:
    """A solver's proof of ``formula``, None when it is satisfiable."""
    with Solver(name=solver, bootstrap_with=formula, with_proof=True) as s:
        return None if s.solve() else read_proof(s.get_proof())


def aquarium_uniqueness() -> list[list[int]]:
    """The 15x15 aquarium's CNF with its solution blocked: unsatisfiable (the puzzle is unique)."""
    spec = get_puzzle("aquarium")
    encoding = spec.encode(load(spec, AQUARIUM_15), "cnf", spec.options())
    with Solver(name="cadical195", bootstrap_with=encoding.clauses) as s:
        assert s.solve()
        model = s.get_model() or []
    return encoding.clauses + [[-v if model[v - 1] > 0 else v for v in encoding.show]]


# -- reading


def test_text_proofs_read_with_comments_and_deletions():
    text = "c a comment\n1 2 0\nd 1 2 0\n\n-3 0\n0\n"
    assert read_proof(text) == [Step((1, 2)), Step((1, 2), True), Step((-3,)), Step(())]
    assert read_proof(text.splitlines()) == read_proof(text.encode())


def test_binary_proofs_read_as_written():
    written = steps([1, -2], [200, -70000], [], deleted=(1,))
    assert read_proof(write_binary(written)) == written


@pytest.mark.parametrize("proof, where", [
    ("1 2 0\n1 x 0\n", "line 2: 'x' is not a literal"),
    ("1 2\n", "line 1: the clause does not end with 0"),
    ("1 0 2 0\n", "line 1: 0 in the middle"),
    (b"a\x04\x06", "byte 0: the proof ends inside this step"),
    (b"a\x04\x00q\x04\x00", "byte 3: a binary step starts with 'a' or 'd'"),
])
def test_malformed_proofs_name_where(proof, where):
    with pytest.raises(ProofFormatError, match=where):
        read_proof(proof, "p")


# -- real proofs


@pytest.mark.parametrize("solver", sorted(PROOF_WRITERS))
def test_every_proof_writer_is_accepted(solver):
    """By both cores alike, which check the same lemmas of each proof."""
    formulas = [PHP(5).clauses, aquarium_uniqueness()] + [random_3sat(50, 250, seed) for seed in range(4)]
    for formula in formulas:
        proof = proof_of(formula, solver)
        if proof is None:
            continue
        verdict = same_verdicts(formula, proof)
        assert isinstance(verdict, Verdict)
        assert 0 < verdict.checked <= verdict.lemmas or verdict.lemmas == 0
        assert check_proof(formula, read_proof(write_binary(proof))).checked == verdict.checked


def test_maplesat_proofs_fail_both_checkers(core):
    """Why MapleSAT is not a proof writer: its proofs fail our check and the naive one alike."""
    with Solver(name="maplesat", bootstrap_with=PHP(5).clauses, with_proof=True) as s:
        assert not s.solve()
        proof = read_proof(s.get_proof())
    assert not naive_drup(PHP(5).clauses, proof)
    with pytest.raises(ProofRejected):
        check_proof(PHP(5).clauses, proof, core=core)


def test_backward_checking_skips_lemmas_nothing_needs(core):
    proof = proof_of(PHP(6).clauses, "cadical195")
    assert proof is not None
    verdict = check_proof(PHP(6).clauses, proof, core=core)
    assert verdict.checked < verdict.lemmas and verdict.core == core


def test_rat_lemmas_are_checked_on_their_first_literal(core):
    # 5 is fresh: "5 1" is RAT on 5 (no clause holds -5), and then "-5 1" is RUP
    assert check_proof(SMALL, steps([5, 1], [-5, 1], [1], []), core=core).checked >= 1
    # with (-5 or 7) in the formula, "5" then "-7" conflict at the top level, but "-7" (checked first,
    # backwards) is neither RUP nor RAT on -7: its resolvent with (-5 or 7) is (-7 or -5), not RUP
    with pytest.raises(ProofRejected, match=r"step 2 \(-7 0\): neither RUP nor RAT on -7 \(its resolvent with clause "
                                            r"7 -5 0 is not RUP\)"):
        check_proof(SMALL + [[-5, 7]], steps([5], [-7], []), core=core)


# -- planted faults: each one is rejected


def test_planted_faults_on_a_small_formula(core):
    assert check_proof(SMALL, steps([1], []), core=core).checked == 1
    with pytest.raises(ProofRejected, match="step 1: the empty clause is not implied"):  # the one lemma dropped
        check_proof(SMALL, steps([]), core=core)
    with pytest.raises(ProofRejected, match="neither RUP nor RAT"):  # lemmas that follow from nothing
        check_proof(SMALL, steps([7], [-7], []), core=core)
    with pytest.raises(ProofRejected, match="neither RUP nor RAT"):  # a needed clause deleted first
        check_proof(SMALL, steps([1, 2], [1], [], deleted=(0,)), core=core)
    with pytest.raises(ProofRejected, match="empty clause is not implied"):  # a satisfiable formula
        check_proof(SMALL[:3], steps([1], []), core=core)
    with pytest.raises(ProofRejected, match="does not refute"):  # no empty clause at all
        check_proof(SMALL[:3], steps([1]), core=core)
    # deletions: of a clause that is not there, of a tautology, and of the empty clause change nothing
    assert check_proof(SMALL, steps([5, 6], [2, -2], [], [1], [], deleted=(0, 1, 2)), core=core).checked == 1


@pytest.mark.parametrize("solver", ["glucose4", "cadical195", "lingeling"])
def test_planted_faults_in_real_proofs(solver, core):
    formula = PHP(5).clauses
    proof = proof_of(formula, solver)
    assert proof is not None
    check_proof(formula, proof, core=core)
    # a proof of a satisfiable formula: the same proof, the formula short of clauses until it has a model
    fewer = list(formula)
    while not Solver(name="glucose4", bootstrap_with=fewer).solve():
        fewer.pop()
    with pytest.raises(ProofRejected):
        check_proof(fewer, proof, core=core)
    # a needed clause deleted before the first lemma: one whose loss leaves a model
    needed = next(c for c in formula if len(c) > 1 and Solver(name="glucose4",
                                                              bootstrap_with=[d for d in formula if d != c]).solve())
    with pytest.raises(ProofRejected):
        check_proof(formula, [Step(tuple(needed), True)] + proof, core=core)
    # every lemma dropped but the empty clause
    with pytest.raises(ProofRejected):
        check_proof(formula, [Step(())], core=core)
    # a proof of another formula
    with pytest.raises(ProofRejected):
        check_proof(formula, proof_of(random_3sat(30, 200, 1)) or [], core=core)


def test_random_proofs_are_sound_and_complete():
    """On small random formulas and mutated proofs: accepted only for unsatisfiable formulas; a proof
    without deletions that the naive checker accepts is accepted; and both cores answer alike, to the
    lemma and to the failing step's message."""
    rng = random.Random(25)
    accepted = rejected = 0
    for case in range(1000):
        num_vars = rng.randint(4, 9)
        formula = random_3sat(num_vars, rng.randint(10, 45), case)
        base = proof_of(formula) or proof_of(random_3sat(num_vars, 60, case + 10_000)) or [Step(())]
        proof = list(base)
        for _ in range(rng.randint(0, 3)):
            where = rng.randrange(len(proof))
            fault = rng.choice(("drop", "flip", "delete", "random"))
            if fault == "drop":
                del proof[where]
            elif fault == "flip" and proof[where].literals:
                literals = list(proof[where].literals)
                literals[rng.randrange(len(literals))] *= -1
                proof[where] = Step(tuple(literals), proof[where].deletion)
            elif fault == "delete":
                proof.insert(where, Step(tuple(rng.choice(formula)), True))
            else:
                proof.insert(where, Step(tuple(v * rng.choice((1, -1)) for v in rng.sample(range(1, num_vars + 1), 2))))
            if not proof:
                proof = [Step(())]
        if isinstance(same_verdicts(formula, proof), str):
            rejected += 1
            assert not (naive_drup(formula, proof) and not any(s.deletion for s in proof)), (formula, proof)
            continue
        accepted += 1
        assert not satisfiable(formula), (formula, proof)
    assert accepted > 100 and rejected > 100


def test_the_check_goes_compiled_when_python_takes_long(monkeypatch):
    """By default the pure-Python core checks first, and one still checking after PLAIN_SECONDS gives way
    to the compiled core, which answers the same."""
    formula = aquarium_uniqueness()
    proof = proof_of(formula, "cadical195")
    assert proof is not None
    monkeypatch.setattr(plain_then_compiled, "PLAIN_SECONDS", 600.0)  # a loaded machine's slow Python stays plain
    assert check_proof(formula, proof).core == "python"
    monkeypatch.setattr(plain_then_compiled, "PLAIN_SECONDS", 1e-6)
    quick = check_proof(formula, proof)
    assert quick.core == "compiled" and quick.checked == check_proof(formula, proof, core="python").checked


def _spin(start: float, seconds: float) -> None:
    """Busy plain code, in a frame of its own as the searches are. Spun in the frame whose ``except``
    catches the timer's exception, a minimal ``while`` loop can have it looked up in the wrong block and
    skip every handler of that frame: CPython 3.13 did so in about half the runs (cpython#130279, the same
    as #108214 on 3.11 and 3.12), which tested the interpreter, not the timer."""
    while time.perf_counter() - start < seconds:
        pass


def _loops_in_own_frame(body: list[ast.stmt]) -> list[int]:
    """The lines of the loops (comprehensions too: inlined since CPython 3.12) that ``body`` runs in its
    own frame, not in a function, lambda, class or generator expression of its own."""
    lines: list[int] = []
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.For | ast.AsyncFor | ast.While | ast.ListComp | ast.SetComp | ast.DictComp):
            lines.append(node.lineno)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef | ast.GeneratorExp):
            todo.extend(ast.iter_child_nodes(node))
    return lines


#: the exceptions that signal handlers raise: the timer's, the supervisor's, Python's own for SIGINT
RAISED_BY_SIGNALS = ("TimeIsUp", "_Signalled", "KeyboardInterrupt")


def test_no_loop_runs_in_a_frame_that_catches_what_a_signal_raises():
    """An exception that a signal's handler raises at a loop's backward jump can skip every handler of
    the loop's own frame (CPython 3.13.0: 189 of 200 times a loop over a trivial generator sat in the
    ``try`` whose ``except`` caught the timer's :class:`TimeIsUp`; 0 of 200 on 3.11 and 3.12;
    cpython#130279). So the code in a ``try`` that catches one runs its loops in frames of its own:
    ``reference_counts`` walked its layouts in its own frame, and on 3.13 the race's search failed with
    "TimeIsUp" instead of going compiled."""
    offenders = []
    for path in sorted((Path(__file__).parent.parent / "puzzlesat").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Try) and any(name in ast.unparse(handler.type) for handler in node.handlers
                                                 if handler.type for name in RAISED_BY_SIGNALS):
                offenders += [f"{path.name}:{line}" for line in _loops_in_own_frame(node.body)]
    assert offenders == []


def test_plain_code_is_let_go_on_while_it_says_it_ends_soon():
    """The timer asks ``unless`` when time is up, and again every ASK_AGAIN while it says yes."""
    asked = []

    def soon() -> bool:
        asked.append(time.perf_counter())
        return len(asked) < 3

    start = time.perf_counter()
    with pytest.raises(plain_then_compiled.TimeIsUp):
        with plain_then_compiled.interrupted_after(0.01, unless=soon):
            _spin(start, 60)
    assert len(asked) == 3 and asked[-1] - start >= 0.01 + 2 * plain_then_compiled.ASK_AGAIN - 0.005
    with plain_then_compiled.interrupted_after(0.001, unless=lambda: True):
        time.sleep(0.05)  # let go on to the end


def test_time_is_up_again_where_it_was_swallowed():
    """The signal can land in code that swallows what its handler raises (a garbage-collector callback:
    hypothesis installs one, and the test run showed "Exception ignored ... TimeIsUp"): the plain code then
    ran on to its end, never handing over. The timer now asks again, so the next signal gets through."""
    swallowed = []
    start = time.perf_counter()
    with pytest.raises(plain_then_compiled.TimeIsUp):
        with plain_then_compiled.interrupted_after(0.01):
            while time.perf_counter() - start < 60:
                try:
                    _spin(start, 60)
                except plain_then_compiled.TimeIsUp:
                    if swallowed:
                        raise
                    swallowed.append(time.perf_counter())  # as a gc callback's caller would
    assert swallowed and time.perf_counter() - start < 60


def test_no_timer_outlives_its_block():
    """A limit so small that the timer fires at once, before the block is entered: the timer was armed
    before the clean-up's try, so it went on raising TimeIsUp every tenth of a second wherever the
    process was (a worker of the test suite crashed inside numba's compiler). None may outlive the block."""
    import signal

    before = signal.getsignal(signal.SIGALRM)
    for _ in range(300):
        try:
            with plain_then_compiled.interrupted_after(1e-9):
                sum(range(1000))
        except plain_then_compiled.TimeIsUp:
            pass
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is before


def test_without_numba_the_python_core_checks(tmp_path):
    """Where numba cannot be imported: every check runs in pure Python, however long it takes."""
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['numba'] = None\n")
    done = subprocess.run([sys.executable, "-c", (
        "from pysat.examples.genhard import PHP\n"
        "from pysat.solvers import Solver\n"
        "from puzzlesat.proofs import checker\n"
        "from puzzlesat.proofs.reading import read_proof\n"
        "import puzzlesat.core.compiled\n"
        "puzzlesat.core.compiled.PLAIN_SECONDS = 1e-6\n"
        "s = Solver(name='glucose4', bootstrap_with=PHP(5).clauses, with_proof=True)\n"
        "assert not s.solve()\n"
        "print(checker.check_proof(PHP(5).clauses, read_proof(s.get_proof())).core)")],
        env=dict(os.environ, PYTHONPATH=str(tmp_path)), capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["python"]


# -- --certify


def test_solve_certifies_uniqueness(run_cli):
    code, out, _ = run_cli("solve", "aquarium", AQUARIUM_15, "--certify")
    assert code == 0 and "unique: yes (solver: no second solution, UNSAT; certified: " in out
    code, out, _ = run_cli("solve", "aquarium", AQUARIUM_15, "--certify", "--json")
    report = json.loads(out)
    assert report["certified"] == {"unique": True}
    assert report["certificates"]["unique"]["checked"] > 0 and "certify" in report["times"]


@pytest.mark.parametrize("method", ["rc2", "descent"])
def test_solve_certifies_optimality(run_cli, method):
    example = str(INSTANCES / "aoc" / "2021-23" / "example.txt")
    code, out, _ = run_cli("solve", "amphipod", example, "--certify", "--method", method, "--json")
    report = json.loads(out)
    assert code == 0 and report["answers"]["part1"] == 12521 and report["answers"]["part2"] == 44169
    assert report["certified"] == {"optimal": True}


def test_count_certifies_the_last_search(run_cli):
    code, out, _ = run_cli("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--certify", "--json")
    report = json.loads(out)
    assert code == 0 and report["answers"] == {"solutions": 8, "up_to_rotation": 2}
    assert report["certified"] == {"solutions": True, "up_to_rotation": True}


@pytest.mark.parametrize("backend", ["z3", "pysat:minisat22", "ganak"])
def test_backends_that_cannot_prove_are_refused_or_marked(run_cli, backend):
    command = ("count", "jig", str(INSTANCES / "jig" / "matt5x5.jig")) if backend == "ganak" else \
        ("solve", "aquarium", AQUARIUM_15)
    code, _, err = run_cli(*command, "--backend", backend, "--certify")
    assert code == 2 and err.count("\n") == 1 and "writes no proof" in err
    code, out, _ = run_cli(*command, "--backend", backend, "--certify=best-effort", "--json")
    assert code == 0 and set(json.loads(out)["certified"].values()) == {False}


def test_crosscheck_marks_each_row(run_cli):
    code, out, _ = run_cli("crosscheck", "jig", str(INSTANCES / "jig" / "matt5x5.jig"), "--backends", "glucose4,z3",
                           "--certify=best-effort", "--json")
    rows = {row["method"]: row for row in json.loads(out)["rows"]}
    assert code == 0
    assert rows["pysat:glucose4 [cnf, pruned]"]["certified"] == {"solutions": True, "up_to_rotation": True}
    assert rows["z3 [cnf, pruned]"]["certified"] == {"solutions": False, "up_to_rotation": False}


def _fake_cadical(tmp_path: Path, proof: bytes | None) -> str:
    """A 'cadical' that answers UNSAT to anything, writing ``proof`` (or no file) where asked."""
    script = tmp_path / "cadical"
    write = "" if proof is None else f"import sys\nif len(sys.argv) > 2: open(sys.argv[2], 'wb').write({proof!r})\n"
    script.write_text(f"#!{shutil.which('python3') or 'python3'}\n{write}print('s UNSATISFIABLE')\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(tmp_path)


@pytest.mark.parametrize("proof", [None, b"", b"0\n", write_binary(steps([1], []))])
def test_a_solver_that_lies_about_unsat_is_caught(run_cli, tmp_path, monkeypatch, proof):
    monkeypatch.setenv("PATH", _fake_cadical(tmp_path, proof) + os.pathsep + os.environ["PATH"])
    code, _, err = run_cli("solve", "aquarium", AQUARIUM_15, "--backend", "external:cadical", "--certify")
    assert code == 2 and "external:cadical: its UNSAT proof was rejected" in err and err.count("\n") == 1
    code, out, _ = run_cli("solve", "aquarium", AQUARIUM_15, "--backend", "external:cadical")
    assert code == 1 and "UNSAT" in out  # believed without --certify: what the option is for


def test_the_cadical_binary_proves(run_cli):
    if shutil.which("cadical") is None and not os.environ.get("PUZZLESAT_REQUIRE_TOOLS"):
        pytest.skip("the cadical binary is not installed here (make solvers)")
    backend = get_backend("external:cadical").with_proofs()
    spec = get_puzzle("aquarium")
    encoding = spec.encode(load(spec, AQUARIUM_15), "cnf", spec.options())
    with backend.open(encoding) as session:
        results = list(session.models())
    assert [r.status.value for r in results] == ["SAT", "UNSAT"]
    assert results[-1].certificate is not None and results[-1].certificate.checked > 0


def test_an_optimum_that_is_not_optimal_fails_its_certificate(monkeypatch):
    """RC2's answer is certified by "cost <= best - 1" being UNSAT on each part: claim a cost one step
    above the true one, and that call finds a model, which is a failed check, not a certificate."""
    from puzzlesat.core.errors import PuzzlesatError
    from puzzlesat.pipeline.optimize import METHODS, _Bounded

    spec = get_puzzle("amphipod")
    encoding = spec.encode(load(spec, str(INSTANCES / "aoc" / "2021-23" / "example.txt")), "events", spec.options())
    assert METHODS["rc2"].optimize(encoding, get_backend("glucose4").with_proofs(), certify=True).certificate is not None
    true_cost = _Bounded.cost
    monkeypatch.setattr(_Bounded, "cost", lambda self, model: true_cost(self, model) + self.unit)
    with pytest.raises(PuzzlesatError, match="so the optimiser's answer is wrong"):
        METHODS["rc2"].optimize(encoding, get_backend("glucose4").with_proofs(), certify=True)
