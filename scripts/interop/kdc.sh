#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# A throwaway MIT Kerberos 5 realm on loopback for the authenticated interop cell (Debian krb5-kdc,
# krb5-admin-server, krb5-user).
#
#   kdc.sh start     create realm RX4J.TEST in RX4J_KDC_DIR, start krb5kdc on 127.0.0.1:RX4J_KDC_PORT,
#                    add the user rx4juser (password rx4juser-pw) and the service afs/CELL with a random
#                    aes256-cts-hmac-sha1-96 key, export that key to RX4J_KDC_DIR/afs.keytab
#   kdc.sh kinit     kinit rx4juser and get an afs/CELL service ticket into RX4J_KDC_DIR/ccache
#   kdc.sh env       print the environment (KRB5_CONFIG, KRB5_KDC_PROFILE, KRB5CCNAME) to use the realm
#   kdc.sh stop      stop krb5kdc by pid
#
# Nothing of the host's Kerberos setup is used or changed: every program gets KRB5_CONFIG and
# KRB5_KDC_PROFILE pointing into RX4J_KDC_DIR, the database, stash, log and ccache live there, and the KDC
# listens on 127.0.0.1 only (UDP and TCP). The passwords and keys are throwaway values for tests.
#
# Environment: RX4J_KDC_DIR (default /tmp/rx4j-interop-kdc), RX4J_KDC_PORT (default 7088), RX4J_KDC_CELL
# (default interop.rx4j.test).
set -euo pipefail

DIR=${RX4J_KDC_DIR:-/tmp/rx4j-interop-kdc}
PORT=${RX4J_KDC_PORT:-7088}
CELL=${RX4J_KDC_CELL:-interop.rx4j.test}
REALM=RX4J.TEST
USER_PW=rx4juser-pw

die() { echo "kdc.sh: $*" >&2; exit 1; }

use_realm() {
    export KRB5_CONFIG=$DIR/krb5.conf KRB5_KDC_PROFILE=$DIR/kdc.conf KRB5CCNAME=FILE:$DIR/ccache
}

running_pid() {
    local pid
    [[ -f $DIR/krb5kdc.pid ]] || return 1
    pid=$(<"$DIR/krb5kdc.pid")
    [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/comm && $(</proc/$pid/comm) == krb5kdc ]] || return 1
    echo "$pid"
}

start() {
    command -v krb5kdc > /dev/null || [[ -x /usr/sbin/krb5kdc ]] \
        || die "krb5kdc not found (apt-get install krb5-kdc krb5-admin-server krb5-user)"
    ! running_pid > /dev/null || die "already running; run: $0 stop"
    ! ss -Hlun "sport = :$PORT" | grep -q . || die "UDP $PORT is taken"
    rm -rf "$DIR"
    mkdir -p "$DIR"
    chmod 700 "$DIR"
    cat > "$DIR/krb5.conf" <<CONF
[libdefaults]
    default_realm = $REALM
    dns_lookup_kdc = false
    dns_lookup_realm = false
    rdns = false
    udp_preference_limit = 1
[realms]
    $REALM = {
        kdc = 127.0.0.1:$PORT
    }
CONF
    cat > "$DIR/kdc.conf" <<CONF
[kdcdefaults]
    kdc_listen = 127.0.0.1:$PORT
    kdc_tcp_listen = 127.0.0.1:$PORT
[realms]
    $REALM = {
        database_name = $DIR/principal
        key_stash_file = $DIR/stash
        acl_file = $DIR/kadm5.acl
        master_key_type = aes256-cts-hmac-sha1-96
        supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
    }
[logging]
    kdc = FILE:$DIR/kdc.log
CONF
    : > "$DIR/kadm5.acl"
    use_realm
    kdb5_util create -s -r "$REALM" -P rx4j-throwaway-master > "$DIR/setup.log" 2>&1 \
        || { cat "$DIR/setup.log" >&2; die "kdb5_util create failed"; }
    kadmin.local -r "$REALM" -q "addprinc -pw $USER_PW rx4juser" >> "$DIR/setup.log" 2>&1
    kadmin.local -r "$REALM" -q "addprinc -randkey -e aes256-cts-hmac-sha1-96:normal afs/$CELL" \
        >> "$DIR/setup.log" 2>&1
    kadmin.local -r "$REALM" -q "ktadd -norandkey -k $DIR/afs.keytab afs/$CELL" >> "$DIR/setup.log" 2>&1 \
        || { cat "$DIR/setup.log" >&2; die "kadmin.local failed"; }
    /usr/sbin/krb5kdc -n -r "$REALM" -P "$DIR/krb5kdc.pid" < /dev/null > "$DIR/krb5kdc.out" 2>&1 &
    local pid=$! waited=0
    until ss -Hlun "sport = :$PORT" | grep -q .; do
        kill -0 "$pid" 2>/dev/null || { cat "$DIR/krb5kdc.out" "$DIR/kdc.log" >&2 2>/dev/null; die "krb5kdc exited"; }
        (( waited++ < 100 )) || die "krb5kdc did not listen on $PORT within 10 s"
        sleep 0.1
    done
    echo "$pid" > "$DIR/krb5kdc.pid"
    echo "krb5kdc started: pid $pid, realm $REALM, 127.0.0.1:$PORT, state $DIR"
}

kinit_user() {
    use_realm
    printf '%s\n' "$USER_PW" | kinit rx4juser@$REALM > "$DIR/kinit.log" 2>&1 \
        || { cat "$DIR/kinit.log" >&2; die "kinit failed"; }
    kvno "afs/$CELL@$REALM"
    klist -e
}

stop() {
    local pid waited=0
    pid=$(running_pid) || { echo "krb5kdc not running"; return 0; }
    kill -TERM "$pid"
    while [[ -e /proc/$pid ]]; do
        (( waited++ < 100 )) || { kill -KILL "$pid" 2>/dev/null || true; }
        sleep 0.1
    done
    rm -f "$DIR/krb5kdc.pid"
    echo "krb5kdc stopped (pid $pid)"
}

case ${1:-} in
    start) start ;;
    kinit) kinit_user ;;
    env) echo "KRB5_CONFIG=$DIR/krb5.conf KRB5_KDC_PROFILE=$DIR/kdc.conf KRB5CCNAME=FILE:$DIR/ccache" ;;
    stop) stop ;;
    *) echo "usage: $0 start|kinit|env|stop" >&2; exit 2 ;;
esac
