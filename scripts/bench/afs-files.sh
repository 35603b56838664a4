#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# rx4j's AFS file client against OpenAFS's own userspace client, afsio (Debian openafs-client), on the same
# fileserver at the same security level (anonymous, rxnull), in the test cell of scripts/interop/afs-cell.sh (its
# namespace address 10.99.0.1), fresh processes, median of 3:
#   - a 1 GiB file written and read: `afsq put` / `afsq cat --fid` against afsio. afsio corrupts single writes over
#     64 MiB (1.8.9), so its write is `afsio write -file /NAME` of 64 MiB, then `afsio append -file NAME` of 64 MiB
#     pieces, timed together;
#     both sides read the data from one local file (written once from /dev/urandom).
#   - 1,000 files of 4 KiB stat-ed and read: one rx4j process (scripts/bench/AfsFilesBench.java; its own cold and
#     warm passes reported too) against 1,000 `afsio fidread` runs (one file per process, as afsio works), and
#     afsio's bare process start (`afsio help`, 1,000 runs) so its time per file less the start can be shown.
# Prints one line per figure and the ratios. Needs root; starts the cell when none runs (and stops it at the end
# only then). Results are what docs/benchmarks.md ("AFS files") quotes.
#
# --baseline JAR also times the 1 GiB put and cat with another afsq.jar (e.g. one built from an earlier commit),
# in the same rounds, alternating with this checkout's, and prints its figures as "before".
#
#   scripts/bench/afs-files.sh [--size MIB] [--files N] [--baseline JAR]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CELL_SH=$ROOT/scripts/interop/afs-cell.sh
MIB=1024
FILES=1000
BASE_JAR=
while [[ $# -gt 0 ]]; do
    case $1 in
        --size) MIB=$2; shift 2 ;;
        --files) FILES=$2; shift 2 ;;
        --baseline) BASE_JAR=$(realpath "$2"); shift 2 ;;
        *) echo "usage: $0 [--size MIB] [--files N] [--baseline JAR]" >&2; exit 2 ;;
    esac
done

STATE=${RX4J_AFSCELL_DIR:-/tmp/rx4j-afscell}/cell.env
started=0
if ! "$CELL_SH" status > /dev/null 2>&1; then
    "$CELL_SH" start > /dev/null
    started=1
fi
WORK=$(mktemp -d /tmp/rx4j-afsbench.XXXXXX)
cleanup() {
    rm -rf "$WORK"
    [[ $started -eq 0 ]] || "$CELL_SH" stop
}
trap cleanup EXIT

state() { sed -n "s/^$1=//p" "$STATE"; }
CELL=$(state AFSCELL_CELL)
ADDR=$(state AFSCELL_ADDR)
DB=(--cellservdb "$(state AFSCELL_CELLSERVDB)")
JAR=$ROOT/rx-afs-tools/target/afsq.jar
"$ROOT/scripts/afsq" --version > /dev/null 2>&1    # builds the jar when it is stale
# afsq as scripts/afsq runs it (its flags, read from it), but without its staleness check, so no timed run can
# include a build
LAUNCHER=afsq
# shellcheck source=../lib/launcher-flags.sh
source "$ROOT/scripts/lib/launcher-flags.sh"
Q=$WORK/afsq
printf '#!/bin/sh\nexec java %s -cp %s org.rx4j.afs.tools.Afsq "$@"\n' "$LAUNCHER_FLAGS" "$JAR" > "$Q"
chmod +x "$Q"
if [[ -n $BASE_JAR ]]; then
    QB=$WORK/afsq-before
    sed "s|$JAR|$BASE_JAR|" "$Q" > "$QB"
    chmod +x "$QB"
fi
in_cell() { "$CELL_SH" run "$@"; }

