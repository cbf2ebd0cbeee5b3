#!/usr/bin/env bash
# Benchmarks of the reference interpreter against equivalent Python + numpy programs, timed
# in the same run. Not a test: it prints `benchmark relax_s numpy_s ratio` lines
# (ratio = relax_s / numpy_s, CPU time of the whole process, start-up included, the best of
# REPEAT runs, default 3: on a machine other processes share, wall-clock time measures the
# machine's load more than the program). Each result is checked against the known answer.
# `run-trivial` is the time of `relax run` on a program that returns its argument: the best
# wall-clock time of 20 runs and, in the second column, their best CPU time.
#
# The operator benchmarks (ops_*) build their inputs inside the program, with operators in
# Relax and the same way in numpy, and are run twice: in full, and with only the inputs built
# (`--entry baseline`, or the numpy twin's `baseline` argument). A full run applies the
# operator ten times, keeping every result, so that the operator outweighs process start-up.
# Their times are the time of one operator: (full - baseline) / 10, each run timed as the
# best of OPS_REPEAT runs (default 5) of the process's CPU time (user + system), which a busy
# machine disturbs far less than wall-clock time. Both sides print a float64 checksum of the
# last result, which must agree. numpy's BLAS runs on one thread.
#
# The model benchmark (transformer) is an operator benchmark of four layers; the corpus
# benchmarks print cases per CPU second instead of a ratio.
#
# usage: tools/bench/run.sh [RELAX_BINARY]   (default: build-bench/relax, else build/relax)
# Build the binary with -DCMAKE_BUILD_TYPE=Release for meaningful numbers.
set -euo pipefail
# bash 5 for $EPOCHREALTIME; the C locale so that it and awk write a decimal point.
((BASH_VERSINFO[0] >= 5)) || { echo "run.sh: needs bash 5 or later" >&2; exit 2; }
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
relax="${1:-}"
if [[ -z "$relax" ]]; then
    relax="$root/build-bench/relax"
    [[ -x "$relax" ]] || relax="$root/build/relax"
fi
python="${PYTHON:-/usr/bin/python3}"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
[[ -x "$relax" ]] || { echo "run.sh: no relax binary at $relax" >&2; exit 2; }
"$python" -c 'import numpy' 2>/dev/null || { echo "run.sh: $python has no numpy" >&2; exit 2; }
# Operators spend fuel per element and per multiply-accumulate (LIMIT-fuel): a budget no
# benchmark reaches, so that each measures the work and not the limit.
fuel=100000000000

out="$(mktemp)"
trap 'rm -f "$out"' EXIT

# The best of $repeat wall-clock times of the command, in seconds; its output goes to $out,
# and a failure stops the script. The clock is bash's own $EPOCHREALTIME, read without
# starting a process: `$(date)` after the command would add its own start-up, a few
# milliseconds, to every time.
repeat="${REPEAT:-3}"
elapsed() {
    local best="" start end t
    for ((k = 0; k < repeat; k++)); do
        start=$EPOCHREALTIME
        if ! "$@" >"$out" 2>&1; then
            echo "run.sh: failed: $*" >&2
            head -c 2000 "$out" >&2
            exit 1
        fi
        end=$EPOCHREALTIME
        t=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }')
        if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$t"
        fi
    done
    echo "$best"
}

# One result line: the two times and their ratio.
report() {
    awk -v n="$1" -v r="$2" -v p="$3" 'BEGIN { printf "%-14s %8.3f %8.3f %8.2f\n", n, r, p, r / p }'
}

scalar_i64() { echo "{tensor: {dtype: int64, shape: [], data: $1}}"; }

# The matmul chain's inputs, the same as matmul_chain_numpy.py builds.
matmul_x="$("$python" -c '
rows = [[(i * 16 + j) % 7 for j in range(16)] for i in range(16)]
print("{tensor: {dtype: float32, shape: [16, 16], data: %s}}" % rows)')"
matmul_w="$("$python" -c '
print("{tensor: {dtype: float32, shape: [16, 16], data: %s}}" % ([[0.0625] * 16] * 16,))')"

