# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, sections packages and build: the Debian packages, the C rxperf peer and the rx4j
# rxperf jar (and the checks that the other sections need them).
# Sourced by scripts/interop.sh, not run by itself; uses common.sh.

# ---------------------------------------------------------------- packages and build

package_installed() {
    [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

ensure_packages() {
    local missing=() pkg
    for pkg in "${PACKAGES[@]}"; do
        package_installed "$pkg" || missing+=("$pkg")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        note "packages: all installed (${PACKAGES[*]})"
        return 0
    fi
    note "packages: installing ${missing[*]}"
    # --no-install-recommends: otherwise apt pulls the OpenAFS kernel module build.
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
        note "packages: install failed; running apt-get update once and retrying"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

section_packages() {
    check "packages installed" 300 ensure_packages
    check "OpenAFS version" 10 bash -c 'dpkg -s openafs-client | grep "^Version"'
}

build_peer() {
    "$INTEROP_DIR/build-peer.sh" --force    # always rebuilt here: the interop run checks the compile too
}

section_build() {
    check "build C rxperf peer" 120 build_peer
    ensure_rx4j || true
}

require_peer() {
    [[ -x $PEER ]] || { skip "$1" "C peer not built ($PEER)"; return 1; }
}

# ---------------------------------------------------------------- the rx4j rxperf jar

# The rx4j launcher builds the shaded jar with Maven on first use or when sources changed
# (scripts/rxperf); doing it here, once and with its own time limit, keeps that out of the
# server start-up waits and the per-run limits.
RX4J_BUILD_TRIED=0
build_rx4j() {
    "$RX4J_RXPERF" --version
    [[ -f $RX4J_JAR ]]
}
ensure_rx4j() {
    if [[ $RX4J_BUILD_TRIED -eq 0 ]]; then
        RX4J_BUILD_TRIED=1
        check "build rx4j rxperf jar (scripts/rxperf --version; Maven on first use)" 400 build_rx4j
    fi
    [[ -f $RX4J_JAR && -x $RX4J_RXPERF ]]
}

# rx4j_available WHAT: builds rx4j if needed; a missing jar fails WHAT (it is not skipped).
rx4j_available() {
    ensure_rx4j || { fail "$1" 0 "rx4j rxperf jar $RX4J_JAR could not be built"; return 1; }
}

# Pattern checking is used against rx4j only if its rxperf advertises --verify (help text).
rx4j_verify_flag() {
    local help
    help=$("$RX4J_RXPERF" client --help 2>&1 || true)
    if [[ $help == *--verify* ]]; then echo "--verify"; fi
}
