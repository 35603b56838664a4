#!/usr/bin/env bash
# rx4j interop harness against real OpenAFS 1.8 programs (Debian packages) on loopback.
#
#   scripts/interop.sh [SECTION...]
#
# SECTIONs, run in this order (default: all):
#   packages  install the Debian packages if missing (openafs-client openafs-fileserver
#             libopenafs-dev tshark gcc; apt-get update only when needed)
#   build     build the C rxperf peer (scripts/interop/rxperf-peer.c) into scripts/interop/build/
#   c2c       C client <-> C server: send, recv, rpc with --verify, the negative --verify
#             controls (--corrupt-at must fail), rxdebug against the C server
#   bos       bosserver (private mount namespace, scripts/interop/bosserver.sh) and the real
#             `bos listhosts` / `bos addhost`
#   capture   tshark capture of a C<->C mix; its Wireshark expert-info kinds are the control
#   rx4j      the rx4j parts (run_rx4j_*): SKIP until rx-perf/target/rxperf.jar exists
#
# Every run prints its wall time. Every server started here is stopped on exit. The whole run
# is bounded by a watchdog (INTEROP_BUDGET_S, default 450 s). The rxperf servers use UDP
# INTEROP_PORT (default 7009; bosserver's 7007 is fixed). Work files (logs, captures) go to
# a temporary directory that is removed at the end unless INTEROP_KEEP=1.
# Ends with "N passed, M failed" (", K skipped" when something skipped) and exits non-zero
# if anything failed. See docs/interop.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
INTEROP_DIR=$ROOT/scripts/interop
BUILD_DIR=$INTEROP_DIR/build
PEER=$BUILD_DIR/rxperf-peer
BOSSERVER_SH=$INTEROP_DIR/bosserver.sh
CAPTURE_SH=$INTEROP_DIR/capture.sh
EXPERT_KINDS_SH=$INTEROP_DIR/expert-kinds.sh
MIX_SH=$INTEROP_DIR/rxperf-mix.sh
RX4J_JAR=$ROOT/rx-perf/target/rxperf.jar
RX4J_RXPERF=$ROOT/scripts/rxperf
RX4J_BOS=$ROOT/scripts/rx4j-bos           # contract for the Java bos client, see docs/interop.md
PERF_PORT=${INTEROP_PORT:-7009}           # rxperf's port; Wireshark dissects Rx on 7000-7009 by itself
BUDGET_S=${INTEROP_BUDGET_S:-450}
PACKAGES=(openafs-client openafs-fileserver libopenafs-dev tshark gcc)
CELL=interop.rx4j.test

WORK=$(mktemp -d /tmp/rx4j-interop.XXXXXX)
export RX4J_BOS_DIR=$WORK/bosserver
PASSED=0
FAILED=0
SKIPPED=0
SERVER_PIDS=()
BOSSERVER_STARTED=0
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
    if ! printf '%s\n' "$out" | grep -Eq "$RESULT_LINE_RE|$RPC_LINE_RE"; then
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

# ---------------------------------------------------------------- packages and build