# The best of $repeat CPU times (user + system, every thread) of the command, in seconds:
# unlike wall-clock time, it does not grow when other processes share the machine. Its
# output goes to $out, and a failure stops the script.
cpu_elapsed() {
    local best="" t times
    for ((k = 0; k < repeat; k++)); do
        times="$( { TIMEFORMAT='%3U %3S'; time "$@" >"$out" 2>&1; } 2>&1 )" || {
            echo "run.sh: failed: $*" >&2
            head -c 2000 "$out" >&2
            exit 1
        }
        t=$(echo "$times" | awk '{ printf "%.3f", $1 + $2 }')
        if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$t"
        fi
    done
    echo "$best"
}

trivial="$(mktemp --suffix=.py)"
trap 'rm -f "$out" "$trivial"' EXIT
printf '%s\n' '@R.function' 'def main(x: R.Tensor((2,), "float32")):' '    return x' >"$trivial"

printf "%-14s %8s %8s %8s\n" benchmark relax_s numpy_s ratio

targ="{tensor: {dtype: float32, shape: [2], data: [1, 2]}}"
repeat=20
w=$(elapsed "$relax" run "$trivial" --arg "$targ")
c=$(cpu_elapsed "$relax" run "$trivial" --arg "$targ")
grep -q "data: \[1, 2\]" "$out" || { echo "run.sh: trivial: unexpected result: $(cat "$out")" >&2; exit 1; }
awk -v w="$w" -v c="$c" 'BEGIN { printf "%-14s %8.4f %8.4f %8s\n", "run-trivial", w, c, "wall,cpu" }'
repeat="${REPEAT:-3}"

r=$(cpu_elapsed "$relax" run --fuel "$fuel" "$here/fib.relax.py" --arg "$(scalar_i64 22)")
grep -q "data: 17711}" "$out" || { echo "run.sh: fib: unexpected result: $(cat "$out")" >&2; exit 1; }
p=$(cpu_elapsed "$python" "$here/fib_numpy.py" 22)
report fib22 "$r" "$p"

r=$(cpu_elapsed "$relax" run "$here/countdown.relax.py" --max-depth 1000000 --fuel 1000000000 \
    --arg "$(scalar_i64 100000)" --arg "{tensor: {dtype: float32, shape: [4], data: [0, 0, 0, 0]}}")
grep -q "data: \[100000, 100000, 100000, 100000\]" "$out" ||
    { echo "run.sh: countdown: unexpected result: $(cat "$out")" >&2; exit 1; }
p=$(cpu_elapsed "$python" "$here/countdown_numpy.py" 100000)
report countdown1e5 "$r" "$p"

r=$(cpu_elapsed "$relax" run --fuel "$fuel" "$here/matmul_chain.relax.py" --arg "$matmul_x" --arg "$matmul_w")
grep -q "data: \[\[2.6875, 2.6875" "$out" ||
    { echo "run.sh: matmul200: unexpected result: $(head -c 200 "$out")" >&2; exit 1; }
p=$(cpu_elapsed "$python" "$here/matmul_chain_numpy.py")
report matmul200 "$r" "$p"

# ---- operator benchmarks ----------------------------------------------------------------

# The checksum the last run printed: the data of relax's rank-0 result, or numpy's number.
relax_checksum() { grep -o 'data: [^}]*' "$out" | tail -n 1 | sed 's/data: //'; }
numpy_checksum() { tail -n 1 "$out"; }

