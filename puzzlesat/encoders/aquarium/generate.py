"""Generator of aquarium puzzles with exactly one solution (proven by the SAT solver).

Cells are grown into random connected regions and each region gets a random level: that fixes an
intended solution and its counts. Then, while line reasoning alone (the reference's propagation, no
search) leaves some region's level open, open regions are merged with a neighbour whenever the merged
region can still hold the intended water at one level. Merging only adds constraints and keeps the
intended solution; where no neighbour fits, the union gets the level closest to the intended water and
the counts follow. The loop ends with a puzzle people can solve by reasoning. Finally the SAT solver proves uniqueness
(UNSAT with the solution blocked).
Requiring propagation-solvability (rather than mere uniqueness) is what keeps large generated puzzles
easy for SAT solvers too: merely unique random 30x30 layouts took CaDiCaL 2-3 s and the search-based
reference minutes.
"""
from __future__ import annotations

import random
from dataclasses import replace

from ...backends import DEFAULT_BACKEND, get_backend
from ...core.errors import PuzzlesatError
from .cnf import encode_cnf
from .instance import AquariumInstance
from .options import AquariumOptions
from .reference import propagated_levels

MEAN_REGION_SIZE = 5  # the site's hard class: 45 regions on 15x15
#: merge only 1 in MERGE_SHARE open regions per round: one merge often settles its neighbours too, so
#: merging all of them at once collapsed 50x50 layouts to about 24 huge regions
MERGE_SHARE = 8


