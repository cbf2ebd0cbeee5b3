#!/usr/bin/env bash
# Installs the Debian packages relax-ref needs (only those missing), builds the `relax`
# program in build/, and runs the whole conformance corpus through the reference interpreter.
# Usage: bash tools/bootstrap.sh [--no-corpus]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

packages=(gcc make cmake pkg-config libgc-dev libyaml-dev libcunit1-dev libedit-dev python3
          python3-numpy python3-yaml clang)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# Build progress only with VERBOSE=1; errors and warnings are always shown.
if [ "${VERBOSE:-0}" = 1 ]; then
    cmake --build build -j "$jobs"
else
    log=$(mktemp)
    if ! cmake --build build -j "$jobs" >"$log" 2>&1; then
        cat "$log"
        rm -f "$log"
        echo "bootstrap: the build failed"
        exit 1
    fi
    grep -E 'warning|error:' "$log" || true
    rm -f "$log"
fi

if [ "${1:-}" != "--no-corpus" ]; then
    ./build/relax conform spec-tests
fi
