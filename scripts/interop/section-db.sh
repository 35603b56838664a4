# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, sections db and ubik: vlserver and ptserver in network namespaces
# (scripts/interop/dbservers.sh, scripts/netns.sh) against the real vos and pts, rx4j's generated stubs
# and scripts/afsq; then two vlservers of one cell, one stopped.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh.

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
    grep -qxF "afsq: $DB_ADDR:7003 answered, try 2 of at most 2" <<< "$out" \
        || { echo "expected the second server to answer on try 2"; return 1; }
    grep -qxF "rx4j.interop" <<< "$out" || { echo "no entry printed"; return 1; }
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
    grep -qxF "afsq: $1 answered with an error" <<< "$out" || { echo "expected the answer from $1"; return 1; }
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
