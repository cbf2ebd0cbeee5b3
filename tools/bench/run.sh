#!/usr/bin/env bash
# Benchmarks of the reference interpreter against equivalent Python + numpy programs, timed
# in the same run. Not a test: it prints `benchmark relax_s numpy_s ratio` lines
# (ratio = relax_s / numpy_s, wall clock of the whole process, start-up included, the best
# of REPEAT runs, default 3). Each result is checked against the known answer.
#
# usage: tools/bench/run.sh [RELAX_BINARY]   (default: build-bench/relax, else build/relax)
# Build the binary with -DCMAKE_BUILD_TYPE=Release for meaningful numbers.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
relax="${1:-}"
if [[ -z "$relax" ]]; then
    relax="$root/build-bench/relax"
    [[ -x "$relax" ]] || relax="$root/build/relax"
fi
python="${PYTHON:-/usr/bin/python3}"
[[ -x "$relax" ]] || { echo "run.sh: no relax binary at $relax" >&2; exit 2; }
"$python" -c 'import numpy' 2>/dev/null || { echo "run.sh: $python has no numpy" >&2; exit 2; }

out="$(mktemp)"
trap 'rm -f "$out"' EXIT

# The best of $repeat wall-clock times of the command, in seconds; its output goes to $out,
# and a failure stops the script.
repeat="${REPEAT:-3}"
elapsed() {
    local best="" start end t
    for ((k = 0; k < repeat; k++)); do
        start=$(date +%s.%N)
        if ! "$@" >"$out" 2>&1; then
            echo "run.sh: failed: $*" >&2
            head -c 2000 "$out" >&2
            exit 1
        fi
        end=$(date +%s.%N)
        t=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
        if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$t"
        fi
    done
    echo "$best"
}

# One result line: the two times and their ratio.
report() {
    awk -v n="$1" -v r="$2" -v p="$3" 'BEGIN { printf "%-14s %8.3f %8.3f %8.1f\n", n, r, p, r / p }'
}

scalar_i64() { echo "{tensor: {dtype: int64, shape: [], data: $1}}"; }

# The matmul chain's inputs, the same as matmul_chain_numpy.py builds.
matmul_x="$("$python" -c '
rows = [[(i * 16 + j) % 7 for j in range(16)] for i in range(16)]
print("{tensor: {dtype: float32, shape: [16, 16], data: %s}}" % rows)')"
matmul_w="$("$python" -c '
print("{tensor: {dtype: float32, shape: [16, 16], data: %s}}" % ([[0.0625] * 16] * 16,))')"

printf "%-14s %8s %8s %8s\n" benchmark relax_s numpy_s ratio

r=$(elapsed "$relax" run "$here/fib.relax.py" --arg "$(scalar_i64 22)")
grep -q "data: 17711}" "$out" || { echo "run.sh: fib: unexpected result: $(cat "$out")" >&2; exit 1; }
p=$(elapsed "$python" "$here/fib_numpy.py" 22)
report fib22 "$r" "$p"

r=$(elapsed "$relax" run "$here/countdown.relax.py" --max-depth 1000000 --fuel 1000000000 \
    --arg "$(scalar_i64 100000)" --arg "{tensor: {dtype: float32, shape: [4], data: [0, 0, 0, 0]}}")
grep -q "data: \[100000, 100000, 100000, 100000\]" "$out" ||
    { echo "run.sh: countdown: unexpected result: $(cat "$out")" >&2; exit 1; }
p=$(elapsed "$python" "$here/countdown_numpy.py" 100000)
report countdown1e5 "$r" "$p"

r=$(elapsed "$relax" run "$here/matmul_chain.relax.py" --arg "$matmul_x" --arg "$matmul_w")
grep -q "data: \[\[2.6875, 2.6875" "$out" ||
    { echo "run.sh: matmul200: unexpected result: $(head -c 200 "$out")" >&2; exit 1; }
p=$(elapsed "$python" "$here/matmul_chain_numpy.py")
report matmul200 "$r" "$p"