package_installed() {
    [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

ensure_packages() {
    local missing=() pkg
    for pkg in "${PACKAGES[@]}"; do
        package_installed "$pkg" || missing+=("$pkg")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        note "packages: all installed (${PACKAGES[*]})"
        return 0
    fi
    note "packages: installing ${missing[*]}"
    # --no-install-recommends: otherwise apt pulls the OpenAFS kernel module build.
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
        note "packages: install failed; running apt-get update once and retrying"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

section_packages() {
    check "packages installed" 300 ensure_packages
    check "OpenAFS version" 10 bash -c 'dpkg -s openafs-client | grep "^Version"'
}

build_peer() {
    mkdir -p "$BUILD_DIR"
    gcc -O2 -Wall -Wextra "$INTEROP_DIR/rxperf-peer.c" -o "$PEER" -lafsrpc -lpthread
    local usage
    usage=$("$PEER" 2>&1 || true)
    [[ $usage == "usage: rxperf-peer"* ]]
}

section_build() {
    check "build C rxperf peer" 120 build_peer
}

require_peer() {
    [[ -x $PEER ]] || { skip "$1" "C peer not built ($PEER)"; return 1; }
}

# ---------------------------------------------------------------- C <-> C

section_c2c() {
    require_peer "C<->C" || return 0
    if ! start_server "C rxperf server" "$WORK/c-server.log" "$PEER" server -p "$PERF_PORT" --verify; then
        fail "C<->C: start C server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID c=("$PEER" client -s 127.0.0.1 -p "$PERF_PORT")
    check "C<->C send -b 1048576 -T 30 --verify" 60 rxperf_client_run "${c[@]}" -c send -b 1048576 -T 30 --verify
    check "C<->C recv -b 1048576 -T 30 --verify" 60 rxperf_client_run "${c[@]}" -c recv -b 1048576 -T 30 --verify
    check "C<->C rpc -S 4 -R 30 -T 2000 --verify" 60 rxperf_client_run "${c[@]}" -c rpc -S 4 -R 30 -T 2000 --verify
    check "C<->C rpc -S 100000 -R 100000 -T 10 --verify" 60 rxperf_client_run "${c[@]}" -c rpc -S 100000 -R 100000 -T 10 --verify
    check "C<->C send -b 100000 -T 10 -j --verify (no jumbograms)" 60 rxperf_client_run "${c[@]}" -c send -b 100000 -T 10 -j --verify
    check "C<->C send -b 1048576 -T 5 -t 4 -u 512 --verify (4 threads)" 60 rxperf_client_run "${c[@]}" -c send -b 1048576 -T 5 -t 4 -u 512 --verify
    check "C<->C negative: server detects a corrupted SEND payload" 60 expect_failure "${c[@]}" -c send -b 100000 -T 1 --corrupt-at 77777
    check "C<->C rxdebug -version" 40 bash -c "rxdebug 127.0.0.1 $PERF_PORT -version | grep 'AFS version: OpenAFS'"
    check "C<->C rxdebug -rxstats -noconns" 40 bash -c "rxdebug 127.0.0.1 $PERF_PORT -rxstats -noconns | grep 'rx stats'"
    stop_server "$pid"
    if grep -q 'payload mismatch at offset 77777' "$WORK/c-server.log"; then
        pass "C<->C negative: server log names the corrupted offset" 0
    else
        fail "C<->C negative: server log names the corrupted offset" 0 "$(cat "$WORK/c-server.log")"
    fi

    # A server that corrupts what it sends: the client's --verify must notice.
    if ! start_server "corrupting C server" "$WORK/c-server-bad.log" "$PEER" server -p "$PERF_PORT" --corrupt-at 4242; then
        fail "C<->C: start corrupting C server" 0 "see above"
        return 0
    fi
    pid=$SERVER_PID
    check "C<->C negative: client detects a corrupted RECV payload" 60 \
        expect_failure "${c[@]}" -c recv -b 100000 -T 1 --verify
    check "C<->C control: without --verify the same RECV passes" 60 \
        rxperf_client_run "${c[@]}" -c recv -b 100000 -T 1
    stop_server "$pid"
}

# ---------------------------------------------------------------- bosserver

bos_listhosts_expect() {
    local out
    out=$(bos listhosts -server 127.0.0.1 -noauth 2>&1) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"
    local want
    for want in "$@"; do
        printf '%s\n' "$out" | grep -qxF "$want" || { echo "missing line: '$want'"; return 1; }
    done
}

section_bos() {
    if udp_port_taken 7007; then
        fail "bosserver: UDP 7007 free" 0 "$(ss -Hlunp 'sport = :7007' | tr -s ' ')"
        return 0
    fi
    BOSSERVER_STARTED=1
    check "bosserver start (private mount namespace)" 30 "$BOSSERVER_SH" start
    check "bos listhosts (real client)" 60 bos_listhosts_expect "Cell name is $CELL" "    Host 1 is localhost"
    check "bos addhost -host 10.9.8.7" 60 bos addhost -server 127.0.0.1 -host 10.9.8.7 -noauth
    check "bos listhosts shows the added host" 60 bos_listhosts_expect \
        "Cell name is $CELL" "    Host 1 is localhost" "    Host 2 is 10.9.8.7"
    run_rx4j_bos
    check "bosserver stop and cleanup" 30 "$BOSSERVER_SH" stop
    BOSSERVER_STARTED=0
}

# ---------------------------------------------------------------- captures

section_capture() {
    require_peer "capture" || return 0
    if ! start_server "C rxperf server" "$WORK/c-server-cap.log" "$PEER" server -p "$PERF_PORT"; then
        fail "capture: start C server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID
    check "capture C<->C mix (tshark on lo, udp $PERF_PORT)" 90 \
        "$CAPTURE_SH" "$WORK/c2c.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$PEER" client -s 127.0.0.1 -p "$PERF_PORT"
    stop_server "$pid"
    check "expert-info kinds of the C<->C control" 60 bash -c \
        "'$EXPERT_KINDS_SH' -c -p $PERF_PORT '$WORK/c2c.pcapng' | tee '$WORK/c2c.kinds'; echo \"(\$(wc -l < '$WORK/c2c.kinds') kinds)\""
}

# ---------------------------------------------------------------- rx4j (plugged in later)

# rx4j_available WHAT: true when the rx4j rxperf jar and launcher exist; else prints SKIP.
rx4j_available() {
    if [[ ! -f $RX4J_JAR ]]; then
        skip "$1" "rx4j rxperf jar not built yet ($RX4J_JAR)"
        return 1
    fi
    if [[ ! -x $RX4J_RXPERF ]]; then
        skip "$1" "launcher $RX4J_RXPERF missing or not executable"
        return 1
    fi
}

# Pattern checking is used against rx4j only if its rxperf advertises --verify (help text).
rx4j_verify_flag() {
    local help
    help=$("$RX4J_RXPERF" client --help 2>&1 || true)
    if [[ $help == *--verify* ]]; then echo "--verify"; fi
}

# rxdebug (the real OpenAFS client of the DEBUG/VERSION protocol) against an rx4j rxperf server.
run_rx4j_rxdebug() {
    rx4j_available "rx4j: rxdebug against the rx4j rxperf server" || return 0
    if ! start_server "rx4j rxperf server" "$WORK/rx4j-server-dbg.log" "$RX4J_RXPERF" server -p "$PERF_PORT"; then
        fail "rx4j: start rx4j rxperf server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID
    check "rx4j: rxdebug -version" 40 bash -c "rxdebug 127.0.0.1 $PERF_PORT -version | grep 'AFS version:'"
    check "rx4j: rxdebug -rxstats -noconns" 40 bash -c "rxdebug 127.0.0.1 $PERF_PORT -rxstats -noconns | grep 'rx stats'"
    check "rx4j: rxdebug -allconnections" 40 rxdebug 127.0.0.1 "$PERF_PORT" -allconnections
    check "rx4j: rxdebug -peers -long" 40 rxdebug 127.0.0.1 "$PERF_PORT" -peers -long
    stop_server "$pid"
}

# The rxperf matrix: rx4j client -> C server, then C client -> rx4j server.
run_rx4j_matrix() {
    rx4j_available "rx4j: rxperf matrix (rx4j client -> C server, C client -> rx4j server)" || return 0
    require_peer "rx4j: rxperf matrix" || return 0
    local verify pid runs run
    verify=$(rx4j_verify_flag)
    [[ -n $verify ]] || note "rx4j rxperf has no --verify: payload pattern not checked against rx4j"
    runs=("-c send -b 1048576 -T 30" "-c recv -b 1048576 -T 30" "-c rpc -S 4 -R 30 -T 2000"
          "-c send -b 32768 -T 100" "-c send -b 100000 -T 10 -j" "-c recv -b 100000 -T 10 -j"
          "-c send -b 1048576 -T 5 -t 4")

    if start_server "C rxperf server" "$WORK/c-server-m.log" "$PEER" server -p "$PERF_PORT" $verify; then
        pid=$SERVER_PID
        for run in "${runs[@]}"; do
            # shellcheck disable=SC2086  # run holds several flags on purpose
            check "rx4j client -> C server: $run${verify:+ $verify}" 90 rxperf_client_run \
                "$RX4J_RXPERF" client -s 127.0.0.1 -p "$PERF_PORT" $run $verify
        done
        stop_server "$pid"
    else
        fail "rx4j: start C server for the matrix" 0 "see above"
    fi

    if start_server "rx4j rxperf server" "$WORK/rx4j-server-m.log" "$RX4J_RXPERF" server -p "$PERF_PORT" $verify; then
        pid=$SERVER_PID
        for run in "${runs[@]}"; do
            # shellcheck disable=SC2086
            check "C client -> rx4j server: $run${verify:+ $verify}" 90 rxperf_client_run \
                "$PEER" client -s 127.0.0.1 -p "$PERF_PORT" $run $verify
        done
        stop_server "$pid"
    else
        fail "rx4j: start rx4j rxperf server for the matrix" 0 "see above"
    fi
}

# Captures rx4j<->C traffic and fails on Wireshark expert-info kinds the C<->C control lacks.
run_rx4j_capture() {
    rx4j_available "rx4j: capture comparison with the C<->C control" || return 0
    require_peer "rx4j: capture comparison" || return 0
    [[ -f $WORK/c2c.kinds ]] || { skip "rx4j: capture comparison" "no C<->C control (run the capture section)"; return 0; }
    local pid side
    for side in "rx4j-client" "rx4j-server"; do
        if [[ $side == rx4j-client ]]; then
            start_server "C rxperf server" "$WORK/cap-$side.log" "$PEER" server -p "$PERF_PORT" || { fail "rx4j: capture $side: start server" 0; continue; }
            pid=$SERVER_PID
            check "capture rx4j client -> C server mix" 120 \
                "$CAPTURE_SH" "$WORK/$side.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$RX4J_RXPERF" client -s 127.0.0.1 -p "$PERF_PORT"
        else
            start_server "rx4j rxperf server" "$WORK/cap-$side.log" "$RX4J_RXPERF" server -p "$PERF_PORT" || { fail "rx4j: capture $side: start server" 0; continue; }
            pid=$SERVER_PID
            check "capture C client -> rx4j server mix" 120 \
                "$CAPTURE_SH" "$WORK/$side.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$PEER" client -s 127.0.0.1 -p "$PERF_PORT"
        fi
        stop_server "$pid"
        check "expert-info kinds $side vs C<->C control (no new kinds)" 60 bash -c \
            "'$EXPERT_KINDS_SH' -p $PERF_PORT '$WORK/$side.pcapng' > '$WORK/$side.kinds' &&
             cut -f2 '$WORK/c2c.kinds' | sort > '$WORK/c2c.kindnames' &&
             new=\$(comm -23 <(sort '$WORK/$side.kinds') '$WORK/c2c.kindnames') &&
             if [[ -n \$new ]]; then echo \"new kinds:\"; printf '%s\n' \"\$new\"; exit 1; fi;
             echo 'no kinds beyond the control'"
    done
}

# The rx4j Java bos client against the real bosserver (bosserver must be running). Contract:
# scripts/rx4j-bos takes the same arguments as OpenAFS bos for listhosts/addhost and prints
# the same lines (docs/interop.md).
run_rx4j_bos() {
    rx4j_available "rx4j: bos client against bosserver" || return 0
    if [[ ! -x $RX4J_BOS ]]; then
        skip "rx4j: bos client against bosserver" "launcher $RX4J_BOS not written yet"
        return 0
    fi
    local expected
    expected=$(bos listhosts -server 127.0.0.1 -noauth 2>&1)
    check "rx4j-bos listhosts prints what bos prints" 60 bash -c \
        "diff <(printf '%s\n' \"\$1\") <('$RX4J_BOS' listhosts -server 127.0.0.1 -noauth 2>&1)" _ "$expected"
    check "rx4j-bos addhost -host 10.9.8.6" 60 "$RX4J_BOS" addhost -server 127.0.0.1 -host 10.9.8.6 -noauth
    check "bos listhosts shows the host rx4j added" 60 bos_listhosts_expect "    Host 3 is 10.9.8.6"
}

section_rx4j() {
    run_rx4j_rxdebug
    run_rx4j_matrix
    run_rx4j_capture
    # run_rx4j_bos runs inside section_bos, while bosserver is up.
}

# ---------------------------------------------------------------- main

main() {
    local sections=("$@") section start
    [[ ${#sections[@]} -gt 0 ]] || sections=(packages build c2c bos capture rx4j)
    for section in "${sections[@]}"; do
        case $section in
            packages|build|c2c|bos|capture|rx4j) ;;
            *) echo "usage: $0 [packages|build|c2c|bos|capture|rx4j]..." >&2; exit 2 ;;
        esac
    done
    start_watchdog
    start=$(now_ns)
    note "rx4j interop against OpenAFS; work files in $WORK"
    for section in "${sections[@]}"; do
        note "== $section"
        "section_$section"
    done
    note "total time $(elapsed_s "$start") s"
    print_summary
    [[ $FAILED -eq 0 ]]
}

# Sourcing the file (for testing its functions) does not run it.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
