#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# README's first command as a new user meets it: in a fresh clone of this checkout's HEAD, with a local Maven
# repository that holds no org.rx4j artifacts (a copy of this machine's, org/rx4j removed), `scripts/rxperf loopback`
# must build and print its SEND line, and the other launchers (afsq, rxdebug, relay) must build and answer --help.
# A launcher that needs another module's test jar, or anything only an earlier `mvn install` left behind, fails here.
#
#   scripts/front-door.sh            # uses ~/.m2/repository (or $RX4J_M2_REPO) as the source of the copy
#
# Third-party artifacts missing from that repository are downloaded as on a fresh machine. Prints the build time of
# the first command; exits non-zero on the first failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source_repo="${RX4J_M2_REPO:-$HOME/.m2/repository}"
work="$(mktemp -d "${TMPDIR:-/tmp}/rx4j-front-door.XXXXXX")"
trap 'rm -rf "$work"' EXIT

git clone -q "$root" "$work/clone"
mkdir -p "$work/m2"
if [[ -d $source_repo ]]; then
    # A copy, not hard links: Maven rewrites some repository files in place.
    cp -a "$source_repo" "$work/m2/repository"
fi
rm -rf "$work/m2/repository/org/rx4j"
export MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$work/m2/repository"

cd "$work/clone"
start=$(date +%s)
out="$(scripts/rxperf loopback -c send -b 1048576 -T 100 2>&1)" || {
    echo "front-door: README's first command failed:" >&2
    echo "$out" >&2
    exit 1
}
seconds=$(( $(date +%s) - start ))
line="$(grep -E '^SEND: threads' <<< "$out")" || {
    echo "front-door: no SEND result line from scripts/rxperf loopback:" >&2
    echo "$out" >&2
    exit 1
}
echo "front-door: scripts/rxperf loopback -c send -b 1048576 -T 100 on a fresh clone: ${seconds} s (build + run)"
echo "front-door: $line"
for tool in afsq rxdebug relay; do
    if ! help="$(scripts/$tool --help 2>&1)" || ! grep -q -i 'usage' <<< "$help"; then
        echo "front-door: scripts/$tool --help failed on the fresh clone:" >&2
        echo "$help" >&2
        exit 1
    fi
    echo "front-door: scripts/$tool --help ok"
done
if [[ -d $work/m2/repository/org/rx4j ]]; then
    # The launchers build with `package`, so nothing of rx4j may have been installed on the way.
    echo "front-door: the launchers installed rx4j artifacts into the local repository:" >&2
    find "$work/m2/repository/org/rx4j" -maxdepth 2 >&2
    exit 1
fi
echo "front-door: passed"
