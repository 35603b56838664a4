#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Flood benchmark (docs/robustness.md "Flood"): a benchmark, not a test; it asserts nothing and prints its figures.
#
#   scripts/flood.sh
#
# Starts an rxperf server (scripts/rxperf server, pinned to CPU 0), then twice runs the same legitimate client
# (a 10 MiB send per call, FLOOD_CALLS calls) while scripts/flood/FloodGenerator.java (pinned to CPU 1) sends
# FLOOD_RATE new-connection DATA packets and FLOOD_RATE garbage datagrams per second from FLOOD_SOURCES 127/8
# source addresses for FLOOD_SECS seconds:
#   1. baseline: the generator aimed at a closed port (so the machine carries the same generator load);
#   2. flood: the generator aimed at the server.
# During the flood a second client connects (an rpc run; a quarter of FLOOD_SECS after the legitimate client finished)
# to show whether a newcomer is served.
# Prints the legitimate client's rate in both runs and their ratio, the server's RSS growth over the flood
# (VmRSS, KiB), and server CPU per flood datagram (utime+stime delta over the flood run / datagrams sent;
# this includes serving the legitimate client, so it is an upper bound), the datagrams the kernel dropped at the
# server's socket (its receive queue full: the `drops` column of /proc/net/udp) and the server CPU per datagram
# it actually read (sent − dropped; again including the legitimate client's).
# Env: FLOOD_PORT (7521), FLOOD_RATE (100000), FLOOD_SECS (30), FLOOD_SOURCES (256), FLOOD_CALLS (20),
# FLOOD_SERVER_ARGS (extra `rxperf server` flags, e.g. "--transport nio"; none by default),
# FLOOD_PARK_NS (20000: when ahead of its schedule the generator sleeps, so it uses only the CPU its sends cost, about
# half of its core, and datagrams leave in bursts of ~10 every ~60 us; 0: it spins, taking its whole core, so on a
# 2-core machine the legitimate client must share the server's core).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RX4J=$ROOT/scripts/rxperf
GEN=$ROOT/scripts/flood/FloodGenerator.java
PORT=${FLOOD_PORT:-7521}
RATE=${FLOOD_RATE:-100000}
SECS=${FLOOD_SECS:-30}
SOURCES=${FLOOD_SOURCES:-256}
CALLS=${FLOOD_CALLS:-20}
WORK=$(mktemp -d)
trap 'kill "${SPID:-}" "${GPID:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT

"$RX4J" --help >/dev/null 2>&1 || true # builds the jar when stale
# shellcheck disable=SC2086  # FLOOD_SERVER_ARGS holds several words on purpose
taskset -c 0 "$RX4J" server -p "$PORT" ${FLOOD_SERVER_ARGS:-} 2>"$WORK/server.err" &
SPID=$!
sleep 3
# scripts/rxperf execs java: the server's PID is $SPID.
rss() { awk '/VmRSS/ {print $2}' "/proc/$SPID/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SPID/stat"; }
TCK=$(getconf CLK_TCK)
# Datagrams the kernel dropped at the server's socket (receive queue full), from /proc/net/udp's last column.
# (Java's sockets are dual-stack IPv6 ones: both tables.)
sock_drops() { cat /proc/net/udp /proc/net/udp6 | awk -v p="$(printf ':%04X' "$PORT")" '$2 ~ p"$" {d += $NF} END {print d + 0}'; }

client_rate() { # runs the legitimate client, prints its result line (or its exit status and last line)
    local rc=0
    "$RX4J" client -p "$PORT" -c send -b 10485760 -T "$CALLS" >"$WORK/client.out" 2>&1 || rc=$?
    if (( rc != 0 )); then echo "client FAILED (exit $rc): $(tail -1 "$WORK/client.out")"; else tail -1 "$WORK/client.out"; fi
}

run() { # $1 = target port of the generator; $2 = label
    local rss0 cpu0 line mid=""
    rss0=$(rss); cpu0=$(cpu_ticks); drops0=$(sock_drops) # before the generator starts: the whole flood
    taskset -c 1 java "$GEN" 127.0.0.1 "$1" "$RATE" "$RATE" "$SECS" "$SOURCES" >"$WORK/gen.out" 2>&1 &
    GPID=$!
    sleep 2 # let the generator reach its rate
    line=$(client_rate)
    if [[ $2 == flood ]]; then
        sleep $(( SECS / 4 ))
        if "$RX4J" client -p "$PORT" -c rpc -T 100 >"$WORK/mid.out" 2>&1; then mid="served"; else mid="NOT served"; fi
    fi
    wait "$GPID" || true
    local rss1 cpu1 drops1
    rss1=$(rss); cpu1=$(cpu_ticks); drops1=$(sock_drops)
    echo "$2: client: $line"
    echo "$2: $(cat "$WORK/gen.out")"
    echo "$2: server RSS ${rss0} -> ${rss1} KiB (+$(( rss1 - rss0 )) KiB), server CPU $(( (cpu1 - cpu0) * 1000 / TCK )) ms"
    [[ -n $mid ]] && echo "$2: a client connecting mid-flood was $mid: $(tail -1 "$WORK/mid.out")"
    echo "$line" >"$WORK/$2.line"
    cat "$WORK/gen.out" >"$WORK/$2.gen"
    echo "$(( (cpu1 - cpu0) * 1000000000 / TCK ))" >"$WORK/$2.cpu_ns"
    echo "$(( drops1 - drops0 ))" >"$WORK/$2.drops"
}

run $((PORT + 1)) baseline
run "$PORT" flood
rate() { grep -oE '[0-9.]+ [MG]bit/s' "$1" | head -1 | awk '{print $2 == "Gbit/s" ? $1 * 1000 : $1}'; }
B=$(rate "$WORK/baseline.line" || true)
F=$(rate "$WORK/flood.line" || true)
N=$(grep -oE '^flood: [0-9]+ new-connection DATA' "$WORK/flood.gen" | awk '{print $2}')
G=$(grep -oE '[0-9]+ garbage' "$WORK/flood.gen" | awk '{print $1}')
if [[ -n $B && -n $F ]]; then
    echo "legitimate rate under flood: $F Mbit/s = $(awk -v f="$F" -v b="$B" 'BEGIN {printf "%.0f", 100 * f / b}')% of the baseline $B Mbit/s"
fi
if [[ -n $N && -n $G ]]; then
    echo "server CPU per flood datagram: $(awk -v c="$(cat "$WORK/flood.cpu_ns")" -v n="$((N + G))" 'BEGIN {printf "%.0f", c / n}') ns (upper bound: includes the legitimate client)"
    D=$(cat "$WORK/flood.drops")
    echo "kernel drops at the server's socket during the flood: $D of $((N + G)) flood datagrams; server CPU per datagram read: $(awk -v c="$(cat "$WORK/flood.cpu_ns")" -v n="$((N + G - D))" 'BEGIN {printf "%.0f", (n > 0) ? c / n : 0}') ns"
fi
