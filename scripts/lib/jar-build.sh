# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Sourced by the launchers (scripts/rxperf, scripts/relay, scripts/afsq): builds a module's shaded jar when it is
# missing or older than its sources. One build at a time per checkout: `rxperf server` and `rxperf client` started
# together on a fresh clone would otherwise run two Maven builds into the same target/ directories and break both.
# The second launcher waits on the lock, then finds the jar fresh and runs it.
#
#   ensure_jar LABEL JAR MAVEN_ARGS -- SOURCE_PATHS...
#     LABEL        the tool the "building" line on stderr names (e.g. rxperf, rxdebug)
#     JAR          the jar to build
#     MAVEN_ARGS   one string of module flags for mvn package, e.g. "-pl rx-perf -am"
#     SOURCE_PATHS files and directories whose change makes the jar stale
# Build output goes to stderr. Needs flock (util-linux); without it the build runs unlocked.
# The build makes only what the tool runs: -Dmaven.test.skip=true leaves the tests uncompiled (-DskipTests would still
# compile them: some 28,000 lines of rx-core's and rx-perf's tests, next to 35,000 of main code, for rxperf), and
# -Dmaven.javadoc.skip=true switches off the parent pom's docs-jars profile: no javadoc or sources jars, and those
# plugins need not be in the local repository.

# jar_is_stale JAR PATHS...: true when JAR is missing or any file under PATHS is newer.
jar_is_stale() {
    local jar=$1
    shift
    [[ ! -f $jar ]] && return 0
    [[ -n $(find "$@" -newer "$jar" -print -quit 2>/dev/null || true) ]]
}

ensure_jar() {
    local label=$1 jar=$2 mvn_args=$3 repo
    shift 3
    [[ ${1:-} == -- ]] && shift
    jar_is_stale "$jar" "$@" || return 0
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    local lock
    lock="${TMPDIR:-/tmp}/rx4j-build-$(printf '%s' "$repo" | cksum | cut -d' ' -f1).lock"
    (
        if command -v flock > /dev/null; then
            exec 9> "$lock"
            flock 9
        fi
        if jar_is_stale "$jar" "$@"; then
            echo "$label: building $jar" >&2
            # Maven's console still writes colour resets (ESC[0m) in quiet batch mode: strip them, so the terminal
            # sees only plain text; pipefail keeps Maven's exit status.
            set -o pipefail
            # shellcheck disable=SC2086  # mvn_args holds several words on purpose
            cd "$repo" && mvn -q -B -ntp -Dstyle.color=never $mvn_args package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true 2>&1 \
                | sed -u 's/\x1b\[[0-9;]*m//g' >&2
        fi
    )
}
