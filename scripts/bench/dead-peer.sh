#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# How fast an rxperf client notices a dead peer, rx4j's (scripts/rxperf) and OpenAFS's C Rx (our rxperf peer,
# scripts/interop/build-peer.sh), between two network namespaces (scripts/netns.sh: A = 10.99.0.1, B = 10.99.0.2):
#
#   killed   a C rxperf server in B is killed (SIGKILL) 2.5 s after the client started sending 100 MiB calls to it;
#            the figure is from the kill to the client's exit
#   noroute  the client calls 10.98.0.2, for which A has no route; the figure is the client's whole run
#   noarp    the client calls 10.99.0.9, on A's network, where no host answers ARP; the whole run
#   baseline (rx4j only) one 1-byte rpc call to a live server: the JVM's start and exit, part of every rx4j figure
#
# Each row: client, case, seconds, exit code, the client's last line. Needs root (ip netns). Uses its own
# namespace names (RX4J_NETNS_A/B default rx4j-dpa/rx4j-dpb) and removes them at exit.
#
#   scripts/bench/dead-peer.sh [REPEATS]    (default 1)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
REPEATS=${1:-1}
export RX4J_NETNS_A=${RX4J_NETNS_A:-rx4j-dpa} RX4J_NETNS_B=${RX4J_NETNS_B:-rx4j-dpb}
export RX4J_NETNS_VETH_A=${RX4J_NETNS_VETH_A:-veth-dpa} RX4J_NETNS_VETH_B=${RX4J_NETNS_VETH_B:-veth-dpb}
A=$RX4J_NETNS_A B=$RX4J_NETNS_B
PEER=$("$ROOT/scripts/interop/build-peer.sh")
"$ROOT/scripts/rxperf" --version > /dev/null   # builds the jar first, outside the timings
OUT=$(mktemp -d)
SERVER_PID=

cleanup() {
    [[ -z $SERVER_PID ]] || { kill -9 "$SERVER_PID"; wait "$SERVER_PID"; } 2>/dev/null || true
    "$ROOT/scripts/netns.sh" down > /dev/null
    rm -rf "$OUT"
}
trap cleanup EXIT
"$ROOT/scripts/netns.sh" up > /dev/null

now() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }

# client KIND HOST ARGS...: runs the client in A, output in $OUT/client
client() {
    local kind=$1 host=$2
    shift 2
    if [[ $kind == rx4j ]]; then
        ip netns exec "$A" "$ROOT/scripts/rxperf" client -s "$host" -p 7009 "$@"
    else
        ip netns exec "$A" "$PEER" client --bind 10.99.0.1 -s "$host" -p 7009 "$@"
    fi
}

start_server() {
    ip netns exec "$B" "$PEER" server --bind 10.99.0.2 -p 7009 > "$OUT/server" 2>&1 &
    SERVER_PID=$!
    sleep 0.5
}

row() { printf '%-5s %-8s %6s s  exit %-3s %s\n' "$1" "$2" "$3" "$4" "$(tail -n 1 "$OUT/client" | cut -c1-150)"; }

run_killed() {
    local kind=$1 t0 tk rc
    start_server
    t0=$(now)
    client "$kind" 10.99.0.2 -c send -b 104857600 --time 60 > "$OUT/client" 2>&1 &
    local cpid=$!
    sleep 2.5
    kill -9 "$SERVER_PID"
    tk=$(now)
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    rc=0
    wait "$cpid" || rc=$?
    row "$kind" killed "$(secs $(( $(now) - tk )))" "$rc"
}

run_whole() {
    local kind=$1 name=$2 host=$3 t0 rc=0
    shift 3
    t0=$(now)
    client "$kind" "$host" "$@" > "$OUT/client" 2>&1 || rc=$?
    row "$kind" "$name" "$(secs $(( $(now) - t0 )))" "$rc"
}

run_baseline() {
    start_server
    run_whole rx4j baseline 10.99.0.2 -c rpc -S 1 -R 1 -T 1
    kill -9 "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}

for (( i = 0; i < REPEATS; i++ )); do
    for kind in rx4j c; do
        run_killed "$kind"
        run_whole "$kind" noroute 10.98.0.2 -c send -b 1048576 -T 1
        run_whole "$kind" noarp 10.99.0.9 -c send -b 1048576 -T 1
    done
    run_baseline
done
