#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# rx4j against OpenAFS's C Rx (our rxperf peer, scripts/interop/rxperf-peer.c, on Debian's libafsrpc):
# the measurement tool of docs/benchmarks.md ("Speed goals"). A benchmark, not a test: it asserts nothing and exits 0
# when every run produced a result line.
#
#   scripts/bench.sh [--quick | --full | --wan | --rxkad] [--netns] [--pinned] [--out DIR] [--no-docs]
#
#   --quick   3 runs per cold workload (send 32 KiB / 128 KiB / 1 MiB, recv 1 MiB, rpc -t 1 and -t 8, the
#             first call: send 1 MiB -T 1), 2 per warm one (send 32 KiB, send 1 MiB, rpc -t 1 with --time 5
#             --omit 2), the UDP floor; under 5 min on 2 cores. BENCH_ONLY="id ..." narrows it (and --full) to
#             those cold workload ids and skips the warm runs, e.g. BENCH_RUNS=1 BENCH_ONLY=first1 for a dry run.
#   --full    (default) 5 runs per workload: every workload of the speed goals' table (send and recv at
#             32 KiB / 128 KiB / 1 MiB, rpc -t 1 / -t 8, the first call at -T 1 and -T 10), the mixed pairs
#             (rx4j client -> C server, C client -> rx4j server) for the same sends, recvs and rpcs,
#             -W 32 / -W 255 / -j, warm runs with --time 30 --omit 10, a cold 1 GiB send with --interval 1,
#             1 GiB sends in all four pairings (2 runs), the calls curve (scripts/bench/calls-curve.sh: time and
#             client CPU per call of calls 1-1,000, 1,001-5,000 and 5,001-20,000, rx4j and C), datagram system
#             calls per MiB (scripts/bench/syscalls.sh, when it exists), then the --rxkad section; with --netns also
#             the mixed pairs between the namespaces; about 110 min.
#   --wan     docs/benchmarks.md "Long and lossy paths": every run through the impairment relay (scripts/relay,
#             docs/relay.md) on loopback, 5 ms each way (10 ms RTT): lossless -W 255 and default window,
#             0.5 / 1 / 2 / 5 % random loss each way, Gilbert-Elliott bursts (1 %, mean 5), MTU cap 9000,
#             1 ms RTT at 0.5 %; C <-> C, rx4j <-> rx4j with NewReno and with --cc bbr, rx4j -> C, C -> rx4j;
#             pairs alternate run by run, median of BENCH_WAN_RUNS (3) runs of --time BENCH_WAN_TIME (30) s,
#             rx4j clients with --interval 1; about 40 min. Writes docs/benchmarks.md's section between
#             <!-- bench.sh --wan:begin --> and <!-- bench.sh --wan:end --> and docs/bench-wan-loss.svg
#             (rate against loss) through scripts/bench/wan_report.py. BENCH_RELAY_PORT (default PORT+1).
#   --rxkad   only the rxkad section (docs/benchmarks.md "rxkad"): rxperf --security none / clear / auth / crypt
#             with a throwaway KeyFile on both sides, C <-> C against rx4j <-> rx4j at the same level, cold (send
#             1 MiB -T 100, rpc -S 4 -R 4 -T 20000) and warm (the same with --time/--omit), pairs alternating;
#             BENCH_RXKAD_RUNS runs each (default 3), warm --time BENCH_RXKAD_WARM_TIME (20) --omit
#             BENCH_RXKAD_WARM_OMIT (5), cold -T BENCH_RXKAD_SEND_TIMES (100) / BENCH_RXKAD_RPC_TIMES (20000);
#             about 20 min. A dry run: BENCH_RXKAD_RUNS=1 BENCH_RXKAD_WARM_TIME=2 BENCH_RXKAD_WARM_OMIT=1
#             BENCH_RXKAD_SEND_TIMES=4 BENCH_RXKAD_RPC_TIMES=500 scripts/bench.sh --rxkad --no-docs. Writes docs/benchmarks.md's section between
#             <!-- bench.sh --rxkad:begin --> and <!-- bench.sh --rxkad:end --> through
#             scripts/bench/rxkad_report.py, each row judged by the rxkad targets (crypt: rx4j >= 2x C at crypt;
#             auth: rx4j within 10 % of rx4j at clear).
#   --netns   also the two-host variant: client in namespace rx4j-a, server in rx4j-b, joined by a
#             veth pair (scripts/netns.sh) at MTU 1500 (--full: and 9000); send 1 MiB and rpc at -t 1 (5,000
#             calls) and -t 8 (--full: also recv 1 MiB, send 32 KiB and 128 KiB, recv 32 KiB, and the mixed
#             pairs of all of them); needs root.
#   --pinned  server on CPU 0 and client on CPU 1 (taskset), as the earlier rounds measured; the default is
#             unpinned, as users run rxperf (each JVM then sees every CPU). The report says which.
#   --out DIR where the per-run JSON goes (default bench-results/, gitignored).
#   --no-docs do not rewrite docs/benchmarks.md's generated section and docs/bench-rate.svg.
#
# Cold runs are fresh server and client processes, started exactly as a user starts them
# (scripts/rxperf server / client; the C peer likewise), unpinned unless --pinned. Implementations alternate
# run by run (C, rx4j, C, rx4j, ...). Server CPU is the
# utime+stime delta of its /proc/PID/stat from "port bound" (warm: from the end of --omit) to the
# end of the client; client CPU is the client process's rusage (bash `time`; cold: the whole process,
# JVM start included) or, for warm runs, the client's own CPU line over the measured window
# (rx4j -D, C peer --cpu); for warm runs the server's figure is taken over the same window (the
# client's msec before its end) from 0.2 s samples of /proc/PID/stat. Output: bench-results/bench-<mode>-<UTC time>.json, the generated section
# of docs/benchmarks.md between <!-- bench.sh:begin --> and <!-- bench.sh:end -->, and
# docs/bench-rate.svg (rate against -b); on stderr a progress note per run with its result line, the UDP
# RcvbufErrors at each receiver and the hypervisor's steal share during the run (scripts/lib/steal.sh; in the JSON
# as each run's stealPercent; the report leaves runs above BENCH_MAX_STEAL % out of their cells' figures, default 5,
# and does not judge a cell with no run below it). Env: BENCH_PORT (UDP port, default 7419), BENCH_RUNS /
# BENCH_WARM_RUNS (run counts), BENCH_WARM_TIME / BENCH_WARM_OMIT (seconds), BENCH_KEEP=1 (keep the
# work directory).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_DIR=$ROOT/scripts/bench
# shellcheck source=lib/steal.sh
source "$ROOT/scripts/lib/steal.sh"
RX4J=$ROOT/scripts/rxperf
PORT=${BENCH_PORT:-7419}
MODE=full
NETNS=0
PINNED=0
DOCS=1
OUT=$ROOT/bench-results

