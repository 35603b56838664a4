#!/usr/bin/env bash
# rx4j interop harness against real OpenAFS 1.8 programs (Debian packages) on loopback.
#
#   scripts/interop.sh [SECTION...]
#
# SECTIONs, run in this order (default: all):
#   packages  install the Debian packages if missing (openafs-client openafs-fileserver
#             libopenafs-dev tshark gcc; apt-get update only when needed)
#   build     build the C rxperf peer (scripts/interop/rxperf-peer.c) into scripts/interop/build/
#             and rx4j's rxperf jar (scripts/rxperf --version: Maven on first use)
#   c2c       C client <-> C server: send, recv, rpc with --verify, the negative --verify
#             controls (--corrupt-at must fail), rxdebug and raw DEBUG probes against the C server
#   bos       bosserver (private mount namespace, scripts/interop/bosserver.sh), the real
#             `bos listhosts` / `bos addhost`, and rx4j's client API against it (BosInteropTest)
#   rxgen     rx-gen's kitchen sink against Debian rxgen's C stubs, both directions
#             (scripts/rxgen/cross-check.sh: C server + Java client, C client + Java server)
#   db        vlserver and ptserver (openafs-dbserver) in a network namespace of scripts/netns.sh
#             (scripts/interop/dbservers.sh), the real `vos` and `pts` against them, and rx4j's
#             generated VL/PR stubs compared with what they print (DbServersInteropTest)
#   ubik      two real vlservers (10.99.0.1 in rx4j-iop-a, 10.99.0.2 in rx4j-iop-b) of one cell: after
#             their election, scripts/afsq (UbikClient) with the CellServDB listing 10.99.0.2 first
#             gets its answer there; with that vlserver stopped, from 10.99.0.1 on the next try
#   capture   tshark capture of a C<->C mix; its Wireshark expert-info kinds are the control
#   rx4j      rxdebug against an rx4j server before/during/after transfers, the rxperf matrix
#             (rx4j client -> C server, C client -> rx4j server), captures of rx4j<->C mixes
#             compared with the control (run_rx4j_*)
#
# Every run prints its wall time. Every server started here is stopped on exit. The whole run
# is bounded by a watchdog (INTEROP_BUDGET_S, default 700 s). The rxperf servers use UDP
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
PERF_PORT=${INTEROP_PORT:-7009}           # rxperf's port; Wireshark dissects Rx on 7000-7009 by itself
BUDGET_S=${INTEROP_BUDGET_S:-700}
PACKAGES=(openafs-client openafs-fileserver openafs-dbserver libopenafs-dev tshark gcc iproute2 util-linux)
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
    "$INTEROP_DIR/build-peer.sh" --force    # always rebuilt here: the interop run checks the compile too
}

section_build() {
    check "build C rxperf peer" 120 build_peer
    ensure_rx4j || true
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
    check "C<->C control: DEBUG of unknown type 99 gets the {-8, -8} reply" 30 debug_probe_unknown_type
    check "C<->C control: DEBUG without CLIENT_INITIATED gets no reply" 30 debug_probe_not_client_initiated
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

# ---------------------------------------------------------------- rx-gen cross-check

section_rxgen() {
    check "rx-gen kitchen sink vs Debian rxgen's C stubs, both directions (scripts/rxgen/cross-check.sh)" 300 \
        "$ROOT/scripts/rxgen/cross-check.sh"
}

# ---------------------------------------------------------------- vlserver and ptserver

# in_client_ns command...: runs a command in the client namespace (10.99.0.2).
in_client_ns() { ip netns exec "$RX4J_NETNS_B" "$@"; }

db_vos_pts() {
    local cfg=(-noauth -config "$RX4J_DB_DIR/client" -cell "$CELL")
    in_client_ns vos listvldb -server "$DB_ADDR" -noresolve "${cfg[@]}"
    in_client_ns vos listaddrs -noresolve "${cfg[@]}"
    in_client_ns pts examine -nameorid system:administrators "${cfg[@]}"
}

# rx4j's generated VL and PR clients against the real servers: the JUnit class
# rx-afs/src/test/java/org/rx4j/afs/DbServersInteropTest.java through Maven, run inside the client
# namespace (it runs vos and pts itself to compare their output with its answers).
rx4j_db_test() {
    local report=$ROOT/rx-afs/target/surefire-reports/org.rx4j.afs.DbServersInteropTest.txt status=0
    rm -f "$report"
    (cd "$ROOT" && in_client_ns mvn -q -B -ntp -o -pl rx-afs -am test -Dtest=DbServersInteropTest \
        -Dsurefire.failIfNoSpecifiedTests=false -Drx4j.db.server="$DB_ADDR" \
        -Drx4j.db.config="$RX4J_DB_DIR/client" -Drx4j.db.cell="$CELL") || status=$?
    [[ -f $report ]] && sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    [[ $status -eq 0 ]] || { echo "mvn exit status $status"; return 1; }
    grep -Eq '^Tests run: 5, Failures: 0, Errors: 0, Skipped: 0' "$report" \
        || { echo "expected 5 tests run and none skipped"; return 1; }
}

# afsq (scripts/afsq, rx-afs-tools) against the same servers, through the cell reader (the client
# CellServDB) and the multi-server client: its output must equal what vos and pts print.
db_afsq_vl_entry() {
    local mine vos
    "$ROOT/scripts/afsq" --version >&2 || return 1    # builds the jar on first use
    mine=$(in_client_ns "$ROOT/scripts/afsq" vl-entry rx4j.interop -c "$CELL" \
        --cellservdb "$RX4J_DB_DIR/client/CellServDB") || { printf '%s\n' "$mine"; return 1; }
    vos=$(in_client_ns vos listvldb -name rx4j.interop -noresolve -noauth -config "$RX4J_DB_DIR/client" -cell "$CELL" \
        | sed -e 's/ *$//' -e '/^$/d') || return 1
    printf 'afsq:\n%s\nvos listvldb -name rx4j.interop:\n%s\n' "$mine" "$vos"
    [[ $mine == "$vos" ]] || { echo "afsq and vos differ"; return 1; }
}

db_afsq_pt_id() {
    local mine pts
    mine=$(in_client_ns "$ROOT/scripts/afsq" pt-id rx4juser system:administrators -c "$CELL" \
        --cellservdb "$RX4J_DB_DIR/client/CellServDB") || { printf '%s\n' "$mine"; return 1; }
    pts=$(for name in rx4juser system:administrators; do
        in_client_ns pts examine -nameorid "$name" -noauth -config "$RX4J_DB_DIR/client" -cell "$CELL" \
            | sed -n 's/^Name: \([^,]*\), id: \([-0-9]*\),.*/\1 \2/p'
    done)
    printf 'afsq:\n%s\npts examine:\n%s\n' "$mine" "$pts"
    [[ -n $pts && $mine == "$pts" ]] || { echo "afsq and pts differ"; return 1; }
}

# The multi-server client against a real vlserver: the CellServDB lists first a database host where
# nothing listens (10.99.0.2:7003, the client namespace's own address), then the real one. afsq (-t 3:
# each try's deadline) must move on after the first server's RX_CALL_DEAD/RX_CALL_TIMEOUT and get the
# entry from the second, on try 2.
db_afsq_dead_first() {
    local out
    printf '>%s\t#a dead server first\n10.99.0.2\t#nothing listens\n%s\t#afsdb1\n' "$CELL" "$DB_ADDR" \
        > "$WORK/CellServDB.dead-first"
    out=$(in_client_ns "$ROOT/scripts/afsq" vl-entry rx4j.interop -c "$CELL" -t 3 -v \
        --cellservdb "$WORK/CellServDB.dead-first" 2>&1) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"
    printf '%s\n' "$out" | grep -qxF "afsq: $DB_ADDR:7003 answered, try 2 of at most 2" \
        || { echo "expected the second server to answer on try 2"; return 1; }
    printf '%s\n' "$out" | grep -qxF "rx4j.interop" || { echo "no entry printed"; return 1; }
}

db_afsq_errors() {
    local out status=0
    out=$(in_client_ns "$ROOT/scripts/afsq" vl-entry no.such.volume -c "$CELL" \
        --cellservdb "$RX4J_DB_DIR/client/CellServDB" 2>&1) || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 1 && $out == *"VL_GetEntryByNameN (opcode 519)"*363524* ]] || { echo "expected status 1 and VL_NOENT"; return 1; }
    status=0
    out=$("$ROOT/scripts/afsq" vl-entry --cell 2>&1) || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 2 && $(printf '%s\n' "$out" | wc -l) -eq 1 ]] || { echo "expected one line and status 2"; return 1; }
}

