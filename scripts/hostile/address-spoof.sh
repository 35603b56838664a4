#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Address-spoofing probe, run by hand; a measurement, not a test (docs/robustness.md, "Rule: a server connection's
# address never moves on an unauthenticated packet" and "Rule: a client connection hears only its server's
# address"). Starts an rxperf server, then runs scripts/hostile/AddressSpoof.java twice: a legitimate rx4j client
# asks for a large RECV reply while a second socket sends a spoofed PING ACK to the server every 2 s (ack), or three
# ABORTs -1 to the client (abort). Prints what the spoofing socket received and how the legitimate call ended.
#
#   scripts/hostile/address-spoof.sh [JAR]      (JAR: a shaded rxperf jar, default rx-perf/target/rxperf.jar)
#
# Env: PORT (default 7433), BYTES (reply size, 200000000), PROBE_SECONDS (probe length and call deadline, 20).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAR=${1:-$ROOT/rx-perf/target/rxperf.jar}
PORT=${PORT:-7433}
BYTES=${BYTES:-200000000}
PROBE_SECONDS=${PROBE_SECONDS:-20}

java -jar "$JAR" server -p "$PORT" >/dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true' EXIT
sleep 3
for mode in ack abort; do
    echo "== $mode"
    java -cp "$JAR" "$ROOT/scripts/hostile/AddressSpoof.java" "$mode" "$PORT" "$BYTES" "$PROBE_SECONDS"
done
