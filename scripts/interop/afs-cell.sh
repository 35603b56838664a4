#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# A throwaway OpenAFS cell with a fileserver (Debian's bosserver, ptserver, vlserver, fileserver, volserver and
# salvager under bos) in a network namespace of its own, for rx4j's AFS file tests and benchmarks. Needs root.
#
#   afs-cell.sh start    build the cell (about 10 s): a veth pair in the namespace (the servers' address is not
#                        loopback: vos refuses loopback addresses and the fileserver does not register them), a
#                        private mount namespace that bind-mounts a temporary /etc/openafs, /var/lib/openafs,
#                        /var/log/openafs and /vicepa (the host keeps only an empty /vicepa, made once), the
#                        volumes root.afs, root.cell and test.vol with -maxquota 0 (unlimited), and
#                        system:anyuser rlidwka on root.cell's and test.vol's root directories. Prints the state
#                        file's path.
#   afs-cell.sh stop     shut the servers down and remove the namespace and the temporary directory;
#                        idempotent (nothing to stop is not an error)
#   afs-cell.sh status   exit 0 when the cell answers (bos status)
#   afs-cell.sh run CMD  run CMD inside the cell's network and mount namespaces (afsio, vos, a JVM ...)
#
# The state file ($RX4J_AFSCELL_DIR/cell.env, default /tmp/rx4j-afscell/cell.env) is shell and Java-properties
# syntax at once (KEY=VALUE lines): AFSCELL_ADDR, AFSCELL_CELL, AFSCELL_CONF (a directory with ThisCell and
# CellServDB), AFSCELL_CELLSERVDB, AFSCELL_HOLDER (the pid whose namespaces `run` enters), AFSCELL_ROOT_CELL
# (root.cell's volume id), AFSCELL_TEST_VOL (test.vol's id). Reference: docs/afs-files.md ("The test cell").
set -euo pipefail

STATE_DIR=${RX4J_AFSCELL_DIR:-/tmp/rx4j-afscell}
STATE=$STATE_DIR/cell.env
NS=${RX4J_AFSCELL_NETNS:-rx4j-afscell}
VETH0=${RX4J_AFSCELL_VETH:-afscell0}
VETH1=${VETH0%0}1
ADDR=10.99.0.1
CELL=afstest.example
# a DES key for -localauth; asetkey refuses none, but an even-parity key leaves bos unauthenticated
KEY=80b6a7cd7a9dadb6

usage() { echo "usage: $0 start | stop | status | run CMD..." >&2; exit 2; }
die() { echo "afs-cell.sh: $*" >&2; exit 1; }

ns_exists() { ip netns list | awk '{ print $1 }' | grep -qxF "$NS"; }

holder() { [[ -f $STATE ]] && sed -n 's/^AFSCELL_HOLDER=//p' "$STATE"; }

in_cell() {
    local pid
    pid=$(holder) || true
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || die "no cell running (afs-cell.sh start)"
    nsenter -t "$pid" -m -n "$@"
}

# wait_for SECONDS DESCRIPTION command...: retries the command every 0.2 s until it succeeds or time runs out.
wait_for() {
    local limit=$1 what=$2 end
    shift 2
    end=$(( $(date +%s) + limit ))
    until "$@" > /dev/null 2>&1; do
        (( $(date +%s) < end )) || die "timed out after $limit s waiting for $what"
        sleep 0.2
    done
}

# patch_acl IN OUT: rewrites the root directory's ACL in a volume dump from system:administrators rlidwka
# alone to that plus system:anyuser (-101) rlidwka (0x7f: "a" lets anonymous tests make mount points). In a
# dump the ACL follows the vnode tag 'A' as a fixed-size big-endian struct (size, version 1, total, positive,
# negative, then id/rights pairs); the new struct overwrites the old in place, so the dump's length is unchanged.
patch_acl() {
    python3 - "$1" "$2" << 'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
old = b"A" + struct.pack(">7i", 28, 1, 1, 1, 0, -204, 127)
new = b"A" + struct.pack(">9i", 36, 1, 2, 2, 0, -204, 127, -101, 127)
at = data.index(old)
open(sys.argv[2], "wb").write(data[:at] + new + data[at + len(new):])
EOF
}