# One operator benchmark: NAME FILE TOLERANCE [RUNS [NUMPY_RUNS]], where FILE.relax.py and
# FILE_numpy.py are the twins, TOLERANCE the relative difference their checksums may have
# (float32 results are computed in double by the interpreter and in float32 by numpy), RUNS
# how many times a full run applies the operator (default 10) and NUMPY_RUNS how many times
# the numpy twin's does (default RUNS; more where one numpy run is too short to time).
op_bench() {
    local name="$1" prog="$here/$2.relax.py" twin="$here/$2_numpy.py" tol="$3" runs="${4:-10}"
    local nruns="${5:-${4:-10}}"
    local r rb p pb rsum psum
    repeat="${OPS_REPEAT:-5}"
    r=$(cpu_elapsed "$relax" run --fuel "$fuel" "$prog")
    rsum=$(relax_checksum)
    rb=$(cpu_elapsed "$relax" run --fuel "$fuel" "$prog" --entry baseline)
    p=$(REPS="$nruns" cpu_elapsed "$python" "$twin")
    psum=$(numpy_checksum)
    pb=$(REPS="$nruns" cpu_elapsed "$python" "$twin" baseline)
    awk -v a="$rsum" -v b="$psum" -v t="$tol" \
        'BEGIN { d = a - b; if (d < 0) d = -d; m = (b < 0 ? -b : b); exit !(d <= t * m) }' ||
        { echo "run.sh: $name: checksums differ: relax $rsum, numpy $psum" >&2; exit 1; }
    # RUNS operator runs; a difference below the clock's resolution counts as a millisecond.
    awk -v n="$name" -v r="$r" -v rb="$rb" -v p="$p" -v pb="$pb" -v k="$runs" -v nk="$nruns" '
        BEGIN { x = r - rb; y = p - pb; if (x < 0.001) x = 0.001; if (y < 0.001) y = 0.001
        printf "%-14s %8.4f %8.4f %8.2f\n", n, x / k, y / nk, (x / k) / (y / nk) }'
}

# Which BLAS numpy's matmul runs on: the library the process has mapped after one matmul.
numpy_blas() {
    "$python" - <<'PY'
import os
import numpy as np
np.ones((4, 4), np.float32) @ np.ones((4, 4), np.float32)
libs = set()
for line in open("/proc/self/maps"):
    path = line.split()[-1]
    name = os.path.basename(path).lower()
    if "blas" in name or "mkl" in name or "lapack" in name:
        libs.add(os.path.realpath(path))
kind = "OpenBLAS" if any("openblas" in p for p in libs) else \
    "MKL" if any("mkl" in p for p in libs) else \
    "BLIS" if any("blis" in p for p in libs) else "reference BLAS" if libs else "numpy's own"
print("%s (%s), numpy %s, 1 thread" % (kind, ", ".join(sorted(libs)) or "no BLAS library", np.__version__))
PY
}

echo "# numpy's BLAS: $(numpy_blas)"
echo "# operators: CPU seconds of one operator, (full run - inputs-only run) / runs"
op_bench add_1e7 ops_add 0
op_bench sum_1e7 ops_sum 1e-5 10 200
op_bench matmul256 ops_matmul 0 10 200
op_bench conv2d_16x32 ops_conv2d 0
op_bench softmax1000 ops_softmax 1e-5

# ---- a model: a transformer encoder block at a realistic size ---------------------------

echo "# model: CPU seconds of one transformer block (seq 128, hidden 256, 4 heads, ffn 1024)"
op_bench transformer transformer 1e-4 4

# ---- corpus throughput ------------------------------------------------------------------

# Cases per CPU second of `relax conform` over the built-in corpus, in one process (-j 1):
# the whole corpus, then without the case files that name a resource limit (LIMIT-fuel,
# LIMIT-depth, LIMIT-time: eval/limits.yaml, tir/while.yaml), some of whose cases run on
# purpose until the step budget (10,000,000 steps) or the depth limit ends them, then the
# whole corpus through the adapter protocol 2 (tools/adapters/relax-ref, one persistent server; the CPU
# time counts both processes).
corpus_bench() {
    local name="$1" t n
    shift
    t=$(tree_cpu "$relax" conform "$@")
    n=$(grep -o 'conformance: [0-9]* passed' "$out" | grep -o '[0-9]*')
    [[ -n "$n" ]] || { echo "run.sh: $name: no summary: $(tail -n 3 "$out")" >&2; exit 1; }
    awk -v k="$name" -v t="$t" -v n="$n" \
        'BEGIN { if (t < 0.001) t = 0.001; printf "%-14s %8.3f %8d %8.0f\n", k, t, n, n / t }'
}