section_db() {
    [[ -x /usr/lib/openafs/vlserver ]] || { skip "db" "openafs-dbserver is not installed"; return 0; }
    DB_STARTED=1
    check "network namespaces $RX4J_NETNS_A/$RX4J_NETNS_B (scripts/netns.sh up)" 30 "$ROOT/scripts/netns.sh" up
    check "vlserver + ptserver start in $RX4J_NETNS_A ($DB_ADDR), ubik election" 90 \
        "$DBSERVERS_SH" start "$RX4J_NETNS_A" "$DB_ADDR"
    check "vos listvldb / vos listaddrs / pts examine (real clients, from $RX4J_NETNS_B)" 60 db_vos_pts
    check "rx4j: DbServersInteropTest (VL_Probe, CreateEntry, GetEntryByNameN, ListAttributes, GetAddrs(U) = vos; PR_NewEntry, NameToID, IDToName, ListEntry = pts)" \
        300 rx4j_db_test
    check "scripts/afsq vl-entry rx4j.interop = vos listvldb -name (cell from the client CellServDB)" 180 \
        db_afsq_vl_entry
    check "scripts/afsq pt-id = the ids pts examine prints" 60 db_afsq_pt_id
    check "scripts/afsq (UbikClient): a dead first server in the CellServDB, the real vlserver answers on try 2" 60 \
        db_afsq_dead_first
    check "scripts/afsq: VL_NOENT is status 1, a bad flag one line and status 2" 60 db_afsq_errors
    check "vlserver + ptserver stop" 30 "$DBSERVERS_SH" stop
    check "network namespaces down" 30 "$ROOT/scripts/netns.sh" down
    DB_STARTED=0
}

# ---------------------------------------------------------------- two vlservers

# ubik_afsq NEEDLE: afsq -v asks the two-server cell for a volume that does not exist (CellServDB:
# 10.99.0.2 first, then 10.99.0.1; 3 s per try); the answer must be VL_NOENT from the server NEEDLE names.
ubik_afsq() {
    local out status=0
    "$ROOT/scripts/afsq" --version > /dev/null 2>&1 || true    # builds the jar first, so stderr holds afsq's lines only
    out=$(ip netns exec "$RX4J_NETNS_A" "$ROOT/scripts/afsq" vl-entry no.such.volume -c "$CELL" -v -t 3 \
        --cellservdb "$WORK/CellServDB.ubik" 2>&1) || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 1 ]] || { echo "expected exit status 1 (VL_NOENT), got $status"; return 1; }
    printf '%s\n' "$out" | grep -qxF "afsq: $1 answered with an error" || { echo "expected the answer from $1"; return 1; }
    [[ $out == *363524* ]] || { echo "expected VL_NOENT (363524)"; return 1; }
}

