#!/usr/bin/env bash
# Runs every test of relax-ref: the CUnit suites and the whole corpus, then both again in a
# build with AddressSanitizer and UndefinedBehaviorSanitizer. Installs and builds first.
# Usage: bash tools/test-all.sh   (VERBOSE=1 shows build progress)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

bash tools/bootstrap.sh --no-corpus

status=0
failed=()
logs=()
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
# Runs one step, its output shown and kept: the summary repeats the end of a failed step's
# output, so a CI log cut to its last lines still says what failed and why.
step() {
    echo
    echo "== $*"
    local log="$logdir/step-${#logs[@]}.log" rc
    logs+=("$log")
    set +e
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    set -e
    if [ "$rc" -ne 0 ]; then
        status=1
        failed+=("$*|$log")
    fi
}
# A build, quiet unless VERBOSE=1 (its errors and warnings are always shown).
build() {
    if [ "${VERBOSE:-0}" = 1 ]; then
        cmake --build "$1" -j "$jobs"
        return
    fi
    local log rc=0
    log=$(mktemp)
    cmake --build "$1" -j "$jobs" >"$log" 2>&1 || rc=$?
    if [ $rc -eq 0 ]; then grep -E 'warning|error:' "$log" || true; else cat "$log"; fi
    rm -f "$log"
    return $rc
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
# The REPL as a person uses it: line editing, history, completion, Ctrl-C, through a pty.
step /usr/bin/python3 tools/tests/tools/repl_pty.py ./build/relax
# `cmake --install` into a temporary prefix gives a relax that finds its corpus, its man
# page and the adapters; `relax conform` there passes (run outside the source tree).
install_check() {
    local prefix
    prefix=$(mktemp -d)
    cmake --install build --prefix "$prefix" >/dev/null &&
        test -f "$prefix/share/man/man1/relax.1" &&
        test -x "$prefix/share/relax-ref/adapters/relax-ref" &&
        (cd "$prefix" && ./bin/relax conform | tail -n 1)
    local rc=$?
    rm -rf "$prefix"
    return $rc
}
step install_check
# The tree keeps the shape ARCHITECTURE.md describes (paths, folder and file sizes, layering).
step /usr/bin/python3 tools/lint/layout.py
# Every rule a case names fires while the reference judges it (spec-tests/README.md,
# --rules-fired), and every rule fires for a positive and a negative case (but the kinds that
# cannot: relax rules --fired); then the lint itself on a fixture with a case that names a rule
# it does not fire.
step /usr/bin/python3 tools/lint/rules_fired.py --relax ./build/relax -j "$jobs" --both-ways spec-tests
step /usr/bin/python3 tools/tests/tools/test_rules_fired.py ./build/relax
# Mutation testing keeps working: a few mutants of a fixed seed, built and judged by the
# corpus (the full measurement: tools/quality/mutate.py --count 300).
step /usr/bin/python3 tools/quality/mutate.py --seed 1 --count 2 --jobs "$jobs"
# The external-adapter protocol, end to end: the reference behind the protocol must judge
# two chapters exactly as the built-in adapter does.
step env RELAX=./build/relax ./build/relax conform --adapter tools/adapters/relax-ref \
    spec-tests/syntax spec-tests/eval
# Protocol 2 (one persistent adapter per worker) over the whole corpus in two workers, with
# the reference's scoreboard; then the runner's CI semantics and report formats against
# adapters that misbehave on purpose, and the TVM adapter's translation functions.
step env RELAX=./build/relax ./build/relax conform -j 2 --adapter tools/adapters/relax-ref \
    --adapter-protocol 2 --scoreboard build/relax-ref-scoreboard.md spec-tests
step /usr/bin/python3 tools/tests/tools/test_conform_cli.py ./build/relax
step /usr/bin/python3 tools/adapters/tvm/test_translate.py
# Generated programs: 1,000 pass the differential checks (GEN-1..GEN-4), their case files
# judge an adapter, and the reducer shrinks a planted disagreement to a few lines.
step /usr/bin/python3 tools/tests/tools/test_gen_reduce.py ./build/relax
step /usr/bin/python3 tools/tests/tools/test_op_signatures.py ./build/relax
# Against a real TVM when one is present (TVM_HOME, an importable tvm, or the build provided
# beside the project): one chapter, whose scoreboard row must match the committed one.
tvm_chapter() {
    ./build/relax conform -j 2 --adapter tools/adapters/tvm/tvm-adapter --adapter-protocol 2 \
        --adapter-timeout 120 --scoreboard build/tvm-builtins.md spec-tests/builtins >/dev/null || true
    chapter_row() { awk '/^## Per chapter/{f=1} /^## Per tag/{f=0} f && /^\| builtins \|/' "$1"; }
    diff <(chapter_row spec-tests/TVM_SCOREBOARD.md) <(chapter_row build/tvm-builtins.md) ||
        { echo "TVM's results on spec-tests/builtins differ from spec-tests/TVM_SCOREBOARD.md"; return 1; }
}
if tools/adapters/tvm/tvm-adapter --probe >/dev/null 2>&1; then
    step tvm_chapter
else
    echo; echo "== TVM adapter: skipped (no TVM: set TVM_HOME or make tvm importable)"
fi

# Fuzzing: each libFuzzer harness over the corpus's programs, cases and values and the long and
# deep inputs of tools/fuzz/seeds.py, then fixed-seed mutations (tools/fuzz/README.md).
step bash tools/fuzz/smoke.sh 1000

# Collecting garbage on every allocation finds pointers the collector cannot see; it is
# slow, so it runs a sample of the corpus that touches every layer.
cmake -S . -B build-stress -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRELAX_GC_STRESS=ON >/dev/null
step build build-stress
step ./build-stress/relax conform spec-tests/syntax/module.yaml spec-tests/eval/match_cast.yaml \
    spec-tests/eval/aliasing.yaml spec-tests/eval/closures.yaml spec-tests/builtins/closures.yaml \
    spec-tests/builtins/spectest.yaml spec-tests/tir/blocks.yaml spec-tests/struct_info/calls.yaml \
    spec-tests/wellformed/variables.yaml spec-tests/normalize/bind_nested.yaml

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRELAX_SANITIZE=ON >/dev/null
step build build-asan
export ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
step ./build-asan/relax_unit
# The corpus and generated programs with bounds checking: every block a malloc of its own
# (ast/mem.c), so that a read or write one byte past any tensor, array or string is a report.
step env RELAX_MEMCHECK=1 ./build-asan/relax conform spec-tests
step env RELAX_MEMCHECK=1 ./build-asan/relax gen --check --count 200 --seed 5000 --size 12
# Extreme sizes in every operator's attributes and annotations: clean errors, never a wrapped
# dim or a sanitizer report (SPEC_NOTES 4.18; without --quick it tries more seeds and values).
step /usr/bin/python3 tools/tests/tools/sweep_sizes.py ./build-asan/relax --quick
# Extreme run arguments (empty tensors with dims near 2^63, shapes and PrimValues at the
# int64 limits, deep tuples) through relax run and relax conform: a value or one clean error.
step /usr/bin/python3 tools/tests/tools/sweep_args.py ./build-asan/relax --quick
# Every operator's corpus calls with each tensor argument empty beside dims near 2^63: working
# memory is charged, empty planes are not visited (SPEC_NOTES 4.18).
step /usr/bin/python3 tools/tests/tools/sweep_empty.py ./build-asan/relax --quick
# Every class of hostile input of SPEC_NOTES 4.18, end to end, within 10 CPU-seconds and 1 GiB.
step /usr/bin/python3 tools/tests/tools/hostile_classes.py ./build-asan/relax

echo
if [ $status -eq 0 ]; then
    echo "test-all: every step passed"
else
    echo "test-all: ${#failed[@]} step(s) failed:"
    for f in "${failed[@]}"; do
        echo "  - ${f%|*}"
    done
    for f in "${failed[@]}"; do
        echo
        echo "---- the last 40 lines of: ${f%|*}"
        tail -n 40 "${f##*|}"
    done
fi
exit $status
