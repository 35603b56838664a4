#!/usr/bin/env bash
# Runs the whole rx4j test suite: the Maven unit/integration tests, then the OpenAFS interop script
# when it is present (it installs its own Debian packages and is skipped with RX4J_SKIP_INTEROP=1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -ntp -Dstyle.color=never install
if [[ "${RX4J_SKIP_INTEROP:-0}" != "1" && -x scripts/interop.sh ]]; then
  scripts/interop.sh
fi