class _Layout:
    """Union-find over cells, plus the intended water of every cell (consistent with one level per region)."""

    def __init__(self, height: int, width: int, rng: random.Random) -> None:
        self.height, self.width = height, width
        total, n = height * width, width  # cell x is in row x // n, column x % n
        self.parent = list(range(total))
        size = [1] * total
        edges = [(a, a + 1) for a in range(total) if a % n != n - 1] + [(a, a + n) for a in range(total - n)]
        rng.shuffle(edges)
        regions, target = total, max(1, total // MEAN_REGION_SIZE)
        cap = 2 * MEAN_REGION_SIZE
        for a, b in edges:
            if regions <= target:
                break
            ra, rb = self.find(a), self.find(b)
            if ra != rb and size[ra] + size[rb] <= cap:
                self.parent[rb] = ra
                size[ra] += size[rb]
                regions -= 1
        members: dict[int, list[int]] = {}
        for cell in range(total):
            members.setdefault(self.find(cell), []).append(cell)
        self.wet = [False] * total
        for cells in members.values():
            rows = sorted({cell // n for cell in cells})
            level = rng.choice(rows + [rows[-1] + 1])
            for cell in cells:
                self.wet[cell] = cell // n >= level

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def instance(self) -> AquariumInstance:
        height, n, labels = self.height, self.width, dict[int, int]()
        grid = tuple(tuple(labels.setdefault(self.find(r * n + c), len(labels) + 1) for c in range(n))
                     for r in range(height))
        rows = tuple(sum(self.wet[r * n:(r + 1) * n]) for r in range(height))
        cols = tuple(sum(self.wet[r * n + c] for r in range(height)) for c in range(n))
        return AquariumInstance(height, n, cols, rows, grid)

    def merge(self, cell: int, rng: random.Random, members: dict[int, list[int]]) -> None:
        """Merge the region of ``cell`` with a neighbouring region, preferring one whose intended water
        fits a single level of the union. Otherwise the union gets the level that changes the fewest
        cells of the intended solution (the counts follow the solution, so they stay consistent)."""
        n, root = self.width, self.find(cell)
        neighbours = sorted({self.find(o) for x in members[root]
                             for o in (x - n, x + n, x - 1 if x % n else -1, x + 1 if x % n != n - 1 else -1)
                             if 0 <= o < self.height * n} - {root})
        rng.shuffle(neighbours)

        def cheapest_level(union: list[int]) -> tuple[int, int]:
            """(cells of the intended solution that change, level) for the best level of ``union``:
            at level L the rows above L must be dry and the rows from L down wet, so the change is
            the wet cells above plus the dry cells below, summed row by row."""
            wet: dict[int, int] = {}
            dry: dict[int, int] = {}
            for x in union:
                counts = wet if self.wet[x] else dry
                counts[x // n] = counts.get(x // n, 0) + 1
            rows = sorted(wet.keys() | dry.keys())
            above, below = 0, sum(dry.values())  # level at the top row: everything wet
            best = (below, rows[0])
            for r, following in zip(rows, rows[1:] + [rows[-1] + 1]):
                above, below = above + wet.get(r, 0), below - dry.get(r, 0)
                best = min(best, (above + below, following))
            return best

        best: tuple[int, int, int, list[int]] | None = None
        for other in neighbours:
            union = members[root] + members[other]
            cost, level = cheapest_level(union)
            if best is None or cost < best[0]:
                best = (cost, level, other, union)
            if cost == 0:
                break
        assert best is not None, "a region always has a neighbour while there are several regions"
        _, level, other, union = best
        self.parent[other] = root
        members[root] = union
        del members[other]
        for x in union:
            self.wet[x] = x // n >= level


def generate(size: int, seed: int, difficulty: str | None = None, hide: int = 0, cols: int | None = None) -> str:
    """The task string (one line) of a new puzzle with exactly one solution; with ``difficulty``, the
    first candidate (seeds ``seed``, ``seed + 1``, ...) whose explanation rates so (:data:`DIFFICULTY`).
    With ``hide``, up to that many clues are taken away (:func:`hidden`); with ``cols`` other than
    ``size``, the grid is ``size`` rows of ``cols`` cells. Either is written as a puzz.link URL, since a
    task string holds square grids with every clue."""
    width = size if cols is None else cols
    instance = (generate_instance(size, seed, width=width) if difficulty is None else
                rated_instance(size, seed, difficulty, width))
    if not hide and width == size:
        return instance.task_string() + "\n"
    from .url import to_url

    return to_url(hidden(instance, hide, random.Random(seed))) + "\n"


def hidden(instance: AquariumInstance, most: int, rng: random.Random) -> AquariumInstance:
    """The puzzle with up to ``most`` clues taken away, tried in a random order, each kept away only
    where the SAT solver still proves the solution unique (UNSAT once it is blocked): a setter's
    sparser puzzle with the same answer."""
    from . import PUZZLE

    solution = PUZZLE.reference(instance, 1)[0]
    clues = [(True, c) for c in range(instance.width)] + [(False, r) for r in range(instance.height)]
    rng.shuffle(clues)
    taken = 0
    for column, index in clues:
        if taken == most:
            break
        cols, rows = list(instance.cols), list(instance.rows)
        (cols if column else rows)[index] = None
        trial = replace(instance, cols=tuple(cols), rows=tuple(rows))
        encoding = encode_cnf(trial, AquariumOptions(cardinality=PROOF_CARDINALITY))
        ids = encoding.variables.obj2id
        with get_backend(DEFAULT_BACKEND).open(encoding) as session:
            session.add_clause([-var if solution.water[row][trial.regions[row].index(region)] else var
                                for (_, region, row), var in ((key, ids[key]) for key in ids if key[0] == "fill")])
            if session.solve().model is None:
                instance, taken = trial, taken + 1
    return instance


#: how hard a puzzle is, by its explanation's widest step (the most facts one step needs): one fact at a
#: time; a few facts together; many (bench/explain.py compares it with puzzle-aquarium.com's labels)
DIFFICULTY = {"easy": range(1, 2), "normal": range(2, 5), "hard": range(5, 1 << 30)}
#: candidates tried before a difficulty is given up
CANDIDATES = 40


def rated_instance(size: int, seed: int, difficulty: str, width: int | None = None) -> AquariumInstance:
    """The first candidate that rates ``difficulty``. Easy and normal candidates come from the usual
    generator (line reasoning solves them); hard ones stop merging regions as soon as the puzzle is
    unique, before line reasoning alone can solve it."""
    from ...pipeline.explaining import explain_instance
    from . import PUZZLE

    wanted = DIFFICULTY[difficulty]
    for candidate in range(seed, seed + CANDIDATES):
        instance = generate_instance(size, candidate, until_unique=difficulty == "hard", width=width)
        if explain_instance(PUZZLE, instance).explanation.difficulty["widest"] in wanted:
            return instance
    raise PuzzlesatError(f"no {difficulty} {size}x{width or size} aquarium among {CANDIDATES} candidates (seeds {seed}-"
                         f"{seed + CANDIDATES - 1}): try another --seed or --size")


def generate_instance(size: int, seed: int, until_unique: bool = False, width: int | None = None) -> AquariumInstance:
    """A puzzle of ``size`` rows and ``width`` columns (``size`` when None) that line reasoning solves;
    with ``until_unique``, the first layout the SAT solver proves unique, which may need wider reasoning."""
    width = size if width is None else width
    if size < 2 or width < 2:
        raise PuzzlesatError(f"a {size}x{width} aquarium: it needs at least 2x2 cells")
    rng = random.Random(seed)
    layout = _Layout(size, width, rng)
    while True:  # every round merges regions, so it ends (at worst with one region)
        instance = layout.instance()
        if until_unique and _proven_unique(instance, layout):
            return instance
        domains = propagated_levels(instance)
        assert domains is not None, "the intended solution always satisfies the counts"
        open_regions = [g for g, dom in domains.items() if len(dom) > 1]
        if not open_regions:
            break
        members: dict[int, list[int]] = {}
        for cell in range(size * width):
            members.setdefault(layout.find(cell), []).append(cell)
        label_root = {instance.regions[x // width][x % width]: root for root, cells in members.items()
                      for x in cells[:1]}
        rng.shuffle(open_regions)
        touched: set[int] = set()
        for g in open_regions[:max(1, len(open_regions) // MERGE_SHARE)]:
            root = label_root[g]
            if root in touched or root not in members:
                continue
            layout.merge(members[root][0], rng, members)
            touched.add(layout.find(root))
    # propagation fixed every level, so the solution is unique; the solver must confirm it, and a second
    # solution here would mean the reference's propagation is unsound: a bug to report, not to retry
    if not _proven_unique(instance, layout):
        raise PuzzlesatError(f"internal: propagation solved the {size}x{width} puzzle (seed {seed}) "
                             "but the SAT solver found a second solution")
    return instance


#: the column counts' cardinality encoding for the uniqueness proof: any exact one proves it, and
#: this is the smallest at 100x100 (335k clauses, encode + load + solve about 1 s, against 997k clauses
#: and 1.9 s for the solver's default sequential counter)
PROOF_CARDINALITY = "kmtotalizer"


def _proven_unique(instance: AquariumInstance, layout: _Layout) -> bool:
    """The SAT solver's word: UNSAT once the intended solution is blocked."""
    encoding = encode_cnf(instance, AquariumOptions(cardinality=PROOF_CARDINALITY))
    n = instance.width
    with get_backend(DEFAULT_BACKEND).open(encoding) as session:
        session.add_clause([-v if layout.wet[row * n + instance.regions[row].index(region)] else v
                            for v in encoding.show for _, region, row in [encoding.variables.obj(v)]])
        return session.solve().model is None
