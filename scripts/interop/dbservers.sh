#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Runs OpenAFS's database servers (Debian openafs-dbserver: vlserver, ptserver) for interop tests, inside a
# network namespace of scripts/netns.sh, with a throwaway one-host cell.
#
#   dbservers.sh start NETNS ADDR     start vlserver (UDP 7003) and ptserver (UDP 7002) in NETNS, whose
#                                     address ADDR is the cell's only database host; wait for the ubik
#                                     election (vos listvldb answers), bounded by 60 s; print the time it took
#        [--vl-only]                  only the vlserver
#        [--no-wait]                  do not wait for the election (the first server of a multi-server cell:
#                                     its election needs the others)
#   dbservers.sh stop                 stop both by pid (SIGTERM, then SIGKILL after 10 s)
#
# ubik servers refuse a CellServDB that lists only 127.0.0.1 (they need their own address among the
# database hosts), hence the namespace with a veth address. Each server runs under `ip netns exec NETNS
# unshare --mount`, where temporary directories are bind-mounted over /etc/openafs/server,
# /var/lib/openafs and /var/log/openafs: ptserver has no -noauth switch and reads the fixed path
# /var/lib/openafs/local/NoAuth, which exists only in the temporary directory. Nothing on the machine
# changes, and the mounts vanish with the processes. vlserver gets -noauth as well; both use rxnull.
#
# Environment: RX4J_DB_DIR (default /tmp/rx4j-interop-dbservers) holds the temporary directories, the pid
# files, the logs and client/ (ThisCell and CellServDB for `vos -config` and `pts -config`); one directory per
# server instance. RX4J_DB_HOSTS (default: ADDR) lists the cell's database hosts, space-separated, for a cell of
# several servers (each started with its own RX4J_DB_DIR in its own namespace). RX4J_DB_ELECTION_S (default 60)
# bounds the wait for the election.
set -euo pipefail

CELL=${RX4J_DB_CELL:-interop.rx4j.test}
STATE_DIR=${RX4J_DB_DIR:-/tmp/rx4j-interop-dbservers}
ELECTION_BUDGET_S=${RX4J_DB_ELECTION_S:-60}

die() { echo "dbservers.sh: $*" >&2; exit 1; }

# running_pid NAME: prints the pid from NAME.pid if that process is still NAME; fails otherwise.
running_pid() {
    local name=$1 pid
    [[ -f $STATE_DIR/$name.pid ]] || return 1
    pid=$(<"$STATE_DIR/$name.pid")
    [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/comm && $(</proc/$pid/comm) == "$name" ]] || return 1
    echo "$pid"
}

# launch NAME ARGS...: starts /usr/lib/openafs/NAME in the namespace with the bind mounts.
launch() {
    local name=$1 netns
    shift
    netns=$(<"$STATE_DIR/netns")
    # unshare without --fork execs the shell in the same process and the shell execs the server,
    # so $! is the server's own pid.
    ip netns exec "$netns" unshare --mount --propagation private sh -c '
        set -e
        dir=$1; shift
        mount --make-rprivate /
        mount --bind "$dir/etc-server" /etc/openafs/server
        mount --bind "$dir/lib" /var/lib/openafs
        mount --bind "$dir/log" /var/log/openafs
        exec "$@"' sh "$STATE_DIR" "/usr/lib/openafs/$name" "$@" \
        < /dev/null > "$STATE_DIR/$name.out" 2>&1 &
    echo $! > "$STATE_DIR/$name.pid"
}

vl_start() {
    launch vlserver -noauth -database "$STATE_DIR/lib/db/vldb" -logfile "$STATE_DIR/log/VLLog"
}

pt_start() {
    launch ptserver -database "$STATE_DIR/lib/db/prdb" -logfile "$STATE_DIR/log/PtLog"
}

# A read the ubik sync site must serve: succeeds once the election is over and the database is readable.
vl_answers() {
    ip netns exec "$(<"$STATE_DIR/netns")" vos listvldb -server "$(<"$STATE_DIR/addr")" -noauth -noresolve \
        -config "$STATE_DIR/client" -cell "$CELL" > /dev/null 2>&1
}

pt_answers() {
    ip netns exec "$(<"$STATE_DIR/netns")" pts examine -nameorid system:administrators -noauth \
        -config "$STATE_DIR/client" -cell "$CELL" > /dev/null 2>&1
}

