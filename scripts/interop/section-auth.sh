# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section auth: an authenticated cell (scripts/interop/authcell.sh: bosserver, vlserver and
# ptserver without -noauth, keys by asetkey, all in rx4j-iop-a, so the bos section's host port 7007 is not in the
# way) and a throwaway Kerberos realm (scripts/interop/kdc.sh), proven with Debian's own -localauth clients and
# rxdebug; rx4j's credential readers against the realm's real ccache, keytab and the cell's key files; rx4j's rxkad
# clients against the real servers and Debian's bos against an rx4j server that requires rxkad, each level proven
# with rxdebug.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh (and in_client_ns of section-db.sh).

AUTHCELL_SH=$INTEROP_DIR/authcell.sh
KDC_SH=$INTEROP_DIR/kdc.sh
export RX4J_AUTH_DIR=$WORK/authcell RX4J_KDC_DIR=$WORK/kdc
AUTH_STARTED=0
KDC_STARTED=0

# auth_local CMD...: a Debian client in the client namespace with the cell's server directory mounted, where
# -localauth finds the keys (the client then holds the same keys as the servers, as on a server machine).
auth_local() { "$AUTHCELL_SH" local "$RX4J_NETNS_B" "$@"; }

# auth_conns PORT: one line "CUID INDEX LEVEL" for each connection from the client namespace (10.99.0.2) that
# `rxdebug DB_ADDR PORT -allconnections` lists; LEVEL is rxkad's level, or - for another security class.
auth_conns() {
    in_client_ns rxdebug "$DB_ADDR" "$1" -allconnections | awk '
        function flush() { if (cuid != "") print cuid, index_, level; cuid = "" }
        /^Connection from host / { flush(); if ($4 == "10.99.0.2,") { cuid = $8; index_ = "?"; level = "-" } }
        cuid != "" && /security index/ { for (i = 1; i < NF; i++) if ($i == "index") { index_ = $(i + 1); sub(/,$/, "", index_) } }
        cuid != "" && /^  rxkad: level / { level = $3; sub(/,$/, "", level) }
        END { flush() }'
}

# auth_level PORT LEVEL CMD...: runs CMD (a client call to the server on PORT) and checks with Debian's rxdebug
# that the connections it made are rxkad (security index 2) at LEVEL: a silent fall back to rxnull fails.
auth_level() {
    local port=$1 level=$2 before after new
    shift 2
    before=$(auth_conns "$port")
    "$@" || { echo "command failed: $*"; return 1; }
    after=$(auth_conns "$port")
    new=$(comm -13 <(printf '%s\n' "$before" | sort) <(printf '%s\n' "$after" | sort))
    echo "rxdebug $DB_ADDR $port -allconnections, new connections from 10.99.0.2 (cuid, security index, level):"
    printf '  %s\n' "$new"
    [[ -n $new ]] || { echo "no new connection from 10.99.0.2 on port $port"; return 1; }
    if printf '%s\n' "$new" | awk -v l="$level" '$2 != 2 || $3 != l { bad = 1 } END { exit !bad }'; then
        echo "expected every new connection at security index 2, rxkad level $level"
        return 1
    fi
}

auth_expect() {
    local want=$1 out
    shift
    out=$("$@" 2>&1) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"
    grep -qE "$want" <<< "$out" || { echo "missing: $want"; return 1; }
}

auth_bos_listkeys() { auth_expect '^key 3 has cksum [0-9]+' auth_local bos listkeys -server "$DB_ADDR" -localauth; }
auth_bos_listusers() { auth_expect '^SUsers are: rx4juser' auth_local bos listusers -server "$DB_ADDR" -localauth; }
auth_vos_listvldb() {
    auth_expect '^Total entries: 0' auth_local vos listvldb -server "$DB_ADDR" -localauth -encrypt -noresolve
}
auth_pts_examine() {
    auth_expect '^Name: system:administrators, id: -204' auth_local pts examine -nameorid system:administrators -localauth
}

