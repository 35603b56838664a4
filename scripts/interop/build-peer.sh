#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Builds the C rxperf peer (scripts/interop/rxperf-peer.c on Debian's OpenAFS libafsrpc) into
# scripts/interop/build/rxperf-peer when it is missing or older than its source, installing gcc and
# libopenafs-dev first when they are missing (apt-get, --no-install-recommends; apt-get update once
# if the install fails). Checks that the binary runs (prints its usage). Prints the binary's path on
# stdout; build and install output goes to stderr. Shared by scripts/interop.sh and scripts/bench.sh.
#
#   scripts/interop/build-peer.sh [--force]
set -euo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$DIR/rxperf-peer.c
OUT=$DIR/build/rxperf-peer

installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }

ensure_build_packages() {
    local missing=() pkg
    for pkg in gcc libopenafs-dev; do
        installed "$pkg" || missing+=("$pkg")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    echo "build-peer.sh: installing ${missing[*]}" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
        apt-get update >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
    fi
}

if [[ ${1:-} == --force || ! -x $OUT || $SRC -nt $OUT ]]; then
    ensure_build_packages
    mkdir -p "$DIR/build"
    echo "build-peer.sh: gcc -O2 $SRC -> $OUT" >&2
    gcc -O2 -Wall -Wextra "$SRC" -o "$OUT.tmp" -lafsrpc -lpthread >&2
    mv "$OUT.tmp" "$OUT"
fi
usage=$("$OUT" 2>&1 || true)
[[ $usage == "usage: rxperf-peer"* ]] || { echo "build-peer.sh: $OUT does not run: $usage" >&2; exit 1; }
echo "$OUT"
