# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section rx4j: rxperf at rxkad crypt level, rx4j <-> rx4j, rx4j client -> C server and
# C client -> rx4j server, every run with --verify on both sides, each direction proving its level.
# Sourced by rx4j-matrix.sh (run_rx4j_matrix ends with run_rx4j_rxkad), not run by itself; uses common.sh and
# section-build.sh.

# ---- rxperf --security crypt (docs/interop.md "rxperf at rxkad crypt level")

# A few MiB per run: the point is the level and the payload, not the rate.
RXKAD_RUNS=("-c send -b 1048576 -T 4" "-c recv -b 1048576 -T 4" "-c rpc -S 4 -R 3000 -T 50")

# rxkad_keyfile FILE: writes a KeyFile as asetkey does (a big-endian key count, then per key a kvno and 8 DES key
# bytes): kvno 3 and kvno 4, the client's ticket is sealed with the newest (4). Throwaway keys for this run only.
rxkad_keyfile() {
    printf '\x00\x00\x00\x02\x00\x00\x00\x03\x1f\x2e\x3d\x4c\x5b\x6a\x79\x88\x00\x00\x00\x04\x01\x23\x45\x67\x89\xab\xcd\xef' \
        > "$1"
}

# rxkad_level_shown FILE LEVEL: `rxdebug -allconnections` output in FILE lists a connection at security index 2,
# and every "rxkad: level" line it has (Debian's rxdebug prints one when the server's class reports its stats)
# names LEVEL.
rxkad_level_shown() {
    local file=$1 level=$2
    sed 's/^/    rxdebug: /' "$file"
    grep -q 'security index 2' "$file" || { echo "no connection at security index 2"; return 1; }
    if grep -q 'rxkad: level' "$file" && grep 'rxkad: level' "$file" | grep -v "rxkad: level $level," > /dev/null; then
        echo "a connection is not at level $level"
        return 1
    fi
}

# rxkad_direction DIRECTION SERVER CLIENT: starts SERVER at crypt, runs RXKAD_RUNS from CLIENT at crypt, shows
# that the server lists the client's connection at security index 2 and level crypt (Debian rxdebug; the C server
# also names the level on stderr), and that an rxnull and a clear-level client are refused (the server's minimum
# is crypt, so index 2 means crypt where rxdebug shows no level).
rxkad_direction() {
    local direction=$1 server=$2 client=$3 keys=$WORK/rxkad/KeyFile log=$WORK/rxkad/server.log pid run
    local sec=(--security crypt --keyfile "$keys")
    # shellcheck disable=SC2086  # SERVER and CLIENT hold a command and its first word on purpose
    if ! start_server "$direction server" "$log" $server -p "$PERF_PORT" "${sec[@]}" --verify; then
        fail "rxkad: $direction: start server at crypt" 0 "see above"
        return 0
    fi
    pid=$SERVER_PID
    for run in "${RXKAD_RUNS[@]}"; do
        # shellcheck disable=SC2086
        check "rxkad: $direction: $run --security crypt --verify" 90 rxperf_client_run \
            $client -s 127.0.0.1 -p "$PERF_PORT" $run "${sec[@]}" --verify
    done
    check "rxkad: $direction: rxdebug -allconnections shows security index 2 at crypt" 30 \
        rxkad_rxdebug_check "$log"
    # shellcheck disable=SC2086
    check "rxkad: $direction: an rxnull client is refused" 60 expect_failure \
        $client -s 127.0.0.1 -p "$PERF_PORT" -c rpc -S 4 -R 30 -T 1
    # shellcheck disable=SC2086
    check "rxkad: $direction: a clear-level client is refused" 60 expect_failure \
        $client -s 127.0.0.1 -p "$PERF_PORT" -c rpc -S 4 -R 30 -T 1 --security clear --keyfile "$keys"
    stop_server "$pid"
}

# rxkad_rxdebug_check SERVER_LOG: Debian rxdebug against the running server (the client's connection stays listed
# until it idles out), and the C server's own line naming the level when SERVER_LOG has one.
rxkad_rxdebug_check() {
    local out=$WORK/rxkad/rxdebug.out
    rxdebug 127.0.0.1 "$PERF_PORT" -allconnections > "$out" 2>&1 || { cat "$out"; return 1; }
    rxkad_level_shown "$out" crypt || return 1
    if grep -q '^rxperf-peer: server: connection' "$1"; then
        grep '^rxperf-peer: server: connection' "$1"
        ! grep '^rxperf-peer: server: connection' "$1" | grep -v 'security index 2, rxkad level crypt$' > /dev/null
    fi
}

# rxkad_class_not_offered SERVER_SECURITY CLIENT_SECURITY: an rx4j client with CLIENT_SECURITY against OpenAFS's C
# server with SERVER_SECURITY, a class the client does not use ("" is rxnull). The C server answers the call with its
# raw ABORT -2 (the same for an unknown service), and rx4j's probe of the same service with the other class
# (docs/errors.md "Unknown service or class not offered") makes the failure name the cause.
rxkad_class_not_offered() {
    local out=$WORK/rxkad/not-offered.out pid status=0 keys=(--keyfile "$WORK/rxkad/KeyFile")
    # shellcheck disable=SC2086  # an empty SECURITY is no flag at all
    start_server "C server" "$WORK/rxkad/not-offered-server.log" "$PEER" server -p "$PERF_PORT" \
        ${1:+--security $1 "${keys[@]}"} || return 1
    pid=$SERVER_PID
    # shellcheck disable=SC2086
    if $RX4J_RXPERF client -s 127.0.0.1 -p "$PERF_PORT" -c rpc -S 4 -R 30 -T 1 \
        ${2:+--security $2 "${keys[@]}"} > "$out" 2>&1; then
        echo "expected a failure, but the command succeeded"
        status=1
    fi
    stop_server "$pid"
    cat "$out"
    [[ $status -eq 0 ]] && grep -q 'security class not offered' "$out"
}

run_rx4j_rxkad() {
    rx4j_available "rx4j: rxperf --security crypt" || return 0
    require_peer "rx4j: rxperf --security crypt" || return 0
    if ! command -v rxdebug > /dev/null; then
        skip "rx4j: rxperf --security crypt" "Debian's rxdebug (openafs-client) is not installed"
        return 0
    fi
    mkdir -p "$WORK/rxkad"
    rxkad_keyfile "$WORK/rxkad/KeyFile"
    rxkad_direction "rx4j client -> rx4j server" "$RX4J_RXPERF server" "$RX4J_RXPERF client"
    rxkad_direction "rx4j client -> C server" "$PEER server" "$RX4J_RXPERF client"
    rxkad_direction "C client -> rx4j server" "$RX4J_RXPERF server" "$PEER client"
    check "rxkad: rx4j client at crypt -> C server at rxnull: the refusal names a class not offered" 60 \
        rxkad_class_not_offered "" crypt
    check "rxkad: rx4j client at rxnull -> C server at crypt: the refusal names a class not offered" 60 \
        rxkad_class_not_offered crypt ""
}
