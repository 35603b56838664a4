#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# IP fragments of an rxperf run between two network namespaces (scripts/netns.sh: veth pair, one Ethernet segment):
# for each MTU asked (default 1500 and 9000), a fresh rxperf server in rx4j-b and a client in rx4j-a (or
# RX4J_NETNS_B / RX4J_NETNS_A, as scripts/netns.sh names them) send and receive
# BYTES each way, and the kernel's own counters (nstat: IpFragCreates on the sender, IpReasmReqds on the receiver,
# in each namespace) say how many IP fragments the run made. rx4j's default must make none (docs/engine.md
# "Packet size", "No IP fragments"); `--fragment-jumbograms` (OpenAFS's habit) is run as the control that does.
# Exits 1 when a default run made a fragment, or when the control at MTU 1500 made none (the count would prove
# nothing; above 1500 the control has no jumbogram to fragment: packets are as large as the route carries).
# Needs root (ip netns).
#
#   scripts/netns/fragments.sh [MTU ...]         env: FRAG_BYTES (default 52428800 = 50 MiB), FRAG_PORT (7451)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RXPERF=$ROOT/scripts/rxperf
PORT=${FRAG_PORT:-7451}
BYTES=${FRAG_BYTES:-52428800}
NS_A=${RX4J_NETNS_A:-rx4j-a}
NS_B=${RX4J_NETNS_B:-rx4j-b}
ADDR_B=10.99.0.2
MTUS=("$@")
[[ ${#MTUS[@]} -gt 0 ]] || MTUS=(1500 9000)
[[ $(id -u) -eq 0 ]] || { echo "fragments.sh: needs root (ip netns)" >&2; exit 2; }

"$RXPERF" --version >/dev/null  # build on first use, outside the measured runs
server=""
cleanup() {
    [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    "$ROOT/scripts/netns.sh" down >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Fragments made plus fragments reassembled in one namespace since it was created (absolute kernel counters).
frags() {
    ip netns exec "$1" nstat -az IpFragCreates IpReasmReqds 2>/dev/null \
        | awk '$1 == "IpFragCreates" || $1 == "IpReasmReqds" { n += $2 } END { print n + 0 }'
}

status=0
for mtu in "${MTUS[@]}"; do
    "$ROOT/scripts/netns.sh" up --mtu "$mtu" >/dev/null
    for mode in default --fragment-jumbograms; do
        extra=()
        [[ $mode == default ]] || extra=("$mode")
        ip netns exec "$NS_B" "$RXPERF" server -p "$PORT" "${extra[@]}" >/dev/null 2>&1 &
        server=$!
        # the launcher may first record its start-up cache for the server's flags (seconds): wait for the port
        for _ in $(seq 1 600); do
            ip netns exec "$NS_B" ss -Hlun "sport = :$PORT" | grep -q . && break
            sleep 0.1
        done
        sleep 0.3    # rxperf registers its service just after binding
        before=$(( $(frags "$NS_A") + $(frags "$NS_B") ))
        lines=""
        for w in send recv; do
            out=$(ip netns exec "$NS_A" "$RXPERF" client -s "$ADDR_B" -p "$PORT" -c "$w" -b 1048576 \
                -T $((BYTES / 1048576)) "${extra[@]}" 2>&1 | grep -E '^(SEND|RECV)' || true)
            lines+="    $out"$'\n'
        done
        n=$(( $(frags "$NS_A") + $(frags "$NS_B") - before ))
        kill "$server"; wait "$server" 2>/dev/null || true; server=""
        echo "MTU $mtu, $mode: $n IP fragments (IpFragCreates + IpReasmReqds, both namespaces)"
        printf '%s' "$lines"
        if [[ $mode == default && $n -ne 0 ]]; then
            status=1
        elif [[ $mode != default && $mtu -le 1500 && $n -eq 0 ]]; then
            # The control proves the counters see fragments; without any, a 0 for the default proves nothing. (Above
            # 1500 rx4j sends single packets as large as the route carries, so the flag has no jumbogram to fragment.)
            echo "    the control made no fragment: --fragment-jumbograms did not fragment, or nstat does not count" >&2
            status=1
        fi
    done
done
exit $status
