# Quick start: `make demo` (a plain install; solves and cross-checks bundled instances of all five puzzles) and
# `make test` (the test tools too; the whole test suite);
# `make docs` builds the documentation site.
# Both create .venv with Python 3.11+ and install the project into it; nothing else is needed,
# except the DIMACS solver binaries the round-trip tests use (`make solvers`, apt-get, as root).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test docs fuzz soak solvers screenshots bench bench-family bench-count bench-cluster bench-cores bench-cnf bench-compare bench-first-run clean

# the package alone (what `make demo` runs: a plain install), then the test tools on top (`make test`)
$(BIN)/puzzlesat: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/test-installed: pyproject.toml examples/puzzlesat-sudoku/pyproject.toml $(BIN)/puzzlesat
	$(BIN)/pip install --quiet -e '.[test]' -e examples/puzzlesat-sudoku
	touch $@

demo: $(BIN)/puzzlesat
	$(BIN)/puzzlesat backends
	@for f in instances/aquarium/pa-6x6-easy-681742.txt instances/aquarium/pa-15x15-hard-1013539.txt; do \
		echo; echo "== $$f"; \
		$(BIN)/puzzlesat solve aquarium $$f || exit 1; \
		$(BIN)/puzzlesat crosscheck aquarium $$f --backends cadical,kissat,glucose,minisat,z3 || exit 1; \
	done
	@echo; echo "== jigsaw: AoC 2020 day 20, a generated input of the real size (12 x 12 tiles)"
	$(BIN)/puzzlesat solve jigsaw instances/aoc/2020-20/generated-1.txt
	$(BIN)/puzzlesat crosscheck jigsaw instances/aoc/2020-20/example.txt --backends cadical,glucose,z3 --count
	@echo; echo "== jig: Matt Parker's 5x5 with two pictures"
	$(BIN)/puzzlesat count jig instances/jig/matt5x5.jig
	$(BIN)/puzzlesat crosscheck jig instances/jig/matt5x5.jig --backends cadical,kissat,glucose,z3
	@echo; echo "== amphipod: AoC 2021 day 23, a generated input (both parts, proven optimal)"
	$(BIN)/puzzlesat solve amphipod instances/aoc/2021-23/generated-1.txt
	$(BIN)/puzzlesat crosscheck amphipod instances/aoc/2021-23/example.txt --no-unfold --timeout 20
	@mkdir -p bench/out
	$(BIN)/puzzlesat solve amphipod instances/aoc/2021-23/example.txt --backend portfolio:glucose,cadical --svg bench/out/amphipod.svg
	@echo; echo "== dice: AoC 2021 day 21 (part 2: the universes counted exactly, by the counter the output names)"
	$(BIN)/puzzlesat solve dice instances/aoc/2021-21/generated-1.txt
	$(BIN)/puzzlesat crosscheck dice instances/aoc/2021-21/example.txt --target 6 --sides 2

# the third-party tools the round-trip tests run on our exports (tests/test_round_trip.py)
TOOLS := cadical picosat minisat cryptominisat5 cvc5 z3 chromium chromedriver
solvers:
	@for t in $(TOOLS); do command -v $$t >/dev/null || missing=1; done; \
	[ -z "$$missing" ] || { \
	  echo "make solvers: installing Debian's cadical picosat minisat cryptominisat cvc5 z3 chromium (apt-get, as root):"; \
	  echo "  the round-trip tests run them on our exports, the browser tests drive chromium;"; \
	  echo "  'pytest -m \"not outside\"' runs the rest without them"; \
	  apt-get update -qq && apt-get install -y -qq cadical picosat minisat cryptominisat cvc5 z3 chromium chromium-driver; }

test: $(VENV)/test-installed solvers
	$(BIN)/ruff check puzzlesat tests bench examples
	$(BIN)/mypy
	PUZZLESAT_REQUIRE_TOOLS=1 $(BIN)/python -m pytest -q -n 2 tests examples/puzzlesat-sudoku/tests

# the documentation site, warnings as errors (docs/conf.py); open docs/_build/html/index.html
$(VENV)/docs-installed: pyproject.toml $(VENV)/test-installed
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $@

docs: $(VENV)/docs-installed
	rm -rf docs/_build docs/_generated
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "docs: docs/_build/html/index.html"

# the page's screenshots in docs/web.md: the browser tests, their screenshots kept (docs/images/web-*.png)
screenshots: $(VENV)/test-installed solvers
	PUZZLESAT_REQUIRE_TOOLS=1 PUZZLESAT_SCREENSHOTS=docs/images $(BIN)/python -m pytest -q tests/test_browser.py

# the differential tests against brute force, 10,000 seeded cases per puzzle instead of CI's 200
fuzz: $(VENV)/test-installed
	PUZZLESAT_CASES=10000 PUZZLESAT_WCNF_CASES=1000 $(BIN)/python -m pytest -q -n 2 tests/test_brute_force.py

# 1,000 random commands with random deadlines and signals: leftover processes, temporary files, errors
soak: $(VENV)/test-installed solvers
	$(BIN)/python bench/soak.py --runs 1000 --jobs 2

bench: $(VENV)/test-installed
	$(BIN)/python bench/run.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/certify.py
	$(BIN)/python bench/explain.py
	$(BIN)/python bench/hints.py
	$(BIN)/python bench/serve_load.py

# 200 seeded random jigs: `count jig` against the plain reference, as a distribution, as installed and
# with numba blocked (about 25 minutes each); and whole processes against a plain script
bench-family: $(VENV)/test-installed
	$(BIN)/python bench/jig_family.py
	$(BIN)/python bench/jig_family.py --without-numba
	$(BIN)/python bench/jig_plain.py

# counts from 1 to 3.1 million solutions: enumeration, the exact counters and the default race (about 15 minutes)
bench-count: $(VENV)/test-installed
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/count_family.py
	$(BIN)/python bench/count_family.py --processes

# cube and conquer and a sweep on a local Dask cluster of 1 and 2 workers, and the jig's own search there
bench-cluster: $(VENV)/test-installed
	$(BIN)/python bench/cluster.py
	$(BIN)/python bench/cluster.py --search

# the jig's compiled search on 1, 2, ... cores, a projection to 16 from its parts' times, and 2 cores against
# all of them, local and on Dask (bench/sixteen_cores.sh runs these on a lent 16-core machine)
bench-cores: $(VENV)/test-installed
	$(BIN)/python bench/jig_cores.py
	$(BIN)/python bench/jig_spread.py

# formula files against the cadical binary and a six-line PySAT script (CNFgen makes the formulas)
bench-cnf: $(VENV)/test-installed
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/cnf_curve.py

# every command of README and the site on an empty cache of compiled kernels and on a warm one (about 10 minutes)
bench-first-run: $(VENV)/test-installed
	$(BIN)/python bench/first_run.py

# whole processes of this tree against an earlier revision, e.g. `make bench-compare REV=e834fbc`
bench-compare: $(VENV)/test-installed
	$(BIN)/python bench/compare.py $(REV)

clean:
	rm -rf $(VENV) .pytest_cache
