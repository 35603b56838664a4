#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Forged-request reflection probe, run by hand; a measurement, not a test (docs/robustness.md "Rule: stateless
# reachability challenge"). Starts an rxperf server and runs scripts/hostile/ForgedReflection.java: a socket proves
# its address with one rxperf RPC call, then a 48-byte RECV request for a large reply is sent from that address on a
# new connection and never answered; prints what the address received for it and the reflection factor.
#
#   scripts/hostile/forged-reflection.sh [JAR]                  loopback
#   NETNS_MTU=1500 scripts/hostile/forged-reflection.sh [JAR]   server in one namespace, probe in another, joined by
#                                                              a veth pair of that MTU (scripts/netns.sh; removed after)
# JAR: a shaded rxperf jar (default rx-perf/target/rxperf.jar). Env: PORT (default 7434), PROBE_SECONDS (15).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAR=${1:-$ROOT/rx-perf/target/rxperf.jar}
PORT=${PORT:-7434}
PROBE_SECONDS=${PROBE_SECONDS:-15}
if [[ -n ${NETNS_MTU:-} ]]; then
    export RX4J_NETNS_A=${RX4J_NETNS_A:-rx4j-refl-a} RX4J_NETNS_B=${RX4J_NETNS_B:-rx4j-refl-b}
    export RX4J_NETNS_VETH_A=${RX4J_NETNS_VETH_A:-veth-refl-a} RX4J_NETNS_VETH_B=${RX4J_NETNS_VETH_B:-veth-refl-b}
    "$ROOT/scripts/netns.sh" up --mtu "$NETNS_MTU" > /dev/null
    trap '"$ROOT/scripts/netns.sh" down' EXIT
    in_a=(ip netns exec "$RX4J_NETNS_A")
    in_b=(ip netns exec "$RX4J_NETNS_B")
    server=10.99.0.1
    bind=10.99.0.2
else
    in_a=()
    in_b=()
    server=127.0.0.1
    bind=127.0.0.1
fi
"${in_a[@]}" java -jar "$JAR" server -p "$PORT" > /dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null || true; [[ -n ${NETNS_MTU:-} ]] && "$ROOT/scripts/netns.sh" down || true' EXIT
sleep 4
"${in_b[@]}" java -cp "$JAR" "$ROOT/scripts/hostile/ForgedReflection.java" "$server" "$PORT" 200000000 "$PROBE_SECONDS" \
    "$bind"
