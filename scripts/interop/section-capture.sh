# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section capture: the tshark capture of a C<->C mix whose Wireshark expert-info
# kinds are the control for rx4j-capture.sh.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh and section-build.sh.

# ---------------------------------------------------------------- captures

# capture_holds_rx_traffic FILE: the capture decodes as Rx and holds the mix's traffic both ways
# (at least 500 DATA datagrams and 300 ACKs from the server's port and to it), so "no expert
# infos" cannot come from an empty or undecoded capture. Prints the count per direction and type.
capture_holds_rx_traffic() {
    local counts
    counts=$(tshark -r "$1" -d "udp.port==$PERF_PORT,rx" -Y rx -T fields -e udp.srcport -e rx.type 2>/dev/null |
        awk -v port="$PERF_PORT" '{ n[($1 == port ? "server->client" : "client->server") " type " $2]++ }
            END { for (k in n) print k, n[k] }' | sort)
    printf '%s\n' "$counts"
    awk '{ c[$1 " " $3] = $4 }
        END {
            bad = 0
            split("client->server server->client", dirs, " ")
            for (i in dirs) {
                if (c[dirs[i] " 1"] < 500) { print dirs[i] ": fewer than 500 DATA"; bad = 1 }
                if (c[dirs[i] " 2"] < 300) { print dirs[i] ": fewer than 300 ACK"; bad = 1 }
            }
            exit bad
        }' <<< "$counts"
}

# expert_kinds_skip_port_artefacts: an Rx datagram from UDP port 33453 carries Wireshark's
# port-derived "Possible traceroute" note, and expert-kinds.sh leaves it out (the kernel may hand a
# client such an ephemeral port; see expert-kinds.sh).
expert_kinds_skip_port_artefacts() {
    local f=$WORK/traceroute-port.pcapng kinds
    printf '0000  00 00 00 01 00 00 00 02 00 00 00 01 00 00 00 01\n0010  00 00 00 01 01 00 00 00 00 00 00 01\n' |
        text2pcap -q -4 127.0.0.1,127.0.0.1 -u "33453,$PERF_PORT" - "$f" 2>/dev/null || { echo "text2pcap failed"; return 1; }
    tshark -r "$f" -q -z expert 2>/dev/null | grep "Possible traceroute" > /dev/null ||
        { echo "tshark no longer notes the traceroute port range; the filter is moot"; return 1; }
    kinds=$("$EXPERT_KINDS_SH" -p "$PERF_PORT" "$f") || return 1
    if grep -q "traceroute" <<< "$kinds"; then echo "not left out: $kinds"; return 1; fi
    echo "left out, as it should be"
}

section_capture() {
    require_peer "capture" || return 0
    check "expert-kinds.sh leaves out the port-derived traceroute note" 30 expert_kinds_skip_port_artefacts
    if ! start_server "C rxperf server" "$WORK/c-server-cap.log" "$PEER" server -p "$PERF_PORT"; then
        fail "capture: start C server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID
    check "capture C<->C mix (tshark on lo, udp $PERF_PORT)" 90 \
        "$CAPTURE_SH" "$WORK/c2c.pcapng" "$PERF_PORT" -- "$MIX_SH" "$PERF_PORT" "$PEER" client -s 127.0.0.1 -p "$PERF_PORT"
    stop_server "$pid"
    check "capture C<->C holds Rx DATA and ACKs both ways" 60 capture_holds_rx_traffic "$WORK/c2c.pcapng"
    check "expert-info kinds of the C<->C control" 60 bash -c \
        "'$EXPERT_KINDS_SH' -c -p $PERF_PORT '$WORK/c2c.pcapng' | tee '$WORK/c2c.kinds'; echo \"(\$(wc -l < '$WORK/c2c.kinds') kinds)\""
}
