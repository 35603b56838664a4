# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Sourced by scripts/bench/ab-jars.sh, scripts/bench/ab-mixed.sh and scripts/bench/afs-files.sh (which set ROOT):
# sets LAUNCHER_FLAGS to the JVM flags of the launcher scripts/${LAUNCHER:-rxperf} (its JVM_FLAGS line; rxperf's are
# those it gives its clients), read from the launcher so that jars timed outside it run with what users get and the
# copies cannot drift apart. Exits 2 if the launcher has no such line.

LAUNCHER_FLAGS=$(sed -n 's/^JVM_FLAGS="\(.*\)"$/\1/p' "$ROOT/scripts/${LAUNCHER:-rxperf}")
if [[ -z $LAUNCHER_FLAGS ]]; then
    echo "${0##*/}: no JVM_FLAGS line in $ROOT/scripts/${LAUNCHER:-rxperf}" >&2
    exit 2
fi