# Debian's pts 1.8.9 builds no security class from -localauth when -encrypt is also given (it looks for a
# token; -localauth alone already runs at crypt): this control records that.
auth_pts_encrypt_localauth_refused() {
    local out status=0
    out=$(auth_local pts examine -nameorid system:administrators -localauth -encrypt 2>&1) || status=$?
    printf '%s\n' "$out"
    [[ $status -ne 0 && $out == *"unable to build security class"* ]] \
        || { echo "expected pts to refuse -localauth -encrypt (it did not: update this section)"; return 1; }
}

# A call without credentials to the authenticated bosserver: ListKeys needs a superuser, so rxnull is refused
# (Debian's bos prints the error but exits 0, so the message is what is checked).
auth_bos_noauth_refused() {
    local out
    out=$(in_client_ns bos listkeys -server "$DB_ADDR" -noauth 2>&1) || true
    printf '%s\n' "$out"
    [[ $out == *"you are not authorized for this operation"* && $out != *"has cksum"* ]] \
        || { echo "bos listkeys -noauth was not refused by a server without -noauth"; return 1; }
}

# rx4j's side, one Maven run (its start-up is most of the cost) in the client namespace with the cell's server
# directory mounted, where rx4j's and Debian's -localauth find the keys:
# - rx-core Krb5InteropTest: rx4j's readers on the realm's real files: the ccache kinit and kvno wrote holds the
#   afs/CELL ticket, the keytab's key and the cell's KeyFileExt (from asetkey) open it, and credentials minted from
#   the cell's key files by LocalAuth open with the cell's keys too;
# - rx-afs RxkadClientInteropTest: rx4j's BOZO, VL and PR clients with -localauth and kinit credentials against
#   the real servers, compared with bos/vos/pts, each level proven by Debian's rxdebug;
# - rx-afs RxkadBozoServerInteropTest: Debian's bos -localauth against an rx4j BOZO server on 10.99.0.2:7007 that
#   requires rxkad with the cell's KeyFile/KeyFileExt, compared with the real bosserver, rxdebug during each call.
# The checks after it read each class's report (one line per case).
AUTH_MVN_STATUS=$WORK/auth-mvn.status
auth_rx4j_mvn() {
    local status=0
    rm -f "$ROOT"/rx-core/target/surefire-reports/*Krb5InteropTest* "$ROOT"/rx-afs/target/surefire-reports/*Rxkad*
    (cd "$ROOT" && auth_local mvn -q -B -ntp -o -pl rx-afs -am test \
        -Dtest='Krb5InteropTest,RxkadClientInteropTest,RxkadBozoServerInteropTest' \
        -Dsurefire.failIfNoSpecifiedTests=false \
        -Drx4j.krb5.ccache="$RX4J_KDC_DIR/ccache" -Drx4j.krb5.keytab="$RX4J_KDC_DIR/afs.keytab" \
        -Drx4j.krb5.cell="$CELL" -Drx4j.afs.serverdir="$RX4J_AUTH_DIR/etc-server" \
        -Drx4j.auth.server="$DB_ADDR" -Drx4j.auth.client=10.99.0.2 -Drx4j.auth.cell="$CELL" \
        -Drx4j.auth.deskey="$("$AUTHCELL_SH" deskey)" -Drx4j.auth.ccache="$RX4J_KDC_DIR/ccache") || status=$?
    echo "$status" > "$AUTH_MVN_STATUS"
    # The test classes' own failures are reported by the checks below; this one fails only if Maven did not run them.
    [[ $status -eq 0 ]] || ls "$ROOT"/rx-afs/target/surefire-reports/*RxkadClientInteropTest.txt > /dev/null 2>&1 \
        || { echo "mvn exit status $status and no test report"; return 1; }
}

# auth_report MODULE CLASS TESTS: the class's report says TESTS tests ran, none failed or skipped.
auth_report() {
    local report=$ROOT/$1/target/surefire-reports/$2.txt
    [[ -f $report ]] || { echo "no report $report (mvn exit status $(cat "$AUTH_MVN_STATUS" 2>/dev/null))"; return 1; }
    sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    grep -Eq "^Tests run: $3, Failures: 0, Errors: 0, Skipped: 0" "$report" \
        || { sed -n '/<<< \(FAILURE\|ERROR\)/,/^$/p' "$report" | head -40; echo "expected $3 tests run, none failed or skipped"; return 1; }
}

# auth_case CLASS METHOD: one test method of an rx-afs class ran and passed: its element in the XML report holds no
# failure, error or skipped element. Prints what the case printed (the Debian tools' output) and any failure.
auth_case() {
    local xml=$ROOT/rx-afs/target/surefire-reports/TEST-org.rx4j.afs.$1.xml element
    [[ -f $xml ]] || { echo "no report $xml (mvn exit status $(cat "$AUTH_MVN_STATUS" 2>/dev/null))"; return 1; }
    element=$(awk -v m="<testcase name=\"$2\"" 'index($0, m) { on = 1 } on { print } on && /<\/testcase>|\/>$/ { exit }' "$xml")
    [[ -n $element ]] || { echo "no test case $2 in $xml"; return 1; }
    printf '%s\n' "$element" | awk '!/^[[:space:]]*at / && n++ < 80'
    ! grep -Eq '<(failure|error|skipped)[ >/]' <<< "$element"
}

# afsq with the security flags as docs/security.md ("From a KeyFile or kinit to an authenticated call") walks a
# new user through them, in the client namespace with the cell's keys at /etc/openafs/server: -localauth -encrypt
# reads the volume entry RxkadClientInteropTest created (= vos listvldb), -ccache -encrypt the user's id with kinit's
# ticket (= pts examine). Each runs under auth_level, so rxdebug must show afsq's connections at crypt.
auth_afsq_localauth() {
    local mine vos
    "$ROOT/scripts/afsq" --version >&2 || return 1    # builds the jar on first use
    mine=$(auth_local "$ROOT/scripts/afsq" vl-entry rx4j.auth -c "$CELL" \
        --cellservdb "$RX4J_AUTH_DIR/etc-server/CellServDB" -localauth -encrypt) || { printf '%s\n' "$mine"; return 1; }
    vos=$(auth_local vos listvldb -name rx4j.auth -server "$DB_ADDR" -localauth -encrypt -noresolve \
        | sed -e 's/ *$//' -e '/^$/d') || return 1
    printf 'afsq -localauth -encrypt:\n%s\nvos listvldb -name rx4j.auth -localauth -encrypt:\n%s\n' "$mine" "$vos"
    [[ -n $mine && $mine == "$vos" ]] || { echo "afsq and vos differ"; return 1; }
}

auth_afsq_ccache() {
    local mine pts
    mine=$(auth_local "$ROOT/scripts/afsq" pt-id rx4juser -c "$CELL" \
        --cellservdb "$RX4J_AUTH_DIR/etc-server/CellServDB" -ccache "$RX4J_KDC_DIR/ccache" -encrypt) \
        || { printf '%s\n' "$mine"; return 1; }
    pts=$(auth_local pts examine -nameorid rx4juser -localauth | sed -n 's/^Name: \([^,]*\), id: \([-0-9]*\),.*/\1 \2/p')
    printf 'afsq -ccache -encrypt:\n%s\npts examine:\n%s\n' "$mine" "$pts"
    [[ -n $pts && $mine == "$pts" ]] || { echo "afsq and pts differ"; return 1; }
}

