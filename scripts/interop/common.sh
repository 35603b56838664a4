# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, common setup and teardown: paths, ports and work directory; the check/pass/fail/skip
# bookkeeping and the summary line; the watchdog, the traps and cleanup that stop every server started;
# UDP server start/stop; the OpenAFS rxperf result-line checks.
# Sourced by scripts/interop.sh, not run by itself; ROOT and INTEROP_DIR are set before it.
#
# The sections run under pipefail, where `producer | grep -q` fails at random: grep exits at its first match
# and a producer that writes again (bash's printf writes line by line into a pipe) dies of SIGPIPE. So text
# already in a variable is matched as a here-string (grep -q PATTERN <<< "$out"), and a grep behind another
# command reads to the end (grep PATTERN > /dev/null).

BUILD_DIR=$INTEROP_DIR/build
PEER=$BUILD_DIR/rxperf-peer
BOSSERVER_SH=$INTEROP_DIR/bosserver.sh
CAPTURE_SH=$INTEROP_DIR/capture.sh
EXPERT_KINDS_SH=$INTEROP_DIR/expert-kinds.sh
MIX_SH=$INTEROP_DIR/rxperf-mix.sh
RX4J_JAR=$ROOT/rx-perf/target/rxperf.jar
RX4J_RXPERF=$ROOT/scripts/rxperf
PERF_PORT=${INTEROP_PORT:-7009}           # rxperf's port; Wireshark dissects Rx on 7000-7009 by itself
BUDGET_S=${INTEROP_BUDGET_S:-700}
PACKAGES=(openafs-client openafs-fileserver openafs-dbserver libopenafs-dev tshark gcc iproute2 util-linux
    krb5-kdc krb5-admin-server krb5-user python3)
CELL=interop.rx4j.test

WORK=$(mktemp -d /tmp/rx4j-interop.XXXXXX)
export RX4J_BOS_DIR=$WORK/bosserver
export RX4J_DB_DIR=$WORK/dbservers
# The db section's own namespace pair (scripts/netns.sh with other names), so a bench run's rx4j-a/rx4j-b
# is left alone; the database host is 10.99.0.1 in rx4j-iop-a, clients run in rx4j-iop-b (10.99.0.2).
export RX4J_NETNS_A=rx4j-iop-a RX4J_NETNS_B=rx4j-iop-b RX4J_NETNS_VETH_A=veth-iop-a RX4J_NETNS_VETH_B=veth-iop-b
DB_ADDR=10.99.0.1
DBSERVERS_SH=$INTEROP_DIR/dbservers.sh
PASSED=0
FAILED=0
SKIPPED=0
SERVER_PIDS=()
BOSSERVER_STARTED=0
DB_STARTED=0
UBIK_STARTED=0
WATCHDOG_PID=
CHECK_PID=
CHECK_TIMER_PID=
set -m    # job control: each background job gets its own process group (see check)

# ---------------------------------------------------------------- bookkeeping

note() { printf '%s\n' "$*"; }
pass() { PASSED=$((PASSED + 1)); note "PASS: $1 ($2 s)"; }
fail() { FAILED=$((FAILED + 1)); note "FAIL: $1 ($2 s)${3:+: $3}"; }
skip() { SKIPPED=$((SKIPPED + 1)); note "SKIP: $1${2:+: $2}"; }

