#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Measures rxperf rates on loopback for the four client/server pairs with the same commands
# (the rate table in docs/interop.md). A benchmark, not a test: it asserts nothing.
#
#   measure-rates.sh [REPEATS] [PAIR...]      (default 3 repeats, all pairs)
#
# PAIRs: c2c (C client, C server), rx4j2c (rx4j client, C server), c2rx4j (C client, rx4j
# server), rx4j2rx4j. C is our rxperf-peer on OpenAFS's libafsrpc (built by build-peer.sh when
# missing or stale); rx4j is scripts/rxperf (builds its jar on first use).
# Each server set starts one server on 127.0.0.1:${INTEROP_PORT:-7009} (stopped on exit) and runs
# every workload REPEATS times after one discarded warm-up run (the rx4j server is a JVM: its
# first calls run cold). Every rx4j client run is a new JVM, as a user runs rxperf. No --verify
# (the C<->C numbers never had it). Prints each result line, then one summary line per pair and
# workload: "PAIR | WORKLOAD | min-max (median)" in Mbit/s or Gbit/s, calls/s for rpc.
# Also prints the load average before and after: the machine may be shared.
set -euo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$DIR/../.." && pwd)
PEER=$DIR/build/rxperf-peer
RX4J=$ROOT/scripts/rxperf
PORT=${INTEROP_PORT:-7009}
REPEATS=${1:-3}
[[ $# -eq 0 ]] || shift
PAIRS=("$@")
[[ ${#PAIRS[@]} -gt 0 ]] || PAIRS=(c2c rx4j2c c2rx4j rx4j2rx4j)
PEER=$("$DIR/build-peer.sh")    # builds the C peer when missing or stale
"$RX4J" --version > /dev/null    # builds the jar now, not inside a timed run

# WORKLOADS: "server flags|client flags". All move at most 32 MiB per run.
WORKLOADS=(
    "|-c send -b 1048576 -T 32"
    "|-c recv -b 1048576 -T 32"
    "|-c send -b 32768 -T 1024"
    "|-c recv -b 32768 -T 1024"
    "|-c rpc -S 4 -R 30 -T 2000"
    "|-c rpc -S 100000 -R 100000 -T 20"
    "-j|-c send -b 1048576 -T 32 -j"
    "-W 255|-c send -b 1048576 -T 32 -W 255"
)

server=
stop_server() {
    if [[ -n $server ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
        server=
    fi
}
trap stop_server EXIT

start_server() {
    local impl=$1
    shift
    if ss -Hlun "sport = :$PORT" | grep -q .; then
        echo "measure-rates.sh: UDP $PORT is taken" >&2
        exit 1
    fi
    if [[ $impl == c ]]; then
        "$PEER" server -p "$PORT" "$@" > /dev/null 2>&1 &
    else
        java -jar "$ROOT/rx-perf/target/rxperf.jar" server -p "$PORT" "$@" > /dev/null 2>&1 &
    fi
    server=$!
    local tries=0
    until ss -Hlun "sport = :$PORT" | grep -q .; do
        (( tries++ < 100 )) || { echo "measure-rates.sh: nothing bound UDP $PORT within 10 s" >&2; exit 1; }
        sleep 0.1
    done
    sleep 0.5    # rx4j registers its service just after binding (docs/interop.md, known issues)
}

client() {
    local impl=$1
    shift
    if [[ $impl == c ]]; then
        "$PEER" client -s 127.0.0.1 -p "$PORT" "$@"
    else
        java -jar "$ROOT/rx-perf/target/rxperf.jar" client -s 127.0.0.1 -p "$PORT" "$@"
    fi
}

# rate LINE WORKLOAD: the figure for the summary: Mbit/s for send/recv, calls/s for rpc.
rate() {
    local line=$1 workload=$2 msec times
    msec=$(sed -E 's/.*:\t *([0-9]+) msec.*/\1/' <<< "$line")
    if [[ $workload == *"-c rpc"* ]]; then
        times=$(sed -E 's/.*-T ([0-9]+).*/\1/' <<< "$workload")
        awk -v t="$times" -v ms="$msec" 'BEGIN { printf "%.0f\n", (ms > 0 ? t * 1000 / ms : 0) }'
    else
        sed -E 's/.*\[([0-9.e+]+) (kbit|Mbit|Gbit)\/s\]$/\1 \2/' <<< "$line" |
            awk '{ f = ($2 == "Gbit") ? 1000 : ($2 == "kbit" ? 0.001 : 1); printf "%.1f\n", $1 * f }'
    fi
}

summary=()
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in "${PAIRS[@]}"; do
    case $pair in
        c2c) client_impl=c server_impl=c ;;
        rx4j2c) client_impl=rx4j server_impl=c ;;
        c2rx4j) client_impl=c server_impl=rx4j ;;
        rx4j2rx4j) client_impl=rx4j server_impl=rx4j ;;
        *) echo "measure-rates.sh: unknown pair $pair" >&2; exit 2 ;;
    esac
    current_server_flags=unset
    for entry in "${WORKLOADS[@]}"; do
        server_flags=${entry%%|*}
        workload=${entry#*|}
        if [[ $server_flags != "$current_server_flags" ]]; then
            stop_server
            # shellcheck disable=SC2086  # flags are several words on purpose
            start_server "$server_impl" $server_flags
            current_server_flags=$server_flags
            # shellcheck disable=SC2086
            client "$client_impl" $workload > /dev/null 2>&1 || true    # warm-up, discarded
        fi
        echo "# $pair: server ${server_flags:-(defaults)}; client $workload"
        rates=()
        for _ in $(seq 1 "$REPEATS"); do
            # shellcheck disable=SC2086
            line=$(client "$client_impl" $workload 2>&1 | grep -E '^(SEND|RECV|RPC): ' | head -1) || true
            echo "${line:-(no result line)}"
            [[ -z $line ]] || rates+=("$(rate "$line" "$workload")")
        done
        unit=$([[ $workload == *"-c rpc"* ]] && echo "calls/s" || echo "Mbit/s")
        summary+=("$pair | ${server_flags:+server $server_flags; }$workload | $(printf '%s\n' "${rates[@]}" | sort -g |
            awk -v u="$unit" '{ v[NR] = $1 } END { if (NR == 0) { print "no result"; exit }
                printf "%s-%s (median %s) %s\n", v[1], v[NR], v[int((NR + 1) / 2)], u }')")
    done
    stop_server
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== summary ($REPEATS runs each)"
printf '%s\n' "${summary[@]}"
