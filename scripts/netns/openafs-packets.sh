#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# What OpenAFS's sender sends rx4j's receiver (docs/engine.md "What rx4j asks of an OpenAFS sender"): our C rxperf
# peer (OpenAFS's Rx, Debian's libafsrpc) serves BYTES in 1 MiB calls to a fresh rx4j client, checked byte by byte
# (--verify), and the client's own counters (-D: datagrams read and DATA packets in them) say how the server cut them.
#   - between two network namespaces at MTU 9000 (scripts/netns.sh: veth pair; both sides say ifMTU 8524 or more), rx4j
#     advertises maxDgramPackets 1, so every datagram must hold one packet, of more than 8,000 bytes on average;
#   - on loopback (the control), where OpenAFS says ifMTU 1444, it must still send jumbograms: more packets than
#     datagrams, so the count tells the two apart.
# Exits 1 when either fails. Needs root (ip netns).
#
#   scripts/netns/openafs-packets.sh         env: OAP_BYTES (default 10485760 = 10 MiB), OAP_PORT (7461)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RXPERF=$ROOT/scripts/rxperf
PORT=${OAP_PORT:-7461}
BYTES=${OAP_BYTES:-10485760}
NS_A=${RX4J_NETNS_A:-rx4j-a}
NS_B=${RX4J_NETNS_B:-rx4j-b}
ADDR_B=10.99.0.2
[[ $(id -u) -eq 0 ]] || { echo "openafs-packets.sh: needs root (ip netns)" >&2; exit 2; }
# shellcheck source=../lib/bench-server.sh
source "$ROOT/scripts/lib/bench-server.sh"
PEER=$("$ROOT/scripts/interop/build-peer.sh")
"$RXPERF" --version > /dev/null    # build on first use, outside the runs
LOG=$(mktemp /tmp/rx4j-openafs-packets.XXXXXX)
cleanup() {
    server_stop
    "$ROOT/scripts/netns.sh" down > /dev/null 2>&1 || true
    rm -f "$LOG"
}
trap cleanup EXIT

# run LABEL NS HOST: a C server on HOST (in namespace NS and the client in NS_A, or both here when NS is empty), one
# rx4j client run against it; prints the result and the counts, and sets DGRAMS, PACKETS, RECEIVED.
run() {
    local label=$1 host=$3 out in_a=()
    SERVER_NS=$2
    [[ -z $SERVER_NS ]] || in_a=(ip netns exec "$NS_A")
    server_start "$LOG" "$PEER" server -p "$PORT" --bind "$host" --verify
    out=$("${in_a[@]}" "$RXPERF" client -s "$host" -p "$PORT" -c recv -b 1048576 -T $((BYTES / 1048576)) --verify -D 2>&1)
    server_stop
    grep -q '^RECV:' <<< "$out" || { echo "$label: the client printed no result:"; echo "$out" | head -5; return 1; }
    DGRAMS=$(awk '/^ *packets read:/ { print $4; exit }' <<< "$out")
    PACKETS=$(awk '/^ *other read counters:/ { print $5; exit }' <<< "$out" | tr -d ,)
    RECEIVED=$(awk '$1 == "bytesReceived" { print $2; exit }' <<< "$out")
    echo "$label: $(grep '^RECV:' <<< "$out")"
    echo "    $DGRAMS DATA datagrams read, $PACKETS DATA packets in them, $RECEIVED bytes"
}

status=0
"$ROOT/scripts/netns.sh" up --mtu 9000 > /dev/null
run "MTU 9000 between namespaces" "$NS_B" "$ADDR_B"
if ((PACKETS != DGRAMS || RECEIVED / DGRAMS < 8000)); then
    echo "    expected single packets of more than 8,000 bytes: OpenAFS did not send its natMTU's packets" >&2
    status=1
fi
"$ROOT/scripts/netns.sh" down > /dev/null
run "loopback (control)" "" 127.0.0.1
if ((PACKETS <= DGRAMS)); then
    echo "    expected jumbograms (more packets than datagrams): the count cannot tell the cases apart" >&2
    status=1
fi
exit $status
