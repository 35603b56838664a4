#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Cold, unpinned A/B of two rxperf jars in the mixed pairs with OpenAFS's C Rx (our C peer on Debian's libafsrpc): for
# each round, the pairs given, one after the other, each a fresh server and a fresh client; prints one line per run:
# pair, elapsed msec, calls/s (rpc), the UDP RcvbufErrors counted during the run at the server's and the client's side,
# the load average and the machine's steal share during the run (scripts/lib/steal.sh). A benchmark, not a test.
#
#   scripts/bench/ab-mixed.sh BEFORE.jar:AFTER.jar ROUNDS "PAIRS" "CLIENT FLAGS[; CLIENT FLAGS...]" [MTU]
#   BEFORE/AFTER: a jar, or a launcher such as /path/to/checkout/scripts/rxperf (its own JDK, flags and AOT cache)
#   PAIRS: words CLIENT2SERVER of c (C peer), B (BEFORE.jar), A (AFTER.jar), e.g. "c2c B2c A2c c2B c2A B2B A2A"
#   CLIENT FLAGS: one workload, or several separated by ';': each round then runs every workload in turn, each
#          preceded by a line "== FLAGS" (with AB_SERVERS=once the same servers serve all of them, as a server
#          started once serves every later client run)
#   MTU:   when given, the server runs in namespace sp-b (10.99.0.2) and the client in sp-a (10.99.0.1), joined by a
#          veth pair of that MTU (scripts/netns.sh with its RX4J_NETNS_* names set to these); RcvbufErrors are then
#          each namespace's own. Without it, loopback: both columns are the host's one count (other traffic counts).
#   env:   AB_PORT (7571), AB_JAVA (java), AB_FLAGS (the launcher's C1 flags),
#          AB_SERVERS=once: one server of each kind for the whole run (ports AB_PORT, +1, +2 for c, B, A) with fresh
#          clients against it, as the speed issue's table is measured; default "fresh": a fresh server per run
# e.g. scripts/bench/ab-mixed.sh old.jar:rx-perf/target/rxperf.jar 3 "c2c B2c A2c" "-c send -b 1048576 -T 100" 9000
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $# -ge 4 ]] || { sed -n '2,21p' "$0" >&2; exit 2; }
JARS=$1 ROUNDS=$2 PAIRS=$3 CF=$4 MTU=${5:-}
PEER=$("$ROOT/scripts/interop/build-peer.sh")
JAVA=${AB_JAVA:-java}
# shellcheck source=../lib/launcher-flags.sh
source "$ROOT/scripts/lib/launcher-flags.sh"
# shellcheck source=../lib/steal.sh
source "$ROOT/scripts/lib/steal.sh"
# shellcheck disable=SC2206
FLAGS=(${AB_FLAGS:-$LAUNCHER_FLAGS})
# A side that is not a .jar is a launcher (a checkout's scripts/rxperf), run as users run it: its own JDK, flags and
# start-up cache (it records the cache on first use: run it once before timing).
side() { if [[ $1 == *.jar ]]; then echo "$JAVA ${FLAGS[*]} -jar $1"; else echo "$1"; fi; }
# shellcheck disable=SC2207
JB=($(side "${JARS%%:*}"))
# shellcheck disable=SC2207
JA=($(side "${JARS##*:}"))
P=${AB_PORT:-7571}
NSB=() NSA=() HOST=127.0.0.1 CB=() SB=()
if [[ -n $MTU ]]; then
    export RX4J_NETNS_A=sp-a RX4J_NETNS_B=sp-b RX4J_NETNS_VETH_A=sp-veth-a RX4J_NETNS_VETH_B=sp-veth-b
    "$ROOT/scripts/netns.sh" up --mtu "$MTU" > /dev/null
    trap '"$ROOT/scripts/netns.sh" down > /dev/null 2>&1' EXIT
    NSB=(ip netns exec sp-b) NSA=(ip netns exec sp-a) HOST=10.99.0.2 CB=(--bind 10.99.0.1) SB=(--bind 10.99.0.2)
