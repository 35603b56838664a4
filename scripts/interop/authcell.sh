#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Runs an authenticated throwaway OpenAFS cell for interop tests: bosserver, vlserver and ptserver WITHOUT
# -noauth, in a network namespace of scripts/netns.sh, with keys set by asetkey.
#
#   authcell.sh keys KEYTAB PRINC ADDR   make the cell's server directory: ThisCell, CellServDB (ADDR the only
#                                    database host), UserList (rx4juser), krb.conf (PRINC's realm, a local realm),
#                                    a DES key (kvno 3) and the rxkad_krb5 key of PRINC from KEYTAB
#                                    (asetkey add rxkad_krb5 1 18 KEYTAB PRINC)
#   authcell.sh start NETNS          start the three servers in NETNS (which holds ADDR); wait for the ubik
#                                    election (vos listvldb and pts examine with -localauth answer), at most 60 s
#   authcell.sh local NETNS CMD...   run CMD (bos, vos, pts with -localauth) in NETNS with the cell's server
#                                    directory over /etc/openafs/server, where -localauth reads the keys
#   authcell.sh stop                 stop the servers by pid (SIGTERM, then SIGKILL after 10 s)
#   authcell.sh deskey               print KVNO:HEX of the DES key `keys` adds (what the tests compare with)
#
# Every program that needs the fixed paths /etc/openafs, /etc/openafs/server, /var/lib/openafs or
# /var/log/openafs runs under `unshare --mount` with temporary directories bind-mounted over them: nothing on
# the machine changes, and the mounts vanish with the processes. No NoAuth file exists, so every server
# requires rxkad for what it guards. The DES key is a throwaway value.
#
# Environment: RX4J_AUTH_DIR (default /tmp/rx4j-interop-authcell) holds the directories, pid files and logs;
# RX4J_DB_CELL (default interop.rx4j.test) names the cell.
set -euo pipefail

CELL=${RX4J_DB_CELL:-interop.rx4j.test}
STATE_DIR=${RX4J_AUTH_DIR:-/tmp/rx4j-interop-authcell}
DES_KVNO=3
DES_KEY=0123456789abcdef
SERVERS=(bosserver vlserver ptserver)

die() { echo "authcell.sh: $*" >&2; exit 1; }

# in_mounts CMD...: runs CMD with the cell's directories over the fixed OpenAFS paths. unshare (without
# --fork) and sh exec, so under `exec in_mounts` CMD keeps the caller's pid.
in_mounts() {
    local run=()
    [[ ${exec_in_mounts:-0} -eq 0 ]] || run=(exec)
    "${run[@]}" unshare --mount --propagation private sh -c '
        set -e
        dir=$1; shift
        mount --make-rprivate /
        mount --bind "$dir/etc" /etc/openafs
        mount --bind "$dir/etc-server" /etc/openafs/server
        mount --bind "$dir/lib" /var/lib/openafs
        mount --bind "$dir/log" /var/log/openafs
        exec "$@"' sh "$STATE_DIR" "$@"
}

running_pid() {
    local name=$1 pid
    [[ -f $STATE_DIR/$name.pid ]] || return 1
    pid=$(<"$STATE_DIR/$name.pid")
    [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/comm && $(</proc/$pid/comm) == "$name" ]] || return 1
    echo "$pid"
}

keys() {
    local keytab=$1 princ=$2 addr=$3
    for dir in /etc/openafs /etc/openafs/server /var/lib/openafs /var/log/openafs; do
        [[ -d $dir ]] || die "$dir does not exist (is openafs-dbserver installed?); refusing to create it"
    done
    [[ -r $keytab ]] || die "keytab $keytab not readable"
    rm -rf "$STATE_DIR"
    mkdir -p "$STATE_DIR"/{etc/server,etc-server,lib/local,lib/db,log,client}
    chmod 700 "$STATE_DIR/lib/local" "$STATE_DIR/etc-server"
    echo "$CELL" > "$STATE_DIR/etc-server/ThisCell"
    printf '>%s\t#rx4j authenticated throwaway cell\n%s\t#db %s\n' "$CELL" "$addr" "$addr" \
        > "$STATE_DIR/etc-server/CellServDB"
    cp "$STATE_DIR/etc-server/ThisCell" "$STATE_DIR/etc-server/CellServDB" "$STATE_DIR/client/"
    echo "$addr" > "$STATE_DIR/addr"
    echo rx4juser > "$STATE_DIR/etc-server/UserList"
    # The principal's realm is a local realm of the cell (krb.conf): its users are the cell's users, not foreign
    # ones, so a kinit user's rxkad-k5 calls run as that user (ptserver refuses unknown foreign users).
    echo "${princ##*@}" > "$STATE_DIR/etc-server/krb.conf"
    in_mounts asetkey add "$DES_KVNO" "$DES_KEY"
    in_mounts asetkey add rxkad_krb5 1 18 "$keytab" "$princ"
    in_mounts asetkey list
}

