#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# The tests that read fixtures with lifetimes (rxkad tickets, the Kerberos ccache and keytab of
# rx-core/src/test/resources/org/rx4j/security/rxkad/krb5, made 2026-12-02) run with the system clock 1,000 days after
# and 30 days before that date, under libfaketime (Debian package faketime): they check the fixtures at a fixed
# instant, on the Java side and in the C harness, so they pass on any date (docs/testing.md "Fixtures with lifetimes").
#
#   scripts/fixture-dates.sh         # needs the rx-core tests to compile offline (run after a Maven build)
#
# FAKETIME_DONT_FAKE_MONOTONIC stays unset: with it Maven becomes very slow.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v faketime > /dev/null || { echo "fixture-dates: faketime is not installed (apt-get install faketime)" >&2; exit 1; }
tests='org.rx4j.security.**.*Test,Rxkad*Test,Krb5*Test,LocalAuth*Test'
# The clock is moved by a whole number of days from today (an absolute '@DATE' start makes the JVM's waits crawl).
for when in 2029-08-29 2026-11-02; do
    days=$(( ($(date -u -d "$when 12:00:00" +%s) - $(date -u +%s)) / 86400 ))
    echo "fixture-dates: rxkad and Kerberos fixture tests with the clock at about $when (${days} days from today)"
    rm -rf rx-core/target/surefire-reports
    faketime -f "$(printf '%+dd' "$days")" mvn -B -ntp -o -q -Dstyle.color=never -pl rx-testing,rx-core test -Dtest="$tests" \
        -Dsurefire.failIfNoSpecifiedTests=false
    # Surefire's quiet mode prints nothing on success: count what ran from its reports.
    awk -v tool=fixture-dates '/<testsuite / {
            for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) { gsub(/[">]/, "", kv[2]); v[kv[1]] = kv[2] }
            t += v["tests"]; f += v["failures"] + v["errors"]; s += v["skipped"] }
        END { printf "%s: %d passed, %d failed, %d skipped\n", tool, t - f - s, f, s; exit (f > 0 || t == 0) }' \
        rx-core/target/surefire-reports/TEST-*.xml
done
