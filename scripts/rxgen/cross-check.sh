#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Cross-checks rx-gen's Java against rxgen's C, both ways: builds a C server and a C client of the kitchen
# sink (rx-gen/src/test/resources/xg/kitchen.xg) from the stubs Debian's rxgen generates and libafsrpc
# (packages libopenafs-dev, gcc), starts the C server on loopback, and runs KitchenSinkTest with the Java
# client scenarios pointed at the C server and the C client pointed at the Java server (every proc: round
# trips, empty and maximum-length values, nested unions, split calls with bulk data both ways, hostile
# lengths each side refuses).
#
#   scripts/rxgen/cross-check.sh [PORT]     (default 7099; UDP on 127.0.0.1)
#
# Exit 0 when every scenario passes. Build files go to a temporary directory, removed at exit.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=${1:-7099}
WORK=$(mktemp -d /tmp/rxgen-cross.XXXXXX)
SERVER_PID=
cleanup() {
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

command -v rxgen >/dev/null || { echo "cross-check: rxgen not installed (libopenafs-dev)" >&2; exit 1; }
command -v gcc >/dev/null || { echo "cross-check: gcc not installed" >&2; exit 1; }

cp "$ROOT/rx-gen/src/test/resources/xg/kitchen.xg" "$WORK/"
cd "$WORK"
rxgen -A kitchen.xg
# The generated C includes OpenAFS's build-time afsconfig.h and roken.h, which Debian does not install;
# the two macros the installed headers need are all that is required here.
mkdir stub
printf '#define AFS_NORETURN __attribute__((__noreturn__))\n#define AFS_NONNULL(x) __attribute__((__nonnull__ x))\n' \
    > stub/afsconfig.h
: > stub/roken.h
CFLAGS=(-O1 -Wall -D_REENTRANT -DAFS_PTHREAD_ENV -I. -Istub)
gcc "${CFLAGS[@]}" -o ks_server "$ROOT/scripts/rxgen/ks_server.c" kitchen.ss.c kitchen.xdr.c -L/usr/lib -lafsrpc -lpthread
# rxgen's client stub passes char-array typedef parameters with the wrong pointer type (gcc warns; ks_client.c
# calls that proc by hand instead)
gcc "${CFLAGS[@]}" -Wno-incompatible-pointer-types -o ks_client "$ROOT/scripts/rxgen/ks_client.c" kitchen.cs.c \
    kitchen.xdr.c -L/usr/lib -lafsrpc -lpthread

./ks_server "$PORT" > ks_server.out 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do
    grep -q 'service 4711' ks_server.out 2>/dev/null && break
    sleep 0.1
done
grep -q 'service 4711' ks_server.out || { cat ks_server.out; echo "cross-check: C server did not start" >&2; exit 1; }

cd "$ROOT"
mvn -B -ntp -o -q -pl rx-gen -am test -Dtest=KitchenSinkTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Drx4j.kitchen.server=127.0.0.1:"$PORT" -Drx4j.kitchen.cclient="$WORK/ks_client"
echo "cross-check: Java client -> C server and C client -> Java server: every kitchen-sink check passed"
