#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Measures scripts/rxperf's JVM flag candidates the way users run rxperf: cold and unpinned, a fresh server and a
# fresh client process per run, both started through scripts/rxperf with the candidate's flags (RXPERF_JVM_FLAGS)
# and start-up cache (RXPERF_CDS / RXPERF_AOT). Prints, per workload and candidate, the median of N runs of the
# client's result line (Mbit/s, calls/s, or msec for the -T 1 / -T 10 first-call rows) and of the client process's
# CPU time (user+sys, the whole process, JVM start included). docs/benchmarks.md, "The launcher", says how the
# launcher's default was chosen from this table. A benchmark, not a test: it asserts nothing.
#
#   scripts/bench/launcher-flags.sh [--runs N] [--workloads "ID ..."] [--sets "NAME ..."] [--caches "aot cds none"]
#                                   [--port PORT] [--out FILE]
#
#   --runs N        runs per workload, candidate and cache (default 3; the median is printed)
#   --workloads     workload ids (default: all of the list below, the speed goals' cold table and the first call)
#   --sets          flag sets (default: c1-serial c1 tiered tiered-newsize):
#                     c1-serial       -XX:TieredStopAtLevel=1 -XX:MaxNewSize=32m -XX:+UseSerialGC
#                                     (C1 only, serial collector: the launcher's client default)
#                     c1              -XX:TieredStopAtLevel=1 -XX:MaxNewSize=32m   (C1 only, G1)
#                     tiered          (none: the JVM's default tiered C1+C2 compilation)
#                     tiered-newsize  -XX:MaxNewSize=32m
#   --caches        start-up caches (default: aot none): aot = the launcher's cache (JDK 25's AOT cache, AppCDS on
#                   older JDKs), cds = AppCDS on any JDK (RXPERF_AOT=0), none = no cache of our own (RXPERF_CDS=0)
#   --port PORT     the server's UDP port (default 7439)
#   --out FILE      also write the table (markdown) to FILE
#
# The first run of each candidate records its start-up cache (scripts/rxperf does that on first use, outside the
# timed runs: a --version run per candidate comes first). The whole default form (11 workloads x 4 sets x 2 caches
# x 3 runs) takes about 40-55 min on 2 cores; run it on a quiet machine. Env: RXPERF_JAVA picks the JDK, as for
# scripts/rxperf.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RX4J=$ROOT/scripts/rxperf
RUNS=3
PORT=7439
OUT=
SETS="c1-serial c1 tiered tiered-newsize"
CACHES="aot none"

# "id|server flags|client flags"
ALL_WORKLOADS=(
    "send1m|-c send -b 1048576 -T 100"
    "recv1m|-c recv -b 1048576 -T 100"
    "send128k|-c send -b 131072 -T 800"
    "send32k|-c send -b 32768 -T 3200"
    "recv128k|-c recv -b 131072 -T 800"
    "recv32k|-c recv -b 32768 -T 3200"
    "rpc1|-c rpc -S 4 -R 4 -T 20000"
    "rpc8|-c rpc -S 4 -R 4 -T 4000 -t 8"
    "w255|-c send -b 1048576 -T 100 -W 255"
    "first1|-c send -b 1048576 -T 1"
    "first10|-c send -b 1048576 -T 10"
)
WORKLOADS=""

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
    case $1 in
        --runs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "launcher-flags.sh: --runs needs a count >= 1" >&2; exit 2; }
            RUNS=$2; shift ;;
        --workloads) [[ -n ${2:-} ]] || { echo "launcher-flags.sh: --workloads needs ids" >&2; exit 2; }
            WORKLOADS=$2; shift ;;
        --sets) [[ -n ${2:-} ]] || { echo "launcher-flags.sh: --sets needs names" >&2; exit 2; }
            SETS=$2; shift ;;
        --caches) [[ -n ${2:-} ]] || { echo "launcher-flags.sh: --caches needs names" >&2; exit 2; }
            CACHES=$2; shift ;;
        --port) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "launcher-flags.sh: --port needs a number" >&2; exit 2; }
            PORT=$2; shift ;;
        --out) [[ -n ${2:-} ]] || { echo "launcher-flags.sh: --out needs a file" >&2; exit 2; }
            OUT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "launcher-flags.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

set_flags() {    # set_flags NAME: the flag string of a flag set into FLAGS
    case $1 in
        c1-serial) FLAGS="-XX:TieredStopAtLevel=1 -XX:MaxNewSize=32m -XX:+UseSerialGC" ;;
        c1) FLAGS="-XX:TieredStopAtLevel=1 -XX:MaxNewSize=32m" ;;
        tiered) FLAGS="" ;;
        tiered-newsize) FLAGS="-XX:MaxNewSize=32m" ;;
        *) echo "launcher-flags.sh: unknown flag set $1 (c1-serial, c1, tiered, tiered-newsize)" >&2; exit 2 ;;
    esac
}

cache_env() {    # cache_env NAME: the launcher's cache variables into CACHE_ENV
    case $1 in
        aot) CACHE_ENV=(RXPERF_CDS=1 RXPERF_AOT=1) ;;
        cds) CACHE_ENV=(RXPERF_CDS=1 RXPERF_AOT=0) ;;
        none) CACHE_ENV=(RXPERF_CDS=0) ;;
        *) echo "launcher-flags.sh: unknown cache $1 (aot, cds, none)" >&2; exit 2 ;;
    esac
}

entries=()
if [[ -z $WORKLOADS ]]; then
    entries=("${ALL_WORKLOADS[@]}")
else
    for id in $WORKLOADS; do
        found=
        for entry in "${ALL_WORKLOADS[@]}"; do
            [[ ${entry%%|*} == "$id" ]] && { entries+=("$entry"); found=1; }
        done
        [[ -n $found ]] || { echo "launcher-flags.sh: unknown workload $id" >&2; exit 2; }
    done
