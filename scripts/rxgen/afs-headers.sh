#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Cross-checks rx-afs's own .xg files against Debian's: runs Debian's rxgen (libopenafs-dev) on each of
# rx-afs/src/main/xg/{bozo,vl,pt,afs,afscb}/*.xg and compares, for every proc the file declares, the C client
# prototypes rxgen generates (PKG_Name, StartPKG_Name, EndPKG_Name: parameter types, names and directions) and the
# struct definitions both declare with those in /usr/include/afs/{bosint,vldbint,ptint,afsint,afscbint}.h. A
# difference in an opcode, a parameter or a struct member is printed and fails the run.
#
#   scripts/rxgen/afs-headers.sh
#
# Exit 0 when every prototype and struct matches. Work files go to a temporary directory, removed at exit.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/rx4j-afs-headers.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
command -v rxgen > /dev/null || { echo "afs-headers: rxgen not installed (libopenafs-dev)" >&2; exit 1; }

# decls HEADER PKG: one line per client prototype of package PKG (whitespace squeezed, comments kept: they carry
# the direction), then one line per struct body, sorted, so two headers compare line by line.
decls() {
    python3 - "$1" "$2" << 'PY'
import re, sys
text = open(sys.argv[1]).read()
pkg = sys.argv[2]
out = []
for m in re.finditer(r'extern int ((?:Start|End)?%s\w+)\((.*?)\);' % re.escape(pkg), text, re.S):
    if m.group(1).endswith(("ExecuteRequest", "OpCodeIndex")):
        continue
    out.append("proc %s(%s)" % (m.group(1), " ".join(m.group(2).split())))
for m in re.finditer(r'#define opcode_(%s\w+)\s+\(\(afs_uint64\)\(\(\d+LL << 32\) \+ \w+OpCodeIndex\((\d+)\)\)\)' % re.escape(pkg), text):
    out.append("opcode %s %s" % (m.group(1), m.group(2)))
for m in re.finditer(r'\bstruct (\w+) \{([^}]*)\}', text):
    out.append("struct %s {%s}" % (m.group(1), " ".join(m.group(2).split())))
print("\n".join(sorted(set(out))))
PY
}

# Known, intended differences: bozo.xg declares the key bytes unsigned char so that rx-gen makes them a byte[]
# of 8 (rx-gen's char[N] is a NUL-terminated String); the wire form (one 4-byte int per byte) is the same.
ALLOWED=('struct bozo_key {u_char data[8];}')

status=0
check() {
    local dir=$1 header=$2 pkg=$3 xg mine theirs
    xg=$(ls "$ROOT/rx-afs/src/main/xg/$dir"/*.xg)
    cp "$xg" "$WORK/$dir.xg"
    (cd "$WORK" && rxgen -A -h -o "$dir.h" "$dir.xg")
    decls "$WORK/$dir.h" "$pkg" > "$WORK/$dir.mine"
    decls "$header" "$pkg" > "$WORK/$dir.theirs"
    # every proc, opcode and struct of ours must appear, identical, in Debian's header (we may declare fewer)
    local missing
    missing=$(comm -23 "$WORK/$dir.mine" "$WORK/$dir.theirs" \
        | grep -vxF -f <(printf '%s\n' "${ALLOWED[@]}") || true)
    local n
    n=$(grep -c '^proc ' "$WORK/$dir.mine" || true)
    if [[ -n $missing ]]; then
        echo "afs-headers: $dir.xg differs from $header in:"
        printf '  %s\n' "$missing"
        status=1
    else
        echo "afs-headers: $dir.xg: $n client prototypes, $(grep -c '^opcode ' "$WORK/$dir.mine" || true) opcodes," \
            "$(grep -c '^struct ' "$WORK/$dir.mine" || true) structs equal to $header"
    fi
}

check bozo /usr/include/afs/bosint.h BOZO_
check vl /usr/include/afs/vldbint.h VL_
check pt /usr/include/afs/ptint.h PR_
check afs /usr/include/afs/afsint.h RXAFS_
check afscb /usr/include/afs/afscbint.h RXAFSCB_
exit $status