start() {
    local netns=$1 addr=$2 vl_only=$3 no_wait=$4 name start_ns host
    [[ -x /usr/lib/openafs/vlserver && -x /usr/lib/openafs/ptserver ]] \
        || die "vlserver/ptserver not found (apt-get install openafs-dbserver)"
    command -v unshare > /dev/null || die "unshare not found (util-linux)"
    ip netns list | awk '{ print $1 }' | grep -qxF "$netns" || die "network namespace $netns does not exist"
    for name in vlserver ptserver; do
        ! running_pid "$name" > /dev/null || die "$name already running; run: $0 stop"
    done
    for dir in /etc/openafs/server /var/lib/openafs /var/log/openafs; do
        [[ -d $dir ]] || die "$dir does not exist (is openafs-dbserver installed?); refusing to create it"
    done
    for port in 7002 7003; do
        ! ip netns exec "$netns" ss -Hlun "sport = :$port" | grep -q . || die "UDP $port is taken in $netns"
    done
    rm -rf "$STATE_DIR"
    mkdir -p "$STATE_DIR"/{etc-server,lib/local,lib/db,log,client}
    chmod 700 "$STATE_DIR/lib/local"
    : > "$STATE_DIR/lib/local/NoAuth"
    echo "$netns" > "$STATE_DIR/netns"
    echo "$addr" > "$STATE_DIR/addr"
    echo "$CELL" > "$STATE_DIR/etc-server/ThisCell"
    {
        printf '>%s\t#rx4j interop throwaway cell\n' "$CELL"
        for host in ${RX4J_DB_HOSTS:-$addr}; do printf '%s\t#db %s\n' "$host" "$host"; done
    } > "$STATE_DIR/etc-server/CellServDB"
    cp "$STATE_DIR/etc-server/ThisCell" "$STATE_DIR/etc-server/CellServDB" "$STATE_DIR/client/"

    start_ns=$(date +%s%N)
    local names=(vlserver)
    vl_start
    if [[ $vl_only -eq 0 ]]; then
        pt_start
        names+=(ptserver)
    fi
    if [[ $no_wait -eq 1 ]]; then
        echo "vlserver started in $netns ($addr), not waiting for the election"
        return 0
    fi
    local waited=0
    until vl_answers && { [[ $vl_only -eq 1 ]] || pt_answers; } && running_pid vlserver > /dev/null \
            && { [[ $vl_only -eq 1 ]] || running_pid ptserver > /dev/null; }; do
        for name in "${names[@]}"; do
            # alive (the pid is ip, then unshare, then sh until the server's own exec: no name check here)
            kill -0 "$(<"$STATE_DIR/$name.pid")" 2>/dev/null || {
                cat "$STATE_DIR/$name.out" "$STATE_DIR"/log/* >&2 2>/dev/null || true
                die "$name exited during start-up (see above)"
            }
        done
        (( waited++ < ELECTION_BUDGET_S * 5 )) || die "no ubik quorum within $ELECTION_BUDGET_S s"
        sleep 0.2
    done
    echo "vlserver pid $(running_pid vlserver), ptserver pid $(running_pid ptserver || echo -): cell $CELL," \
        "$addr:7003 and $addr:7002 in $netns; ubik election and first read took" \
        "$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }') s"
}

stop_one() {
    local name=$1 pid waited=0
    pid=$(running_pid "$name") || { rm -f "$STATE_DIR/$name.pid"; return 0; }
    kill -TERM "$pid"
    while [[ -e /proc/$pid ]]; do
        if (( waited++ == 100 )); then
            kill -KILL "$pid" 2>/dev/null || true
        fi
        (( waited < 150 )) || die "$name pid $pid did not exit"
        sleep 0.1
    done
    rm -f "$STATE_DIR/$name.pid"
    echo "$name stopped (pid $pid)"
}

stop() {
    stop_one vlserver
    stop_one ptserver
    ! grep -q " $STATE_DIR" /proc/self/mounts || die "a bind mount of $STATE_DIR is visible outside"
}

case ${1:-} in
    start)
        [[ $# -ge 3 ]] || die "usage: $0 start NETNS ADDR [--vl-only] [--no-wait]"
        vl_only=0 no_wait=0
        for opt in "${@:4}"; do
            case $opt in
                --vl-only) vl_only=1 ;;
                --no-wait) no_wait=1 ;;
                *) die "unknown option $opt" ;;
            esac
        done
        start "$2" "$3" "$vl_only" "$no_wait" ;;
    stop) stop ;;
    *) echo "usage: $0 start NETNS ADDR [--vl-only] [--no-wait] | stop" >&2; exit 2 ;;
esac