fi
rcvbuf() { "$@" awk '/^Udp:/ { n++ } n == 2 && /^Udp:/ { print $6; exit }' /proc/net/snmp; }
# start_server KIND PORT: starts the server of KIND (c, B or A) in the server's namespace on PORT, waits for its port.
start_server() {
    case $1 in
        c) "${NSB[@]}" "$PEER" server -p "$2" "${SB[@]}" > /dev/null 2>&1 & ;;
        B) "${NSB[@]}" "${JB[@]}" server -p "$2" > /dev/null 2>&1 & ;;
        A) "${NSB[@]}" "${JA[@]}" server -p "$2" > /dev/null 2>&1 & ;;
        *) echo "ab-mixed.sh: unknown server kind $1" >&2; exit 2 ;;
    esac
    sp=$!
    until "${NSB[@]}" ss -Hlun "sport = :$2" | grep -q .; do sleep 0.05; done
    sleep 0.3    # rx4j registers its service just after binding
}
declare -A ONCE_PORT=([c]=$P [B]=$((P + 1)) [A]=$((P + 2)))
SERVER_PIDS=()
if [[ ${AB_SERVERS:-fresh} == once ]]; then
    # As the speed issue measures: one server of each kind for the whole run, fresh clients against it.
    for k in c B A; do
        [[ " $PAIRS " == *"2$k "* ]] || continue
        start_server "$k" "${ONCE_PORT[$k]}"
        SERVER_PIDS+=("$sp")
    done
    trap 'kill "${SERVER_PIDS[@]}" 2> /dev/null; [[ -n $MTU ]] && "$ROOT/scripts/netns.sh" down > /dev/null 2>&1' EXIT
fi
IFS=';' read -r -a WORKLOADS <<< "$CF"
for _ in $(seq 1 "$ROUNDS"); do
    for CF in "${WORKLOADS[@]}"; do
        CF=${CF#"${CF%%[![:space:]]*}"}    # trims the blanks around a ';'
        CF=${CF%"${CF##*[![:space:]]}"}
        [[ ${#WORKLOADS[@]} -eq 1 ]] || echo "== $CF"
        for p in $PAIRS; do
            k=${p##*2}
            if [[ ${AB_SERVERS:-fresh} == once ]]; then
                port=${ONCE_PORT[$k]}
            else
                port=$P
                start_server "$k" "$port"
            fi
            b0=$(rcvbuf "${NSB[@]}") a0=$(rcvbuf "${NSA[@]}") st0=$(steal_ticks)
            # shellcheck disable=SC2086
            case $p in
                c2*) out=$("${NSA[@]}" "$PEER" client -s "$HOST" -p "$port" "${CB[@]}" $CF 2>&1 | grep -E '^(SEND|RECV|RPC)') ;;
                B2*) out=$("${NSA[@]}" "${JB[@]}" client -s "$HOST" -p "$port" $CF 2>&1 | grep -E '^(SEND|RECV|RPC)') ;;
                A2*) out=$("${NSA[@]}" "${JA[@]}" client -s "$HOST" -p "$port" $CF 2>&1 | grep -E '^(SEND|RECV|RPC)') ;;
                *) echo "ab-mixed.sh: unknown pair $p" >&2; exit 2 ;;
            esac
            b1=$(rcvbuf "${NSB[@]}") a1=$(rcvbuf "${NSA[@]}") st1=$(steal_ticks)
            if [[ ${AB_SERVERS:-fresh} != once ]]; then
                kill "$sp"; wait "$sp" 2> /dev/null
            fi
            printf '%s\t%s\t%s\trcvbufErr srv=%s cli=%s\tload=%s\tsteal=%s%%\n' "$p" \
                "$(grep -oE '[0-9]+ msec' <<< "$out" | head -1)" "$(grep -oE '[0-9]+ calls/s' <<< "$out")" \
                "$((b1 - b0))" "$((a1 - a0))" "$(cut -d' ' -f1 /proc/loadavg)" "$(steal_pct "$st0" "$st1")"
        done
    done
done