fi
for s in $SETS; do set_flags "$s"; done
for c in $CACHES; do cache_env "$c"; done

# shellcheck source=../lib/bench-server.sh
source "$ROOT/scripts/lib/bench-server.sh"
WORK=$(mktemp -d /tmp/rx4j-launcher-flags.XXXXXX)
cleanup() {
    server_stop
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# one_run SET CACHE ID CLIENT_FLAGS REP: a fresh server and client with the candidate; appends a result line
# "id set cache rep msec calls bytes cpu_s" to WORK/results.tsv.
one_run() {
    local set=$1 cache=$2 id=$3 cflags=$4 rep=$5 out line cpu msec threads times bytes
    set_flags "$set"
    cache_env "$cache"
    server_start "$WORK/server.log" env "${CACHE_ENV[@]}" RXPERF_JVM_FLAGS="$FLAGS" "$RX4J" server -p "$PORT"
    out=$WORK/client.out
    # shellcheck disable=SC2086  # the flag strings hold several words on purpose
    { TIMEFORMAT='%3U %3S'; time env "${CACHE_ENV[@]}" RXPERF_JVM_FLAGS="$FLAGS" "$RX4J" client -p "$PORT" $cflags \
        > "$out" 2> "$WORK/client.err"; } 2> "$WORK/client.time" || true
    server_stop
    line=$(grep -E '^(SEND|RECV|RPC): ' "$out" | head -1 || true)
    cpu=$(awk 'END { printf "%.3f", $1 + $2 }' "$WORK/client.time")
    local re='threads.([0-9]+), times.([0-9]+), (bytes.([0-9]+)|write bytes.([0-9]+), read bytes.([0-9]+)):'
    re+='[[:space:]]+([0-9]+) msec'
    if [[ $line =~ $re ]]; then
        threads=${BASH_REMATCH[1]} times=${BASH_REMATCH[2]} msec=${BASH_REMATCH[7]}
        bytes=${BASH_REMATCH[4]:-$(( ${BASH_REMATCH[5]:-0} + ${BASH_REMATCH[6]:-0} ))}
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$set" "$cache" "$rep" "$msec" "$((threads * times))" \
            "$bytes" "$cpu" >> "$WORK/results.tsv"
        printf '[%s] %-9s %-15s %-5s #%s: %s msec, client CPU %s s\n' "$(date +%T)" "$id" "$set" "$cache" "$rep" \
            "$msec" "$cpu" >&2
    else
        printf '[%s] %-9s %-15s %-5s #%s: no result line: %s\n' "$(date +%T)" "$id" "$set" "$cache" "$rep" \
            "$(head -c 300 "$WORK/client.err")" >&2
    fi
}

echo "launcher-flags.sh: $RUNS run(s) of ${#entries[@]} workload(s) x sets ($SETS) x caches ($CACHES);" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$RX4J" --version > "$WORK/version" 2> /dev/null    # builds the jar once, before any run
for s in $SETS; do
    for c in $CACHES; do
        set_flags "$s"
        cache_env "$c"
        env "${CACHE_ENV[@]}" RXPERF_JVM_FLAGS="$FLAGS" "$RX4J" --version > /dev/null    # records its cache
    done
done
touch "$WORK/results.tsv"
# Candidates alternate run by run, so that a change of the machine's load spreads over all of them.
for rep in $(seq 1 "$RUNS"); do
    for entry in "${entries[@]}"; do
        id=${entry%%|*}
        for s in $SETS; do
            for c in $CACHES; do
                one_run "$s" "$c" "$id" "${entry#*|}" "$rep"
            done
        done
    done
done

python3 - "$WORK/results.tsv" "$RUNS" "$SETS" "$CACHES" "$(cat "$WORK/version")" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" "${entries[@]}" > "$WORK/table.md" <<'EOF'
import statistics, sys
path, runs, sets, caches, version, load = sys.argv[1:7]
entries = sys.argv[7:]
rows = {}
for line in open(path):
    wid, s, c, rep, msec, calls, nbytes, cpu = line.rstrip("\n").split("\t")
    rows.setdefault((wid, s, c), []).append((int(msec), int(calls), int(nbytes), float(cpu)))
cols = [(s, c) for s in sets.split() for c in caches.split()]
print("Median of %s run(s); fresh server and client per run, unpinned; the launcher's default: %s; "
      "load average after: %s." % (runs, version, load))
print("Cells: the result line's figure (Mbit/s for send/recv, calls/s for rpc, msec for first1/first10) / the client"
      " process's CPU seconds.")
print()
print("| workload | " + " | ".join("%s, %s" % col for col in cols) + " |")
print("|---|" + "---|" * len(cols))
for entry in entries:
    wid, flags = entry.split("|", 1)
    cells = []
    for col in cols:
        got = rows.get((wid,) + col, [])
        if not got:
            cells.append("—")
            continue
        cpu = statistics.median(g[3] for g in got)
        if wid.startswith("first"):
            fig = "%d ms" % statistics.median(g[0] for g in got)
        elif "rpc" in flags:
            fig = "%.0f calls/s" % statistics.median(g[1] * 1000.0 / max(g[0], 1) for g in got)
        else:
            fig = "%.0f Mbit/s" % statistics.median(g[1] * g[2] * 8 / (max(g[0], 1) * 1000.0) for g in got)
        cells.append("%s / %.2f s" % (fig, cpu))
    print("| `%s` | %s |" % (flags, " | ".join(cells)))
EOF
cat "$WORK/table.md"
[[ -z $OUT ]] || cp "$WORK/table.md" "$OUT"
