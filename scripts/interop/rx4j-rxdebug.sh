# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section rx4j: Debian rxdebug against an rx4j rxperf server before, during and after
# two C clients' transfers, and rx4j's own rxdebug (scripts/rxdebug) compared with Debian's (idle, and under load with
# OpenAFS's -servers/-port syntax: rxdebug-compare.sh); rxperf's stdout parsed like OpenAFS's (output-parse.sh).
# Sourced by scripts/interop.sh, not run by itself; uses common.sh, section-build.sh and section-c2c.sh (the
# DEBUG probes).

# ---- rxdebug against rx4j

# rxdebug_stat FILE KEY: one counter from `rxdebug -rxstats -noconns` output. KEY: calls (the
# "calls: N" of GETSTATS, calls executed by the server), read_data, read_ack, sent_data, sent_ack
# (the "packets read:"/"packets sent:" rows of RXSTATS), rtt_samples (0 when rxdebug prints no
# "Average rtt" line). Prints nothing when the line is missing.
rxdebug_stat() {
    awk -v key="$2" '
        /^Free packets:/ && key == "calls" {
            for (i = 1; i < NF; i++) if ($i == "calls:") { v = $(i + 1); sub(/,$/, "", v); print v; exit }
        }
        /^ *packets read: data / && key == "read_data" { print $4; exit }
        /^ *packets read: data / && key == "read_ack" { print $6; exit }
        /^ *packets sent: data / && key == "sent_data" { print $4; exit }
        /^ *packets sent: data / && key == "sent_ack" { print $6; exit }
        /^ *Average rtt is / && key == "rtt_samples" { print $(NF - 1); found = 1; exit }
        END { if (key == "rtt_samples" && !found) print 0 }' "$1"
}

# rxdebug_conns FILE: the connections of `rxdebug -allconnections` output, one a line:
#   PORT CUID server|client CALLNUMBER_SUM ACTIVE_CALLS
# (CALLNUMBER_SUM adds the "# N" of the four channels: the calls the connection has carried.)
rxdebug_conns() {
    awk '
        function flush() { if (cuid != "") printf "%s %s %s %d %d\n", port, cuid, kind, sum, active }
        /^Connection from host / {
            flush(); port = $6; sub(/,$/, "", port); cuid = $8; kind = "?"; sum = 0; active = 0; next
        }
        cuid != "" && / server conn/ { kind = "server"; next }
        cuid != "" && / client conn/ { kind = "client"; next }
        cuid != "" && /^ +call [0-3]: # / {
            n = $4; sub(/,$/, "", n); sum += n
            if ($0 ~ /state active/) active++
            next
        }
        END { flush() }' "$1"
}

# rxdebug_peers FILE: the peers of `rxdebug -peers -long` output, one a line:
#   PORT BYTES_SENT BYTES_RECEIVED
rxdebug_peers() {
    awk '
        function flush() { if (port != "") printf "%s %.0f %.0f\n", port, sent, received }
        /^Peer at host / { flush(); port = $NF; sent = 0; received = 0; next }
        /^[ \t]*bytes sent high / { sent = $4 * 4294967296 + $6; next }
        /^[ \t]*bytes received high / { received = $4 * 4294967296 + $6; next }
        END { flush() }' "$1"
}

# The two transfers rxdebug watches: client A sends 32 MiB over 2 connections (8 threads, 4 calls
# each), client B receives 32 MiB in 32 calls on 1 connection. Both are C clients with --verify.
RXDBG_A=(-c send -b 1048576 -T 4 -t 8 --verify)
RXDBG_B=(-c recv -b 1048576 -T 32 --verify)
RXDBG_BYTES=33554432

