#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Checks that the build is reproducible (docs/releasing.md "Reproducible jars"): clones the committed HEAD twice into
# fresh directories with different paths, runs `mvn -B -q -DskipTests package` in both (at the same time: each is
# mostly one core), and compares the SHA-256 of every jar under */target/ (thin, sources, javadoc, tests and shaded
# jars). Exit 0 when all are byte-identical, 1 with the differing jars listed otherwise. The second build runs in
# another time zone (UTC+14) and with another umask, so a jar entry stamped with the build's clock (zip entry times
# are local time) or with a file's mode differs even when both builds run in the same seconds.
#
#   scripts/reproducible.sh                 both builds, then the comparison
#   RX4J_MVN_ARGS="-o" scripts/reproducible.sh     extra Maven arguments (here: offline)
#   RX4J_KEEP=1 scripts/reproducible.sh     keeps the two clones (printed) to diff a jar by hand
#
# Uncommitted changes are not built: the clones take HEAD. Uses the local Maven repository as it is and installs
# nothing into it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit=$(git -C "$root" rev-parse HEAD)
if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]]; then
  echo "reproducible: uncommitted changes are not part of the check (it builds HEAD, $commit)" >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rx4j-repro.XXXXXX")
if [[ "${RX4J_KEEP:-0}" != "1" ]]; then
  trap 'rm -rf "$work"' EXIT
fi
read -r -a mvn_args <<< "${RX4J_MVN_ARGS:-}"

build() { # $1: clone directory (its log goes to $1.log), $2: time zone, $3: umask
  (
    umask "$3"
    export TZ="$2"
    git clone -q --no-checkout "$root" "$1"
    git -C "$1" checkout -q --detach "$commit"
    cd "$1" && mvn -B -q -DskipTests ${mvn_args[@]+"${mvn_args[@]}"} package
  ) > "$1.log" 2>&1
}

start=$(date +%s)
# Different path lengths too, so an absolute path that leaks into a jar shows up.
build "$work/a" UTC 0022 & pid_a=$!
build "$work/second-clone" Pacific/Kiritimati 0002 & pid_b=$!
failed=0
wait "$pid_a" || { echo "reproducible: build a failed:" >&2; tail -30 "$work/a.log" >&2; failed=1; }
wait "$pid_b" || { echo "reproducible: build b failed:" >&2; tail -30 "$work/second-clone.log" >&2; failed=1; }
(( failed == 0 )) || exit 1

sums() { # $1: clone directory; prints "sha256  module/target/file.jar" sorted by path
  (cd "$1" && find . -maxdepth 3 -path '*/target/*' -name '*.jar' -type f | sed 's|^\./||' | sort | xargs sha256sum)
}
sums "$work/a" > "$work/a.sha256"
sums "$work/second-clone" > "$work/b.sha256"
jars=$(wc -l < "$work/a.sha256")
if [[ "$jars" -eq 0 ]]; then
  echo "reproducible: the build made no jars" >&2
  exit 1
fi
if ! diff -u "$work/a.sha256" "$work/b.sha256" > "$work/diff.txt"; then
  echo "reproducible: jars differ between two builds of $commit:" >&2
  grep '^[-+][0-9a-f]' "$work/diff.txt" >&2
  [[ "${RX4J_KEEP:-0}" == "1" ]] && echo "reproducible: clones kept in $work" >&2
  exit 1
fi
echo "reproducible: $jars jars byte-identical in two clean builds of $commit ($(( $(date +%s) - start )) s)"
[[ "${RX4J_KEEP:-0}" == "1" ]] && echo "reproducible: clones kept in $work"
exit 0
