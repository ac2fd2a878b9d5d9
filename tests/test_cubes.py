"""The cube split's proof obligations, by brute force on random formulas: the cubes (open and refuted)
are pairwise disjoint and cover every assignment, refuted cubes have no model, and the projected counts
of the open cubes add up to the projected count of the whole formula; and one session, enumerating
under one cube's literals after another's, finds each cube's projected models exactly."""
from __future__ import annotations

import random
from itertools import product

import pytest
from pysat.formula import IDPool

from puzzlesat.backends.pysat_backend import PysatBackend, pysat_names
from puzzlesat.backends.z3_backend import Z3Backend
from puzzlesat.core.encoding import Encoding
from puzzlesat.core.errors import BackendError
from puzzlesat.core.model import CnfModel
from puzzlesat.pipeline.cubes import CUBES_PER_WORKER, Splitter, auto_split, restricted, split


def satisfies(clauses: list[list[int]], bits: tuple[bool, ...]) -> bool:
    return all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses)


def projected(clauses: list[list[int]], num_vars: int, show: list[int]) -> set[tuple[bool, ...]]:
    return {tuple(bits[v - 1] for v in show) for bits in product((False, True), repeat=num_vars)
            if satisfies(clauses, bits)}


def random_formula(rng: random.Random) -> tuple[Encoding, int]:
    num_vars = rng.randint(2, 9)
    clauses = [[rng.choice((-1, 1)) * rng.randint(1, num_vars) for _ in range(rng.randint(1, 3))]
               for _ in range(rng.randint(1, 14))]
    show = sorted(rng.sample(range(1, num_vars + 1), rng.randint(1, num_vars)))
    pool = IDPool(start_from=num_vars + 1)
    return Encoding("cnf", pool=pool, clauses=clauses, show=show), num_vars


@pytest.mark.parametrize("seed", range(6))
def test_cubes_are_disjoint_cover_everything_and_add_up(seed):
    rng = random.Random(seed)
    for _ in range(50):
        encoding, num_vars = random_formula(rng)
        depth = rng.randint(0, 5)
        cubes = split(encoding, depth)
        every = cubes.open + cubes.refuted
        assert all(len(cube) <= depth for cube in every)
        assert all(abs(lit) in encoding.show for cube in every for lit in cube)  # shown variables only
        for bits in product((False, True), repeat=num_vars):
            matching = [cube for cube in every if all(bits[abs(lit) - 1] == (lit > 0) for lit in cube)]
            assert len(matching) == 1, (encoding.clauses, every, bits)
        for cube in cubes.refuted:
            assert not projected(restricted(encoding, cube).clauses, num_vars, encoding.show)
        whole = projected(encoding.clauses, num_vars, encoding.show)
        parts = [projected(restricted(encoding, cube).clauses, num_vars, encoding.show) for cube in cubes.open]
        assert sum(len(part) for part in parts) == len(whole)
        assert set().union(*parts) == whole


@pytest.mark.parametrize("seed", range(4))
def test_a_split_made_in_parts_is_the_whole_split(seed):
    """The workers split the leaves of a shallower split the rest of the way, each in its own kept
    splitter that has split other parts before: the parts' leaves, put together, are the whole split's
    (open and refuted, in order), whichever parts a splitter made first and however often."""
    rng = random.Random(seed)
    for _ in range(40):
        encoding, _ = random_formula(rng)
        depth = rng.randint(1, 6)
        whole = split(encoding, depth)
        splitter = Splitter(encoding)
        try:
            first = splitter.cubes(rng.randint(0, depth))
            parts = first.open * 2
            rng.shuffle(parts)
            made = {part: splitter.cubes(depth, part) for part in parts}
        finally:
            splitter.close()
        open_cubes = [cube for part in first.open for cube in made[part].open]
        refuted = first.refuted + [cube for part in first.open for cube in made[part].refuted]
        assert sorted(open_cubes) == sorted(whole.open) and sorted(refuted) == sorted(whole.refuted)


