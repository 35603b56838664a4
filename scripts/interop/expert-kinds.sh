#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Lists the kinds of Wireshark expert infos in a capture, one kind a line, sorted:
#
#   expert-kinds.sh [-c] [-p PORT]... FILE
#
# A kind is "Severity | Group | Protocol | Summary", e.g.
#   Error | Malformed | AFS (RX) | Malformed Packet (Exception occurred)
# With -c each line starts with the number of packets of that kind and a tab. -p PORT decodes
# UDP PORT as Rx (Wireshark does so by itself only for 7000-7009 and 7021).
# No output means no expert infos at all. Two captures (rx4j<->C against C<->C) compare with
#   diff <(expert-kinds.sh a.pcapng) <(expert-kinds.sh b.pcapng)
#
# Parses `tshark -r FILE -q -z expert` (Wireshark 4.0): per severity a header "Errors (N)",
# "Warns (N)", "Notes (N)", "Chats (N)" or "Comments (N)", a "====" rule, a column header
# "Frequency Group Protocol Summary", then rows "<count>  <group>  <protocol>  <summary>" where
# the protocol is right-aligned and may contain one space ("AFS (RX)"), and columns are separated
# by at least two spaces.
#
# Left out: "Possible traceroute: hop #N, attempt #M". Wireshark's UDP dissector adds it to any
# datagram whose source or destination port is in 33435-33464 (LBL traceroute's probe ports), so it
# says which ephemeral port the kernel handed a client, not anything about the traffic; a C client
# that drew such a port once failed the rx4j-server comparison in CI.
set -euo pipefail

counts=0
decode_as=()
while [[ $# -gt 1 ]]; do
    case $1 in
        -c) counts=1; shift ;;
        -p) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "expert-kinds.sh: -p needs a port number" >&2; exit 2; }
            decode_as+=(-d "udp.port==$2,rx"); shift 2 ;;
        *) break ;;
    esac
done
[[ $# -eq 1 ]] || { echo "usage: $0 [-c] [-p PORT]... FILE" >&2; exit 2; }
[[ -r $1 ]] || { echo "expert-kinds.sh: cannot read $1" >&2; exit 1; }
command -v tshark >/dev/null || { echo "expert-kinds.sh: tshark not found" >&2; exit 1; }

report=$(tshark -r "$1" "${decode_as[@]}" -q -z expert 2>/dev/null) \
    || { echo "expert-kinds.sh: tshark could not read $1" >&2; exit 1; }

printf '%s\n' "$report" | awk -v counts="$counts" '
    /^(Errors|Warns|Notes|Chats|Comments) \([0-9]+\)$/ {
        severity = $1
        sub(/s$/, "", severity)           # Errors -> Error, Warns -> Warn ...
        next
    }
    /^=+$/ || /^ *Frequency +Group +Protocol +Summary/ || /^ *$/ { next }
    severity != "" && /^ *[0-9]+ / {
        line = $0
        sub(/^ +/, "", line)
        n = split(line, col, /  +/)      # columns are separated by 2+ spaces
        if (n < 4) { print "expert-kinds.sh: cannot parse: " $0 > "/dev/stderr"; bad = 1; next }
        summary = col[4]
        for (i = 5; i <= n; i++) summary = summary "  " col[i]
        if (summary ~ /^Possible traceroute: hop #[0-9]+, attempt #[0-9]+$/) next
        kind = severity " | " col[2] " | " col[3] " | " summary
        total[kind] += col[1]
        next
    }
    { print "expert-kinds.sh: unexpected line: " $0 > "/dev/stderr"; bad = 1 }
    END {
        for (kind in total) {
            if (counts) printf "%d\t%s\n", total[kind], kind
            else print kind
        }
        exit bad
    }' | LC_ALL=C sort -t $'\t' -k2
