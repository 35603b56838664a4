#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Two network namespaces joined by a veth pair, the way two hosts on one Ethernet segment are (same
# machine): rx4j-a holds veth-rx4j-a = 10.99.0.1/24, rx4j-b holds veth-rx4j-b = 10.99.0.2/24, both
# with the given MTU, plus each namespace's own loopback. The addresses exist only inside the
# namespaces (the host's routing is untouched). Needs root (ip netns). Idempotent: `up` on an
# existing pair only sets the MTU again; `down` removes both namespaces (and with them the veth
# pair) and is a no-op when they are absent. Used by scripts/bench.sh --netns and by tests that
# need a non-loopback address. RX4J_NETNS_A/RX4J_NETNS_B and RX4J_NETNS_VETH_A/RX4J_NETNS_VETH_B (at most 15
# characters) rename the namespaces and the veth ends, so a second pair (scripts/interop.sh's) can exist alongside.
#
#   scripts/netns.sh up [--mtu BYTES]    (default 1500; 68..65535) prints "rx4j-a 10.99.0.1" and "rx4j-b 10.99.0.2"
#   scripts/netns.sh down
#   scripts/netns.sh status              exit 0 if both namespaces are up, and print their addresses
#
# Run a command inside one: ip netns exec rx4j-a CMD...
set -euo pipefail

NS_A=${RX4J_NETNS_A:-rx4j-a}
NS_B=${RX4J_NETNS_B:-rx4j-b}
ADDR_A=10.99.0.1
ADDR_B=10.99.0.2
VETH_A=${RX4J_NETNS_VETH_A:-veth-rx4j-a}
VETH_B=${RX4J_NETNS_VETH_B:-veth-rx4j-b}

usage() { echo "usage: $0 up [--mtu BYTES] | down | status" >&2; exit 2; }

ns_exists() { ip netns list | awk '{ print $1 }' | grep -qxF "$1"; }

print_addresses() {
    echo "$NS_A $ADDR_A"
    echo "$NS_B $ADDR_B"
}

up() {
    local mtu=$1
    command -v ip > /dev/null || { echo "netns.sh: ip (iproute2) not found" >&2; exit 1; }
    [[ $(id -u) -eq 0 ]] || { echo "netns.sh: needs root (ip netns)" >&2; exit 1; }
    ns_exists "$NS_A" || ip netns add "$NS_A"
    ns_exists "$NS_B" || ip netns add "$NS_B"
    if ! ip -n "$NS_A" link show "$VETH_A" > /dev/null 2>&1; then
        # a half-made pair (e.g. an interrupted run) is removed first
        ip -n "$NS_B" link del "$VETH_B" 2>/dev/null || true
        ip link del "$VETH_A" 2>/dev/null || true
        ip link add "$VETH_A" type veth peer name "$VETH_B"
        ip link set "$VETH_A" netns "$NS_A"
        ip link set "$VETH_B" netns "$NS_B"
    fi
    ip -n "$NS_A" link set "$VETH_A" mtu "$mtu"
    ip -n "$NS_B" link set "$VETH_B" mtu "$mtu"
    ip -n "$NS_A" addr replace "$ADDR_A/24" dev "$VETH_A"
    ip -n "$NS_B" addr replace "$ADDR_B/24" dev "$VETH_B"
    ip -n "$NS_A" link set lo up
    ip -n "$NS_B" link set lo up
    ip -n "$NS_A" link set "$VETH_A" up
    ip -n "$NS_B" link set "$VETH_B" up
    # veth has no carrier delay, but wait for both ends to report LOWER_UP before anyone measures
    local tries=0
    until ip -n "$NS_A" -o link show "$VETH_A" | grep -q LOWER_UP \
            && ip -n "$NS_B" -o link show "$VETH_B" | grep -q LOWER_UP; do
        (( ++tries < 50 )) || { echo "netns.sh: the veth pair does not come up" >&2; exit 1; }
        sleep 0.1
    done
    echo "mtu $mtu"
    print_addresses
}

down() {
    ! ns_exists "$NS_A" || ip netns del "$NS_A"
    ! ns_exists "$NS_B" || ip netns del "$NS_B"
    # deleting a namespace deletes the veth end inside it, and with it the peer
    ip link del "$VETH_A" 2>/dev/null || true
}

status() {
    ns_exists "$NS_A" && ns_exists "$NS_B" || { echo "netns.sh: down"; return 1; }
    echo "mtu $(ip -n "$NS_A" -o link show "$VETH_A" | sed -E 's/.* mtu ([0-9]+).*/\1/')"
    print_addresses
}

[[ $# -ge 1 ]] || usage
action=$1
shift
mtu=1500
while [[ $# -gt 0 ]]; do
    case $1 in
        --mtu)
            [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -ge 68 && $2 -le 65535 ]] \
                || { echo "netns.sh: --mtu needs a number of bytes in 68..65535" >&2; exit 2; }
            mtu=$2
            shift 2 ;;
        *) usage ;;
    esac
done
case $action in
    up) up "$mtu" ;;
    down) down ;;
    status) status ;;
    *) usage ;;
esac
