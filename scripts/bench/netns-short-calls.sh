#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Short calls between two network namespaces, C <-> C against rx4j <-> rx4j (the speed issue's short-call rows, two
# hosts): a veth pair of the given MTU (scripts/netns.sh with its RX4J_NETNS_* names set to sp-a / sp-b), a C rxperf
# server (our C peer on Debian's libafsrpc) and an rx4j one started once in sp-b, then per round a fresh C client and a
# fresh rx4j client in sp-a for each workload. Prints one line per round and workload: both elapsed times and the rx4j
# client's p99 ("FAILED" for a client that printed no result), and the machine's steal share over the two clients' runs
# (steal=PCT%, scripts/lib/steal.sh). A benchmark, not a test; needs root. The first rounds include each server's own
# warm-up.
#
#   scripts/bench/netns-short-calls.sh MTU ROUNDS
# e.g. scripts/bench/netns-short-calls.sh 1500 5
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $# -eq 2 ]] || { sed -n '4,13p' "$0" >&2; exit 2; }
MTU=$1 ROUNDS=$2
export RX4J_NETNS_A=sp-a RX4J_NETNS_B=sp-b RX4J_NETNS_VETH_A=sp-veth-a RX4J_NETNS_VETH_B=sp-veth-b
PEER=$("$ROOT/scripts/interop/build-peer.sh")
# shellcheck source=../lib/steal.sh
source "$ROOT/scripts/lib/steal.sh"
"$ROOT/scripts/rxperf" --version > /dev/null    # builds the jar and records its start-up cache before timing
WORK=$(mktemp -d /tmp/rx4j-netns-calls.XXXXXX)
pids=()
cleanup() {
    ((${#pids[@]} == 0)) || kill "${pids[@]}" 2> /dev/null || true
    "$ROOT/scripts/netns.sh" down > /dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
"$ROOT/scripts/netns.sh" up --mtu "$MTU" > /dev/null
ip netns exec sp-b "$PEER" server -p 7621 --bind 10.99.0.2 > "$WORK/c-server.log" 2>&1 &
pids+=($!)
ip netns exec sp-b "$ROOT/scripts/rxperf" server -p 7622 > "$WORK/rx4j-server.log" 2>&1 &
pids+=($!)
# wait_port PORT PID LOG: until the server listens on PORT; exits 1 if it died or 30 s passed
wait_port() {
    local i
    for ((i = 0; i < 600; i++)); do
        [[ -z $(ip netns exec sp-b ss -Hlun "sport = :$1") ]] || return 0
        kill -0 "$2" 2> /dev/null || { echo "server on port $1 exited:" >&2; cat "$3" >&2; exit 1; }
        sleep 0.05
    done
    echo "server on port $1: not listening after 30 s" >&2
    exit 1
}
wait_port 7621 "${pids[0]}" "$WORK/c-server.log"
wait_port 7622 "${pids[1]}" "$WORK/rx4j-server.log"
sleep 0.3    # rx4j registers its service just after binding
for _ in $(seq 1 "$ROUNDS"); do
    for w in "-c rpc -S 4 -R 4 -T 5000" "-c rpc -S 4 -R 4 -T 4000 -t 8"; do
        st0=$(steal_ticks)
        # shellcheck disable=SC2086  # $w holds several flags on purpose
        c=$(ip netns exec sp-a "$PEER" client -s 10.99.0.2 -p 7621 --bind 10.99.0.1 $w 2>&1 |
            grep -oE '[0-9]+ msec' | head -1) || c=FAILED
        # shellcheck disable=SC2086
        a=$(ip netns exec sp-a "$ROOT/scripts/rxperf" client -s 10.99.0.2 -p 7622 $w 2>&1 |
            grep -oE '[0-9]+ msec|p99 [0-9.]+' | tr '\n' ' ') || a=FAILED
        a=${a% }
        echo "MTU $MTU [$w] c2c ${c:-FAILED} | A2A ${a:-FAILED} | steal=$(steal_pct "$st0" "$(steal_ticks)")%"
    done
done
