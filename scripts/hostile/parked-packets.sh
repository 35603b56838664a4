#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Parked-packets probe (docs/robustness.md "Live probe: large held packets"), run by hand; a measurement, not a test.
# Starts an rxkad rxperf server (--security clear, a throwaway KeyFile) under a fixed heap, reads its resident memory
# (VmRSS) and live heap after a full GC (jcmd), runs scripts/hostile/ParkedPackets.java (one proven port opens CONNS
# rxkad connections, each answering its own reachability PING after a small packet 1, with PACKETS more parked DATA of
# BYTES each, and never answers a CHALLENGE) while a legitimate rxkad client makes 100 RPCs, then reads both again.
#
#   scripts/hostile/parked-packets.sh [JAR]      (JAR: a shaded rxperf jar, default rx-perf/target/rxperf.jar)
#
# Env: PORT (default 7433), CONNS (200), PACKETS (16), BYTES (60000), JAVA_OPTS for the server (default -Xmx1g).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAR=${1:-$ROOT/rx-perf/target/rxperf.jar}
PORT=${PORT:-7433}
CONNS=${CONNS:-200}
PACKETS=${PACKETS:-16}
BYTES=${BYTES:-60000}
DIR=$(mktemp -d)
# A KeyFile with one DES key (kvno 1): count, then kvno and the 8 key bytes, big-endian.
printf '\x00\x00\x00\x01\x00\x00\x00\x01\x01\x23\x45\x67\x89\xab\xcd\xef' >"$DIR/KeyFile"

rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"; }
live() { jcmd "$1" GC.run >/dev/null; jcmd "$1" GC.heap_info | awk '/used/ {for (i = 1; i <= NF; i++) if ($i == "used") {v = $(i + 1); sub("K,?", "", v); print int(v / 1024); exit}}'; }

# shellcheck disable=SC2086
java ${JAVA_OPTS:--Xmx1g} -jar "$JAR" server -p "$PORT" --security clear --keyfile "$DIR/KeyFile" >/dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true; rm -rf "$DIR"' EXIT
sleep 3
timeout 60 java -jar "$JAR" client -c rpc -T 10 -p "$PORT" --security clear --keyfile "$DIR/KeyFile" >/dev/null 2>&1 || true
sleep 1
before=$(rss "$SPID")
live_before=$(live "$SPID")
timeout 120 java -jar "$JAR" client -c rpc -T 100 -p "$PORT" --security clear --keyfile "$DIR/KeyFile" \
    >"$DIR/rpc.out" 2>&1 &
RPID=$!
java -cp "$JAR" "$ROOT/scripts/hostile/ParkedPackets.java" "$PORT" "$CONNS" "$PACKETS" "$BYTES" 5
peak=$(rss "$SPID")
if wait "$RPID"; then echo "legitimate rxkad client during the probe: 100 RPCs served"; else
    echo "legitimate rxkad client during the probe: FAILED"; tail -3 "$DIR/rpc.out"; fi
after=$(rss "$SPID")
live_after=$(live "$SPID")
echo "server RSS: $before MiB before, $peak MiB at the probe's end (+$((peak - before)) MiB), $after MiB after"
echo "server live heap after full GC: $live_before MiB before, $live_after MiB after (+$((live_after - live_before)) MiB)"