now_ns() { date +%s%N; }
elapsed_s() { awk -v a="$1" -v b="$(now_ns)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

# check NAME TIMEOUT_S command...: runs a command or shell function with a time limit, shows
# its output indented, and counts it as passed when it exits 0. Job control (set -m) gives
# every background job its own process group, so a timeout kills the whole group (clients,
# tshark, subshells).
check() {
    local name=$1 limit=$2 start status=0 log timed_out=0
    shift 2
    log=$WORK/log.$((PASSED + FAILED + SKIPPED))
    start=$(now_ns)
    ( "$@" ) > "$log" 2>&1 < /dev/null &
    CHECK_PID=$!
    ( sleep "$limit"; : > "$log.timeout"; kill -TERM -- "-$CHECK_PID" 2>/dev/null
      sleep 5; kill -KILL -- "-$CHECK_PID" 2>/dev/null ) > /dev/null 2>&1 &
    CHECK_TIMER_PID=$!
    wait "$CHECK_PID" 2>/dev/null || status=$?
    kill -- "-$CHECK_TIMER_PID" 2>/dev/null || true
    wait "$CHECK_TIMER_PID" 2>/dev/null || true
    CHECK_TIMER_PID=
    [[ ! -e $log.timeout ]] || timed_out=1
    CHECK_PID=
    sed 's/^/    /' "$log"
    if [[ $timed_out -eq 1 ]]; then
        fail "$name" "$(elapsed_s "$start")" "timed out after ${limit} s"
    elif [[ $status -eq 0 ]]; then
        pass "$name" "$(elapsed_s "$start")"
    else
        fail "$name" "$(elapsed_s "$start")" "exit status $status"
    fi
}

# kill_group PID: TERM the process group PID leads, wait up to 5 s, then KILL it.
kill_group() {
    local pid=$1
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local pid
    [[ -z ${CHECK_TIMER_PID:-} ]] || kill -- "-$CHECK_TIMER_PID" 2>/dev/null || true
    [[ -z ${CHECK_PID:-} ]] || kill_group "$CHECK_PID"
    for pid in "${SERVER_PIDS[@]}"; do
        kill -0 "$pid" 2>/dev/null && kill_group "$pid"
    done
    if [[ $BOSSERVER_STARTED -eq 1 ]]; then
        "$BOSSERVER_SH" stop >/dev/null 2>&1 || true
    fi
    if [[ $UBIK_STARTED -eq 1 ]]; then
        RX4J_DB_DIR=$WORK/ubik-a "$DBSERVERS_SH" stop > /dev/null 2>&1 || true
        RX4J_DB_DIR=$WORK/ubik-b "$DBSERVERS_SH" stop > /dev/null 2>&1 || true
        "$ROOT/scripts/netns.sh" down > /dev/null 2>&1 || true
    fi
    if [[ ${AUTH_STARTED:-0} -eq 1 ]]; then
        "$AUTHCELL_SH" stop > /dev/null 2>&1 || true
        "$ROOT/scripts/netns.sh" down > /dev/null 2>&1 || true
    fi
    if [[ ${KDC_STARTED:-0} -eq 1 ]]; then
        "$KDC_SH" stop > /dev/null 2>&1 || true
    fi
    if [[ $DB_STARTED -eq 1 ]]; then
        "$DBSERVERS_SH" stop > /dev/null 2>&1 || true
        "$ROOT/scripts/netns.sh" down > /dev/null 2>&1 || true
    fi
    if [[ -n $WATCHDOG_PID ]]; then
        kill -- "-$WATCHDOG_PID" 2>/dev/null || true
    fi
    if [[ ${INTEROP_KEEP:-0} == 1 ]]; then
        note "work files kept in $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
print_summary() {
    if [[ $SKIPPED -gt 0 ]]; then
        note "$PASSED passed, $FAILED failed, $SKIPPED skipped"
    else
        note "$PASSED passed, $FAILED failed"
    fi
}

# A signal (Ctrl-C, or the watchdog's TERM) counts as one failure and still ends with the summary.
interrupted() {
    disown -a 2>/dev/null || true    # no job-control notices after the summary line
    FAILED=$((FAILED + 1))
    note "FAIL: run interrupted (signal, or the ${BUDGET_S} s budget was spent)"
    trap - EXIT
    cleanup
    print_summary
    exit 130
}
trap interrupted INT TERM

start_watchdog() {
    # Sends TERM to this script when the budget is spent; the TERM trap then exits through
    # cleanup at once (wait is interrupted by a trapped signal).
    ( sleep "$BUDGET_S"; echo "interop.sh: budget of ${BUDGET_S} s spent, stopping" >&2; kill -TERM $$ ) \
        < /dev/null &
    WATCHDOG_PID=$!
    disown "$WATCHDOG_PID"
}

udp_port_taken() { ss -Hlun "sport = :$1" | grep -q .; }

wait_udp_port() {
    local port=$1 pid=$2 tries=0
    until udp_port_taken "$port"; do
        kill -0 "$pid" 2>/dev/null || return 1
        (( tries++ < 100 )) || return 1
        sleep 0.1
    done
}

# start_server NAME LOGFILE command...: starts a UDP server in the background on PERF_PORT,
# records its pid for cleanup, waits until the port is bound. Sets SERVER_PID.
start_server() {
    local name=$1 log=$2
    shift 2
    if udp_port_taken "$PERF_PORT"; then
        note "interop.sh: UDP port $PERF_PORT is taken: $(ss -Hlunp "sport = :$PERF_PORT" | tr -s ' ')"
        return 1
    fi
    "$@" < /dev/null > "$log" 2>&1 &
    SERVER_PID=$!
    disown "$SERVER_PID"    # no job-control notices when it is stopped; kill_group still finds it
    SERVER_PIDS+=("$SERVER_PID")
    if ! wait_udp_port "$PERF_PORT" "$SERVER_PID"; then
        note "interop.sh: $name did not bind UDP $PERF_PORT:"
        sed 's/^/    /' "$log"
        return 1
    fi
}

stop_server() {
    kill_group "$1"
}

# The exact result line of OpenAFS 1.8 rxperf (rx-wire-facts.md section 10).
RESULT_LINE_RE=$'^(SEND|RECV): threads\t[0-9]+, times\t[0-9]+, bytes\t[0-9]+:\t *[0-9]+ msec\t\\[[0-9.e+]+ (kbit|Mbit|Gbit)/s\\]$'
RPC_LINE_RE=$'^RPC: threads\t[0-9]+, times\t[0-9]+, write bytes\t[0-9]+, read bytes\t[0-9]+:\t *[0-9]+ msec\t\\[[0-9.e+]+ (kbit|Mbit|Gbit)/s\\]$'

# rxperf_client_run CLIENT... : runs an rxperf client (any implementation) and checks that it
# exits 0 and prints exactly one result line in OpenAFS's format.
rxperf_client_run() {
    local out status=0
    out=$("$@" 2>&1) || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 0 ]] || { echo "client exit status $status"; return 1; }
    if ! grep -Eq "$RESULT_LINE_RE|$RPC_LINE_RE" <<< "$out"; then
        echo "no result line in OpenAFS rxperf format"
        return 1
    fi
}

# expect_failure command...: succeeds only when the command fails (negative controls).
expect_failure() {
    if "$@"; then
        echo "expected a failure, but the command succeeded"
        return 1
    fi
    echo "failed as expected"
}
