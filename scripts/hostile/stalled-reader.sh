#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Probe of docs/robustness.md "Rule: progress, not activity, keeps a server call alive", run by hand; a
# measurement, not a test. Starts an rxperf server (20 workers), opens CALLS rxperf RECV calls of 1 MiB whose client
# answers every PING but never acknowledges the reply (scripts/hostile/StalledReader.java; MODE soft: soft-acks
# without moving firstPacket), counts the server's worker threads inside the rxperf handler (jstack) while they are
# held and after the probe, and times a normal `rxperf client -c recv -b 1048576 -T 1` started while they are held
# (it needs a server thread) and, after the probe, a normal `-c rpc -T 1` and `-c recv -b 1048576 -T 1`.
#
#   scripts/hostile/stalled-reader.sh [JAR]   (JAR: a shaded rxperf jar, default rx-perf/target/rxperf.jar)
#
# Env: PORT (default 7301), CALLS (20), HOLD (the probe listens at most this many seconds, 90), MODE (none|soft).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAR=${1:-$ROOT/rx-perf/target/rxperf.jar}
PORT=${PORT:-7301}
CALLS=${CALLS:-20}
HOLD=${HOLD:-90}
MODE=${MODE:-none}

busy() { jstack "$SPID" | grep -c 'RxperfServerHandler.handle(' || true; }

java -jar "$JAR" server -p "$PORT" >/dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true' EXIT
sleep 3
java -cp "$JAR" "$ROOT/scripts/hostile/StalledReader.java" "$PORT" "$CALLS" "$HOLD" "$MODE" &
APID=$!
# The probe compiles itself and the server checks reachability first: wait (at most 30 s) for the handlers.
for _ in $(seq 30); do sleep 1; n=$(busy); [ "$n" -ge "$CALLS" ] && break; done
echo "server handler threads busy while the calls are held: $n"
# A small rpc is answered on the event loop (RxperfServerHandler.isSmallCall); a 1 MiB recv needs a server thread.
normal() {
    local limit=$1 start end line outcome
    shift
    start=$(date +%s%N)
    if line=$(timeout "$limit" java -jar "$JAR" client "$@" -p "$PORT" 2>&1 | grep -v '^RPC latency usec:' | tail -1); then outcome=ok; else outcome="failed ($?)"; fi
    end=$(date +%s%N)
    echo "normal $*: $outcome after $(( (end - start) / 1000000 )) ms wall (JVM start included); client: $line"
}
DURING=$(mktemp)
trap 'kill $SPID 2>/dev/null || true; rm -f "$DURING"' EXIT
normal "$HOLD" -c recv -b 1048576 -T 1 >"$DURING" &
NPID=$!
wait "$APID"
echo "server handler threads busy after the probe: $(busy)"
wait "$NPID"
echo "started while the calls were held: $(cat "$DURING")"
normal 30 -c rpc -T 1
normal 30 -c recv -b 1048576 -T 1
echo "server handler threads busy after them: $(busy)"