start() {
    [[ $(id -u) -eq 0 ]] || die "needs root (ip netns, mount)"
    [[ -x /usr/sbin/bosserver && -x /usr/lib/openafs/fileserver ]] \
        || die "needs openafs-fileserver and openafs-dbserver"
    if [[ -f $STATE ]] && status > /dev/null 2>&1; then
        echo "$STATE"
        return 0
    fi
    stop > /dev/null 2>&1 || true
    local t0 t
    t0=$(date +%s%N)
    mkdir -p "$STATE_DIR"
    t=$(mktemp -d "$STATE_DIR/cell.XXXXXX")
    mkdir -p "$t/etc/server" "$t/lib/db" "$t/lib/local" "$t/log" "$t/vicepa" "$t/dump"
    touch "$t/vicepa/AlwaysAttach"    # the fileserver attaches a partition that is not a mount point
    chmod 755 "$t/etc" "$t/etc/server" "$t/lib" "$t/log"
    chmod 700 "$t/lib/db" "$t/lib/local"    # bosserver refuses other modes
    echo "$CELL" > "$t/etc/server/ThisCell"
    printf '>%s #rx4j test cell\n%s #afscell\n' "$CELL" "$ADDR" > "$t/etc/server/CellServDB"
    cp "$t/etc/server/ThisCell" "$t/etc/server/CellServDB" "$t/etc/"    # client copies (afsio, vos, rx4j)
    mkdir -p /vicepa    # on the host, once; the cell's partition is bind-mounted over it in its own namespace

    ip netns add "$NS"
    ip -n "$NS" link set lo up
    ip link add "$VETH0" type veth peer name "$VETH1"
    ip link set "$VETH0" netns "$NS"
    ip link set "$VETH1" netns "$NS"
    ip -n "$NS" addr add "$ADDR/24" dev "$VETH0"
    ip -n "$NS" link set "$VETH0" up
    ip -n "$NS" link set "$VETH1" up

    # the holder keeps the private mount namespace alive; everything else enters it with nsenter
    ip netns exec "$NS" unshare -m --propagation private sh -c "mount --bind $t/etc /etc/openafs \
        && mount --bind $t/lib /var/lib/openafs && mount --bind $t/log /var/log/openafs \
        && mount --bind $t/vicepa /vicepa && exec sleep 2147483647" < /dev/null > "$t/holder.log" 2>&1 &
    local holder_pid=$!
    {
        echo "AFSCELL_DIR=$t"
        echo "AFSCELL_HOLDER=$holder_pid"
        echo "AFSCELL_NETNS=$NS"
    } > "$STATE"
    # asetkey must not run before the bind mounts exist, or it writes the host's /etc/openafs
    wait_for 10 "the mount namespace" nsenter -t "$holder_pid" -m -n test -e /vicepa/AlwaysAttach
    in_cell asetkey add 1 "$KEY"
    nsenter -t "$holder_pid" -m -n /usr/sbin/bosserver -nofork < /dev/null > "$t/bosserver.out" 2>&1 &
    echo "AFSCELL_BOSSERVER=$!" >> "$STATE"
    wait_for 30 "bosserver" in_cell bos status "$ADDR" -localauth
    in_cell bos create "$ADDR" ptserver simple /usr/lib/openafs/ptserver -localauth
    in_cell bos create "$ADDR" vlserver simple /usr/lib/openafs/vlserver -localauth
    # ubik quorum before the fileserver: its address registration is retried only every 5 minutes
    wait_for 60 "the vlserver's quorum" in_cell vos listvldb -localauth
    in_cell bos create "$ADDR" fs fs -cmd /usr/lib/openafs/fileserver -cmd /usr/lib/openafs/volserver \
        -cmd /usr/lib/openafs/salvager -localauth
    wait_for 60 "the fileserver's registration" sh -c \
        "nsenter -t $holder_pid -m -n vos listaddrs -localauth -noresolve | grep -qxF $ADDR"
    wait_for 60 "the volserver" in_cell vos listpart "$ADDR" -localauth
    local v
    for v in root.afs root.cell test.vol; do
        in_cell vos create "$ADDR" a "$v" -maxquota 0 -localauth > /dev/null
    done
    # no cache manager, so no `fs setacl`: dump root.cell, patch its root ACL, restore it over itself
    in_cell vos dump root.cell -file "$t/dump/root.cell" -localauth 2> /dev/null
    patch_acl "$t/dump/root.cell" "$t/dump/root.cell.anon"
    in_cell vos restore "$ADDR" a root.cell -file "$t/dump/root.cell.anon" -overwrite full -localauth > /dev/null
    # test.vol gets the same ACL from the patched dump (a restore under another name keeps the contents)
    in_cell vos remove "$ADDR" a test.vol -localauth > /dev/null
    in_cell vos restore "$ADDR" a test.vol -file "$t/dump/root.cell.anon" -localauth > /dev/null
    {
        echo "AFSCELL_ADDR=$ADDR"
        echo "AFSCELL_CELL=$CELL"
        echo "AFSCELL_CONF=$t/etc"
        echo "AFSCELL_CELLSERVDB=$t/etc/CellServDB"
        echo "AFSCELL_ROOT_CELL=$(volume_id root.cell)"
        echo "AFSCELL_TEST_VOL=$(volume_id test.vol)"
    } >> "$STATE"
    echo "afs-cell.sh: cell $CELL on $ADDR in netns $NS, up in $(awk -v a="$t0" -v b="$(date +%s%N)" \
        'BEGIN { printf "%.1f", (b - a) / 1e9 }') s" >&2
    echo "$STATE"
}

volume_id() { in_cell vos examine "$1" -localauth 2> /dev/null | awk '/RWrite:/ { print $2; exit }'; }

status() {
    in_cell bos status "$ADDR" -localauth
}

stop() {
    local t pid bos
    if [[ -f $STATE ]]; then
        t=$(sed -n 's/^AFSCELL_DIR=//p' "$STATE")
        pid=$(holder) || true
        bos=$(sed -n 's/^AFSCELL_BOSSERVER=//p' "$STATE")
        if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
            timeout 30 nsenter -t "$pid" -m -n bos shutdown "$ADDR" -localauth -wait > /dev/null 2>&1 || true
        fi
        if [[ -n $bos ]] && kill -0 "$bos" 2>/dev/null; then
            kill "$bos" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$bos" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$bos" 2>/dev/null || true
        fi
        [[ -n $pid ]] && kill "$pid" 2>/dev/null || true
        rm -f "$STATE"
        [[ -n $t && -d $t ]] && rm -rf "$t"
    fi
    ns_exists && ip netns del "$NS"
    ip link del "$VETH0" 2>/dev/null || true
    return 0
}

case ${1:-} in
    start) start ;;
    stop) stop ;;
    status) status ;;
    run) shift; [[ $# -gt 0 ]] || usage; in_cell "$@" ;;
    *) usage ;;
esac
