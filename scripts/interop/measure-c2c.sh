#!/usr/bin/env bash
# Measures the C rxperf peer against itself on loopback (the numbers in docs/interop.md).
#
#   measure-c2c.sh [REPEATS]      (default 5)
#
# Starts `rxperf-peer server` on 127.0.0.1:${INTEROP_PORT:-7009} (stopped on exit), runs each workload REPEATS
# times and prints every result line plus the load average before and after. A benchmark, not
# a test: it asserts nothing. Build the peer first (scripts/interop.sh build).
set -euo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PEER=$DIR/build/rxperf-peer
PORT=${INTEROP_PORT:-7009}
REPEATS=${1:-5}
[[ -x $PEER ]] || { echo "measure-c2c.sh: $PEER not built" >&2; exit 1; }
if ss -Hlun "sport = :$PORT" | grep -q .; then
    echo "measure-c2c.sh: UDP $PORT is taken" >&2
    exit 1
fi

server=
stop_server() {
    if [[ -n $server ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
        server=
    fi
}
trap stop_server EXIT

# run_set "SERVER FLAGS" "WORKLOAD"...: one server with those flags, each workload REPEATS times.
run_set() {
    local server_flags=$1 workload
    shift
    # shellcheck disable=SC2086  # flags are several words on purpose
    "$PEER" server -p "$PORT" $server_flags > /dev/null 2>&1 &
    server=$!
    until ss -Hlun "sport = :$PORT" | grep -q .; do sleep 0.1; done
    for workload in "$@"; do
        echo "# server ${server_flags:-(defaults)}; rxperf-peer client $workload"
        for _ in $(seq 1 "$REPEATS"); do
            # shellcheck disable=SC2086
            "$PEER" client -s 127.0.0.1 -p "$PORT" $workload
        done
    done
    stop_server
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run_set "" \
    "-c send -b 1048576 -T 100" \
    "-c recv -b 1048576 -T 30" \
    "-c send -b 32768 -T 1000" \
    "-c rpc -S 4 -R 30 -T 2000" \
    "-c rpc -S 4 -R 4 -T 2000"
run_set "-j" "-c send -b 1048576 -T 30 -j"
run_set "-W 255" "-c send -b 1048576 -T 30 -W 255"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
