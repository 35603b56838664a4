#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Runs OpenAFS's bosserver (Debian openafs-fileserver) with a throwaway cell, for interop tests.
#
#   bosserver.sh start    start `bosserver -noauth -nofork` on UDP 7007; prints its pid
#   bosserver.sh stop     stop it by pid (SIGTERM, then SIGKILL after 10 s) and check cleanup
#   bosserver.sh status   say whether it runs (exit 0) or not (exit 1)
#
# bosserver uses fixed paths: it reads /etc/openafs/server/{ThisCell,CellServDB} and writes into
# /etc/openafs (bosserver.rxbind, ThisCell/CellServDB symlinks), /var/lib/openafs
# (local/NoAuth, db/) and /var/log/openafs (BosLog). So it runs inside a private mount namespace
# (unshare -m, mount --make-rprivate /) where temporary directories are bind-mounted over those
# four directories: nothing on the machine changes, and the mounts vanish with the process.
#
# The throwaway cell is "interop.rx4j.test" with one database host 127.0.0.1 ("localhost").
# bosserver binds 0.0.0.0:7007 (its -rxbind picks the primary non-loopback interface, which is
# worse); only loopback clients are used.
#
# Environment: RX4J_BOS_DIR (default /tmp/rx4j-interop-bosserver) holds the temporary
# directories, bosserver.pid, bosserver.out and a snapshot of the real directories.
set -euo pipefail

BOS_PORT=7007
CELL=interop.rx4j.test
STATE_DIR=${RX4J_BOS_DIR:-/tmp/rx4j-interop-bosserver}
PID_FILE=$STATE_DIR/bosserver.pid
REAL_DIRS=(/etc/openafs /etc/openafs/server /var/lib/openafs /var/log/openafs)

die() { echo "bosserver.sh: $*" >&2; exit 1; }

# Lists the real directories' entries with mode, size and mtime, to prove they stay untouched.
snapshot_real_dirs() {
    find "${REAL_DIRS[@]}" -xdev -printf '%p %m %s %T@ %l\n' 2>/dev/null | sort
}

port_taken() {
    ss -Hlun "sport = :$BOS_PORT" | grep -q .
}

# Prints the pid from the pid file if that process is our bosserver; fails otherwise.
running_pid() {
    local pid
    [[ -f $PID_FILE ]] || return 1
    pid=$(<"$PID_FILE")
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    [[ -r /proc/$pid/comm && $(</proc/$pid/comm) == bosserver ]] || return 1
    echo "$pid"
}

start() {
    command -v bosserver >/dev/null || [[ -x /usr/sbin/bosserver ]] \
        || die "bosserver not found (apt-get install openafs-fileserver)"
    command -v unshare >/dev/null || die "unshare not found (util-linux)"
    if pid=$(running_pid); then
        die "already running (pid $pid); run: $0 stop"
    fi
    if port_taken; then
        die "UDP port $BOS_PORT is already taken: $(ss -Hlunp "sport = :$BOS_PORT" | tr -s ' ')"
    fi
    for dir in "${REAL_DIRS[@]}"; do
        [[ -d $dir ]] || die "$dir does not exist (is openafs-fileserver installed?); refusing to create it"
    done

    rm -rf "$STATE_DIR"
    mkdir -p "$STATE_DIR"/{etc/server,etc-server,lib/local,log}
    chmod 700 "$STATE_DIR/lib/local"
    echo "$CELL" > "$STATE_DIR/etc-server/ThisCell"
    printf '>%s\t#rx4j interop throwaway cell\n127.0.0.1\t#localhost\n' "$CELL" \
        > "$STATE_DIR/etc-server/CellServDB"
    snapshot_real_dirs > "$STATE_DIR/real-dirs.before"

    # unshare without --fork execs the shell in the same process, and the shell execs
    # bosserver: so $! is bosserver's own pid (checked below through /proc).
    unshare --mount --propagation private sh -c '
        set -e
        mount --make-rprivate /
        mount --bind "$1/etc" /etc/openafs
        mount --bind "$1/etc-server" /etc/openafs/server
        mount --bind "$1/lib" /var/lib/openafs
        mount --bind "$1/log" /var/log/openafs
        exec /usr/sbin/bosserver -noauth -nofork' sh "$STATE_DIR" \
        < /dev/null > "$STATE_DIR/bosserver.out" 2>&1 &
    local pid=$!
    echo "$pid" > "$PID_FILE"

    local waited=0
    until port_taken && running_pid >/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$STATE_DIR/bosserver.out" "$STATE_DIR/log/BosLog" >&2 2>/dev/null || true
            die "bosserver exited during start-up (see above)"
        fi
        (( waited++ < 100 )) || { kill -KILL "$pid" 2>/dev/null || true; die "bosserver did not listen on $BOS_PORT within 10 s"; }
        sleep 0.1
    done
    [[ $(readlink "/proc/$pid/ns/mnt") != $(readlink /proc/self/ns/mnt) ]] \
        || { kill -TERM "$pid"; die "pid $pid is not in a private mount namespace"; }
    echo "bosserver started: pid $pid, cell $CELL, udp 0.0.0.0:$BOS_PORT, state $STATE_DIR"
}

stop() {
    local pid
    if ! pid=$(running_pid); then
        echo "bosserver not running"
        rm -f "$PID_FILE"
        return 0
    fi
    kill -TERM "$pid"
    local waited=0
    while [[ -e /proc/$pid ]]; do
        if (( waited++ == 100 )); then
            echo "bosserver.sh: pid $pid ignored SIGTERM for 10 s; sending SIGKILL" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
        (( waited < 150 )) || die "pid $pid did not exit"
        sleep 0.1
    done
    rm -f "$PID_FILE"
    # Cleanup checks: port free, no mount of ours visible here, real directories untouched.
    port_taken && die "UDP $BOS_PORT still taken after stop"
    grep -q " $STATE_DIR" /proc/self/mounts && die "a bind mount of $STATE_DIR is visible outside"
    if [[ -f $STATE_DIR/real-dirs.before ]]; then
        snapshot_real_dirs > "$STATE_DIR/real-dirs.after"
        diff -u "$STATE_DIR/real-dirs.before" "$STATE_DIR/real-dirs.after" >&2 \
            || die "the real OpenAFS directories changed while bosserver ran (diff above)"
    fi
    echo "bosserver stopped: pid $pid gone, udp $BOS_PORT free, real directories unchanged"
}

status() {
    local pid
    if pid=$(running_pid); then
        echo "bosserver running: pid $pid, mount namespace $(readlink "/proc/$pid/ns/mnt"), state $STATE_DIR"
    else
        echo "bosserver not running"
        return 1
    fi
}

case ${1:-} in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
