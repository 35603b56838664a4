# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Sourced by scripts/bench/launcher-flags.sh, scripts/bench/firstcall-counts.sh and scripts/netns/openafs-packets.sh:
# one background server process at a time on UDP $PORT (set by the caller), started and stopped by its process id;
# in network namespace SERVER_NS when the caller sets it (read at each call).
#
#   port_bound              true while a socket is bound to UDP $PORT (in SERVER_NS when set)
#   server_start LOG CMD... fails (exit 1) if the port is taken; starts CMD in the background (in SERVER_NS when
#                           set, by ip netns exec, which becomes CMD), its output to LOG;
#                           sets SERVER_PID; waits until the port is bound, then 0.2 s more (rx4j registers its
#                           service just after binding, docs/interop.md); exits 1 if it dies or never binds
#   server_stop             stops SERVER_PID, if any, and waits until the port is free
# Messages name the calling script. Needs ss (iproute2).

SERVER_PID=
SERVER_NS=${SERVER_NS:-}

# in_server_ns CMD...: runs CMD in SERVER_NS when set, else here
in_server_ns() { if [[ -n $SERVER_NS ]]; then ip netns exec "$SERVER_NS" "$@"; else "$@"; fi; }

port_bound() { in_server_ns ss -Hlun "sport = :$PORT" | grep -q .; }

server_start() {
    local log=$1 tries=0
    shift
    if port_bound; then
        echo "${0##*/}: UDP $PORT is taken" >&2
        exit 1
    fi
    # Started directly (not through in_server_ns, a function: its background job would be a subshell), so that
    # SERVER_PID is the server's own process; ip netns exec execs the command in place.
    if [[ -n $SERVER_NS ]]; then
        ip netns exec "$SERVER_NS" "$@" < /dev/null > "$log" 2>&1 &
    else
        "$@" < /dev/null > "$log" 2>&1 &
    fi
    SERVER_PID=$!
    until port_bound; do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "${0##*/}: server died:" >&2
            cat "$log" >&2
            SERVER_PID=
            exit 1
        fi
        (( ++tries < 1200 )) || { echo "${0##*/}: server did not bind UDP $PORT" >&2; exit 1; }
        sleep 0.05
    done
    sleep 0.2
}

server_stop() {
    local tries=0
    [[ -n $SERVER_PID ]] || return 0
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    while port_bound && (( ++tries < 100 )); do sleep 0.05; done
}
