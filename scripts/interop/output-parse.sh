#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Reads rxperf's stdout the way a script written for OpenAFS's rxperf does, with the same code for both
# implementations: the C peer (scripts/interop/build-peer.sh) and rx4j (rx-perf/target/rxperf.jar) each run send
# and rpc clients (with and without -D) against a C server on loopback; for every run stdout's last line without
# -D (`tail -1`) must be the result line, and with -D the `rx stats:` block's "packets sent:" row must give a data
# count. Prints one line per run and exits 1 if any run did not parse (docs/rxperf.md "Output").
#
#   scripts/interop/output-parse.sh [PORT]      (PORT: the C server's UDP port, default 17019)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PORT=${1:-17019}
PEER=$("$ROOT/scripts/interop/build-peer.sh")
JAR=$ROOT/rx-perf/target/rxperf.jar
"$ROOT/scripts/rxperf" --version > /dev/null      # builds the jar on first use

# result_of OUTPUT: the figures of the result line (stdout's last line), or nothing
result_of() {
    tail -1 <<< "$1" | sed -nE 's/^(SEND|RPC): threads\t([0-9]+), times\t([0-9]+), .*:\t *([0-9]+) msec\t\[([0-9.e+-]+ [kMG]bit\/s)\]$/\1 threads=\2 times=\3 msec=\4 rate=\5/p'
}

# sent_data_of OUTPUT: the data count of the `rx stats:` block's "packets sent:" row, or nothing
sent_data_of() {
    awk '/^rx stats:/ { block = 1 } block && /^ +packets sent: data / { print $4; exit }' <<< "$1"
}

"$PEER" server -p "$PORT" > /dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 0.5
failed=0
for impl in C rx4j; do
    for args in "-c send -b 100000 -T 5" "-c rpc -S 4 -R 30 -T 20"; do
        # shellcheck disable=SC2086  # args holds several flags on purpose
        if [[ $impl == C ]]; then run=("$PEER" client -p "$PORT" $args); else run=(java -jar "$JAR" client -p "$PORT" $args); fi
        out=$("${run[@]}" 2> /dev/null)
        parsed=$(result_of "$out")
        echo "$impl $args: ${parsed:-NOT PARSED}"
        [[ -n $parsed ]] || failed=1
        out=$("${run[@]}" -D 2> /dev/null)
        sent=$(sent_data_of "$out")
        echo "$impl $args -D: rx stats packets sent data=${sent:-NOT PARSED}"
        [[ $sent =~ ^[1-9][0-9]*$ ]] || failed=1
    done
done
exit $failed