# launch NETNS NAME CMD...: starts a server in NETNS with the mounts. ip netns exec, this script (exec_in_mounts),
# unshare and sh all exec, so $! is the server's own pid.
launch() {
    local netns=$1 name=$2
    shift 2
    ip netns exec "$netns" "$0" exec_in_mounts "$@" < /dev/null > "$STATE_DIR/$name.out" 2>&1 &
    echo $! > "$STATE_DIR/$name.pid"
}

start() {
    local netns=$1 addr name waited=0 start_ns
    [[ -f $STATE_DIR/etc-server/KeyFileExt ]] || die "no keys; run: $0 keys KEYTAB PRINC"
    ip netns list | awk '{ print $1 }' | grep -qxF "$netns" || die "network namespace $netns does not exist"
    for name in "${SERVERS[@]}"; do
        ! running_pid "$name" > /dev/null || die "$name already running; run: $0 stop"
    done
    echo "$netns" > "$STATE_DIR/netns"
    addr=$(<"$STATE_DIR/addr")
    start_ns=$(date +%s%N)
    # ip netns exec, unshare (without --fork) and sh all exec, so $! is the server's own pid.
    launch "$netns" bosserver /usr/sbin/bosserver -nofork
    launch "$netns" vlserver /usr/lib/openafs/vlserver -database "$STATE_DIR/lib/db/vldb" -logfile "$STATE_DIR/log/VLLog"
    launch "$netns" ptserver /usr/lib/openafs/ptserver -database "$STATE_DIR/lib/db/prdb" -logfile "$STATE_DIR/log/PtLog"
    until local_cmd "$netns" vos listvldb -server "$addr" -localauth -noresolve > /dev/null 2>&1 \
            && local_cmd "$netns" pts examine -nameorid system:administrators -localauth > /dev/null 2>&1; do
        for name in "${SERVERS[@]}"; do
            kill -0 "$(<"$STATE_DIR/$name.pid")" 2>/dev/null || {
                cat "$STATE_DIR/$name.out" "$STATE_DIR"/log/* >&2 2>/dev/null || true
                die "$name exited during start-up (see above)"
            }
        done
        (( waited++ < 300 )) || die "no ubik quorum within 60 s"
        sleep 0.2
    done
    echo "bosserver, vlserver, ptserver (pids $(cat "$STATE_DIR"/{bosserver,vlserver,ptserver}.pid | tr '\n' ' '))" \
        "without -noauth: cell $CELL at $addr in $netns; election and first -localauth reads took" \
        "$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }') s"
}

# local_cmd NETNS CMD...: CMD in NETNS with the cell's directories mounted (where -localauth finds the keys).
local_cmd() {
    local netns=$1
    shift
    ip netns exec "$netns" "$0" exec_in_mounts "$@"
}

stop_one() {
    local name=$1 pid waited=0
    pid=$(running_pid "$name") || { rm -f "$STATE_DIR/$name.pid"; return 0; }
    kill -TERM "$pid"
    while [[ -e /proc/$pid ]]; do
        (( waited++ != 100 )) || kill -KILL "$pid" 2>/dev/null || true
        (( waited < 150 )) || die "$name pid $pid did not exit"
        sleep 0.1
    done
    rm -f "$STATE_DIR/$name.pid"
    echo "$name stopped (pid $pid)"
}

stop() {
    local name
    for name in "${SERVERS[@]}"; do
        stop_one "$name"
    done
    ! grep -q " $STATE_DIR" /proc/self/mounts || die "a bind mount of $STATE_DIR is visible outside"
}

case ${1:-} in
    keys) [[ $# -eq 4 ]] || die "usage: $0 keys KEYTAB PRINC ADDR"; keys "$2" "$3" "$4" ;;
    start) [[ $# -eq 2 ]] || die "usage: $0 start NETNS"; start "$2" ;;
    local) [[ $# -ge 3 ]] || die "usage: $0 local NETNS CMD..."; shift; local_cmd "$@" ;;
    stop) stop ;;
    deskey) echo "$DES_KVNO:$DES_KEY" ;;
    exec_in_mounts) shift; exec_in_mounts=1; in_mounts "$@" ;;
    *) echo "usage: $0 keys KEYTAB PRINC ADDR | start NETNS | local NETNS CMD... | stop | deskey" >&2; exit 2 ;;
esac
