# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section files: a throwaway cell with a fileserver (scripts/interop/afs-cell.sh) and rx4j's
# file API (AfsFilesInteropTest) and afsq's file commands checked with Debian's afsio and libafscp.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh.

AFS_CELL_SH=$INTEROP_DIR/afs-cell.sh
export RX4J_AFSCELL_DIR=$WORK/afscell
AFSCP_LS=$BUILD_DIR/afscp-ls

files_in_cell() { "$AFS_CELL_SH" run "$@"; }

files_state() { sed -n "s/^$1=//p" "$RX4J_AFSCELL_DIR/cell.env"; }

rx4j_files_test() {
    local report=$ROOT/rx-afs/target/surefire-reports/org.rx4j.afs.files.AfsFilesInteropTest.txt status=0
    rm -f "$report"
    files_in_cell mvn -q -B -ntp -o -f "$ROOT/pom.xml" -pl rx-afs -am test -Dtest=AfsFilesInteropTest \
        -Dsurefire.failIfNoSpecifiedTests=false -Drx4j.afs.cell="$RX4J_AFSCELL_DIR/cell.env" \
        -Drx4j.afs.afscpls="$AFSCP_LS" || status=$?
    [[ -f $report ]] && sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    [[ $status -eq 0 ]] || { echo "mvn exit status $status"; return 1; }
    grep -Eq '^Tests run: 8, Failures: 0, Errors: 0, Skipped: 0' "$report" \
        || { echo "expected 8 tests run and none skipped"; return 1; }
}

# afsq put/cat/ls/stat/mkdir/mv/ln/rm on the cell, each result checked with afsio, and an error named.
files_afsq() {
    local cell db q data got fid out status=0
    cell=$(files_state AFSCELL_CELL)
    db=(--cellservdb "$(files_state AFSCELL_CELLSERVDB)")
    q=$ROOT/scripts/afsq
    "$q" --version > /dev/null 2>&1 || return 1    # builds the jar first
    data=$WORK/afsq-put.bin
    head -c 1234567 /dev/urandom > "$data"
    files_in_cell "$q" mkdir "/afs/$cell/afsq" "${db[@]}" || return 1
    files_in_cell "$q" put "$data" "/afs/$cell/afsq/put.bin" "${db[@]}" || return 1
    fid=$(files_in_cell "$q" stat "/afs/$cell/afsq/put.bin" "${db[@]}" | sed -n 's/^Fid: //p')
    got=$(files_in_cell afsio fidread -fid "$fid" -cell "$cell" | md5sum)
    [[ $got == "$(md5sum < "$data")" ]] || { echo "afsio fidread of $fid differs from what afsq put"; return 1; }
    got=$(files_in_cell "$q" cat "/afs/$cell/afsq/put.bin" "${db[@]}" | md5sum)
    [[ $got == "$(md5sum < "$data")" ]] || { echo "afsq cat differs from what afsq put"; return 1; }
    out=$(files_in_cell "$q" ls "/afs/$cell/afsq" "${db[@]}")
    [[ $out == put.bin ]] || { echo "afsq ls printed: $out"; return 1; }
    # mv, ln -s, ln, ls -l (the statuses by InlineBulkStatus): one file, a hard link to it, a symbolic link
    files_in_cell "$q" mv "/afs/$cell/afsq/put.bin" "/afs/$cell/afsq/moved.bin" "${db[@]}" || return 1
    files_in_cell "$q" ln "/afs/$cell/afsq/moved.bin" "/afs/$cell/afsq/hard.bin" "${db[@]}" || return 1
    files_in_cell "$q" ln -s moved.bin "/afs/$cell/afsq/soft" "${db[@]}" || return 1
    got=$(files_in_cell "$q" cat "/afs/$cell/afsq/soft" "${db[@]}" | md5sum)
    [[ $got == "$(md5sum < "$data")" ]] || { echo "afsq cat through the symbolic link differs"; return 1; }
    out=$(files_in_cell "$q" ls -l "/afs/$cell/afsq" "${db[@]}")
    printf '%s\n' "$out"
    [[ $(grep -c "^-0644      1234567 .* $fid " <<< "$out") -eq 2 && $out == *$'\n'l0755\ *\ soft ]] \
        || { echo "afsq ls -l: expected moved.bin and hard.bin as fid $fid and the link soft"; return 1; }
    for f in hard.bin soft moved.bin; do files_in_cell "$q" rm "/afs/$cell/afsq/$f" "${db[@]}" || return 1; done
    files_in_cell "$q" rm "/afs/$cell/afsq" "${db[@]}" || return 1
    out=$(files_in_cell "$q" cat "/afs/$cell/afsq/put.bin" "${db[@]}" 2>&1) || status=$?
    printf '%s\n' "$out"
    [[ $status -eq 1 && $out == *ENOENT* ]] || { echo "expected status 1 and ENOENT"; return 1; }
    echo "afsq put/stat/cat/ls/mv/ln/ls -l/rm: 1234567 bytes equal to afsio fidread's; a missing file is ENOENT, status 1"
}

section_files() {
    [[ -x /usr/lib/openafs/fileserver && -x /usr/lib/openafs/vlserver ]] \
        || { skip "files" "openafs-fileserver or openafs-dbserver is not installed"; return 0; }
    mkdir -p "$BUILD_DIR"
    check "afscp-ls (libafscp's directory listing) build" 60 "$INTEROP_DIR/build-afscp-ls.sh" "$AFSCP_LS"
    check "AFS cell with a fileserver in netns rx4j-afscell (scripts/interop/afs-cell.sh start)" 120 \
        "$AFS_CELL_SH" start
    check "rx4j: AfsFilesInteropTest (afsio reads what rx4j wrote and back, ranges, callbacks broken by afsio \
within 1 s, 10,000 entries = libafscp's listing and their InlineBulkStatus statuses, symbolic and hard links, rxkad \
crypt)" 300 rx4j_files_test
    check "scripts/afsq put/cat/ls/stat/mv/ln/ls -l/rm against afsio fidread; ENOENT named" 180 files_afsq
    check "AFS cell stop" 60 "$AFS_CELL_SH" stop
}
