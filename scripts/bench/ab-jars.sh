#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Cold, unpinned A/B of rxperf jars against the C peer: for each round and workload, a fresh server and a fresh
# client per implementation, C first, then each jar in the order given; prints "round|workload|name|result". Every
# jar runs with the same java and flags, no start-up cache, so two builds of rx4j compare as code, not as launchers.
# A benchmark, not a test.
#
#   JARS="old=/path/a.jar new=/path/b.jar" scripts/bench/ab-jars.sh ROUNDS "WORKLOAD FLAGS" ...
#   e.g. JARS="old=old.jar new=rx-perf/target/rxperf.jar" scripts/bench/ab-jars.sh 3 "-c send -b 1048576 -T 100"
#   env: AB_PORT (7391), AB_JAVA (newest JDK under /usr/lib/jvm), AB_FLAGS (the launcher's C1 flags)
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $# -ge 2 && -n ${JARS:-} ]] || { echo "usage: JARS=\"name=jar ...\" $0 ROUNDS \"WORKLOAD\"..." >&2; exit 2; }
ROUNDS=$1; shift
PORT=${AB_PORT:-7391}
JAVA=${AB_JAVA:-$(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null | sort -V | tail -1)}
# shellcheck source=../lib/launcher-flags.sh
source "$ROOT/scripts/lib/launcher-flags.sh"
FLAGS=${AB_FLAGS:-$LAUNCHER_FLAGS -Dio.netty.jfr.enabled=false}
PEER=$("$ROOT/scripts/interop/build-peer.sh")
for i in $(seq 1 "$ROUNDS"); do
    for w in "$@"; do
        for tag in C=peer $JARS; do
            name=${tag%%=*}; jar=${tag#*=}
            if [[ $name == C ]]; then srv=("$PEER" server -p "$PORT"); cli=("$PEER" client -p "$PORT")
            else srv=("$JAVA" $FLAGS -jar "$jar" server -p "$PORT"); cli=("$JAVA" $FLAGS -jar "$jar" client -p "$PORT"); fi
            "${srv[@]}" >/dev/null 2>&1 &
            sp=$!
            sleep 1.5
            # shellcheck disable=SC2086
            out=$("${cli[@]}" $w 2>&1 | grep -E '^(SEND|RECV|RPC|FILE)' | head -1)
            kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
            echo "$i|$w|$name|$(echo "$out" | grep -oE '[0-9]+ msec.*')"
        done
    done
done
