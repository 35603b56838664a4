#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Times Debian's `bos listhosts` (-noauth and -localauth) against an rx4j BOZO server (BosTimingServer.java) and
# captures the exchange with tshark, in a private network and mount namespace (unshare: its own loopback, and a
# throwaway cell directory with a DES KeyFile from asetkey over /etc/openafs/server, where -localauth reads it).
# Nothing on the machine changes; the namespaces vanish with the script.
#
#   scripts/interop/bos-timing.sh [JAR] [CHECK_REACH] [RUNS]
#     JAR          a jar with rx4j and rx-afs (default: rx-afs-tools/target/afsq.jar, built by scripts/afsq)
#     CHECK_REACH  true (default) or false: the server's reachability checks
#     RUNS         fresh bos processes per mode (default 3); the median is printed
# BOS_TIMING_WARM=0 skips the one untimed bos call that warms the server first (then run 1 meets a cold JVM).
# BOS_TIMING_JAVA_OPTS adds options to the server's JVM (e.g. -XX:SharedArchiveFile=..., -Xlog:class+load).
# Prints each run's wall time in ms, the median per mode, and per mode a tshark summary of the last run (a
# retransmission shows as a second DATA with the same seq from the client).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar=${1:-$repo/rx-afs-tools/target/afsq.jar}
check=${2:-true}
runs=${3:-3}
if [[ ${BOS_TIMING_INNER:-0} != 1 ]]; then
    [[ -f $jar ]] || "$repo/scripts/afsq" --version > /dev/null
    exec env BOS_TIMING_INNER=1 unshare --net --mount --propagation private "$0" "$jar" "$check" "$runs"
fi
ip link set lo up
dir=$(mktemp -d /tmp/rx4j-bos-timing.XXXXXX)
trap 'kill "${srv:-}" 2>/dev/null || true; wait 2>/dev/null || true; umount /etc/openafs/server 2>/dev/null || true; rm -rf "$dir"' EXIT
mkdir -p "$dir/server"
cell=timing.rx4j.test
echo "$cell" > "$dir/server/ThisCell"
printf '>%s\t#rx4j timing cell\n127.0.0.1\t#localhost\n' "$cell" > "$dir/server/CellServDB"
mount --bind "$dir/server" /etc/openafs/server
asetkey add 3 0123456789abcdef > /dev/null
# shellcheck disable=SC2086  # BOS_TIMING_JAVA_OPTS holds several options on purpose
java -XX:TieredStopAtLevel=1 ${BOS_TIMING_JAVA_OPTS:-} -Dslf4j.internal.verbosity=ERROR -cp "$jar:$repo/scripts/interop" \
    "$repo/scripts/interop/BosTimingServer.java" 127.0.0.1 7007 /etc/openafs/server "$check" "$cell" localhost \
    > "$dir/server.out" 2>&1 &
srv=$!
for _ in $(seq 100); do grep -q ready "$dir/server.out" 2>/dev/null && break; sleep 0.2; done
grep -q ready "$dir/server.out" || { cat "$dir/server.out"; exit 1; }
if [[ ${BOS_TIMING_WARM:-1} == 1 ]]; then
    bos listhosts -server 127.0.0.1 -noauth > /dev/null 2>&1 || true    # warm the server's JIT once
    sleep 1
fi
for mode in -noauth -localauth; do
    times=()
    for i in $(seq "$runs"); do
        tshark -q -i lo -f 'udp port 7007' -w "$dir/cap.pcap" > /dev/null 2> "$dir/tshark.err" &
        ts=$!
        for _ in $(seq 200); do grep -q Capturing "$dir/tshark.err" 2>/dev/null && break; sleep 0.1; done
        sleep 0.2
        t0=$(date +%s%N)
        out=$(bos listhosts -server 127.0.0.1 "$mode" 2>&1) || true
        t1=$(date +%s%N)
        sleep 0.3
        kill -INT "$ts"; wait "$ts" 2>/dev/null || true
        ms=$(( (t1 - t0) / 1000000 ))
        times+=("$ms")
        echo "bos listhosts $mode run $i: $ms ms; $(printf '%s' "$out" | tr '\n' ' ')"
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
    echo "bos listhosts $mode: median $median ms of $runs"
    echo "tshark, last run ($mode):"
    tshark -r "$dir/cap.pcap" 2>/dev/null | sed 's/^/  /'
done