section_ubik() {
    [[ -x /usr/lib/openafs/vlserver ]] || { skip "ubik" "openafs-dbserver is not installed"; return 0; }
    UBIK_STARTED=1
    local hosts="10.99.0.1 10.99.0.2"
    printf '>%s\t#two vlservers\n10.99.0.2\t#b\n10.99.0.1\t#a\n' "$CELL" > "$WORK/CellServDB.ubik"
    check "network namespaces $RX4J_NETNS_A/$RX4J_NETNS_B (scripts/netns.sh up)" 30 "$ROOT/scripts/netns.sh" up
    check "vlserver 10.99.0.1 start (cell of two)" 30 env RX4J_DB_DIR="$WORK/ubik-a" RX4J_DB_HOSTS="$hosts" \
        "$DBSERVERS_SH" start "$RX4J_NETNS_A" 10.99.0.1 --vl-only --no-wait
    check "vlserver 10.99.0.2 start, ubik election of two (at most 180 s)" 200 env RX4J_DB_DIR="$WORK/ubik-b" \
        RX4J_DB_HOSTS="$hosts" RX4J_DB_ELECTION_S=180 "$DBSERVERS_SH" start "$RX4J_NETNS_B" 10.99.0.2 --vl-only
    check "scripts/afsq (UbikClient), both up: 10.99.0.2, first in the CellServDB, answers" 120 \
        ubik_afsq 10.99.0.2:7003
    check "vlserver 10.99.0.2 stop" 30 env RX4J_DB_DIR="$WORK/ubik-b" "$DBSERVERS_SH" stop
    check "scripts/afsq (UbikClient), 10.99.0.2 stopped: moves on, 10.99.0.1 answers" 60 ubik_afsq 10.99.0.1:7003
    check "vlserver 10.99.0.1 stop" 30 env RX4J_DB_DIR="$WORK/ubik-a" "$DBSERVERS_SH" stop
    check "network namespaces down" 30 "$ROOT/scripts/netns.sh" down
    UBIK_STARTED=0
}

# ---------------------------------------------------------------- captures

# capture_holds_rx_traffic FILE: the capture decodes as Rx and holds the mix's traffic both ways
# (at least 500 DATA datagrams and 300 ACKs from the server's port and to it), so "no expert
# infos" cannot come from an empty or undecoded capture. Prints the count per direction and type.
capture_holds_rx_traffic() {
    local counts
    counts=$(tshark -r "$1" -d "udp.port==$PERF_PORT,rx" -Y rx -T fields -e udp.srcport -e rx.type 2>/dev/null |
        awk -v port="$PERF_PORT" '{ n[($1 == port ? "server->client" : "client->server") " type " $2]++ }
            END { for (k in n) print k, n[k] }' | sort)
    printf '%s\n' "$counts"
    awk '{ c[$1 " " $3] = $4 }
        END {
            bad = 0
            split("client->server server->client", dirs, " ")
            for (i in dirs) {
                if (c[dirs[i] " 1"] < 500) { print dirs[i] ": fewer than 500 DATA"; bad = 1 }
                if (c[dirs[i] " 2"] < 300) { print dirs[i] ": fewer than 300 ACK"; bad = 1 }
            }
            exit bad
        }' <<< "$counts"
}

# expert_kinds_skip_port_artefacts: an Rx datagram from UDP port 33453 carries Wireshark's
# port-derived "Possible traceroute" note, and expert-kinds.sh leaves it out (the kernel may hand a
# client such an ephemeral port; see expert-kinds.sh).
expert_kinds_skip_port_artefacts() {
    local f=$WORK/traceroute-port.pcapng kinds
    printf '0000  00 00 00 01 00 00 00 02 00 00 00 01 00 00 00 01\n0010  00 00 00 01 01 00 00 00 00 00 00 01\n' |
        text2pcap -q -4 127.0.0.1,127.0.0.1 -u "33453,$PERF_PORT" - "$f" 2>/dev/null || { echo "text2pcap failed"; return 1; }
    tshark -r "$f" -q -z expert 2>/dev/null | grep -q "Possible traceroute" ||
        { echo "tshark no longer notes the traceroute port range; the filter is moot"; return 1; }
    kinds=$("$EXPERT_KINDS_SH" -p "$PERF_PORT" "$f") || return 1
    if grep -q "traceroute" <<< "$kinds"; then echo "not left out: $kinds"; return 1; fi
    echo "left out, as it should be"
}

section_capture() {
    require_peer "capture" || return 0
    check "expert-kinds.sh leaves out the port-derived traceroute note" 30 expert_kinds_skip_port_artefacts
    if ! start_server "C rxperf server" "$WORK/c-server-cap.log" "$PEER" server -p "$PERF_PORT"; then
        fail "capture: start C server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID
    check "capture C<->C mix (tshark on lo, udp $PERF_PORT)" 90 \
        "$CAPTURE_SH" "$WORK/c2c.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$PEER" client -s 127.0.0.1 -p "$PERF_PORT"
    stop_server "$pid"
    check "capture C<->C holds Rx DATA and ACKs both ways" 60 capture_holds_rx_traffic "$WORK/c2c.pcapng"
    check "expert-info kinds of the C<->C control" 60 bash -c \
        "'$EXPERT_KINDS_SH' -c -p $PERF_PORT '$WORK/c2c.pcapng' | tee '$WORK/c2c.kinds'; echo \"(\$(wc -l < '$WORK/c2c.kinds') kinds)\""
}

# ---------------------------------------------------------------- rx4j (plugged in later)

# The rx4j launcher builds the shaded jar with Maven on first use or when sources changed
# (scripts/rxperf); doing it here, once and with its own time limit, keeps that out of the
# server start-up waits and the per-run limits.
RX4J_BUILD_TRIED=0
build_rx4j() {
    "$RX4J_RXPERF" --version
    [[ -f $RX4J_JAR ]]
}
ensure_rx4j() {
    if [[ $RX4J_BUILD_TRIED -eq 0 ]]; then
        RX4J_BUILD_TRIED=1
        check "build rx4j rxperf jar (scripts/rxperf --version; Maven on first use)" 400 build_rx4j
    fi
    [[ -f $RX4J_JAR && -x $RX4J_RXPERF ]]
}

# rx4j_available WHAT: builds rx4j if needed; a missing jar fails WHAT (it is not skipped).
rx4j_available() {
    ensure_rx4j || { fail "$1" 0 "rx4j rxperf jar $RX4J_JAR could not be built"; return 1; }
}

# Pattern checking is used against rx4j only if its rxperf advertises --verify (help text).
rx4j_verify_flag() {
    local help
    help=$("$RX4J_RXPERF" client --help 2>&1 || true)
    if [[ $help == *--verify* ]]; then echo "--verify"; fi
}

# ---- rxdebug against rx4j

# rxdebug_stat FILE KEY: one counter from `rxdebug -rxstats -noconns` output. KEY: calls (the
# "calls: N" of GETSTATS, calls executed by the server), read_data, read_ack, sent_data, sent_ack
# (the "packets read:"/"packets sent:" rows of RXSTATS), rtt_samples (0 when rxdebug prints no
# "Average rtt" line). Prints nothing when the line is missing.
rxdebug_stat() {
    awk -v key="$2" '
        /^Free packets:/ && key == "calls" {
            for (i = 1; i < NF; i++) if ($i == "calls:") { v = $(i + 1); sub(/,$/, "", v); print v; exit }
        }
        /^ *packets read: data / && key == "read_data" { print $4; exit }
        /^ *packets read: data / && key == "read_ack" { print $6; exit }
        /^ *packets sent: data / && key == "sent_data" { print $4; exit }
        /^ *packets sent: data / && key == "sent_ack" { print $6; exit }
        /^ *Average rtt is / && key == "rtt_samples" { print $(NF - 1); found = 1; exit }
        END { if (key == "rtt_samples" && !found) print 0 }' "$1"
}

# rxdebug_conns FILE: the connections of `rxdebug -allconnections` output, one a line:
#   PORT CUID server|client CALLNUMBER_SUM ACTIVE_CALLS
# (CALLNUMBER_SUM adds the "# N" of the four channels: the calls the connection has carried.)
rxdebug_conns() {
    awk '
        function flush() { if (cuid != "") printf "%s %s %s %d %d\n", port, cuid, kind, sum, active }
        /^Connection from host / {
            flush(); port = $6; sub(/,$/, "", port); cuid = $8; kind = "?"; sum = 0; active = 0; next
        }
        cuid != "" && / server conn/ { kind = "server"; next }
        cuid != "" && / client conn/ { kind = "client"; next }
        cuid != "" && /^ +call [0-3]: # / {
            n = $4; sub(/,$/, "", n); sum += n
            if ($0 ~ /state active/) active++
            next
        }
        END { flush() }' "$1"
}