def test_the_split_follows_the_encoding_order():
    encoding = Encoding("cnf", pool=IDPool(start_from=4), clauses=[[1, 2, 3]], show=[1, 2, 3], order=[3, 2, 1])
    cubes = split(encoding, 1)
    assert cubes.open == [(3,), (-3,)] and cubes.refuted == []


def test_the_automatic_split_deepens_until_every_worker_has_cubes():
    """16 free shown variables: 2^16 models, so splits never run out; 3 workers want 24 cubes."""
    encoding = Encoding("cnf", pool=IDPool(start_from=17), clauses=[[v, -v] for v in range(1, 17)],
                        show=list(range(1, 17)))
    cubes = auto_split(encoding, 3)
    assert len(cubes.open) >= CUBES_PER_WORKER * 3 and not cubes.refuted
    assert len(cubes.open) == 2 ** len(cubes.open[0])  # a full tree of even depth


@pytest.mark.parametrize("seed", range(20))
def test_a_cube_knows_its_variables_from_the_formula(seed):
    """A cube's formula found its highest variable again over every clause, 15% of a cube's count: it
    takes it from the formula's, and it is the one its own clauses give (a unit may name a variable no
    clause of the formula does)."""
    rng = random.Random(seed)
    encoding, num_vars = random_formula(rng)
    cube = [rng.choice((-1, 1)) * rng.randint(1, num_vars + 3) for _ in range(rng.randint(0, 4))]
    copy = restricted(encoding, cube)
    assert "num_vars" in copy.__dict__  # known without reading its clauses
    assert copy.num_vars == Encoding("cnf", pool=encoding.pool, clauses=list(copy.clauses)).num_vars


ASSUMING = [name for name in pysat_names() if PysatBackend(name).assumes and not PysatBackend(name).missing()]


@pytest.mark.parametrize("solver", ASSUMING)
@pytest.mark.parametrize("seed", range(2))
def test_one_session_enumerates_under_cube_after_cube(seed, solver):
    """Every cube's projected models, and only those, from one session that has enumerated other cubes
    (and the same one) before: cubes of a split in random order with repeats, and random cubes that
    overlap them; then the whole formula, unrestricted, still has all its models. Unguarded blocking
    clauses would lose a repeated cube's models; guards never retired would leave selectors assumed
    false in the final plain enumeration, which is then still exact."""
    rng = random.Random(seed)
    for _ in range(30):
        encoding, num_vars = random_formula(rng)
        cubes = split(encoding, rng.randint(1, 3)).open or [()]
        shown = list(encoding.show)
        with PysatBackend(solver).open(encoding) as session:
            for _ in range(6):
                if rng.random() < 0.7:
                    cube = list(rng.choice(cubes))
                else:
                    cube = [rng.choice((-1, 1)) * v for v in rng.sample(shown, rng.randint(1, len(shown)))]
                expected = projected(restricted(encoding, cube).clauses, num_vars, shown)
                assert enumerated(session.models(under=cube), shown) == expected, (encoding.clauses, cube)
            assert enumerated(session.models(), shown) == projected(encoding.clauses, num_vars, shown)


def enumerated(results, shown: list[int]) -> set[tuple[bool, ...]]:
    found = [tuple(r.model.value(v) for v in shown) for r in results if isinstance(r.model, CnfModel)]
    assert len(found) == len(set(found))  # no projected model twice
    return set(found)


def test_a_backend_that_cannot_assume_refuses_a_cube_in_one_line():
    encoding = Encoding("cnf", pool=IDPool(start_from=3), clauses=[[1, 2]], show=[1, 2])
    backend = Z3Backend()
    assert not backend.assumes and PysatBackend("glucose4").assumes
    assert len(ASSUMING) >= 10 and "glucose4" in ASSUMING and "cadical195" in ASSUMING
    assert not {"kissat404", "lingeling", "cryptominisat"} & set(ASSUMING)
    with backend.open(encoding) as session, pytest.raises(BackendError, match="cannot solve under assumptions"):
        next(session.models(under=[1]))
