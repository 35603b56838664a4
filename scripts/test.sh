#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Runs the whole rx4j test suite: the Maven tests of every module, the rxkad fixture tests with the clock 1,000 days
# ahead and 30 days behind the fixtures' date (scripts/fixture-dates.sh, needs Debian's faketime), README's first
# command on a fresh clone whose Maven repository has no rx4j artifacts (scripts/front-door.sh), two clean builds
# compared jar by jar (scripts/reproducible.sh), then the OpenAFS
# interop script (scripts/interop.sh installs Debian's OpenAFS packages with apt-get, so it needs root or the
# packages already installed). RX4J_SKIP_INTEROP=1 skips the interop script.
# The Maven suite runs twice: first on the newest JDK under /usr/lib/jvm (if newer than the default `java`; the code
# is still compiled with --release 17), then on the default JDK, whose artifacts are installed and used by interop.
# RX4J_SKIP_NEWEST_JDK=1 skips the first pass.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
newest="$(scripts/newest-jdk.sh)"
if [[ -n "$newest" && "${RX4J_SKIP_NEWEST_JDK:-0}" != "1" ]]; then
  echo "test.sh: Maven suite on $newest"
  JAVA_HOME="$newest" mvn -B -ntp -Dstyle.color=never verify
fi
echo "test.sh: Maven suite on the default JDK ($(java -version 2>&1 | head -1))"
mvn -B -ntp -Dstyle.color=never install
echo "test.sh: fixtures with lifetimes at other dates (scripts/fixture-dates.sh)"
scripts/fixture-dates.sh
echo "test.sh: README's first command on a fresh clone without rx4j artifacts (scripts/front-door.sh)"
scripts/front-door.sh
echo "test.sh: two clean builds give identical jars (scripts/reproducible.sh)"
scripts/reproducible.sh
if [[ "${RX4J_SKIP_INTEROP:-0}" == "1" ]]; then
  echo "test.sh: interop skipped (RX4J_SKIP_INTEROP=1)"
elif [[ $(id -u) != 0 ]] && ! command -v rxdebug > /dev/null; then
  echo "test.sh: interop NOT run: it installs Debian's OpenAFS packages and needs root (or them installed)" >&2
  exit 1
else
  scripts/interop.sh
fi