# rxdebug_peers FILE: the peers of `rxdebug -peers -long` output, one a line:
#   PORT BYTES_SENT BYTES_RECEIVED
rxdebug_peers() {
    awk '
        function flush() { if (port != "") printf "%s %.0f %.0f\n", port, sent, received }
        /^Peer at host / { flush(); port = $NF; sent = 0; received = 0; next }
        /^[ \t]*bytes sent high / { sent = $4 * 4294967296 + $6; next }
        /^[ \t]*bytes received high / { received = $4 * 4294967296 + $6; next }
        END { flush() }' "$1"
}

# The two transfers rxdebug watches: client A sends 32 MiB over 2 connections (8 threads, 4 calls
# each), client B receives 32 MiB in 32 calls on 1 connection. Both are C clients with --verify.
RXDBG_A=(-c send -b 1048576 -T 4 -t 8 --verify)
RXDBG_B=(-c recv -b 1048576 -T 32 --verify)
RXDBG_BYTES=33554432

# During the transfers: polls `rxdebug -allconnections` until the rx4j server lists client A's
# two connections and client B's one, each with an active call; then checks `-peers -long` and
# that each client's own Rx (rxdebug on its port) lists the same Cuids. Leaves the files and the
# client ports in $WORK/rxdbg for rx4j_rxdebug_after.
rx4j_rxdebug_during() {
    local d=$WORK/rxdbg a b status_a=0 status_b=0 seen=0 conns port dups=0
    mkdir -p "$d"
    "$PEER" client -s 127.0.0.1 -p "$PERF_PORT" "${RXDBG_A[@]}" > "$d/a.log" 2>&1 &
    a=$!
    "$PEER" client -s 127.0.0.1 -p "$PERF_PORT" "${RXDBG_B[@]}" > "$d/b.log" 2>&1 &
    b=$!
    while kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null; do
        rxdebug 127.0.0.1 "$PERF_PORT" -allconnections > "$d/during.txt" 2>&1 || true
        rxdebug_conns "$d/during.txt" > "$d/during.conns"
        if [[ $(cut -d' ' -f2 "$d/during.conns" | sort | uniq -d | wc -l) -gt 0 ]]; then
            dups=$((dups + 1))
            cp "$d/during.txt" "$d/during-dup.$dups.txt"
        fi
        conns=$(awk '$3 == "server" && $5 > 0' "$d/during.conns" | wc -l)
        # rxdebug asks for the connections one index at a time, so a listing taken while a client
        # opens a connection is no snapshot (OpenAFS walks its hash table by index the same way):
        # rx4j once listed one Cuid at two indexes and missed another. Only a listing with three
        # distinct Cuids counts; the listing after the transfers must be exact.
        if [[ $conns -eq 3 ]] && [[ $(cut -d' ' -f1 "$d/during.conns" | sort -u | wc -l) -eq 2 ]] &&
           [[ $(cut -d' ' -f2 "$d/during.conns" | sort -u | wc -l) -eq 3 ]]; then
            rxdebug 127.0.0.1 "$PERF_PORT" -peers -long > "$d/during-peers.txt" 2>&1 || true
            for port in $(cut -d' ' -f1 "$d/during.conns" | sort -u); do
                rxdebug 127.0.0.1 "$port" -allconnections > "$d/client-$port.txt" 2>&1 || true
            done
            seen=1
            break
        fi
        sleep 0.02
    done
    wait "$a" || status_a=$?
    wait "$b" || status_b=$?
    cat "$d/a.log" "$d/b.log"
    [[ $status_a -eq 0 && $status_b -eq 0 ]] || { echo "client exit status A $status_a, B $status_b"; return 1; }
    if [[ $seen -eq 0 ]]; then
        echo "rxdebug never saw 3 connections with active calls from 2 client ports while the clients ran; last listing:"
        cat "$d/during.txt"
        return 1
    fi
    [[ $dups -eq 0 ]] || echo "($dups listing(s) during the transfer showed one Cuid twice: not snapshots, skipped)"
    echo "rx4j server during the transfer (port cuid kind callsum active):"
    sed 's/^/  /' "$d/during.conns"
    # The client A port is the one with two connections.
    awk '{ n[$1]++ } END { for (p in n) if (n[p] == 2) print p }' "$d/during.conns" > "$d/port-a"
    awk '{ n[$1]++ } END { for (p in n) if (n[p] == 1) print p }' "$d/during.conns" > "$d/port-b"
    [[ -s $d/port-a && -s $d/port-b ]] || { echo "expected 2 connections from one port and 1 from the other"; return 1; }
    local ok=0 want got
    for port in $(cat "$d/port-a" "$d/port-b"); do
        want=$(awk -v p="$port" '$1 == p { print $2 }' "$d/during.conns" | sort)
        got=$(rxdebug_conns "$d/client-$port.txt" | awk '$3 == "client" && $1 == '"$PERF_PORT"' { print $2 }' | sort)
        if [[ $want == "$got" ]]; then
            echo "client on port $port lists the same Cuids: $(echo $got)"
        else
            echo "client on port $port lists Cuids '$(echo $got)', the rx4j server '$(echo $want)'"
            ok=1
        fi
    done
    rxdebug_peers "$d/during-peers.txt" > "$d/during.peers"
    echo "rx4j server peers during the transfer (port bytes-sent bytes-received):"
    sed 's/^/  /' "$d/during.peers"
    if [[ $(cut -d' ' -f1 "$d/during.peers" | sort | tr '\n' ' ') != "$(cat "$d/port-a" "$d/port-b" | sort | tr '\n' ' ')" ]]; then
        echo "expected exactly one peer entry per client port"
        ok=1
    fi
    return $ok
}

