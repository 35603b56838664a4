#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Probe of docs/robustness.md "Live probe: forty calls without packet 1", run by hand; a measurement, not a
# test. Starts an rxperf server (20 workers), opens 40 calls that send DATA 2..9 but never packet 1
# (scripts/hostile/FortyCalls.java, which answers every PING so the peer looks reachable), then times one normal
# `rxperf client -c rpc -T 1` and counts the server's worker threads inside the rxperf handler (jstack).
#
#   scripts/hostile/forty-calls.sh [JAR]      (JAR: a shaded rxperf jar, default rx-perf/target/rxperf.jar)
#
# Env: PORT (default 7431), CALLS (40), HOLD (attacker listens this many seconds, 20).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAR=${1:-$ROOT/rx-perf/target/rxperf.jar}
PORT=${PORT:-7431}
CALLS=${CALLS:-40}
HOLD=${HOLD:-20}

java -jar "$JAR" server -p "$PORT" >/dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true' EXIT
sleep 3
java -cp "$JAR" "$ROOT/scripts/hostile/FortyCalls.java" "$PORT" "$CALLS" "$HOLD" &
APID=$!
sleep 4
echo "server handler threads busy: $(jstack "$SPID" | grep -c 'RxperfServerHandler.handle(' || true)"
start=$(date +%s%N)
if line=$(timeout 60 java -jar "$JAR" client -c rpc -T 1 -p "$PORT" 2>&1 | grep -v '^RPC latency usec:' | tail -1); then outcome=ok; else outcome="failed ($?)"; fi
end=$(date +%s%N)
echo "normal rpc: $outcome after $(( (end - start) / 1000000 )) ms wall (JVM start included); client: $line"
echo "server handler threads busy after it: $(jstack "$SPID" | grep -c 'RxperfServerHandler.handle(' || true)"
wait "$APID"
