#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# The calls curve: what a fresh client process pays per short call as it warms up, rx4j against OpenAFS's C Rx (our
# rxperf peer on Debian's libafsrpc). For each implementation one server is started once and warmed; then fresh
# client processes run `-c rpc -S 4 -R 4 -T N` for each N of CURVE_TIMES, the implementations alternating run by run,
# CURVE_RUNS rounds. Per N it takes the median of the client's own elapsed msec (first call to last, JVM start
# excluded) and of the client process's CPU (user + system, JVM start included), and prints:
#   - the time per call of calls 1..N1, N1+1..N2, ... (differences of the medians: the cost of each stretch);
#   - client CPU per call of each stretch (the same differences of process CPU), and the whole process's CPU at N1;
#   - the server's CPU per call over all the rounds' calls (/proc/PID/stat).
# A benchmark, not a test; unpinned, as users run rxperf. Loopback only.
#
#   scripts/bench/calls-curve.sh [CURVE_TIMES]     e.g. scripts/bench/calls-curve.sh "1000 5000 20000"
#   env: CURVE_RUNS (3), CURVE_PORT (7681), CURVE_IMPLS ("c rx4j")
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMES=${1:-1000 5000 20000}
RUNS=${CURVE_RUNS:-3}
PORT=${CURVE_PORT:-7681}
IMPLS=${CURVE_IMPLS:-c rx4j}
PEER=$("$ROOT/scripts/interop/build-peer.sh")
RXPERF=$ROOT/scripts/rxperf
"$RXPERF" --version > /dev/null    # builds the jar and the start-up cache before anything is timed
TICK=$(getconf CLK_TCK)
WORK=$(mktemp -d)
declare -A SPID SCPU0
cleanup() {
    for i in "${!SPID[@]}"; do kill "${SPID[$i]}" 2> /dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
client() {    # client IMPL N: runs one fresh client; prints "msec cpu_seconds"
    local impl=$1 n=$2 port=$3 out
    local -a cmd
    if [[ $impl == c ]]; then cmd=("$PEER" client); else cmd=("$RXPERF" client); fi
    out=$({ /usr/bin/time -f 'CPU %U %S' "${cmd[@]}" -s 127.0.0.1 -p "$port" -c rpc -S 4 -R 4 -T "$n"; } 2>&1)
    local ms cpu
    ms=$(grep -oE '[0-9]+ msec' <<< "$out" | head -1 | cut -d' ' -f1)
    cpu=$(awk '/^CPU / { print $2 + $3 }' <<< "$out")
    [[ -n $ms && -n $cpu ]] || { echo "calls-curve.sh: $impl -T $n gave no result: $out" >&2; exit 1; }
    echo "$ms $cpu"
}

p=$PORT
declare -A IPORT
for impl in $IMPLS; do
    IPORT[$impl]=$p
    if [[ $impl == c ]]; then "$PEER" server -p "$p" > /dev/null 2>&1 &
    else "$RXPERF" server -p "$p" > /dev/null 2>&1 & fi
    SPID[$impl]=$!
    until ss -Hlun "sport = :$p" | grep -q .; do sleep 0.05; done
    sleep 0.3
    client "$impl" 5000 "$p" > /dev/null    # the server's own warm-up: a long-running server is warm
    SCPU0[$impl]=$(cpu_ticks "${SPID[$impl]}")
    p=$((p + 1))
done

total_calls=0
for _ in $(seq 1 "$RUNS"); do
    for n in $TIMES; do
        for impl in $IMPLS; do
            client "$impl" "$n" "${IPORT[$impl]}" >> "$WORK/$impl-$n"
        done
        total_calls=$((total_calls + n))
    done
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf 'calls curve: rpc -S 4 -R 4, fresh clients, median of %s, loopback, load %s\n' "$RUNS" "$(cut -d' ' -f1-3 /proc/loadavg)"
for impl in $IMPLS; do
    scpu=$(( $(cpu_ticks "${SPID[$impl]}") - SCPU0[$impl] ))
    printf '%-5s server CPU per call %.1f us (warm server, all rounds)\n' "$impl" \
        "$(awk -v t="$scpu" -v k="$TICK" -v n="$total_calls" 'BEGIN { print t / k / n * 1e6 }')"
    prev_n=0 prev_ms=0 prev_cpu=0
    for n in $TIMES; do
        ms=$(cut -d' ' -f1 "$WORK/$impl-$n" | median)
        cpu=$(cut -d' ' -f2 "$WORK/$impl-$n" | median)
        if ((prev_n == 0)); then
            printf '%-5s calls %6d..%-6d %7.1f us/call  client CPU %7.1f us/call (whole process, JVM start incl.: %.2f s)\n' \
                "$impl" 1 "$n" "$(awk -v a="$ms" -v n="$n" 'BEGIN { print a * 1000 / n }')" \
                "$(awk -v c="$cpu" -v n="$n" 'BEGIN { print c * 1e6 / n }')" "$cpu"
        else
            printf '%-5s calls %6d..%-6d %7.1f us/call  client CPU %7.1f us/call\n' "$impl" $((prev_n + 1)) "$n" \
                "$(awk -v a="$ms" -v b="$prev_ms" -v n="$((n - prev_n))" 'BEGIN { print (a - b) * 1000 / n }')" \
                "$(awk -v a="$cpu" -v b="$prev_cpu" -v n="$((n - prev_n))" 'BEGIN { print (a - b) * 1e6 / n }')"
        fi
        prev_n=$n prev_ms=$ms prev_cpu=$cpu
    done
done
