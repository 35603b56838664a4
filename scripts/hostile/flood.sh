#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Connection-flood probe (docs/robustness.md "Live probe: connection flood", "Live probe: large held packets"), run
# by hand; a measurement, not a test. Starts an rxperf server, reads its resident memory (VmRSS) and live heap after a
# full GC (jcmd), sends COUNT DATA packets (PAYLOAD bytes, LAST_PACKET) that each open a new connection from SOURCES
# addresses, at RATE per second (scripts/flood/FloodGenerator.java, the generator scripts/flood.sh uses) while a
# legitimate client makes 100 RPCs, waits, reads both again, then times a legitimate 10 MiB `rxperf client -c send`.
#
#   scripts/hostile/flood.sh [JAR]      (JAR: a shaded rxperf jar, default rx-perf/target/rxperf.jar)
#
# Env: PORT (default 7432), COUNT (100000), RATE (100000), PAYLOAD (100 bytes), SOURCES (1), JAVA_OPTS for the
# server (default -Xmx1g).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAR=${1:-$ROOT/rx-perf/target/rxperf.jar}
PORT=${PORT:-7432}
COUNT=${COUNT:-100000}
RATE=${RATE:-100000}
PAYLOAD=${PAYLOAD:-100}
SOURCES=${SOURCES:-1}
# The generator sends at a rate for whole seconds: COUNT spread over as many seconds as RATE needs.
SECS=$(( (COUNT + RATE - 1) / RATE ))

rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"; }
# Live heap after a full GC, MiB (what the server retains, whatever the collector left committed).
live() { jcmd "$1" GC.run >/dev/null; jcmd "$1" GC.heap_info | awk '/used/ {for (i = 1; i <= NF; i++) if ($i == "used") {v = $(i + 1); sub("K,?", "", v); print int(v / 1024); exit}}'; }

# shellcheck disable=SC2086
java ${JAVA_OPTS:--Xmx1g} -jar "$JAR" server -p "$PORT" >/dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true' EXIT
sleep 3
timeout 60 java -jar "$JAR" client -c send -b 1048576 -T 3 -p "$PORT" >/dev/null 2>&1 || true  # warm-up
sleep 1
before=$(rss "$SPID")
live_before=$(live "$SPID")
timeout 120 java -jar "$JAR" client -c rpc -T 100 -p "$PORT" >/tmp/flood-rpc.$$ 2>&1 &
RPID=$!
java "$ROOT/scripts/flood/FloodGenerator.java" 127.0.0.1 "$PORT" $(( COUNT / SECS )) 0 "$SECS" "$SOURCES" "$PAYLOAD" last
if wait "$RPID"; then echo "legitimate client during the flood: 100 RPCs served"; else
    echo "legitimate client during the flood: FAILED"; tail -3 /tmp/flood-rpc.$$; fi
rm -f /tmp/flood-rpc.$$
sleep 5
after=$(rss "$SPID")
live_after=$(live "$SPID")
echo "server RSS: $before MiB before, $after MiB after the flood (+$((after - before)) MiB)"
echo "server live heap after full GC: $live_before MiB before, $live_after MiB after (+$((live_after - live_before)) MiB)"
timeout 120 java -jar "$JAR" client -c send -b 10485760 -T 1 -p "$PORT" 2>&1 | tail -2
echo "server RSS after the legitimate send: $(rss "$SPID") MiB"
