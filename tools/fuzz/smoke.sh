#!/usr/bin/env bash
# Builds the fuzz harnesses with clang (build-fuzz/) and runs each one: first over every seed
# (the corpus's programs, cases and values, and the long and deep inputs of seeds.py: a
# regression run), then a short fixed-seed mutation run. Exit 0 when nothing crashed, hung
# or tripped a sanitizer. Skips in one line when clang cannot build libFuzzer programs.
# usage: tools/fuzz/smoke.sh [RUNS]   (mutations per harness, default 3000; FUZZ_SAMPLE=N
# seeds every Nth corpus input, default 20, and always the long and deep ones)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
runs=${1:-3000}
if ! command -v clang >/dev/null 2>&1 ||
    ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
        clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    echo "fuzz smoke: skipped (clang with libFuzzer is not installed)"
    exit 0
fi
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRELAX_FUZZ=ON \
    -DRELAX_TESTS=OFF >/dev/null
log=$(mktemp)
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" --target fuzz_script fuzz_run \
    fuzz_case fuzz_value >"$log" 2>&1 || { cat "$log"; exit 1; }
rm -f "$log"
seeds=build-fuzz/seeds
rm -rf "$seeds"
/usr/bin/python3 tools/fuzz/seeds.py "$seeds" --sample "${FUZZ_SAMPLE:-20}"
export ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export RELAX_MAX_HEAP=$((1 << 30))
status=0
for h in script run case value; do
    work=build-fuzz/work-$h
    rm -rf "$work" && mkdir -p "$work"
    # Each seed once, then `runs` mutations; -seed fixes the mutations (coverage feedback
    # still varies from run to run with addresses, so each run explores a little apart).
    # libFuzzer's timeout is wall time: the sanitized harness reads a 20,000-binding seed in
    # about 4 CPU-seconds, which a loaded machine stretches past 10 s, so the smoke allows
    # 60 s; a hang or a quadratic pass over those seeds still takes far longer.
    nseeds=$(find "$seeds/$h" -type f | wc -l)
    if ./build-fuzz/fuzz_$h -seed=1 -runs=$((nseeds + runs)) -timeout=60 -rss_limit_mb=2048 \
        -max_len=1048576 -dict=tools/fuzz/tvmscript.dict -artifact_prefix="$work/" \
        "$work" "$seeds/$h" >"$work/log" 2>&1; then
        echo "fuzz smoke: $h: $nseeds seeds and $runs mutations, nothing found"
    else
        status=1
        echo "fuzz smoke: $h: FOUND something; the input is in $work/ (crash-*, timeout-*, oom-*):"
        tail -n 30 "$work/log"
    fi
done
exit $status
