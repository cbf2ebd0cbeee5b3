#!/usr/bin/env bash
# Runs every test of relax-ref: the CUnit suites and the whole corpus, then both again in a
# build with AddressSanitizer and UndefinedBehaviorSanitizer. Installs and builds first.
# Usage: bash tools/test-all.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

bash tools/bootstrap.sh --no-corpus

status=0
step() {
    echo
    echo "== $*"
    "$@" || status=1
}

step ./build/relax_unit
step ./build/relax conform spec-tests
step /usr/bin/python3 tools/gen/gen_ops.py --check
step /usr/bin/python3 tools/gen/models.py --check
ops_status() {
    ./build/relax ops --table | diff -u spec-tests/ops/STATUS.md - ||
        { echo "spec-tests/ops/STATUS.md is stale: run ./build/relax ops --table > spec-tests/ops/STATUS.md"; return 1; }
}
step ops_status
# The tree keeps the shape ARCHITECTURE.md describes (paths, folder and file sizes, layering).
step /usr/bin/python3 tools/lint/layout.py
# Mutation testing keeps working: a few mutants of a fixed seed, built and judged by the
# corpus (the full measurement: tools/quality/mutate.py --count 300).
step /usr/bin/python3 tools/quality/mutate.py --seed 1 --count 2 --jobs "$jobs"
# The external-adapter protocol, end to end: the reference behind the protocol must judge
# two chapters exactly as the built-in adapter does.
step env RELAX=./build/relax ./build/relax conform --adapter tools/adapters/relax-ref \
    spec-tests/syntax spec-tests/eval

# Collecting garbage on every allocation finds pointers the collector cannot see; it is
# slow, so it runs a sample of the corpus that touches every layer.
cmake -S . -B build-stress -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRELAX_GC_STRESS=ON >/dev/null
cmake --build build-stress -j "$jobs"
step ./build-stress/relax conform spec-tests/syntax/module.yaml spec-tests/eval/match_cast.yaml \
    spec-tests/eval/aliasing.yaml spec-tests/eval/closures.yaml spec-tests/builtins/closures.yaml \
    spec-tests/builtins/spectest.yaml spec-tests/tir/blocks.yaml spec-tests/struct_info/calls.yaml \
    spec-tests/wellformed/variables.yaml spec-tests/normalize/bind_nested.yaml

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRELAX_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
step ./build-asan/relax_unit
step ./build-asan/relax conform spec-tests

echo
if [ $status -eq 0 ]; then
    echo "test-all: every step passed"
else
    echo "test-all: some step failed"
fi
exit $status
