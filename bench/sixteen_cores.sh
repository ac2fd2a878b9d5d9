#!/usr/bin/env bash
# Issue 47's measurements that need a machine of 16 cores, as one prepared run on a lent machine
# (the development tools' device machine): a fresh machine's first and second count of the four largest jigs (item 2), the
# compiled search on 1, 2, 4, 8 and 16 cores (item 3), the same search as Dask tasks on 2 and 16 workers,
# SAT cube and conquer on 16 local workers under a limit, to time its cubes at that width (item 4), and
# the search on 2 and 16 cores and Dask workers for each number of parts a core (bench/jig_spread.py).
# Each step has a limit of its own, so one that fails leaves the others' figures; logs and the
# BENCHMARKS.md the bench scripts rewrote go to $OUT.
#
#   bash bench/sixteen_cores.sh
#
# Wheels: python-sat, pindakaas, z3-solver, dask, distributed and their missing needs, and puzzlesat's
# own (pip wheel --no-deps .), in .whl/ (ignored through .git/info/exclude); the device's image has numba,
# numpy, click and the rest. STEPS (some of: largest cores dask cubes spread), JIG and CUBE_SECONDS make
# a shorter run, or a rehearsal on another machine.
set -u
out=${OUT:-/tmp/sixteen-cores}
mkdir -p "$out"
jig=${JIG:-zhurgut_10x10}
cube_seconds=${CUBE_SECONDS:-150}
steps=${STEPS:-largest cores dask cubes spread}
python=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
export PUZZLESAT_BENCH_MACHINE=${PUZZLESAT_BENCH_MACHINE:-"a lent 16-core machine (the development tools' device machine, nvidia-h200 kind, under gVisor)"}
exe=$("$python" -c 'import pathlib, sys; print(pathlib.Path(sys.executable).parent / "puzzlesat")')

"$python" -m pip install -q --no-index --no-deps --force-reinstall --no-compile --no-cache-dir .whl/*.whl || exit 1
{
    nproc
    grep -m1 "model name" /proc/cpuinfo
    "$python" -c "import numba, numpy, sys; print(sys.version.split()[0], 'numba', numba.__version__, 'numpy', numpy.__version__)"
} | tee "$out/machine.log"

step() {  # step NAME SECONDS COMMAND...: run it under a limit, its log and BENCHMARKS.md to $OUT
    local name=$1 limit=$2 start=$SECONDS
    shift 2
    echo "== $name"
    timeout -s INT -k 10 "$limit" "$@" > "$out/$name.log" 2>&1
    local rc=$?
    tail -n 25 "$out/$name.log"
    echo "== $name: rc $rc, $((SECONDS - start)) s"
    cp BENCHMARKS.md "$out/BENCHMARKS.md"
}

want() { [[ " $steps " == *" $1 "* ]]; }
want largest && step largest 120 "$python" bench/jig_largest.py --limit 100
want cores && step cores 200 "$python" bench/jig_cores.py --jig "$jig"
want dask && step dask 120 "$python" bench/cluster.py --search "$jig" --workers 2,16
want cubes && step cubes $((cube_seconds + 40)) "$exe" count jig "instances/jig/$jig.jig" \
    --cubes 14 --executor local:16 --timeout "$cube_seconds"
want spread && step spread 240 "$python" bench/jig_spread.py --jig "$jig" --cores 2,16