# During the transfers: polls `rxdebug -allconnections` until the rx4j server lists client A's
# two connections and client B's one, each with an active call; then checks `-peers -long` and
# that each client's own Rx (rxdebug on its port) lists the same Cuids. Leaves the files and the
# client ports in $WORK/rxdbg for rx4j_rxdebug_after.
rx4j_rxdebug_during() {
    local d=$WORK/rxdbg a b status_a=0 status_b=0 seen=0 conns port dups=0
    mkdir -p "$d"
    "$PEER" client -s 127.0.0.1 -p "$PERF_PORT" "${RXDBG_A[@]}" > "$d/a.log" 2>&1 &
    a=$!
    "$PEER" client -s 127.0.0.1 -p "$PERF_PORT" "${RXDBG_B[@]}" > "$d/b.log" 2>&1 &
    b=$!
    while kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null; do
        rxdebug 127.0.0.1 "$PERF_PORT" -allconnections > "$d/during.txt" 2>&1 || true
        rxdebug_conns "$d/during.txt" > "$d/during.conns"
        if [[ $(cut -d' ' -f2 "$d/during.conns" | sort | uniq -d | wc -l) -gt 0 ]]; then
            dups=$((dups + 1))
            cp "$d/during.txt" "$d/during-dup.$dups.txt"
        fi
        conns=$(awk '$3 == "server" && $5 > 0' "$d/during.conns" | wc -l)
        # rxdebug asks for the connections one index at a time, so a listing taken while a client
        # opens a connection is no snapshot (OpenAFS walks its hash table by index the same way):
        # rx4j once listed one Cuid at two indexes and missed another. Only a listing with three
        # distinct Cuids counts; the listing after the transfers must be exact.
        if [[ $conns -eq 3 ]] && [[ $(cut -d' ' -f1 "$d/during.conns" | sort -u | wc -l) -eq 2 ]] &&
           [[ $(cut -d' ' -f2 "$d/during.conns" | sort -u | wc -l) -eq 3 ]]; then
            rxdebug 127.0.0.1 "$PERF_PORT" -peers -long > "$d/during-peers.txt" 2>&1 || true
            for port in $(cut -d' ' -f1 "$d/during.conns" | sort -u); do
                rxdebug 127.0.0.1 "$port" -allconnections > "$d/client-$port.txt" 2>&1 || true
            done
            seen=1
            break
        fi
        sleep 0.02
    done
    wait "$a" || status_a=$?
    wait "$b" || status_b=$?
    cat "$d/a.log" "$d/b.log"
    [[ $status_a -eq 0 && $status_b -eq 0 ]] || { echo "client exit status A $status_a, B $status_b"; return 1; }
    if [[ $seen -eq 0 ]]; then
        echo "rxdebug never saw 3 connections with active calls from 2 client ports while the clients ran; last listing:"
        cat "$d/during.txt"
        return 1
    fi
    [[ $dups -eq 0 ]] || echo "($dups listing(s) during the transfer showed one Cuid twice: not snapshots, skipped)"
    echo "rx4j server during the transfer (port cuid kind callsum active):"
    sed 's/^/  /' "$d/during.conns"
    # The client A port is the one with two connections.
    awk '{ n[$1]++ } END { for (p in n) if (n[p] == 2) print p }' "$d/during.conns" > "$d/port-a"
    awk '{ n[$1]++ } END { for (p in n) if (n[p] == 1) print p }' "$d/during.conns" > "$d/port-b"
    [[ -s $d/port-a && -s $d/port-b ]] || { echo "expected 2 connections from one port and 1 from the other"; return 1; }
    local ok=0 want got
    for port in $(cat "$d/port-a" "$d/port-b"); do
        want=$(awk -v p="$port" '$1 == p { print $2 }' "$d/during.conns" | sort)
        got=$(rxdebug_conns "$d/client-$port.txt" | awk '$3 == "client" && $1 == '"$PERF_PORT"' { print $2 }' | sort)
        if [[ $want == "$got" ]]; then
            echo "client on port $port lists the same Cuids: $(echo $got)"
        else
            echo "client on port $port lists Cuids '$(echo $got)', the rx4j server '$(echo $want)'"
            ok=1
        fi
    done
    rxdebug_peers "$d/during-peers.txt" > "$d/during.peers"
    echo "rx4j server peers during the transfer (port bytes-sent bytes-received):"
    sed 's/^/  /' "$d/during.peers"
    if [[ $(cut -d' ' -f1 "$d/during.peers" | sort | tr '\n' ' ') != "$(cat "$d/port-a" "$d/port-b" | sort | tr '\n' ' ')" ]]; then
        echo "expected exactly one peer entry per client port"
        ok=1
    fi
    return $ok
}

