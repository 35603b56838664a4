#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Two-way class references inside one package of rx-core (docs/engine.md "Two-way references"): pairs of classes
# A, B where A names B and B names A in their compiled code (jdeps -verbose:class), nested classes counted as their
# outer class. Prints one pair a line ("A <-> B", sorted), then the count.
#
#   scripts/two-way-refs.sh [PACKAGE]      PACKAGE defaults to org.rx4j.engine, read with its rooms (telemetry,
#                                          output, peer, security, call, connection, admission, debug; not the
#                                          cc, recovery and pmtu algorithms)
#
# Reads rx-core/target/classes: compile first (mvn -B -o -q -pl rx-core compile). Exit status 0; the count is the
# last line of output.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PKG=${1:-org.rx4j.engine}
CLASSES=$ROOT/rx-core/target/classes
PKGS=$PKG
if [ "$PKG" = org.rx4j.engine ]; then
    for room in telemetry output peer security call connection admission debug; do PKGS="$PKGS $PKG.$room"; done
fi
for p in $PKGS; do
    if [ ! -d "$CLASSES/${p//.//}" ]; then
        echo "no compiled classes in $CLASSES/${p//.//}: run mvn -B -o -q -pl rx-core compile" >&2
        exit 1
    fi
done

# jdeps reads a directory holding module-info.class as a module and then wants every module it requires: give it a
# copy of just the package's class files, read on the class path.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for p in $PKGS; do
    mkdir -p "$TMP/${p//.//}"
    cp "$CLASSES/${p//.//}"/*.class "$TMP/${p//.//}/"
done

# "   a.b.C$Inner   -> a.b.D   location": keep edges between two classes of the packages read, fold nested classes,
# drop self-references, then print each pair whose reverse edge exists too (class names without their package).
jdeps -verbose:class -filter:none "$TMP" 2>/dev/null \
    | awk -v pkgs="$PKGS" '
        BEGIN { n = split(pkgs, ps, " "); for (i = 1; i <= n; i++) ok[ps[i]] = 1 }
        function pkgof(c) { return substr(c, 1, match(c, /\.[^.]*$/) - 1) }
        function simple(c) { sub(/.*\./, "", c); return c }
        $2 == "->" {
            a = $1; b = $3
            if (!(pkgof(a) in ok) || !(pkgof(b) in ok)) next
            a = simple(a); b = simple(b)
            sub(/\$.*/, "", a); sub(/\$.*/, "", b)
            if (a != b) edge[a SUBSEP b] = 1
        }
        END {
            for (k in edge) {
                split(k, p, SUBSEP)
                if (p[1] < p[2] && ((p[2] SUBSEP p[1]) in edge)) print p[1] " <-> " p[2]
            }
        }' \
    | sort > "$TMP/pairs"
cat "$TMP/pairs"
echo "two-way references in $PKG: $(wc -l < "$TMP/pairs")"
