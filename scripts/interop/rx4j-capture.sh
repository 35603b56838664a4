# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section rx4j: captures of rx4j<->C mixes compared with the C<->C control.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh, section-build.sh and section-capture.sh.

# Captures rx4j<->C traffic and fails on Wireshark expert-info kinds the C<->C control lacks.
run_rx4j_capture() {
    rx4j_available "rx4j: capture comparison with the C<->C control" || return 0
    require_peer "rx4j: capture comparison" || return 0
    if [[ ! -f $WORK/c2c.kinds ]]; then
        note "rx4j: no C<->C control yet; capturing it first"
        section_capture
    fi
    [[ -f $WORK/c2c.kinds ]] || { fail "rx4j: capture comparison" 0 "no C<->C control capture"; return 0; }
    local pid side
    # rx4j runs without UDP GSO here: on lo a GSO send is one frame holding a run of datagrams, of which the dissector
    # reads only the first, while a NIC puts each on the wire; without it the capture holds every datagram as sent.
    for side in "rx4j-client" "rx4j-server"; do
        if [[ $side == rx4j-client ]]; then
            start_server "C rxperf server" "$WORK/cap-$side.log" "$PEER" server -p "$PERF_PORT" || { fail "rx4j: capture $side: start server" 0; continue; }
            pid=$SERVER_PID
            check "capture rx4j client -> C server mix" 120 \
                "$CAPTURE_SH" "$WORK/$side.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$RX4J_RXPERF" client -s 127.0.0.1 -p "$PERF_PORT" --no-gso
        else
            start_server "rx4j rxperf server" "$WORK/cap-$side.log" "$RX4J_RXPERF" server -p "$PERF_PORT" --no-gso || { fail "rx4j: capture $side: start server" 0; continue; }
            pid=$SERVER_PID
            check "capture C client -> rx4j server mix" 120 \
                "$CAPTURE_SH" "$WORK/$side.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$PEER" client -s 127.0.0.1 -p "$PERF_PORT"
        fi
        stop_server "$pid"
        check "capture $side holds Rx DATA and ACKs both ways" 60 capture_holds_rx_traffic "$WORK/$side.pcapng"
        check "expert-info kinds $side vs C<->C control (no new kinds)" 60 bash -c \
            "'$EXPERT_KINDS_SH' -p $PERF_PORT '$WORK/$side.pcapng' > '$WORK/$side.kinds' &&
             cut -f2 '$WORK/c2c.kinds' | sort > '$WORK/c2c.kindnames' &&
             new=\$(comm -23 <(sort '$WORK/$side.kinds') '$WORK/c2c.kindnames') &&
             if [[ -n \$new ]]; then echo \"new kinds:\"; printf '%s\n' \"\$new\"; exit 1; fi;
             echo 'no kinds beyond the control'"
    done
}
