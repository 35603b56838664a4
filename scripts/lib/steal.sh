# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Sourced by the benchmark scripts (scripts/bench.sh, scripts/bench/ab-mixed.sh, scripts/bench/netns-short-calls.sh):
# the share of the machine's CPU time that the hypervisor gave to other guests during a run ("steal" in
# /proc/stat, proc(5)). On a virtual machine a run with a large steal share is slower on both sides of a pairing,
# and wake-ups of a peer's idle CPU cost more; its times do not compare with a run at a small share. /proc/stat
# counts in clock ticks (1/100 s) summed over all CPUs, so a run of 0.3 s on 2 CPUs spans about 60 ticks and one
# tick is 1.7 % of it.
#
#   steal_ticks          prints "STEAL TOTAL": the steal ticks and the ticks of user..steal (guest time is already
#                        inside user and nice, so it is not added again), whole numbers at any size
#   steal_pct "A" "B"    prints the steal share between two steal_ticks readings, in % of all ticks ("0.0" when none)

steal_ticks() {
    # %.0f, not print: some awks print whole numbers of 2^31 and more as 3e+09.
    awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; printf "%.0f %.0f\n", $9, t; exit }' /proc/stat
}

steal_pct() {
    # shellcheck disable=SC2086  # each reading is two words on purpose
    set -- $1 $2
    awk -v s0="$1" -v t0="$2" -v s1="$3" -v t1="$4" \
        'BEGIN { d = t1 - t0; printf "%.1f", (d > 0 ? 100 * (s1 - s0) / d : 0) }'
}
