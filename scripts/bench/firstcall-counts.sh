#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Counts what rxperf's first call spends, figures that hold on a loaded machine where times do not
# (docs/benchmarks.md, "The first call"): one scripts/rxperf server, warmed by one call as a server a user left
# running would be, then N fresh `scripts/rxperf client -c send -b 1048576 -T 1 -D` processes, each with the JVM's
# class-load, thread and JIT logs. The call's window is the client thread's life (rxperf-client-0, started just
# before the clock, ended just before it stops). Per run it prints the result line's msec, the process CPU over the
# call (-D's CPU line), and in the window: classes loaded (and how many not from the start-up cache), methods
# compiled, threads started, datagrams sent and received; then the same before the window. A measurement, not a
# test: it asserts nothing.
#
#   scripts/bench/firstcall-counts.sh [--runs N] [--port PORT] [--server rx4j|c] [-- CLIENT_FLAGS...]
#
#   --runs N        client processes (default 5)
#   --port PORT     the server's UDP port (default 7449)
#   --server c      against the C rxperf peer (scripts/interop/build-peer.sh) instead of rx4j's server
#   CLIENT_FLAGS    replace "-c send -b 1048576 -T 1" (e.g. -- -c send -b 1048576 -T 1 -m 16356)
# Env: RXPERF_JAVA, RXPERF_JVM_FLAGS, RXPERF_CDS, RXPERF_AOT as for scripts/rxperf (client and rx4j server).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RX4J=$ROOT/scripts/rxperf
RUNS=5
PORT=7449
SERVER=rx4j
CLIENT_FLAGS=(-c send -b 1048576 -T 1)

while [[ $# -gt 0 ]]; do
    case $1 in
        --runs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "firstcall-counts.sh: --runs needs a count >= 1" >&2; exit 2; }
            RUNS=$2; shift ;;
        --port) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "firstcall-counts.sh: --port needs a number" >&2; exit 2; }
            PORT=$2; shift ;;
        --server) [[ ${2:-} == rx4j || ${2:-} == c ]] || { echo "firstcall-counts.sh: --server rx4j or c" >&2; exit 2; }
            SERVER=$2; shift ;;
        --) shift; CLIENT_FLAGS=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "firstcall-counts.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

# shellcheck source=../lib/bench-server.sh
source "$ROOT/scripts/lib/bench-server.sh"
WORK=$(mktemp -d /tmp/rx4j-firstcall.XXXXXX)
cleanup() {
    server_stop
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$RX4J" --version > "$WORK/version"    # builds the jar and records the start-up cache, outside any run
if [[ $SERVER == c ]]; then
    server_start "$WORK/server.log" "$("$ROOT/scripts/interop/build-peer.sh")" server -p "$PORT"
else
    server_start "$WORK/server.log" "$RX4J" server -p "$PORT"
fi
"$RX4J" client -p "$PORT" -c send -b 1048576 -T 3 > /dev/null    # the server a user left running has served before

echo "firstcall-counts.sh: $RUNS client(s) of: scripts/rxperf client -p $PORT ${CLIENT_FLAGS[*]} -D" \
    "against the $SERVER server; load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$WORK/version"
for i in $(seq 1 "$RUNS"); do
    logs="-Xlog:class+load=info,os+thread=info,jit+compilation=debug:file=$WORK/$i.log:uptime,tid"
    RXPERF_JAVA_OPTS="${RXPERF_JAVA_OPTS:-} $logs" "$RX4J" client -p "$PORT" "${CLIENT_FLAGS[@]}" -D \
        > "$WORK/$i.out" 2> "$WORK/$i.err" || true
done

python3 - "$WORK" "$RUNS" <<'EOF'
import re, sys

work, runs = sys.argv[1], int(sys.argv[2])
UPTIME = re.compile(r"\[(\d+\.\d+)s\]\[(\d+)\]")


def t(line):
    return float(UPTIME.match(line).group(1))


def window(lines):
    """The client thread's (start, end) uptimes: JDK 25 names it when it exits; JDK 17 does not, so there it is
    the last thread the main thread started."""
    tid = end = None
    for line in lines:
        m = re.search(r'JavaThread exiting \(name: "rxperf-client-0", tid: (\d+)\)', line)
        if m:
            tid, end = m.group(1), t(line)
    if tid is None:
        main = UPTIME.match(lines[0]).group(2)
        started = [i for i, l in enumerate(lines) if "][%s] Thread \"" % main in l and " started " in l]
        i = started[-1]
        while "Thread is alive" not in lines[i]:
            i += 1
        tid = re.search(r"tid: (\d+)", lines[i]).group(1)
        end = next(t(l) for l in lines if "Thread finished (tid: %s," % tid in l)
    start = next(t(l) for l in lines if "Thread is alive (tid: %s," % tid in l)
    return start, end


rows = []
for i in range(1, runs + 1):
    out = open("%s/%d.out" % (work, i), errors="replace").read()
    lines = [l for l in open("%s/%d.log" % (work, i), errors="replace").read().splitlines() if UPTIME.match(l)]
    row = {"run": i}
    m = re.search(r"\t *(\d+) msec\t", out)
    row["msec"] = int(m.group(1)) if m else None
    m = re.search(r"^CPU \(process user\+sys\):\t([\d.]+) s", out, re.M)
    row["cpu_s"] = float(m.group(1)) if m else None
    for key in ("datagramsSent", "datagramsReceived"):
        m = re.search(r"^  %s +(\d+)$" % key, out, re.M)
        row[key] = int(m.group(1)) if m else None
    try:
        start, end = window(lines)
    except (StopIteration, IndexError):
        rows.append(row)
        continue
    for phase in ("before", "call"):
        row[phase] = {"classes": 0, "not_cached": 0, "compiled": 0, "threads": 0}
    for l in lines:
        x = t(l)
        phase = "before" if x < start else ("call" if x <= end else None)
        if phase is None:
            continue
        c = row[phase]
        if " source: " in l:
            c["classes"] += 1
            if "shared objects file" not in l:
                c["not_cached"] += 1
        elif " started (pthread" in l:
            c["threads"] += 1
        else:
            m = re.search(r"\]\s+\d+\s+([%sbn! ]*?)\s*(\d)\s+\S+::", l)
            if m and "n" not in m.group(1):
                c["compiled"] += 1
    rows.append(row)

print("run | msec | CPU in call s | datagrams out/in | in the call: classes (not cached), compiled, threads "
      "| before it: classes (not cached), compiled, threads")
for r in rows:
    def part(p):
        c = r.get(p)
        return "–" if c is None else "%d (%d), %d, %d" % (c["classes"], c["not_cached"], c["compiled"], c["threads"])
    print("%d | %s | %s | %s/%s | %s | %s" % (r["run"], r["msec"], r["cpu_s"], r["datagramsSent"],
                                            r["datagramsReceived"], part("call"), part("before")))
EOF