while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) MODE=quick ;;
        --full) MODE=full ;;
        --wan) MODE=wan ;;
        --rxkad) MODE=rxkad ;;
        --netns) NETNS=1 ;;
        --pinned) PINNED=1 ;;
        --no-docs) DOCS=0 ;;
        --out) [[ $# -ge 2 ]] || { echo "bench.sh: --out needs a directory" >&2; exit 2; }; OUT=$2; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [[ $MODE == wan ]]; then
    RUNS=${BENCH_WAN_RUNS:-3} WARM_RUNS=0 WARM_TIME=${BENCH_WAN_TIME:-30} WARM_OMIT=0
elif [[ $MODE == quick ]]; then
    RUNS=${BENCH_RUNS:-3} WARM_RUNS=${BENCH_WARM_RUNS:-2} WARM_TIME=${BENCH_WARM_TIME:-5} WARM_OMIT=${BENCH_WARM_OMIT:-2}
else
    RUNS=${BENCH_RUNS:-5} WARM_RUNS=${BENCH_WARM_RUNS:-5} WARM_TIME=${BENCH_WARM_TIME:-30} WARM_OMIT=${BENCH_WARM_OMIT:-10}
fi

# Workloads: "id|modes|server flags|client flags". modes: q = in --quick, f = in --full, n = between the namespaces
# (--netns, both modes), N = between the namespaces in --full only (the rest of the speed goals' table there).
# Cold sizes are the speed goals': 100 MiB or 20,000 calls (rpc -t 8: 4,000 per thread) per run.
COLD_WORKLOADS=(
    "send8k|f||-c send -b 8192 -T 12800"
    "send32k|qfN||-c send -b 32768 -T 3200"
    "send128k|qfN||-c send -b 131072 -T 800"
    "send1m|qfn||-c send -b 1048576 -T 100"
    "recv32k|fN||-c recv -b 32768 -T 3200"
    "recv128k|f||-c recv -b 131072 -T 800"
    "recv1m|qfN||-c recv -b 1048576 -T 100"
    "rpc1|qf||-c rpc -S 4 -R 4 -T 20000"
    "rpc1n|n||-c rpc -S 4 -R 4 -T 5000"
    "rpc8|qfn||-c rpc -S 4 -R 4 -T 4000 -t 8"
    "first1|qf||-c send -b 1048576 -T 1"
    "first10|f||-c send -b 1048576 -T 10"
    "w32|f|-W 32|-c send -b 1048576 -T 100 -W 32 -D"
    "w255|f|-W 255|-c send -b 1048576 -T 100 -W 255 -D"
    "nojumbo|f|-j|-c send -b 1048576 -T 100 -j"
)
WARM_WORKLOADS=(
    "send32k|qf||-c send -b 32768"
    "send128k|f||-c send -b 131072"
    "send1m|qf||-c send -b 1048576"
    "rpc1|qf||-c rpc -S 4 -R 4"
    "rpc8|f||-c rpc -S 4 -R 4 -t 8"
)
# --full: rx4j client -> C server, C client -> rx4j server
MIXED_WORKLOADS=(send32k send128k send1m recv32k recv128k recv1m rpc1 rpc8)

mode_letter() { [[ $MODE == quick ]] && echo q || echo f; }

# ---------------------------------------------------------------- housekeeping

START_NS=$(date +%s%N)
elapsed() { awk -v a="$START_NS" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
note() { printf '[%4ss] %s\n' "$(elapsed)" "$*" >&2; }

WORK=$(mktemp -d /tmp/rx4j-bench.XXXXXX)
SERVER_PID=
FLOOR_PID=
NETNS_UP=0
cleanup() {
    stop_server
    [[ -z ${RELAY_PID:-} ]] || { kill "$RELAY_PID" 2>/dev/null || true; wait "$RELAY_PID" 2>/dev/null || true; }
    [[ -z $FLOOR_PID ]] || { kill "$FLOOR_PID" 2>/dev/null || true; wait "$FLOOR_PID" 2>/dev/null || true; }
    [[ $NETNS_UP -eq 0 ]] || "$ROOT/scripts/netns.sh" down >/dev/null 2>&1 || true
    [[ ${BENCH_KEEP:-0} == 1 ]] && note "work files kept in $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

CPUS=$(nproc)
PIN_SERVER=() PIN_CLIENT=()
if [[ $PINNED -eq 1 ]]; then
    if [[ $CPUS -ge 2 ]] && command -v taskset > /dev/null; then
        PIN_SERVER=(taskset -c 0) PIN_CLIENT=(taskset -c 1)
    else
        note "fewer than 2 CPUs or no taskset: client and server are not pinned"
    fi
fi
CLK_TCK=$(getconf CLK_TCK)

# ---------------------------------------------------------------- build

build() {
    note "building: rxperf jar (scripts/rxperf), C peer (scripts/interop/build-peer.sh), udpfloor"
    "$RX4J" --version > "$WORK/rx4j-version"
    PEER=$("$ROOT/scripts/interop/build-peer.sh")
    mkdir -p "$BENCH_DIR/build"
    if [[ ! -x $BENCH_DIR/build/udpfloor || $BENCH_DIR/udpfloor.c -nt $BENCH_DIR/build/udpfloor ]]; then
        gcc -O2 -Wall -Wextra "$BENCH_DIR/udpfloor.c" -o "$BENCH_DIR/build/udpfloor"
    fi
    FLOOR=$BENCH_DIR/build/udpfloor
}

# ---------------------------------------------------------------- processes

# NS_SERVER / NS_CLIENT: command prefixes for the namespaces (empty on loopback); HOST: server address.
NS_SERVER=() NS_CLIENT=() HOST=127.0.0.1 C_BIND=()

port_bound() { "${NS_SERVER[@]}" ss -Hlun "sport = :$PORT" | grep -q .; }

rcvbuf_errors() {    # rcvbuf_errors [NAMESPACE PREFIX...]: the UDP RcvbufErrors count of /proc/net/snmp there
    "$@" awk '/^Udp:/ { n++ } n == 2 && /^Udp:/ { print $6; exit }' /proc/net/snmp
}

proc_ticks() {    # utime + stime of PID, clock ticks; empty if gone
    [[ -r /proc/$1/stat ]] || return 0
    sed -E 's/^.*\) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# start_server IMPL FLAGS...: a fresh server on PORT; sets SERVER_PID; waits until the port is bound.
start_server() {
    local impl=$1 tries=0
    shift
    if port_bound; then
        echo "bench.sh: UDP $PORT is taken: $("${NS_SERVER[@]}" ss -Hlunp "sport = :$PORT" | tr -s ' ')" >&2
        exit 1
    fi
    if [[ $impl == c ]]; then
        "${NS_SERVER[@]}" "${PIN_SERVER[@]}" "$PEER" server -p "$PORT" "${C_BIND[@]}" "$@" \
            < /dev/null > "$WORK/server.log" 2>&1 &
    else
        "${NS_SERVER[@]}" "${PIN_SERVER[@]}" "$RX4J" server -p "$PORT" "$@" < /dev/null > "$WORK/server.log" 2>&1 &
    fi
    SERVER_PID=$!
    until port_bound; do
        kill -0 "$SERVER_PID" 2>/dev/null || { echo "bench.sh: $impl server died:" >&2; cat "$WORK/server.log" >&2; exit 1; }
        (( ++tries < 1200 )) || { echo "bench.sh: $impl server did not bind UDP $PORT" >&2; exit 1; }
        sleep 0.05
    done
    # the socket buffers the kernel granted (ss -m: rb = receive, tb = send), once per implementation
    if [[ ! -s $WORK/skmem-$impl ]]; then
        "${NS_SERVER[@]}" ss -Hlunm "sport = :$PORT" | grep -o 'skmem:([^)]*)' | head -1 > "$WORK/skmem-$impl" || true
    fi
    [[ $impl == c ]] || sleep 0.2    # rx4j registers its service just after binding (docs/interop.md)
}

stop_server() {
    [[ -n ${SERVER_PID:-} ]] || return 0
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    local tries=0
    while port_bound && (( ++tries < 100 )); do sleep 0.05; done
}

# client_cmd IMPL: the client command line prefix into CLIENT (array). CLIENT_PORT: where clients send
# (the relay's port in --wan, else the server's).
CLIENT_PORT=
client_cmd() {
    local port=${CLIENT_PORT:-$PORT}
    if [[ $1 == c ]]; then
        CLIENT=("${NS_CLIENT[@]}" "${PIN_CLIENT[@]}" "$PEER" client -s "$HOST" -p "$port")
        [[ ${#C_BIND[@]} -eq 0 ]] || CLIENT+=(--bind 10.99.0.1)
    else
        CLIENT=("${NS_CLIENT[@]}" "${PIN_CLIENT[@]}" "$RX4J" client -s "$HOST" -p "$port")
    fi
}

MANIFEST=$WORK/manifest.tsv
RUN_SEQ=0

# one_run SET PAIR WORKLOAD REP SERVER_FLAGS CLIENT_FLAGS: one fresh server + one client run.
# Appends "id set pair workload rep server_ticks client_user_s client_sys_s wall_s status end_ns" to
# the manifest; the client's stdout and stderr go to runs/ID.out / .err, and the server's CPU ticks,
# sampled every 0.2 s while the client runs ("ns ticks" lines), to runs/ID.server (report.py takes the
# server's CPU over the client's measured window from them).
one_run() {
    local set=$1 pair=$2 workload=$3 rep=$4 server_flags=$5 client_flags=$6
    local server_impl client_impl id s0 s1 status=0 t0 t1 cpu sampler
    case $pair in
        c2c) client_impl=c server_impl=c ;;
        rx4j2rx4j|bbr2rx4j) client_impl=rx4j server_impl=rx4j ;;
        rx4j2c|bbr2c) client_impl=rx4j server_impl=c ;;
        c2rx4j) client_impl=c server_impl=rx4j ;;
    esac
    RUN_SEQ=$((RUN_SEQ + 1))
    id=$RUN_SEQ
    mkdir -p "$WORK/runs"
    # shellcheck disable=SC2086  # flag strings hold several words on purpose
    start_server "$server_impl" $server_flags
    client_cmd "$client_impl"
    s0=$(proc_ticks "$SERVER_PID")
    ( while kill -0 "$SERVER_PID" 2>/dev/null; do
          echo "$(date +%s%N) $(proc_ticks "$SERVER_PID")"
          sleep 0.2
      done ) > "$WORK/runs/$id.server" 2>/dev/null &
    sampler=$!
    local rb_s0 rb_c0 st0
    rb_s0=$(rcvbuf_errors "${NS_SERVER[@]}") rb_c0=$(rcvbuf_errors "${NS_CLIENT[@]}") st0=$(steal_ticks)
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    { TIMEFORMAT='%3U %3S'; time "${CLIENT[@]}" $client_flags > "$WORK/runs/$id.out" 2> "$WORK/runs/$id.err"; } \
        2> "$WORK/runs/$id.time" || status=$?
    t1=$(date +%s%N)
    local steal
    steal=$(steal_pct "$st0" "$(steal_ticks)")
    # UDP RcvbufErrors at each receiver: datagrams its socket dropped for want of buffer (on loopback both ends
    # share the host's one count)
    if [[ ${#NS_SERVER[@]} -eq 0 ]]; then
        echo "host $(( $(rcvbuf_errors) - rb_s0 ))" > "$WORK/runs/$id.rcvbuf"
    else
        echo "server $(( $(rcvbuf_errors "${NS_SERVER[@]}") - rb_s0 )) client $(( $(rcvbuf_errors "${NS_CLIENT[@]}") - rb_c0 ))" \
            > "$WORK/runs/$id.rcvbuf"
    fi
    s1=$(proc_ticks "$SERVER_PID")
    echo "$t1 $s1" >> "$WORK/runs/$id.server"
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    stop_server
    cpu=$(tail -1 "$WORK/runs/$id.time")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$set" "$pair" "$workload" "$rep" \
        "$(( ${s1:-0} - ${s0:-0} ))" "${cpu// /	}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" \
        "$status" "$t1" "$steal" >> "$MANIFEST"
    local line
    line=$(grep -E '^(SEND|RECV|RPC): ' "$WORK/runs/$id.out" | head -1 || true)
    note "$set $pair $workload #$rep: ${line:-no result line (exit $status): $(head -c 300 "$WORK/runs/$id.err")} (RcvbufErrors $(cat "$WORK/runs/$id.rcvbuf"), steal $steal%)"
}

# run_set SET PAIRS WORKLOAD_ENTRIES...: every workload RUNS times (warm: WARM_RUNS), the pairs
# alternating run by run.
run_set() {
    local set=$1 pairs=$2 entry id modes sflags cflags rep pair extra runs=$RUNS
    shift 2
    [[ $set != warm ]] || runs=$WARM_RUNS
    for entry in "$@"; do
        IFS='|' read -r id modes sflags cflags <<< "$entry"
        for rep in $(seq 1 "$runs"); do
            for pair in $pairs; do
                extra=
                if [[ $set == warm ]]; then
                    # the client's own CPU line over the measured window: rx4j -D, C peer --cpu
                    extra="--time $WARM_TIME --omit $WARM_OMIT $([[ $pair == c2* ]] && echo --cpu || echo -D)"
                fi
                one_run "$set" "$pair" "$id" "$rep" "$sflags" "$cflags $extra"
            done
        done
    done
}

select_workloads() {    # select_workloads LETTER ENTRIES...: the entries whose modes hold LETTER (and BENCH_ONLY names)
    local letter=$1 entry modes
    shift
    for entry in "$@"; do
        modes=$(cut -d'|' -f2 <<< "$entry")
        [[ -z ${BENCH_ONLY:-} || " $BENCH_ONLY " == *" ${entry%%|*} "* ]] || continue
        [[ $modes == *"$letter"* ]] && printf '%s\n' "$entry"
    done
    return 0
}

# syscalls: datagram system calls per MiB (scripts/bench/syscalls.sh, written alongside this script); its output
# goes into the report as it is. Skipped with a note where the script does not exist.
syscalls() {
    local script=$BENCH_DIR/syscalls.sh
    if [[ ! -x $script ]]; then
        note "system calls per MiB: skipped ($script does not exist)"
        echo "not measured: scripts/bench/syscalls.sh does not exist in this checkout" > "$WORK/syscalls.txt"
        return 0
    fi
    note "system calls per MiB: $script"
    if ! BENCH_PORT=$PORT "$script" > "$WORK/syscalls.txt" 2> "$WORK/syscalls.err"; then
        note "system calls per MiB: $script failed: $(tail -3 "$WORK/syscalls.err")"
        echo "not measured: scripts/bench/syscalls.sh failed ($(tail -1 "$WORK/syscalls.err"))" >> "$WORK/syscalls.txt"
    fi
}

# calls_curve: what a fresh client pays per short call as it warms up (scripts/bench/calls-curve.sh), its output
# copied into the report.
calls_curve() {
    note "calls curve: $BENCH_DIR/calls-curve.sh"
    if ! CURVE_PORT=$((PORT + 40)) CURVE_RUNS=$RUNS "$BENCH_DIR/calls-curve.sh" "1000 5000 20000" \
            > "$WORK/calls-curve.txt" 2> "$WORK/calls-curve.err"; then
        note "calls curve: failed: $(tail -3 "$WORK/calls-curve.err")"
        echo "not measured: scripts/bench/calls-curve.sh failed ($(tail -1 "$WORK/calls-curve.err"))" \
            >> "$WORK/calls-curve.txt"
    fi
}

# ---------------------------------------------------------------- the machine and its floor

machine() {
    {
        echo "mode=$MODE"
        echo "runs=$RUNS"
        echo "warm_runs=$WARM_RUNS"
        echo "clk_tck=$CLK_TCK"
        echo "warm_time=$WARM_TIME"
        echo "warm_omit=$WARM_OMIT"
        echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "kernel=$(uname -srm)"
        echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
        echo "cpus=$CPUS"
        echo "pinned=$([[ ${#PIN_SERVER[@]} -gt 0 ]] && echo 'server CPU 0, client CPU 1' \
            || echo 'no (unpinned, as users run rxperf)')"
        echo "java=$(java -version 2>&1 | sed -n 2p)"
        echo "rx4j=$(cat "$WORK/rx4j-version")"
        echo "openafs=$(dpkg-query -W -f='${Version}' libafsrpc2 2>/dev/null || echo unknown)"
        echo "rmem_max=$(sysctl -n net.core.rmem_max 2>/dev/null || echo ?)"
        echo "wmem_max=$(sysctl -n net.core.wmem_max 2>/dev/null || echo ?)"
        echo "rmem_default=$(sysctl -n net.core.rmem_default 2>/dev/null || echo ?)"
        echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
        echo "git=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo ?)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+dirty')"
    } > "$WORK/machine.txt"
}

floor() {    # floor LABEL: UDP ping-pong and blast between two processes, pinned like rxperf
    local label=$1
    note "floor ($label): UDP ping-pong and blast (scripts/bench/udpfloor.c)"
    "${NS_SERVER[@]}" "${PIN_SERVER[@]}" "$FLOOR" server --bind "$([[ $HOST == 127.0.0.1 ]] && echo 127.0.0.1 || echo "$HOST")" "$PORT" &
    FLOOR_PID=$!
    sleep 0.3
    {
        "${NS_CLIENT[@]}" "${PIN_CLIENT[@]}" "$FLOOR" pingpong "$HOST" "$PORT" 20000
        "${NS_CLIENT[@]}" "${PIN_CLIENT[@]}" "$FLOOR" blast "$HOST" "$PORT" 2 1472
    } > "$WORK/floor-$label.txt" 2>&1 || true
    kill "$FLOOR_PID" 2>/dev/null || true
    wait "$FLOOR_PID" 2>/dev/null || true
    FLOOR_PID=
    sed 's/^/    /' "$WORK/floor-$label.txt" >&2
}

# ---------------------------------------------------------------- netns

use_netns() {    # use_netns MTU: server in rx4j-b, client in rx4j-a
    "$ROOT/scripts/netns.sh" up --mtu "$1" > /dev/null
    NETNS_UP=1
    NS_SERVER=(ip netns exec rx4j-b) NS_CLIENT=(ip netns exec rx4j-a) HOST=10.99.0.2 C_BIND=(--bind 10.99.0.2)
}

use_loopback() {
    NS_SERVER=() NS_CLIENT=() HOST=127.0.0.1 C_BIND=()
}

# ---------------------------------------------------------------- --wan (long and lossy paths)

# "id|relay flags|server flags|client flags|pairs". Pairs: c2c, rx4j2rx4j (NewReno), bbr2rx4j (rx4j client with
# --cc bbr), rx4j2c, c2rx4j. The client sends 1 MiB calls back to back for --time WAN_TIME seconds.
WAN_WORKLOADS=(
    "w255|--delay 5|-W 255|-W 255|c2c rx4j2rx4j bbr2rx4j c2rx4j"
    "w255u|--delay 5|-W 255 -u 2880|-W 255 -u 2880|rx4j2c"
    "w32|--delay 5|||c2c rx4j2rx4j"
    "loss0.5|--delay 5 --loss 0.5|-W 255|-W 255|c2c rx4j2rx4j bbr2rx4j"
    "loss1|--delay 5 --loss 1|-W 255|-W 255|c2c rx4j2rx4j bbr2rx4j"
    "loss2|--delay 5 --loss 2|-W 255|-W 255|c2c rx4j2rx4j bbr2rx4j"
    "loss5|--delay 5 --loss 5|-W 255|-W 255|c2c rx4j2rx4j bbr2rx4j"
    "burst|--delay 5 --burst-loss 1:5|-W 255|-W 255|rx4j2rx4j bbr2rx4j"
    "mtu9000|--delay 5 --mtu 9000|-W 255 -m 9000|-W 255 -m 9000|bbr2rx4j"
    "rtt1loss0.5|--delay 0.5 --loss 0.5|-W 255|-W 255|c2c rx4j2rx4j bbr2rx4j"
)
RELAY_PID=

start_relay() {    # start_relay FLAGS...: the relay on RELAY_PORT in front of PORT; waits for its startup line
    local tries=0
    scripts_relay=$ROOT/scripts/relay
    "$scripts_relay" --listen "127.0.0.1:$RELAY_PORT" --target "127.0.0.1:$PORT" --seed 1 "$@" \
        > "$WORK/relay.out" 2> "$WORK/relay.err" &
    RELAY_PID=$!
    until grep -q '^relay: 127' "$WORK/relay.out" 2>/dev/null; do
        kill -0 "$RELAY_PID" 2>/dev/null || { echo "bench.sh: relay died:" >&2; cat "$WORK/relay.err" >&2; exit 1; }
        (( ++tries < 1200 )) || { echo "bench.sh: relay did not start" >&2; exit 1; }
        sleep 0.1
    done
}

stop_relay() {    # stop_relay ID: stops the relay, keeps its output as relay-ID.{out,err}
    [[ -n ${RELAY_PID:-} ]] || return 0
    kill "$RELAY_PID" 2>/dev/null || true
    wait "$RELAY_PID" 2>/dev/null || true
    RELAY_PID=
    mv "$WORK/relay.out" "$WORK/relay-$1.out"
    mv "$WORK/relay.err" "$WORK/relay-$1.err"
    if grep -q 'falling behind' "$WORK/relay-$1.err"; then
        note "WARNING: the relay fell behind during $1: those figures are partly relay-bound"
    fi
}

wan_main() {
    local entry id rflags sflags cflags pairs rep pair extra
    RELAY_PORT=${BENCH_RELAY_PORT:-$((PORT + 1))}
    CLIENT_PORT=$RELAY_PORT
    build
    machine
    echo "wan_time=$WARM_TIME" >> "$WORK/machine.txt"
    note "bench.sh --wan: $RUNS runs per pair and workload, --time $WARM_TIME; relay on UDP $RELAY_PORT; work files in $WORK"
    "$ROOT/scripts/relay" --version > /dev/null    # builds the relay jar once, before any timing
    for entry in "${WAN_WORKLOADS[@]}"; do
        IFS='|' read -r id rflags sflags cflags pairs <<< "$entry"
        if [[ -n ${BENCH_WAN_ONLY:-} && " $BENCH_WAN_ONLY " != *" $id "* ]]; then
            continue
        fi
        # shellcheck disable=SC2086
        start_relay $rflags
        for rep in $(seq 1 "$RUNS"); do
            for pair in $pairs; do
                extra="--time $WARM_TIME -c send -b 1048576"
                [[ $pair == c2* ]] || extra+=" --interval 1 -D"
                [[ $pair != bbr* ]] || extra+=" --cc bbr"
                one_run wan "$pair" "$id" "$rep" "$sflags" "$cflags $extra"
            done
        done
        stop_relay "$id"
    done
    echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$WORK/machine.txt"
    echo "wall_seconds=$(elapsed)" >> "$WORK/machine.txt"
    mkdir -p "$OUT"
    local docs_args=()
    [[ $DOCS -eq 0 ]] || docs_args=(--docs "$ROOT/docs/benchmarks.md" --svg "$ROOT/docs/bench-wan-loss.svg")
    python3 "$BENCH_DIR/wan_report.py" --work "$WORK" --out "$OUT" "${docs_args[@]}"
    note "done in $(elapsed) s"
}

# ---------------------------------------------------------------- --rxkad (rxkad's cost at each level)

# rxkad_section: every level's cold and warm runs into $WORK/manifest-rxkad.tsv (report.py reads manifest.tsv
# only), with its own run counts and warm times; both sides use one throwaway KeyFile (DES keys of kvno 3 and 4, as
# asetkey writes them; the client mints its ticket from the newest, as -localauth does).
rxkad_section() {
    local saved_runs=$RUNS saved_warm_runs=$WARM_RUNS saved_time=$WARM_TIME saved_omit=$WARM_OMIT
    local saved_manifest=$MANIFEST keys=$WORK/KeyFile level sec cold=() warm=()
    local send_times=${BENCH_RXKAD_SEND_TIMES:-100} rpc_times=${BENCH_RXKAD_RPC_TIMES:-20000}
    RUNS=${BENCH_RXKAD_RUNS:-3} WARM_RUNS=${BENCH_RXKAD_RUNS:-3}
    WARM_TIME=${BENCH_RXKAD_WARM_TIME:-20} WARM_OMIT=${BENCH_RXKAD_WARM_OMIT:-5}
    MANIFEST=$WORK/manifest-rxkad.tsv
    {
        echo "rxkad_runs=$RUNS"
        echo "rxkad_warm_time=$WARM_TIME"
        echo "rxkad_warm_omit=$WARM_OMIT"
        echo "rxkad_send_times=$send_times"
        echo "rxkad_rpc_times=$rpc_times"
    } >> "$WORK/machine.txt"
    printf '\x00\x00\x00\x02\x00\x00\x00\x03\x1f\x2e\x3d\x4c\x5b\x6a\x79\x88\x00\x00\x00\x04\x01\x23\x45\x67\x89\xab\xcd\xef' \
        > "$keys"
    note "rxkad: none / clear / auth / crypt, $RUNS cold and $WARM_RUNS warm runs each (--time $WARM_TIME --omit $WARM_OMIT)"
    for level in none clear auth crypt; do
        sec=
        [[ $level == none ]] || sec="--security $level --keyfile $keys"
        cold+=("$level.send1m|r|$sec|-c send -b 1048576 -T $send_times $sec"
            "$level.rpc1|r|$sec|-c rpc -S 4 -R 4 -T $rpc_times $sec")
        warm+=("$level.send1m|r|$sec|-c send -b 1048576 $sec" "$level.rpc1|r|$sec|-c rpc -S 4 -R 4 $sec")
    done
    run_set cold "c2c rx4j2rx4j" "${cold[@]}"
    run_set warm "c2c rx4j2rx4j" "${warm[@]}"
    RUNS=$saved_runs WARM_RUNS=$saved_warm_runs WARM_TIME=$saved_time WARM_OMIT=$saved_omit MANIFEST=$saved_manifest
}

rxkad_report() {    # the rxkad section's JSON and, unless --no-docs, its part of docs/benchmarks.md
    local docs_args=()
    mkdir -p "$OUT"
    [[ $DOCS -eq 0 ]] || docs_args=(--docs "$ROOT/docs/benchmarks.md")
    python3 "$BENCH_DIR/rxkad_report.py" --work "$WORK" --out "$OUT" "${docs_args[@]}"
}

rxkad_main() {
    build
    machine
    note "bench.sh --rxkad: work files in $WORK"
    rxkad_section
    echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$WORK/machine.txt"
    rxkad_report
    note "done in $(elapsed) s"
}

# ---------------------------------------------------------------- main

main() {
    local letter entries=() entry mtu mtus=(1500)
    letter=$(mode_letter)
    build
    machine
    note "bench.sh --$MODE: $RUNS runs per cold workload, $WARM_RUNS per warm one, warm --time $WARM_TIME --omit $WARM_OMIT; work files in $WORK"
    floor loopback

    mapfile -t entries < <(select_workloads "$letter" "${COLD_WORKLOADS[@]}")
    run_set cold "c2c rx4j2rx4j" "${entries[@]}"

    if [[ -z ${BENCH_ONLY:-} ]]; then
        mapfile -t entries < <(select_workloads "$letter" "${WARM_WORKLOADS[@]}")
        run_set warm "c2c rx4j2rx4j" "${entries[@]}"
    fi

    if [[ $MODE == full ]]; then
        entries=()
        for entry in "${COLD_WORKLOADS[@]}"; do
            [[ -z ${BENCH_ONLY:-} || " $BENCH_ONLY " == *" ${entry%%|*} "* ]] || continue
            [[ " ${MIXED_WORKLOADS[*]} " == *" ${entry%%|*} "* ]] && entries+=("$entry")
        done
        [[ ${#entries[@]} -eq 0 ]] || run_set cold "rx4j2c c2rx4j" "${entries[@]}"
        # time to speed: the second second of a cold 1 GiB send against the steady state
        local saved=$RUNS
        RUNS=1
        [[ -n ${BENCH_ONLY:-} ]] || run_set speed "rx4j2rx4j" "ramp|f||-c send -b 1048576 -T 1024 --interval 1"
        RUNS=$saved
        # 1 GiB sends in every pairing (8-16 s a run): whether the mixed pairs' gap is warm-up or steady state
        RUNS=$(( saved < 2 ? saved : 2 ))
        [[ -n ${BENCH_ONLY:-} ]] || run_set cold "c2c rx4j2c c2rx4j rx4j2rx4j" "gib|f||-c send -b 1048576 -T 1024"
        RUNS=$saved
        [[ -n ${BENCH_ONLY:-} ]] || calls_curve
        [[ -n ${BENCH_ONLY:-} ]] || syscalls
        [[ -n ${BENCH_ONLY:-} ]] || rxkad_section
    fi

    if [[ $NETNS -eq 1 ]]; then
        [[ $MODE == full ]] && mtus=(1500 9000)
        mapfile -t entries < <(select_workloads n "${COLD_WORKLOADS[@]}"
                               [[ $MODE != full ]] || select_workloads N "${COLD_WORKLOADS[@]}")
        for mtu in "${mtus[@]}"; do
            [[ ${#entries[@]} -gt 0 ]] || break
            use_netns "$mtu"
            floor "netns$mtu"
            run_set "netns$mtu" "c2c rx4j2rx4j" "${entries[@]}"
            # the mixed pairs between the namespaces: rx4j client -> C server, C client -> rx4j server
            [[ $MODE != full ]] || run_set "netns$mtu" "rx4j2c c2rx4j" "${entries[@]}"
            "$ROOT/scripts/netns.sh" down > /dev/null
            NETNS_UP=0
            use_loopback
        done
    fi

    echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$WORK/machine.txt"
    echo "wall_seconds=$(elapsed)" >> "$WORK/machine.txt"
    for impl in c rx4j; do
        echo "skmem_$impl=$(cat "$WORK/skmem-$impl" 2>/dev/null || true)" >> "$WORK/machine.txt"
    done
    mkdir -p "$OUT"
    local docs_args=()
    [[ $DOCS -eq 0 ]] || docs_args=(--docs "$ROOT/docs/benchmarks.md" --svg "$ROOT/docs/bench-rate.svg")
    python3 "$BENCH_DIR/report.py" --work "$WORK" --out "$OUT" "${docs_args[@]}"
    [[ ! -s $WORK/manifest-rxkad.tsv ]] || rxkad_report
    note "done in $(elapsed) s"
}

if [[ $MODE == wan ]]; then
    wan_main
elif [[ $MODE == rxkad ]]; then
    rxkad_main
else
    main
fi