# The CPU time of the command and of every process it starts, in seconds, through `perf stat`
# (a persistent adapter is not waited for in a way the shell's `time` would count); without
# perf, the shell's `time`. Its output goes to $out.
tree_cpu() {
    local stat
    if ! command -v perf >/dev/null 2>&1; then
        cpu_elapsed "$@"
        return
    fi
    stat="$(mktemp)"
    if ! perf stat -x, -e task-clock -o "$stat" -- "$@" >"$out" 2>&1; then
        echo "run.sh: failed: $*" >&2
        head -c 2000 "$out" >&2
        exit 1
    fi
    awk -F, '$3 == "task-clock" { printf "%.3f", $1 / 1000 }' "$stat"
    rm -f "$stat"
}

echo "# corpus: CPU seconds, cases passed, cases per CPU second"
corpus_bench corpus "$root/spec-tests"
short=()
while IFS= read -r f; do
    grep -qE 'LIMIT-(fuel|depth|time)' "$f" || short+=("$f")
done < <(find "$root/spec-tests" -name '*.yaml' | sort)
corpus_bench corpus-nolimit --known-failures "$root/spec-tests/known-failures.txt" "${short[@]}"
RELAX="$relax" corpus_bench corpus-adapter --adapter "$root/tools/adapters/relax-ref" \
    --adapter-protocol 2 "$root/spec-tests"

# ---- scaling: long programs in linear time ----------------------------------------------

# A function of N bindings, each adding the parameter to the previous binding. The baseline
# is the same run at N / 10: a linear implementation takes ten times as long, so the ratio
# `time(N) / (10 * time(N / 10))` is about 1, and a quadratic one shows about 10. CPU time.
chain_program() {
    "$python" - "$1" "$2" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
lines = ['@R.function', 'def main(x: R.Tensor((2,), "float32")):', '    v0 = R.add(x, x)']
lines += ['    v%d = R.add(v%d, x)' % (i, i - 1) for i in range(1, n)]
lines.append('    return v%d' % (n - 1))
open(path, 'w').write('\n'.join(lines) + '\n')
PY
}

echo "# scaling: CPU seconds of a 100,000-binding program and ratio to 10x a 10,000-binding one"
small="$(mktemp --suffix=.py)" large="$(mktemp --suffix=.py)"
trap 'rm -f "$out" "$trivial" "$small" "$large"' EXIT
chain_program 10000 "$small"
chain_program 100000 "$large"
repeat="${SCALE_REPEAT:-1}"
for cmd in parse check run; do
    args=()
    [[ "$cmd" == run ]] && args=(--arg "{tensor: {dtype: float32, shape: [2], data: [1, 2]}}")
    t_large=$(cpu_elapsed "$relax" "$cmd" "$large" "${args[@]}")
    [[ "$cmd" != run ]] || grep -q "data: \[100001, 200002\]" "$out" ||
        { echo "run.sh: chain run: unexpected result: $(head -c 200 "$out")" >&2; exit 1; }
    t_small=$(cpu_elapsed "$relax" "$cmd" "$small" "${args[@]}")
    awk -v n="$cmd-1e5" -v r="$t_large" -v b="$t_small" \
        'BEGIN { if (b < 0.001) b = 0.001; printf "%-14s %8.3f %8.3f %8.2f\n", n, r, 10 * b, r / (10 * b) }'
done
# The same chain through the VDevice pass (VDEV-4): a result annotated on a vdevice travels
# back through every binding to the parameter (tools/fuzz/seeds.py writes the program).
"$python" "$root/tools/fuzz/seeds.py" --vdevice-chain 10000 "$small"
"$python" "$root/tools/fuzz/seeds.py" --vdevice-chain 100000 "$large"
t_large=$(cpu_elapsed "$relax" check "$large")
t_small=$(cpu_elapsed "$relax" check "$small")
awk -v r="$t_large" -v b="$t_small" \
    'BEGIN { if (b < 0.001) b = 0.001; printf "%-14s %8.3f %8.3f %8.2f\n", "check-vdev-1e5", r, 10 * b, r / (10 * b) }'