# After the transfers: the same connections, all calls finished, call numbers adding up to the
# calls made; one peer per client with the bytes moved; counters that moved by the traffic.
rx4j_rxdebug_after() {
    local d=$WORK/rxdbg ok=0 pa pb v
    pa=$(cat "$d/port-a"); pb=$(cat "$d/port-b")
    rxdebug 127.0.0.1 "$PERF_PORT" -allconnections > "$d/after.txt" 2>&1
    rxdebug 127.0.0.1 "$PERF_PORT" -peers -long > "$d/after-peers.txt" 2>&1
    rxdebug 127.0.0.1 "$PERF_PORT" -rxstats -noconns > "$d/after-stats.txt" 2>&1
    rxdebug_conns "$d/after.txt" > "$d/after.conns"
    rxdebug_peers "$d/after-peers.txt" > "$d/after.peers"
    echo "connections (port cuid kind callsum active):"; sed 's/^/  /' "$d/after.conns"
    echo "peers (port bytes-sent bytes-received):"; sed 's/^/  /' "$d/after.peers"
    # One entry per connection, the same Cuids as during the transfer, no call active.
    if ! diff <(cut -d' ' -f1-3 "$d/during.conns" | sort) <(cut -d' ' -f1-3 "$d/after.conns" | sort) > /dev/null; then
        echo "the connection list changed:"; diff <(sort "$d/during.conns") <(sort "$d/after.conns") || true; ok=1
    fi
    if [[ $(cut -d' ' -f2 "$d/after.conns" | sort -u | wc -l) -ne 3 ]]; then echo "expected 3 distinct Cuids"; ok=1; fi
    if awk '$5 != 0 { bad = 1 } END { exit !bad }' "$d/after.conns"; then echo "a call is still active"; ok=1; fi
    # Client A: 2 connections x 4 threads x 4 calls; client B: 32 calls on one connection.
    v=$(awk -v p="$pa" '$1 == p { printf "%s ", $4 }' "$d/after.conns")
    [[ $v == "16 16 " ]] || { echo "client A's connections carried '$v' calls, expected 16 each"; ok=1; }
    v=$(awk -v p="$pb" '$1 == p { printf "%s ", $4 }' "$d/after.conns")
    [[ $v == "32 " ]] || { echo "client B's connection carried '$v' calls, expected 32"; ok=1; }
    # One peer per client, with at least the payload moved.
    if [[ $(cut -d' ' -f1 "$d/after.peers" | sort | tr '\n' ' ') != "$(printf '%s\n' "$pa" "$pb" | sort | tr '\n' ' ')" ]]; then
        echo "expected exactly one peer entry per client port ($pa, $pb)"; ok=1
    fi
    v=$(awk -v p="$pa" '$1 == p { print $3 }' "$d/after.peers")
    (( ${v:-0} >= RXDBG_BYTES )) || { echo "peer $pa: bytes received ${v:-?} < $RXDBG_BYTES sent by client A"; ok=1; }
    v=$(awk -v p="$pb" '$1 == p { print $2 }' "$d/after.peers")
    (( ${v:-0} >= RXDBG_BYTES )) || { echo "peer $pb: bytes sent ${v:-?} < $RXDBG_BYTES received by client B"; ok=1; }
    # Counters against the snapshot taken before the transfers.
    local key before after
    for key in calls read_data sent_data read_ack sent_ack rtt_samples; do
        before=$(rxdebug_stat "$d/before-stats.txt" "$key"); after=$(rxdebug_stat "$d/after-stats.txt" "$key")
        echo "rxstats $key: before ${before:-?}, after ${after:-?}"
        [[ -n $before && -n $after ]] || { echo "rxstats $key missing"; ok=1; continue; }
        case $key in
            # 32 + 32 calls executed by the server.
            calls) (( after - before == 64 )) || { echo "calls moved by $((after - before)), expected 64"; ok=1; } ;;
            # 32 MiB each way is at least 32 MiB / 5692 (largest jumbogram on a 1500-byte path) datagrams.
            read_data|sent_data) (( after - before >= RXDBG_BYTES / 5692 )) || { echo "$key moved by only $((after - before))"; ok=1; } ;;
            *) (( after > before )) || { echo "$key did not move"; ok=1; } ;;
        esac
    done
    return $ok
}