# After the transfers: the same connections, all calls finished, call numbers adding up to the
# calls made; one peer per client with the bytes moved; counters that moved by the traffic.
rx4j_rxdebug_after() {
    local d=$WORK/rxdbg ok=0 pa pb v
    pa=$(cat "$d/port-a"); pb=$(cat "$d/port-b")
    rxdebug 127.0.0.1 "$PERF_PORT" -allconnections > "$d/after.txt" 2>&1
    rxdebug 127.0.0.1 "$PERF_PORT" -peers -long > "$d/after-peers.txt" 2>&1
    rxdebug 127.0.0.1 "$PERF_PORT" -rxstats -noconns > "$d/after-stats.txt" 2>&1
    rxdebug_conns "$d/after.txt" > "$d/after.conns"
    rxdebug_peers "$d/after-peers.txt" > "$d/after.peers"
    echo "connections (port cuid kind callsum active):"; sed 's/^/  /' "$d/after.conns"
    echo "peers (port bytes-sent bytes-received):"; sed 's/^/  /' "$d/after.peers"
    # One entry per connection, the same Cuids as during the transfer, no call active.
    if ! diff <(cut -d' ' -f1-3 "$d/during.conns" | sort) <(cut -d' ' -f1-3 "$d/after.conns" | sort) > /dev/null; then
        echo "the connection list changed:"; diff <(sort "$d/during.conns") <(sort "$d/after.conns") || true; ok=1
    fi
    if [[ $(cut -d' ' -f2 "$d/after.conns" | sort -u | wc -l) -ne 3 ]]; then echo "expected 3 distinct Cuids"; ok=1; fi
    if awk '$5 != 0 { bad = 1 } END { exit !bad }' "$d/after.conns"; then echo "a call is still active"; ok=1; fi
    # Client A: 2 connections x 4 threads x 4 calls; client B: 32 calls on one connection.
    v=$(awk -v p="$pa" '$1 == p { printf "%s ", $4 }' "$d/after.conns")
    [[ $v == "16 16 " ]] || { echo "client A's connections carried '$v' calls, expected 16 each"; ok=1; }
    v=$(awk -v p="$pb" '$1 == p { printf "%s ", $4 }' "$d/after.conns")
    [[ $v == "32 " ]] || { echo "client B's connection carried '$v' calls, expected 32"; ok=1; }
    # One peer per client, with at least the payload moved.
    if [[ $(cut -d' ' -f1 "$d/after.peers" | sort | tr '\n' ' ') != "$(printf '%s\n' "$pa" "$pb" | sort | tr '\n' ' ')" ]]; then
        echo "expected exactly one peer entry per client port ($pa, $pb)"; ok=1
    fi
    v=$(awk -v p="$pa" '$1 == p { print $3 }' "$d/after.peers")
    (( ${v:-0} >= RXDBG_BYTES )) || { echo "peer $pa: bytes received ${v:-?} < $RXDBG_BYTES sent by client A"; ok=1; }
    v=$(awk -v p="$pb" '$1 == p { print $2 }' "$d/after.peers")
    (( ${v:-0} >= RXDBG_BYTES )) || { echo "peer $pb: bytes sent ${v:-?} < $RXDBG_BYTES received by client B"; ok=1; }
    # Counters against the snapshot taken before the transfers.
    local key before after
    for key in calls read_data sent_data read_ack sent_ack rtt_samples; do
        before=$(rxdebug_stat "$d/before-stats.txt" "$key"); after=$(rxdebug_stat "$d/after-stats.txt" "$key")
        echo "rxstats $key: before ${before:-?}, after ${after:-?}"
        [[ -n $before && -n $after ]] || { echo "rxstats $key missing"; ok=1; continue; }
        case $key in
            # 32 + 32 calls executed by the server.
            calls) (( after - before == 64 )) || { echo "calls moved by $((after - before)), expected 64"; ok=1; } ;;
            # 32 MiB each way is at least 32 MiB / 65507 (the largest packet over IPv4 loopback) datagrams.
            read_data|sent_data) (( after - before >= RXDBG_BYTES / 65507 )) || { echo "$key moved by only $((after - before))"; ok=1; } ;;
            *) (( after > before )) || { echo "$key did not move"; ok=1; } ;;
        esac
    done
    return $ok
}

rx4j_rxdebug_before() {
    rxdebug 127.0.0.1 "$PERF_PORT" -rxstats -noconns > "$WORK/rxdbg/before-stats.txt" 2>&1
    cat "$WORK/rxdbg/before-stats.txt"
    grep -q '^rx stats: ' "$WORK/rxdbg/before-stats.txt"
}

