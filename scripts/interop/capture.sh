#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Captures loopback UDP traffic on the given ports while a command runs.
#
#   capture.sh OUTFILE [PORT...] -- command [args...]
#
# PORT defaults to 7009 (rxperf). Writes pcapng to OUTFILE with `tshark -i lo`, starts the
# command only once tshark reports that the capture runs, waits 0.5 s after the command for
# trailing packets (final ACKs), then stops tshark with SIGINT (by its pid). Exits with the
# command's exit status; prints the packet count to stderr.
set -euo pipefail

usage() { echo "usage: $0 OUTFILE [PORT...] -- command [args...]" >&2; exit 2; }

[[ $# -ge 3 ]] || usage
out=$1; shift
ports=()
while [[ $# -gt 0 && $1 != -- ]]; do
    [[ $1 =~ ^[0-9]+$ && $1 -ge 1 && $1 -le 65535 ]] || { echo "capture.sh: bad port '$1'" >&2; usage; }
    ports+=("$1"); shift
done
[[ ${1:-} == -- ]] || usage
shift
[[ $# -ge 1 ]] || usage
[[ ${#ports[@]} -gt 0 ]] || ports=(7009)
command -v tshark >/dev/null || { echo "capture.sh: tshark not found (apt-get install tshark)" >&2; exit 1; }

filter=""
for port in "${ports[@]}"; do
    filter+="${filter:+ or }udp port $port"
done

log=$(mktemp)
rm -f "$out"
# tshark runs as root here; the capture file is written by its dumpcap child.
tshark -i lo -f "$filter" -w "$out" -q > "$log" 2>&1 &
tshark_pid=$!
stop_tshark() {
    if kill -0 "$tshark_pid" 2>/dev/null; then
        kill -INT "$tshark_pid" 2>/dev/null || true
        wait "$tshark_pid" 2>/dev/null || true
    fi
}
trap 'stop_tshark; rm -f "$log"' EXIT

waited=0
until grep -q "Capturing on" "$log"; do
    if ! kill -0 "$tshark_pid" 2>/dev/null; then
        cat "$log" >&2
        echo "capture.sh: tshark failed to start" >&2
        exit 1
    fi
    (( waited++ < 200 )) || { echo "capture.sh: tshark did not start within 20 s" >&2; exit 1; }
    sleep 0.1
done
# "Capturing on" is printed just before dumpcap's loop runs; a short pause avoids losing
# the first packets.
sleep 0.3

status=0
"$@" || status=$?
sleep 0.5
stop_tshark
count=$(grep -Eo '[0-9]+ packets? captured' "$log" | tail -1 || true)
echo "capture.sh: ${count:-? packets captured} on '$filter' -> $out" >&2
exit "$status"
