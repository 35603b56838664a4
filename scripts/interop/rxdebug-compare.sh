#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# rx4j's rxdebug (scripts/rxdebug, given OpenAFS's `-servers H -port P` syntax) and Debian's rxdebug against the
# same rx4j rxperf server while an rx4j client sends to it, with every counter masked (numbers and the hex host
# become N): the GETSTATS lines, the `rx stats` block, the peer list and the connection list must have the same lines
# in the same order (docs/cells.md "rxdebug"). A connection listing is taken several times until both show a call
# in mode `receiving` (the server reading the client's data), since calls come and go between two queries.
# Exits 1 on a difference.
#
#   scripts/interop/rxdebug-compare.sh [PORT]     (PORT: the server's UDP port, default 17029)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PORT=${1:-17029}
JAR=$ROOT/rx-perf/target/rxperf.jar
command -v rxdebug > /dev/null || { echo "rxdebug-compare.sh: Debian's rxdebug (openafs-client) is missing" >&2; exit 1; }
"$ROOT/scripts/rxperf" --version > /dev/null      # builds the jar on first use
"$ROOT/scripts/rxdebug" --help > /dev/null

mask() { sed -E 's/last from host [0-9a-f]+/last from host N/; s/[0-9]+(\.[0-9]+)?/N/g'; }

java -jar "$JAR" server -p "$PORT" > /dev/null 2>&1 &
server=$!
client=
trap 'kill $server $client 2>/dev/null || true' EXIT
# A JVM on a loaded 2-core machine may take seconds to bind: wait for the port rather than a fixed time.
for _ in $(seq 100); do ss -Hlun "sport = :$PORT" | grep -q . && break; sleep 0.2; done
# 16 MiB calls: the server reads each on a server thread's stream (larger than it answers whole on its loop), so a
# listing taken at any moment most likely shows the call receiving.
java -jar "$JAR" client -p "$PORT" -c send -b 16777216 --time 20 > /dev/null 2>&1 &
client=$!
sleep 2
status=0
for opts in "-noconns" "-rxstats -noconns" "-peers -noconns"; do
    # shellcheck disable=SC2086  # the options are several words on purpose
    mine=$("$ROOT/scripts/rxdebug" -servers 127.0.0.1 -port "$PORT" $opts 2>&1 | mask)
    # shellcheck disable=SC2086
    theirs=$(rxdebug 127.0.0.1 "$PORT" $opts 2>&1 | mask)
    if [[ $mine == "$theirs" ]]; then
        echo "same lines (counters masked): rxdebug $opts ($(wc -l <<< "$mine") lines)"
    else
        echo "differ: rxdebug $opts"; diff <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs") || true; status=1
    fi
done
found=
for _ in 1 2 3 4 5 6 7 8 9 10; do
    mine=$("$ROOT/scripts/rxdebug" -servers 127.0.0.1 -port "$PORT" 2>&1 | mask)
    theirs=$(rxdebug 127.0.0.1 "$PORT" 2>&1 | mask)
    if grep -q 'mode: receiving' <<< "$mine" && grep -q 'mode: receiving' <<< "$theirs"; then
        if [[ $(grep 'mode:' <<< "$mine" | sort -u) == "$(grep 'mode:' <<< "$theirs" | sort -u)" ]]; then
            found=1; break
        fi
    fi
done
if [[ -n $found ]]; then
    echo "same call lines (counters masked): $(grep -m1 'mode:' <<< "$mine" | sed 's/^ *//')"
else
    echo "differ: no listing where both show the same active call lines"; status=1
    printf 'rx4j:\n%s\nDebian:\n%s\n' "$mine" "$theirs"
fi
exit $status
