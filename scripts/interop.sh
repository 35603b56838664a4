#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# rx4j interop harness against real OpenAFS 1.8 programs (Debian packages) on loopback.
#
#   scripts/interop.sh [SECTION...]
#
# SECTIONs, run in this order (default: all):
#   packages  install the Debian packages if missing (openafs-client openafs-fileserver
#             libopenafs-dev tshark gcc; apt-get update only when needed)
#   build     build the C rxperf peer (scripts/interop/rxperf-peer.c) into scripts/interop/build/
#             and rx4j's rxperf jar (scripts/rxperf --version: Maven on first use)
#   c2c       C client <-> C server: send, recv, rpc with --verify, the negative --verify
#             controls (--corrupt-at must fail), rxdebug and raw DEBUG probes against the C server
#   bos       bosserver (private mount namespace, scripts/interop/bosserver.sh), the real
#             `bos listhosts` / `bos addhost`, and rx4j's client API against it (BosInteropTest)
#   rxgen     rx-gen's kitchen sink against Debian rxgen's C stubs, both directions
#             (scripts/rxgen/cross-check.sh: C server + Java client, C client + Java server)
#   db        vlserver and ptserver (openafs-dbserver) in a network namespace of scripts/netns.sh
#             (scripts/interop/dbservers.sh), the real `vos` and `pts` against them, and rx4j's
#             generated VL/PR stubs compared with what they print (DbServersInteropTest)
#   ubik      two real vlservers (10.99.0.1 in rx4j-iop-a, 10.99.0.2 in rx4j-iop-b) of one cell: after
#             their election, scripts/afsq (UbikClient) with the CellServDB listing 10.99.0.2 first
#             gets its answer there; with that vlserver stopped, from 10.99.0.1 on the next try
#   auth      an authenticated cell: bosserver, vlserver, ptserver WITHOUT -noauth in rx4j-iop-a
#             (scripts/interop/authcell.sh; asetkey add of a DES and an rxkad_krb5 key) and a throwaway
#             Kerberos realm on 127.0.0.1 (scripts/interop/kdc.sh: kinit, kvno afs/CELL); Debian's
#             bos/vos/pts -localauth with rxdebug showing security index 2 and the rxkad level; rx4j's
#             ccache, keytab and key-file readers on the real files; rx4j's rxkad BOZO/VL/PR clients
#             (-localauth and kinit credentials) against those servers and Debian's bos -localauth against
#             an rx4j BOZO server requiring rxkad, each level proven with rxdebug
#   files     a cell with a fileserver (scripts/interop/afs-cell.sh: bosserver, ptserver, vlserver, fileserver,
#             volserver, salvager in netns rx4j-afscell): rx4j's file API (AfsFilesInteropTest) and afsq's file
#             commands checked with Debian's afsio and libafscp (scripts/interop/afscp-ls.c)
#   fragments rx4j <-> rx4j through a veth pair at MTU 1500 and 9000: no IP fragments (nstat;
#             scripts/netns/fragments.sh); OpenAFS's server sends rx4j's client single packets at MTU 9000
#             (scripts/netns/openafs-packets.sh)
#   capture   tshark capture of a C<->C mix; its Wireshark expert-info kinds are the control
#   rx4j      rxdebug against an rx4j server before/during/after transfers, rx4j's rxdebug (with OpenAFS's
#             -servers/-port syntax) against Debian's under load, counters masked (rxdebug-compare.sh),
#             rxperf's stdout parsed like OpenAFS's from both implementations (output-parse.sh), the rxperf matrix
#             (rx4j client -> C server, C client -> rx4j server), captures of rx4j<->C mixes
#             compared with the control (run_rx4j_*)
#
# Every run prints its wall time. Every server started here is stopped on exit. The whole run
# is bounded by a watchdog (INTEROP_BUDGET_S, default 700 s). The rxperf servers use UDP
# INTEROP_PORT (default 7009; bosserver's 7007 is fixed). Work files (logs, captures) go to
# a temporary directory that is removed at the end unless INTEROP_KEEP=1.
# Ends with "N passed, M failed" (", K skipped" when something skipped) and exits non-zero
# if anything failed. See docs/interop.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
INTEROP_DIR=$ROOT/scripts/interop

# The harness, one file per area under scripts/interop/ (docs/interop.md "How to run"): common setup and
# teardown first, then the sections.
for part in common section-build section-c2c section-bos rx4j-bos section-rxgen section-db section-auth \
        section-fragments section-capture section-files rx4j-rxdebug rx4j-matrix rx4j-capture; do
    # The parts are named by the loop, so shellcheck cannot follow them.
    # shellcheck source=/dev/null
    source "$INTEROP_DIR/$part.sh"
done
unset part

section_rx4j() {
    run_rx4j_rxdebug
    run_rx4j_matrix
    run_rx4j_capture
    # run_rx4j_bos runs inside section_bos, while bosserver is up.
}

# ---------------------------------------------------------------- main

main() {
    local sections=("$@") section start
    [[ ${#sections[@]} -gt 0 ]] || sections=(packages build c2c bos rxgen db ubik auth files fragments capture rx4j)
    for section in "${sections[@]}"; do
        case $section in
            packages|build|c2c|bos|rxgen|db|ubik|auth|files|fragments|capture|rx4j) ;;
            *) echo "usage: $0 [packages|build|c2c|bos|rxgen|db|ubik|auth|files|fragments|capture|rx4j]..." >&2
               exit 2 ;;
        esac
    done
    start_watchdog
    start=$(now_ns)
    note "rx4j interop against OpenAFS; work files in $WORK"
    for section in "${sections[@]}"; do
        note "== $section"
        "section_$section"
    done
    note "total time $(elapsed_s "$start") s"
    print_summary
    [[ $FAILED -eq 0 ]]
}

# Sourcing the file (for testing its functions) does not run it.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
