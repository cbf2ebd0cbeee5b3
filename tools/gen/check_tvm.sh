#!/bin/sh
# check_tvm.sh: judges the operator cases (spec-tests/ops) against a real TVM v0.22 through
# the TVM adapter, so the generator's oracle is checked against TVM's own results. Skips in
# one line when no TVM is found (tools/adapters/tvm/README.md says where it looks).
#
#   tools/gen/check_tvm.sh [RELAX_BINARY] [CASE_PATHS...]    # default: build/relax spec-tests/ops
#
# Implementation-defined cases pass with any allowed value, undefined ones with any outcome;
# static errors TVM reports while parsing come back as "wrong phase" (SPEC_NOTES 4.1).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
relax=${1:-$root/build/relax}
[ $# -gt 0 ] && shift
adapter=$root/tools/adapters/tvm/tvm-adapter
if ! "$adapter" --probe >/dev/null 2>&1; then
    echo "check_tvm: no TVM found (TVM_HOME, an importable tvm, or ../shared/tvm-peer); skipped"
    exit 0
fi
[ $# -eq 0 ] && set -- "$root/spec-tests/ops"
exec "$relax" conform --adapter "$adapter" --adapter-protocol 2 --allow-skips "$@"
