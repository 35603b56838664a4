# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Sourced by scripts/bench/ab-jars.sh and scripts/bench/ab-mixed.sh (which set ROOT): sets LAUNCHER_FLAGS to the JVM
# flags scripts/rxperf gives its clients (its JVM_FLAGS line), read from the launcher so that jars timed outside it
# run with what users get and the copies cannot drift apart. Exits 2 if the launcher has no such line.

LAUNCHER_FLAGS=$(sed -n 's/^JVM_FLAGS="\(.*\)"$/\1/p' "$ROOT/scripts/rxperf")
if [[ -z $LAUNCHER_FLAGS ]]; then
    echo "${0##*/}: no JVM_FLAGS line in $ROOT/scripts/rxperf" >&2
    exit 2
fi