rx4j_rxdebug_before() {
    rxdebug 127.0.0.1 "$PERF_PORT" -rxstats -noconns > "$WORK/rxdbg/before-stats.txt" 2>&1
    cat "$WORK/rxdbg/before-stats.txt"
    grep -q '^rx stats: ' "$WORK/rxdbg/before-stats.txt"
}

# A DEBUG request with an unknown type gets {-8, -8} (rx-wire-facts.md section 9), and a DEBUG
# request without CLIENT_INITIATED gets no reply. Section c2c runs both against the C server (the control).
debug_probe_unknown_type() {
    local out
    out=$(java "$INTEROP_DIR/DebugProbe.java" 127.0.0.1 "$PERF_PORT" 99 2>&1) || true
    echo "$out"
    [[ $out == "reply: epoch 999 cid 0 callNumber 4711 type 8 flags 0x04 body 8 bytes: -8 -8" ]]
}
debug_probe_not_client_initiated() {
    local out
    out=$(java "$INTEROP_DIR/DebugProbe.java" 127.0.0.1 "$PERF_PORT" 1 --no-client-initiated --wait-ms 1000 2>&1) || true
    echo "$out"
    [[ $out == "no reply within 1000 ms" ]]
}

# rxdebug (the real OpenAFS client of the DEBUG/VERSION protocol) against an rx4j rxperf server
# before, during and after two C clients' transfers.
run_rx4j_rxdebug() {
    rx4j_available "rx4j: rxdebug against the rx4j rxperf server" || return 0
    require_peer "rx4j: rxdebug against the rx4j rxperf server" || return 0
    if ! start_server "rx4j rxperf server" "$WORK/rx4j-server-dbg.log" "$RX4J_RXPERF" server -p "$PERF_PORT" --verify; then
        fail "rx4j: start rx4j rxperf server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID
    mkdir -p "$WORK/rxdbg"
    check "rx4j: rxdebug -version prints the rx4j version string" 40 bash -c \
        "rxdebug 127.0.0.1 $PERF_PORT -version | tee /dev/stderr | grep -Eq '^AFS version: rx4j [0-9]+\.[0-9]+'"
    check "rx4j: DEBUG of unknown type 99 gets the {-8, -8} reply" 30 debug_probe_unknown_type
    check "rx4j: DEBUG without CLIENT_INITIATED gets no reply" 30 debug_probe_not_client_initiated
    check "rx4j: rxdebug -rxstats -noconns before traffic" 40 rx4j_rxdebug_before
    check "rx4j: rxdebug during 2 transfers (send 32 MiB 8 threads, recv 32 MiB): conns, Cuids, peers" 90 rx4j_rxdebug_during
    if [[ -s $WORK/rxdbg/port-a ]]; then
        check "rx4j: rxdebug after: conns idle with their call counts, one peer each, counters moved" 60 rx4j_rxdebug_after
    else
        fail "rx4j: rxdebug after the transfers" 0 "no connections seen during the transfers"
    fi
    check "rx4j's own rxdebug (scripts/rxdebug) = Debian rxdebug against the same idle rx4j server" 180 \
        own_rxdebug_matches
    stop_server "$pid"
}