# rxdebug (the real OpenAFS client of the DEBUG/VERSION protocol) against an rx4j rxperf server
# before, during and after two C clients' transfers.
run_rx4j_rxdebug() {
    rx4j_available "rx4j: rxdebug against the rx4j rxperf server" || return 0
    require_peer "rx4j: rxdebug against the rx4j rxperf server" || return 0
    if ! start_server "rx4j rxperf server" "$WORK/rx4j-server-dbg.log" "$RX4J_RXPERF" server -p "$PERF_PORT" --verify; then
        fail "rx4j: start rx4j rxperf server" 0 "see above"
        return 0
    fi
    local pid=$SERVER_PID
    mkdir -p "$WORK/rxdbg"
    check "rx4j: rxdebug -version prints the rx4j version string" 40 bash -c \
        "rxdebug 127.0.0.1 $PERF_PORT -version | tee /dev/stderr | grep -Eq '^AFS version: rx4j [0-9]+\.[0-9]+'"
    check "rx4j: DEBUG of unknown type 99 gets the {-8, -8} reply" 30 debug_probe_unknown_type
    check "rx4j: DEBUG without CLIENT_INITIATED gets no reply" 30 debug_probe_not_client_initiated
    check "rx4j: rxdebug -rxstats -noconns before traffic" 40 rx4j_rxdebug_before
    check "rx4j: rxdebug during 2 transfers (send 32 MiB 8 threads, recv 32 MiB): conns, Cuids, peers" 90 rx4j_rxdebug_during
    if [[ -s $WORK/rxdbg/port-a ]]; then
        check "rx4j: rxdebug after: conns idle with their call counts, one peer each, counters moved" 60 rx4j_rxdebug_after
    else
        fail "rx4j: rxdebug after the transfers" 0 "no connections seen during the transfers"
    fi
    check "rx4j's own rxdebug (scripts/rxdebug) = Debian rxdebug against the same idle rx4j server" 180 \
        own_rxdebug_matches
    stop_server "$pid"
    check "rx4j's rxdebug (-servers/-port) = Debian rxdebug against an rx4j server during a send, counters masked" 120 \
        "$INTEROP_DIR/rxdebug-compare.sh" "$((PERF_PORT + 20))"
    check "OpenAFS's output lines parsed with the same code from the C peer and rx4j (tail -1; -D rx stats:)" 180 \
        "$INTEROP_DIR/output-parse.sh" "$((PERF_PORT + 10))"
}

# rx4j's rxdebug (rx-afs-tools, scripts/rxdebug) and Debian's, one after the other against the same rx4j
# rxperf server after the transfers (idle): -version and -allconnections must be byte-identical; the
# option mixes whose counters move between two runs (every rxdebug request counts as a DEBUG packet
# read; RTTs; the peer timeout, which Debian's rxdebug prints as 0.000) are compared with every number
# replaced by N, i.e. the same lines in the same order and shape.
own_rxdebug_matches() {
    local opts mine theirs status=0
    "$ROOT/scripts/rxdebug" 127.0.0.1 "$PERF_PORT" -version > /dev/null    # builds the jar on first use
    for opts in "-version" "-allconnections"; do
        # shellcheck disable=SC2086  # the options are several words on purpose
        mine=$("$ROOT/scripts/rxdebug" 127.0.0.1 "$PERF_PORT" $opts 2>&1) || status=1
        # shellcheck disable=SC2086
        theirs=$(rxdebug 127.0.0.1 "$PERF_PORT" $opts 2>&1) || status=1
        if [[ $mine == "$theirs" ]]; then
            echo "identical: rxdebug $opts ($(printf '%s\n' "$mine" | wc -l) lines)"
        else
            echo "differ: rxdebug $opts"; diff <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs"); status=1
        fi
    done
    for opts in "" "-noconns" "-rxstats -noconns" "-peers -noconns" "-rxstats -peers -allconnections"; do
        # shellcheck disable=SC2086
        mine=$("$ROOT/scripts/rxdebug" 127.0.0.1 "$PERF_PORT" $opts 2>&1 | sed -E 's/[0-9]+(\.[0-9]+)?/N/g')
        # shellcheck disable=SC2086
        theirs=$(rxdebug 127.0.0.1 "$PERF_PORT" $opts 2>&1 | sed -E 's/[0-9]+(\.[0-9]+)?/N/g')
        if [[ $mine == "$theirs" ]]; then
            echo "same lines (numbers aside): rxdebug $opts ($(printf '%s\n' "$mine" | wc -l) lines)"
        else
            echo "differ: rxdebug $opts"; diff <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs"); status=1
        fi
    done
    return "$status"
}
