#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Datagram system calls per MiB: runs a fresh rxperf server and a fresh client on loopback, each under
# `strace -c -f` counting only sendmsg, sendmmsg, sendto, recvmsg, recvmmsg and recvfrom, and prints, for each side,
# the calls per MiB moved (the client's -b × -T bytes), with UDP GSO/GRO on and off (rxperf --no-gso), for
# `-c send` and `-c recv`. A count, not a time: strace slows every process it traces, so the rates it prints mean
# nothing, but the number of system calls per MiB does not depend on the machine's load (docs/transport.md
# "Segmentation offload").
#
# Usage: scripts/bench/syscalls.sh [rxperf endpoint flags for both sides, e.g. -m 1444 -j]
#   SYSCALLS_PORT=7629         the server's UDP port
#   SYSCALLS_TRANSPORT=epoll   --transport for both sides (GSO/GRO exist only on epoll; rxperf's client defaults
#                              to nio, so the client is told explicitly)
#   SYSCALLS_BYTES=1048576     -b;   SYSCALLS_TIMES=100   -T
#   SYSCALLS_GSO="on off"      which settings to run
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rxperf="$repo/scripts/rxperf"
port=${SYSCALLS_PORT:-7629}
transport=${SYSCALLS_TRANSPORT:-epoll}
bytes=${SYSCALLS_BYTES:-1048576}
times=${SYSCALLS_TIMES:-100}
settings=${SYSCALLS_GSO:-on off}
calls='sendmsg,sendmmsg,sendto,recvmsg,recvmmsg,recvfrom'
mib=$(awk -v b="$bytes" -v t="$times" 'BEGIN { printf "%g", b * t / 1048576 }')

command -v strace > /dev/null || { echo "syscalls.sh: strace is not installed" >&2; exit 1; }
seccomp=()
if strace --seccomp-bpf -f -e trace=sendto -o /dev/null true 2> /dev/null; then
    seccomp=(--seccomp-bpf) # only the counted calls stop the process: the others run at full speed
fi

work=$(mktemp -d)
server_pid=
# stop_server: ends the traced server (the launcher execs java, so strace's child is the JVM) with SIGTERM; strace
# then writes its summary and exits.
stop_server() {
    if [[ -n $server_pid ]]; then
        local jvm
        jvm=$(pgrep -P "$server_pid" || true)
        [[ -n $jvm ]] && kill -TERM $jvm 2> /dev/null
        wait "$server_pid" 2> /dev/null || true
        server_pid=
    fi
}
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT

# The launcher builds the jar and its start-up cache on first use: done here, outside strace.
"$rxperf" --version > /dev/null

# sums FILE: "send recv" call counts from a strace -c summary.
sums() {
    awk '$NF ~ /^(sendmsg|sendmmsg|sendto)$/ { s += $4 } $NF ~ /^(recvmsg|recvmmsg|recvfrom)$/ { r += $4 }
         END { printf "%d %d", s, r }' "$1"
}

# per_mib COUNT: COUNT / MiB moved, one decimal.
per_mib() {
    awk -v n="$1" -v m="$mib" 'BEGIN { printf "%.1f", n / m }'
}

# wait_for_port: until the server's UDP port is bound (at most ~20 s).
wait_for_port() {
    local i
    for ((i = 0; i < 200; i++)); do
        if ss -Hlun "sport = :$port" 2> /dev/null | grep -q .; then
            return 0
        fi
        sleep 0.1
    done
    echo "syscalls.sh: the server did not bind UDP port $port" >&2
    return 1
}

printf 'rxperf -b %s -T %s (%s MiB a run), --transport %s, extra flags: %s\n' "$bytes" "$times" "$mib" \
    "$transport" "${*:-none}"
printf '%-5s %-4s | %-28s | %-28s\n' command gso 'client: send / recv per MiB' 'server: send / recv per MiB'
for command in send recv; do
    for gso in $settings; do
        flags=(--transport "$transport" "$@")
        [[ $gso == off ]] && flags+=(--no-gso)
        strace -c -f "${seccomp[@]}" -e trace="$calls" -o "$work/server" \
            "$rxperf" server -p "$port" "${flags[@]}" > /dev/null 2> "$work/server.err" &
        server_pid=$!
        wait_for_port
        strace -c -f "${seccomp[@]}" -e trace="$calls" -o "$work/client" \
            "$rxperf" client -s 127.0.0.1 -p "$port" -c "$command" -b "$bytes" -T "$times" "${flags[@]}" \
            > "$work/result" 2> "$work/client.err" || { cat "$work/client.err" >&2; exit 1; }
        stop_server
        read -r cs cr <<< "$(sums "$work/client")"
        read -r ss_ sr <<< "$(sums "$work/server")"
        printf '%-5s %-4s | %12s / %-13s | %12s / %-13s\n' "$command" "$gso" "$(per_mib "$cs")" "$(per_mib "$cr")" \
            "$(per_mib "$ss_")" "$(per_mib "$sr")"
    done
done
