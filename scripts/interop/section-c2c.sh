# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section c2c: C rxperf client <-> C rxperf server, the negative --verify controls,
# rxdebug and the raw DEBUG probes (scripts/interop/DebugProbe.java) against the C server; section rx4j
# runs the same probes against rx4j.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh and section-build.sh.

# ---------------------------------------------------------------- C <-> C

section_c2c() {
    require_peer "C<->C" || return 0
    if ! start_server "C rxperf server" "$WORK/c-server.log" "$PEER" server -p "$PERF_PORT" --verify; then
        fail "C<->C: start C server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID c=("$PEER" client -s 127.0.0.1 -p "$PERF_PORT")
    check "C<->C send -b 1048576 -T 30 --verify" 60 rxperf_client_run "${c[@]}" -c send -b 1048576 -T 30 --verify
    check "C<->C recv -b 1048576 -T 30 --verify" 60 rxperf_client_run "${c[@]}" -c recv -b 1048576 -T 30 --verify
    check "C<->C rpc -S 4 -R 30 -T 2000 --verify" 60 rxperf_client_run "${c[@]}" -c rpc -S 4 -R 30 -T 2000 --verify
    check "C<->C rpc -S 100000 -R 100000 -T 10 --verify" 60 rxperf_client_run "${c[@]}" -c rpc -S 100000 -R 100000 -T 10 --verify
    check "C<->C send -b 100000 -T 10 -j --verify (no jumbograms)" 60 rxperf_client_run "${c[@]}" -c send -b 100000 -T 10 -j --verify
    check "C<->C send -b 1048576 -T 5 -t 4 -u 512 --verify (4 threads)" 60 rxperf_client_run "${c[@]}" -c send -b 1048576 -T 5 -t 4 -u 512 --verify
    check "C<->C negative: server detects a corrupted SEND payload" 60 expect_failure "${c[@]}" -c send -b 100000 -T 1 --corrupt-at 77777
    check "C<->C rxdebug -version" 40 bash -c "rxdebug 127.0.0.1 $PERF_PORT -version | grep 'AFS version: OpenAFS'"
    check "C<->C rxdebug -rxstats -noconns" 40 bash -c "rxdebug 127.0.0.1 $PERF_PORT -rxstats -noconns | grep 'rx stats'"
    check "C<->C control: DEBUG of unknown type 99 gets the {-8, -8} reply" 30 debug_probe_unknown_type
    check "C<->C control: DEBUG without CLIENT_INITIATED gets no reply" 30 debug_probe_not_client_initiated
    stop_server "$pid"
    if grep -q 'payload mismatch at offset 77777' "$WORK/c-server.log"; then
        pass "C<->C negative: server log names the corrupted offset" 0
    else
        fail "C<->C negative: server log names the corrupted offset" 0 "$(cat "$WORK/c-server.log")"
    fi

    # A server that corrupts what it sends: the client's --verify must notice.
    if ! start_server "corrupting C server" "$WORK/c-server-bad.log" "$PEER" server -p "$PERF_PORT" --corrupt-at 4242; then
        fail "C<->C: start corrupting C server" 0 "see above"
        return 0
    fi
    pid=$SERVER_PID
    check "C<->C negative: client detects a corrupted RECV payload" 60 \
        expect_failure "${c[@]}" -c recv -b 100000 -T 1 --verify
    check "C<->C control: without --verify the same RECV passes" 60 \
        rxperf_client_run "${c[@]}" -c recv -b 100000 -T 1
    stop_server "$pid"
}

# A DEBUG request with an unknown type gets {-8, -8} (rx-wire-facts.md section 9), and a DEBUG
# request without CLIENT_INITIATED gets no reply. Section c2c runs both against the C server (the control).
debug_probe_unknown_type() {
    local out
    out=$(java "$INTEROP_DIR/DebugProbe.java" 127.0.0.1 "$PERF_PORT" 99 2>&1) || true
    echo "$out"
    [[ $out == "reply: epoch 999 cid 0 callNumber 4711 type 8 flags 0x04 body 8 bytes: -8 -8" ]]
}
debug_probe_not_client_initiated() {
    local out
    out=$(java "$INTEROP_DIR/DebugProbe.java" 127.0.0.1 "$PERF_PORT" 1 --no-client-initiated --wait-ms 1000 2>&1) || true
    echo "$out"
    [[ $out == "no reply within 1000 ms" ]]
}