section_auth() {
    [[ -x /usr/lib/openafs/vlserver && -x /usr/sbin/asetkey ]] \
        || { skip "auth" "openafs-dbserver / openafs-fileserver are not installed"; return 0; }
    command -v krb5kdc > /dev/null || [[ -x /usr/sbin/krb5kdc ]] \
        || { skip "auth" "krb5-kdc is not installed (apt-get install krb5-kdc krb5-admin-server krb5-user)"; return 0; }
    KDC_STARTED=1
    check "auth: throwaway realm RX4J.TEST on 127.0.0.1 (krb5kdc; afs/$CELL key to a keytab)" 30 "$KDC_SH" start
    check "auth: kinit rx4juser, kvno afs/$CELL into a private ccache" 30 "$KDC_SH" kinit
    check "auth: cell keys: asetkey add DES kvno 3, asetkey add rxkad_krb5 from the keytab" 30 \
        env KRB5_CONFIG="$RX4J_KDC_DIR/krb5.conf" "$AUTHCELL_SH" keys "$RX4J_KDC_DIR/afs.keytab" \
        "afs/$CELL@RX4J.TEST" "$DB_ADDR"
    AUTH_STARTED=1
    check "network namespaces $RX4J_NETNS_A/$RX4J_NETNS_B (scripts/netns.sh up)" 30 "$ROOT/scripts/netns.sh" up
    check "auth: bosserver, vlserver, ptserver without -noauth in $RX4J_NETNS_A, ubik election" 90 \
        "$AUTHCELL_SH" start "$RX4J_NETNS_A"
    check "auth: bos listkeys -noauth is refused" 30 auth_bos_noauth_refused
    check "auth: bos listkeys -localauth lists kvno 3; rxdebug: security index 2, level crypt" 60 \
        auth_level 7007 crypt auth_bos_listkeys
    check "auth: bos listusers -localauth = UserList; rxdebug: security index 2, level clear" 60 \
        auth_level 7007 clear auth_bos_listusers
    check "auth: vos listvldb -localauth -encrypt; rxdebug: security index 2, level crypt" 60 \
        auth_level 7003 crypt auth_vos_listvldb
    check "auth: pts examine -localauth; rxdebug: security index 2, level crypt" 60 \
        auth_level 7002 crypt auth_pts_examine
    check "auth: Debian pts refuses -localauth with -encrypt (records the limit)" 30 auth_pts_encrypt_localauth_refused
    check "auth: rx4j's tests through Maven (one run: readers, rxkad clients, rxkad BOZO server)" 300 auth_rx4j_mvn
    check "auth: rx4j reads the ccache, keytab and KeyFileExt; the afs ticket and LocalAuth's tickets open" 10 \
        auth_report rx-core org.rx4j.security.rxkad.Krb5InteropTest 3
    check "auth: rx4j BOZO ListKeys at crypt = the key asetkey added, checksum = bos listkeys; rxdebug: index 2, crypt" 10 \
        auth_case RxkadClientInteropTest listKeysAtCryptReturnsTheKeyAsetkeyAdded
    check "auth: rx4j BOZO AddSUser, ListSUsers at crypt = bos listusers -localauth; rxdebug: index 2, crypt" 10 \
        auth_case RxkadClientInteropTest addSUserThenListSUsersAsBosListusersPrintsThem
    check "auth: rx4j VL_CreateEntry, PR_NewEntry at crypt = vos listvldb -localauth -encrypt, pts examine -localauth; rxdebug: crypt (Debian's and rx4j's)" 10 \
        auth_case RxkadClientInteropTest vlAndPrCallsAtCryptAsVosAndPtsPrintThem
    check "auth: rx4j with kinit's ccache (rxkad-k5, kvno 256): pts examine = Debian pts (crypt), vos listvldb (auth); rxdebug: both levels" 10 \
        auth_case RxkadClientInteropTest kinitCredentialsReadTheUserAsPtsExaminePrintsIt
    check "auth: Debian bos listusers -localauth against an rx4j BOZO server (KeyDirectory, 2b ticket) = real bosserver; handler sees afs; rxdebug during the call: clear" 10 \
        auth_case RxkadBozoServerInteropTest bosListusersAtClearPrintsWhatTheRealBosserverPrints
    check "auth: Debian bos listkeys -showkey -localauth against the rx4j BOZO server = real bosserver; rxdebug during the call: crypt" 10 \
        auth_case RxkadBozoServerInteropTest bosListkeysAtCryptPrintsTheRealKeyAndChecksum
    check "auth: scripts/afsq vl-entry -localauth -encrypt = vos listvldb -localauth -encrypt; rxdebug: index 2, crypt" 120 \
        auth_level 7003 crypt auth_afsq_localauth
    check "auth: scripts/afsq pt-id -ccache (kinit's ticket) -encrypt = pts examine; rxdebug: index 2, crypt" 60 \
        auth_level 7002 crypt auth_afsq_ccache
    check "auth: servers stop" 30 "$AUTHCELL_SH" stop
    check "network namespaces down" 30 "$ROOT/scripts/netns.sh" down
    AUTH_STARTED=0
    check "auth: krb5kdc stop" 30 "$KDC_SH" stop
    KDC_STARTED=0
}