# rx4j's rxdebug (rx-afs-tools, scripts/rxdebug) and Debian's, one after the other against the same rx4j
# rxperf server after the transfers (idle): -version and -allconnections must be byte-identical; the
# option mixes whose counters move between two runs (every rxdebug request counts as a DEBUG packet
# read; RTTs; the peer timeout, which Debian's rxdebug prints as 0.000) are compared with every number
# replaced by N, i.e. the same lines in the same order and shape.
own_rxdebug_matches() {
    local opts mine theirs status=0
    "$ROOT/scripts/rxdebug" 127.0.0.1 "$PERF_PORT" -version > /dev/null    # builds the jar on first use
    for opts in "-version" "-allconnections"; do
        # shellcheck disable=SC2086  # the options are several words on purpose
        mine=$("$ROOT/scripts/rxdebug" 127.0.0.1 "$PERF_PORT" $opts 2>&1) || status=1
        # shellcheck disable=SC2086
        theirs=$(rxdebug 127.0.0.1 "$PERF_PORT" $opts 2>&1) || status=1
        if [[ $mine == "$theirs" ]]; then
            echo "identical: rxdebug $opts ($(printf '%s\n' "$mine" | wc -l) lines)"
        else
            echo "differ: rxdebug $opts"; diff <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs"); status=1
        fi
    done
    for opts in "" "-noconns" "-rxstats -noconns" "-peers -noconns" "-rxstats -peers -allconnections"; do
        # shellcheck disable=SC2086
        mine=$("$ROOT/scripts/rxdebug" 127.0.0.1 "$PERF_PORT" $opts 2>&1 | sed -E 's/[0-9]+(\.[0-9]+)?/N/g')
        # shellcheck disable=SC2086
        theirs=$(rxdebug 127.0.0.1 "$PERF_PORT" $opts 2>&1 | sed -E 's/[0-9]+(\.[0-9]+)?/N/g')
        if [[ $mine == "$theirs" ]]; then
            echo "same lines (numbers aside): rxdebug $opts ($(printf '%s\n' "$mine" | wc -l) lines)"
        else
            echo "differ: rxdebug $opts"; diff <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs"); status=1
        fi
    done
    return "$status"
}

# ---- the rxperf matrix (issue 6 section 3)

# matrix_client_run DIRECTION LABEL CLIENT...: one rxperf_client_run; on success appends
# "DIRECTION<TAB>LABEL<TAB>msec<TAB>rate" to $WORK/matrix.tsv for the table printed at the end.
matrix_client_run() {
    local direction=$1 label=$2 out status=0 line
    shift 2
    out=$(rxperf_client_run "$@") || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 0 ]] || return 1
    line=$(printf '%s\n' "$out" | grep -E "$RESULT_LINE_RE|$RPC_LINE_RE" | head -1)
    printf '%s\t%s\t%s\t%s\n' "$direction" "$label" \
        "$(sed -E 's/.*:\t *([0-9]+) msec.*/\1/' <<< "$line")" "$(sed -E 's/.*\[(.*)\]$/\1/' <<< "$line")" \
        >> "$WORK/matrix.tsv"
}

# The runs, one factor at a time against the defaults (send/recv -b 1048576, both sides' default
# windows and jumbograms). Every run moves at most 32 MiB: -b sweeps move 32 MiB, the factor runs
# 8 MiB each way, rpc 2000 x 34 bytes and 20 x 200,000 bytes.
MATRIX_BASE_RUNS=(
    "-c send -b 32768 -T 1024" "-c send -b 131072 -T 256" "-c send -b 1048576 -T 32"
    "-c recv -b 32768 -T 1024" "-c recv -b 131072 -T 256" "-c recv -b 1048576 -T 32"
    "-c rpc -S 4 -R 30 -T 2000" "-c rpc -S 100000 -R 100000 -T 20"
    "-c send -b 1048576 -T 8 -j" "-c recv -b 1048576 -T 8 -j"
    "-c send -b 1048576 -T 4 -t 4"
)
MATRIX_PAIR=("-c send -b 1048576 -T 8" "-c recv -b 1048576 -T 8")
MATRIX_WINDOWS=(16 32 64 255)

# matrix_server_set DIRECTION SERVER_FLAGS CLIENT_FLAGS RUN...: starts the direction's server with
# SERVER_FLAGS (plus --verify), runs each RUN (plus CLIENT_FLAGS and --verify) from the direction's
# client, and stops the server. One server serves all RUNs.
matrix_server_set() {
    local direction=$1 server_flags=$2 client_flags=$3 pid run label server client
    shift 3
    if [[ $direction == "rx4j client -> C server" ]]; then
        server=("$PEER" server) client=("$RX4J_RXPERF" client)
    else
        server=("$RX4J_RXPERF" server) client=("$PEER" client)
    fi
    # shellcheck disable=SC2086  # the flag strings hold several words on purpose
    if ! start_server "$direction server $server_flags" "$WORK/matrix-server.log" \
            "${server[@]}" -p "$PERF_PORT" $server_flags --verify; then
        fail "$direction: start server${server_flags:+ with $server_flags}" 0 "see above"
        return 0
    fi
    pid=$SERVER_PID
    for run in "$@"; do
        label="$run${client_flags:+ $client_flags}${server_flags:+ (server $server_flags)}"
        # shellcheck disable=SC2086
        check "$direction: $label --verify" 90 matrix_client_run "$direction" "$label" \
            "${client[@]}" -s 127.0.0.1 -p "$PERF_PORT" $run $client_flags --verify
    done
    stop_server "$pid"
}

# rx4j client -> C server and C client -> rx4j server, both with --verify on both sides.
run_rx4j_matrix() {
    rx4j_available "rx4j: rxperf matrix (rx4j client -> C server, C client -> rx4j server)" || return 0
    require_peer "rx4j: rxperf matrix" || return 0
    if [[ -z $(rx4j_verify_flag) ]]; then
        fail "rx4j: rxperf matrix" 0 "scripts/rxperf client --help does not offer --verify"
        return 0
    fi
    local direction w
    : > "$WORK/matrix.tsv"
    for direction in "rx4j client -> C server" "C client -> rx4j server"; do
        if [[ $direction == "rx4j client -> C server" ]]; then
            # rx4j hard-ACK-only is a client flag here: no server restart needed.
            matrix_server_set "$direction" "" "" "${MATRIX_BASE_RUNS[@]}"
            matrix_server_set "$direction" "" "--hard-acks-only" "${MATRIX_PAIR[@]}"
        else
            matrix_server_set "$direction" "" "" "${MATRIX_BASE_RUNS[@]}"
            matrix_server_set "$direction" "--hard-acks-only" "" "${MATRIX_PAIR[@]}"
        fi
        matrix_server_set "$direction" "-j" "" "${MATRIX_PAIR[@]}"
        for w in "${MATRIX_WINDOWS[@]}"; do
            matrix_server_set "$direction" "-W $w" "-W $w" "${MATRIX_PAIR[@]}"
        done
    done
    note "rxperf matrix (direction | client flags (server flags) | msec | rate):"
    awk -F'\t' '{ printf "    %-24s | %-52s | %7s | %s\n", $1, $2, $3, $4 }' "$WORK/matrix.tsv"
}

