# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section rxgen: rx-gen's kitchen sink against Debian rxgen's C stubs.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh.

# ---------------------------------------------------------------- rx-gen cross-check

section_rxgen() {
    check "rx-gen kitchen sink vs Debian rxgen's C stubs, both directions (scripts/rxgen/cross-check.sh)" 300 \
        "$ROOT/scripts/rxgen/cross-check.sh"
    check "rx-afs's .xg files (BOZO, VL, PR, RXAFS, RXAFSCB) = Debian's headers (scripts/rxgen/afs-headers.sh)" 60 \
        "$ROOT/scripts/rxgen/afs-headers.sh"
}
