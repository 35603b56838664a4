# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section rx4j: the rxperf matrix, rx4j client -> C server and C client -> rx4j server.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh and section-build.sh. Ends with the rxperf
# runs at rxkad crypt level of rx4j-rxkad.sh (run_rx4j_rxkad).

# shellcheck source=rx4j-rxkad.sh
source "$INTEROP_DIR/rx4j-rxkad.sh"

# ---- the rxperf matrix (docs/interop.md "The rxperf matrix")

# matrix_client_run DIRECTION LABEL CLIENT...: one rxperf_client_run; on success appends
# "DIRECTION<TAB>LABEL<TAB>msec<TAB>rate" to $WORK/matrix.tsv for the table printed at the end.
matrix_client_run() {
    local direction=$1 label=$2 out status=0 line
    shift 2
    out=$(rxperf_client_run "$@") || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 0 ]] || return 1
    line=$(printf '%s\n' "$out" | grep -E "$RESULT_LINE_RE|$RPC_LINE_RE" | head -1)
    printf '%s\t%s\t%s\t%s\n' "$direction" "$label" \
        "$(sed -E 's/.*:\t *([0-9]+) msec.*/\1/' <<< "$line")" "$(sed -E 's/.*\[(.*)\]$/\1/' <<< "$line")" \
        >> "$WORK/matrix.tsv"
}

# The runs, one factor at a time against the defaults (send/recv -b 1048576, both sides' default
# windows and jumbograms). Every run moves at most 32 MiB: -b sweeps move 32 MiB, the factor runs
# 8 MiB each way, rpc 2000 x 34 bytes and 20 x 200,000 bytes.
MATRIX_BASE_RUNS=(
    "-c send -b 32768 -T 1024" "-c send -b 131072 -T 256" "-c send -b 1048576 -T 32"
    "-c recv -b 32768 -T 1024" "-c recv -b 131072 -T 256" "-c recv -b 1048576 -T 32"
    "-c rpc -S 4 -R 30 -T 2000" "-c rpc -S 100000 -R 100000 -T 20"
    "-c send -b 1048576 -T 8 -j" "-c recv -b 1048576 -T 8 -j"
    "-c send -b 1048576 -T 4 -t 4"
)
MATRIX_PAIR=("-c send -b 1048576 -T 8" "-c recv -b 1048576 -T 8")
MATRIX_WINDOWS=(16 32 64 255)

# matrix_server_set DIRECTION SERVER_FLAGS CLIENT_FLAGS RUN...: starts the direction's server with
# SERVER_FLAGS (plus --verify), runs each RUN (plus CLIENT_FLAGS and --verify) from the direction's
# client, and stops the server. One server serves all RUNs.
matrix_server_set() {
    local direction=$1 server_flags=$2 client_flags=$3 pid run label server client
    shift 3
    if [[ $direction == "rx4j client -> C server" ]]; then
        server=("$PEER" server) client=("$RX4J_RXPERF" client)
    else
        server=("$RX4J_RXPERF" server) client=("$PEER" client)
    fi
    # shellcheck disable=SC2086  # the flag strings hold several words on purpose
    if ! start_server "$direction server $server_flags" "$WORK/matrix-server.log" \
            "${server[@]}" -p "$PERF_PORT" $server_flags --verify; then
        fail "$direction: start server${server_flags:+ with $server_flags}" 0 "see above"
        return 0
    fi
    pid=$SERVER_PID
    for run in "$@"; do
        label="$run${client_flags:+ $client_flags}${server_flags:+ (server $server_flags)}"
        # shellcheck disable=SC2086
        check "$direction: $label --verify" 90 matrix_client_run "$direction" "$label" \
            "${client[@]}" -s 127.0.0.1 -p "$PERF_PORT" $run $client_flags --verify
    done
    stop_server "$pid"
}

# rx4j client -> C server and C client -> rx4j server, both with --verify on both sides.
run_rx4j_matrix() {
    rx4j_available "rx4j: rxperf matrix (rx4j client -> C server, C client -> rx4j server)" || return 0
    require_peer "rx4j: rxperf matrix" || return 0
    if [[ -z $(rx4j_verify_flag) ]]; then
        fail "rx4j: rxperf matrix" 0 "scripts/rxperf client --help does not offer --verify"
        return 0
    fi
    local direction w
    : > "$WORK/matrix.tsv"
    for direction in "rx4j client -> C server" "C client -> rx4j server"; do
        if [[ $direction == "rx4j client -> C server" ]]; then
            # rx4j hard-ACK-only is a client flag here: no server restart needed.
            matrix_server_set "$direction" "" "" "${MATRIX_BASE_RUNS[@]}"
            matrix_server_set "$direction" "" "--hard-acks-only" "${MATRIX_PAIR[@]}"
        else
            matrix_server_set "$direction" "" "" "${MATRIX_BASE_RUNS[@]}"
            matrix_server_set "$direction" "--hard-acks-only" "" "${MATRIX_PAIR[@]}"
        fi
        matrix_server_set "$direction" "-j" "" "${MATRIX_PAIR[@]}"
        for w in "${MATRIX_WINDOWS[@]}"; do
            matrix_server_set "$direction" "-W $w" "-W $w" "${MATRIX_PAIR[@]}"
        done
    done
    note "rxperf matrix (direction | client flags (server flags) | msec | rate):"
    awk -F'\t' '{ printf "    %-24s | %-52s | %7s | %s\n", $1, $2, $3, $4 }' "$WORK/matrix.tsv"
    run_rx4j_rxkad
}
