#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# A split fetch in the non-blocking form at full size: AsyncStreamsTest's fetch (a stream handler publishing chunks
# on demand, a client subscriber that pauses four times) over loopback with BYTES of bulk data (default 1 GiB).
# Prints the test's line: wall time, the peak bytes rx4j held between the two applications, the heap after GC before,
# during and after. Not part of the default suite (which runs 64 MiB); the load average is printed with it.
#
#   scripts/bench/async-fetch.sh [BYTES]
set -eu
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BYTES=${1:-1073741824}
cd "$ROOT"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
out=$(mvn -B -o -q -pl rx-core test -Dtest='AsyncStreamsTest#fetch*' -Dsurefire.failIfNoSpecifiedTests=false \
    -Drx4j.asyncFetchBytes="$BYTES" 2>&1) || rc=$?
grep -E 'async fetch|FAIL|AssertionFailed' <<<"$out" || true
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