# Captures rx4j<->C traffic and fails on Wireshark expert-info kinds the C<->C control lacks.
run_rx4j_capture() {
    rx4j_available "rx4j: capture comparison with the C<->C control" || return 0
    require_peer "rx4j: capture comparison" || return 0
    if [[ ! -f $WORK/c2c.kinds ]]; then
        note "rx4j: no C<->C control yet; capturing it first"
        section_capture
    fi
    [[ -f $WORK/c2c.kinds ]] || { fail "rx4j: capture comparison" 0 "no C<->C control capture"; return 0; }
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
        check "capture $side holds Rx DATA and ACKs both ways" 60 capture_holds_rx_traffic "$WORK/$side.pcapng"
        check "expert-info kinds $side vs C<->C control (no new kinds)" 60 bash -c \
            "'$EXPERT_KINDS_SH' -p $PERF_PORT '$WORK/$side.pcapng' > '$WORK/$side.kinds' &&
             cut -f2 '$WORK/c2c.kinds' | sort > '$WORK/c2c.kindnames' &&
             new=\$(comm -23 <(sort '$WORK/$side.kinds') '$WORK/c2c.kindnames') &&
             if [[ -n \$new ]]; then echo \"new kinds:\"; printf '%s\n' \"\$new\"; exit 1; fi;
             echo 'no kinds beyond the control'"
    done
}

# rx4j's client API against the real bosserver (which must be running): the JUnit class
# rx-core/src/test/java/org/rx4j/interop/BosInteropTest.java, through Maven. It compares rx4j's
# GetCellName/GetCellHost answers with what real `bos listhosts` printed just before, adds a host
# with AddCellHost, and checks that opcodes bosserver lacks abort with RXGEN_OPCODE (-455); then
# real `bos listhosts` must show the host rx4j added.
RX4J_BOS_ADD_HOST=10.9.8.6
rx4j_bos_test() {
    local report=$ROOT/rx-core/target/surefire-reports/org.rx4j.interop.BosInteropTest.txt status=0
    bos listhosts -server 127.0.0.1 -noauth > "$WORK/bos-listhosts.txt" 2>&1 || { cat "$WORK/bos-listhosts.txt"; return 1; }
    echo "bos listhosts printed:"; sed 's/^/  /' "$WORK/bos-listhosts.txt"
    rm -f "$report"
    (cd "$ROOT" && mvn -q -B -ntp -pl rx-core test -Dtest=BosInteropTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Drx4j.bos.server=127.0.0.1:7007 -Drx4j.bos.listhosts="$WORK/bos-listhosts.txt" \
        -Drx4j.bos.addHost="$RX4J_BOS_ADD_HOST") || status=$?
    [[ -f $report ]] && sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    [[ $status -eq 0 ]] || { echo "mvn exit status $status"; return 1; }
    # A skipped class (no -D reached the test JVM) runs 0 tests: that is a failure here.
    grep -Eq '^Tests run: 6, Failures: 0, Errors: 0, Skipped: 0' "$report" \
        || { echo "expected 6 tests run and none skipped"; return 1; }
}

# The same bosserver through the stubs rx-gen generates from rx4j's own bozo.xg (rx-afs BozoInteropTest).
rx4j_bozo_generated_test() {
    local report=$ROOT/rx-afs/target/surefire-reports/org.rx4j.afs.BozoInteropTest.txt status=0
    rm -f "$report"
    (cd "$ROOT" && mvn -q -B -ntp -pl rx-afs -am test -Dtest=BozoInteropTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Drx4j.bos.server=127.0.0.1:7007 -Drx4j.bos.cell="$CELL") || status=$?
    [[ -f $report ]] && sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    [[ $status -eq 0 ]] || { echo "mvn exit status $status"; return 1; }
    grep -Eq '^Tests run: 2, Failures: 0, Errors: 0, Skipped: 0' "$report" \
        || { echo "expected 2 tests run and none skipped"; return 1; }
}

run_rx4j_bos() {
    rx4j_available "rx4j: BosInteropTest against bosserver" || return 0
    check "rx4j: BosInteropTest (GetCellName/GetCellHost = bos listhosts, AddCellHost, opcode -455)" 240 rx4j_bos_test
    check "rx4j: generated BOZO stubs (rx-gen, bozo.xg): GetCellName, GetCellHost to BZDOM, GetStatus = BZNOENT" 240 \
        rx4j_bozo_generated_test
    check "bos listhosts shows the host rx4j added" 60 bos_listhosts_expect \
        "Cell name is $CELL" "    Host 1 is localhost" "    Host 2 is 10.9.8.7" "    Host 3 is $RX4J_BOS_ADD_HOST"
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
    [[ ${#sections[@]} -gt 0 ]] || sections=(packages build c2c bos rxgen db ubik capture rx4j)
    for section in "${sections[@]}"; do
        case $section in
            packages|build|c2c|bos|rxgen|db|ubik|capture|rx4j) ;;
            *) echo "usage: $0 [packages|build|c2c|bos|rxgen|db|ubik|capture|rx4j]..." >&2; exit 2 ;;
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