# CPU seconds this shell's waited-for children have used so far, user + system (bash's `times`, second line; run
# in this shell, not in a command substitution, whose children are its own)
child_cpu() {
    local f=$WORK/times.$BASHPID
    times > "$f"
    sed -n 2p "$f" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
        printf "%.3f", t }'
}
FS_PID=$(pgrep -xf /usr/lib/openafs/fileserver | head -1)
CLK=$(getconf CLK_TCK)
fs_ticks() { awk '{ print $14 + $15 }' "/proc/$FS_PID/stat"; }
# seconds LABEL command...: prints the wall time of one run, s; appends "LABEL wall client-CPU fileserver-CPU" (s) to
# $WORK/cpu.log: the command's CPU with its children's (the JVM or afsio in the cell), and the fileserver's during it
seconds() {
    local label=$1 t0 t1 c0 c1 f0 f1
    shift
    child_cpu > "$WORK/c0.$BASHPID"
    f0=$(fs_ticks); t0=$(date +%s%N)
    "$@"
    t1=$(date +%s%N); f1=$(fs_ticks)
    child_cpu > "$WORK/c1.$BASHPID"
    c0=$(< "$WORK/c0.$BASHPID"); c1=$(< "$WORK/c1.$BASHPID")
    awk -v l="$label" -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" -v f="$((f1 - f0))" -v k="$CLK" \
        'BEGIN { printf "%s %.3f %.2f %.2f\n", l, (b - a) / 1e9, d - c, f / k }' >> "$WORK/cpu.log"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

RUN=b$(date +%s)
DIR=/afs/$CELL/$RUN
in_cell "$Q" mkdir "$DIR" "${DB[@]}"

# ---- 1 GiB
SRC=$WORK/src.bin
head -c $((MIB * 1024 * 1024)) /dev/urandom > "$SRC"
want=$(md5sum < "$SRC")

afsio_put() {
    local name=$1 off=0 piece=$((64 * 1024 * 1024)) size
    size=$(stat -c %s "$SRC")
    head -c "$piece" "$SRC" | in_cell afsio write -file "$name" -cell "$CELL" 2> /dev/null
    off=$piece
    while (( off < size )); do
        # append takes the name relative to root.cell's root (with the slash it finds no file)
        tail -c +$((off + 1)) "$SRC" | head -c "$piece" \
            | in_cell afsio append -file "${name#/}" -cell "$CELL" 2> /dev/null
        off=$((off + piece))
    done
}

declare -a rw rr aw ar bw br
for i in 1 2 3; do
    if [[ -n $BASE_JAR ]]; then
        bw+=("$(seconds before-write in_cell "$QB" put "$SRC" "$DIR/big-before" "${DB[@]}")")
        bfid=$(in_cell "$Q" stat "$DIR/big-before" "${DB[@]}" | sed -n 's/^Fid: //p')
        br+=("$(seconds before-read sh -c "$CELL_SH run $QB cat --fid $bfid -c $CELL ${DB[*]} > $WORK/back.before")")
        [[ $(md5sum < "$WORK/back.before") == "$want" ]] || { echo "before: read back differs" >&2; exit 1; }
    fi
    rw+=("$(seconds rx4j-write in_cell "$Q" put "$SRC" "$DIR/big-rx4j" "${DB[@]}")")
    fid=$(in_cell "$Q" stat "$DIR/big-rx4j" "${DB[@]}" | sed -n 's/^Fid: //p')
    rr+=("$(seconds rx4j-read sh -c "$CELL_SH run $Q cat --fid $fid -c $CELL ${DB[*]} > $WORK/back.rx4j")")
    [[ $(md5sum < "$WORK/back.rx4j") == "$want" ]] || { echo "rx4j read back differs" >&2; exit 1; }
    # afsio's names are relative to root.cell's root (its `write -file /NAME` form only)
    # a new name each run: afsio's `write -file /NAME` creates, and it cannot overwrite in that form
    aw+=("$(seconds afsio-write afsio_put "/$RUN-big-afsio-$i")")
    afid=$(in_cell "$Q" stat "/afs/$CELL/$RUN-big-afsio-$i" "${DB[@]}" | sed -n 's/^Fid: //p')
    ar+=("$(seconds afsio-read sh -c "$CELL_SH run afsio fidread -fid $afid -cell $CELL > $WORK/back.afsio")")
    [[ $(md5sum < "$WORK/back.afsio") == "$want" ]] || { echo "afsio read back differs" >&2; exit 1; }
done
printf 'write %d MiB: rx4j afsq put %s s (runs %s), afsio write+append %s s (runs %s), ratio %.2f\n' "$MIB" \
    "$(median "${rw[@]}")" "${rw[*]}" "$(median "${aw[@]}")" "${aw[*]}" \
    "$(awk -v a="$(median "${aw[@]}")" -v b="$(median "${rw[@]}")" 'BEGIN { print a / b }')"
printf 'read %d MiB: rx4j afsq cat --fid %s s (runs %s), afsio fidread %s s (runs %s), ratio %.2f\n' "$MIB" \
    "$(median "${rr[@]}")" "${rr[*]}" "$(median "${ar[@]}")" "${ar[*]}" \
    "$(awk -v a="$(median "${ar[@]}")" -v b="$(median "${rr[@]}")" 'BEGIN { print a / b }')"
if [[ -n $BASE_JAR ]]; then
    printf 'before (%s): write %d MiB %s s (runs %s), ratio %.2f; read %s s (runs %s), ratio %.2f\n' \
        "$BASE_JAR" "$MIB" "$(median "${bw[@]}")" "${bw[*]}" \
        "$(awk -v a="$(median "${aw[@]}")" -v b="$(median "${bw[@]}")" 'BEGIN { print a / b }')" \
        "$(median "${br[@]}")" "${br[*]}" \
        "$(awk -v a="$(median "${ar[@]}")" -v b="$(median "${br[@]}")" 'BEGIN { print a / b }')"
    in_cell "$Q" rm "$DIR/big-before" "${DB[@]}"
fi
echo "load average after the large files: $(cut -d' ' -f1-3 /proc/loadavg)"
# CPU per run, median of 3 (s): on a loaded machine the wall time follows the CPU both processes need
for l in before-write rx4j-write afsio-write before-read rx4j-read afsio-read; do
    grep -q "^$l " "$WORK/cpu.log" || continue    # "before-" rows only with --baseline
    grep "^$l " "$WORK/cpu.log" | sort -k3 -g | sed -n 2p \
        | awk '{ printf "cpu %s: client %.2f s + fileserver %.2f s = %.2f s (that run: wall %.2f s)\n", $1, $3, $4, $3 + $4, $2 }'
done
in_cell "$Q" rm "$DIR/big-rx4j" "${DB[@]}"
for i in 1 2 3; do in_cell "$Q" rm "/afs/$CELL/$RUN-big-afsio-$i" "${DB[@]}"; done

# ---- 1,000 files of 4 KiB
# compiled once, so the timed JVM does not compile source
javac -d "$WORK" -cp "$JAR" "$ROOT/scripts/bench/AfsFilesBench.java"
CP=$JAR:$WORK
in_cell java -cp "$CP" AfsFilesBench make "$CELL" "$ADDR" "$DIR/small" "$FILES" 4096 > "$WORK/fids" 2> /dev/null
# the loops run inside one shell in the cell's namespaces, so each afsio run costs a fork and exec only
afsio_all() { in_cell sh -c "while read -r f; do afsio fidread -fid \$f -cell $CELL > /dev/null; done < $WORK/fids"; }
afsio_bare() { in_cell sh -c "i=0; while [ \$i -lt $FILES ]; do afsio help > /dev/null 2>&1; i=\$((i + 1)); done"; }
declare -a jt jc jw at ab
for i in 1 2 3; do
    t0=$(date +%s%N)
    out=$(in_cell java -cp "$CP" AfsFilesBench read "$CELL" "$ADDR" "$DIR/small" "$FILES" 2> /dev/null)
    jt+=("$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')")
    jc+=("$(printf '%s\n' "$out" | awk '$1 == "cold" { print $2 }')")
    jw+=("$(printf '%s\n' "$out" | awk '$1 == "warm" { print $2 }')")
    at+=("$(seconds afsio-small afsio_all)")
    ab+=("$(seconds afsio-bare afsio_bare)")
done
jt_m=$(median "${jt[@]}"); at_m=$(median "${at[@]}"); ab_m=$(median "${ab[@]}")
printf '%d x 4 KiB stat+read: rx4j one process %s s (runs %s; in it cold pass %s s, warm pass %s s), ' \
    "$FILES" "$jt_m" "${jt[*]}" "$(median "${jc[@]}")" "$(median "${jw[@]}")"
printf '%d afsio fidread runs %s s (runs %s), ratio %.2f\n' "$FILES" "$at_m" "${at[*]}" \
    "$(awk -v a="$at_m" -v b="$jt_m" 'BEGIN { print a / b }')"
printf 'per file: rx4j warm %.2f ms; afsio %.2f ms per run, bare start (afsio help) %.2f ms, less the start %.2f ms\n' \
    "$(awk -v w="$(median "${jw[@]}")" -v n="$FILES" 'BEGIN { print w * 1000 / n }')" \
    "$(awk -v a="$at_m" -v n="$FILES" 'BEGIN { print a * 1000 / n }')" \
    "$(awk -v a="$ab_m" -v n="$FILES" 'BEGIN { print a * 1000 / n }')" \
    "$(awk -v a="$at_m" -v b="$ab_m" -v n="$FILES" 'BEGIN { print (a - b) * 1000 / n }')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); cores: $(nproc)"
