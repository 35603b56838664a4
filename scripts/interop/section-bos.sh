# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section bos: bosserver (scripts/interop/bosserver.sh) and the real bos client;
# rx4j-bos.sh runs rx4j against it meanwhile.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh and rx4j-bos.sh.

# ---------------------------------------------------------------- bosserver

bos_listhosts_expect() {
    local out
    out=$(bos listhosts -server 127.0.0.1 -noauth 2>&1) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"
    local want
    for want in "$@"; do
        grep -qxF "$want" <<< "$out" || { echo "missing line: '$want'"; return 1; }
    done
}

section_bos() {
    if udp_port_taken 7007; then
        fail "bosserver: UDP 7007 free" 0 "$(ss -Hlunp 'sport = :7007' | tr -s ' ')"
        return 0
    fi
    BOSSERVER_STARTED=1
    check "bosserver start (private mount namespace)" 30 "$BOSSERVER_SH" start
    check "bos listhosts (real client)" 60 bos_listhosts_expect "Cell name is $CELL" "    Host 1 is localhost"
    check "bos addhost -host 10.9.8.7" 60 bos addhost -server 127.0.0.1 -host 10.9.8.7 -noauth
    check "bos listhosts shows the added host" 60 bos_listhosts_expect \
        "Cell name is $CELL" "    Host 1 is localhost" "    Host 2 is 10.9.8.7"
    run_rx4j_bos
    check "bosserver stop and cleanup" 30 "$BOSSERVER_SH" stop
    BOSSERVER_STARTED=0
}
