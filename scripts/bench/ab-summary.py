#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
"""Summarises the lines scripts/bench/ab-mixed.sh printed: per workload and pair, the median elapsed time (ms) of
its runs and the ratio C <-> C's median / the pair's median (above 1 = faster than OpenAFS's C Rx between C peers,
as the speed issue's tables give it), the runs counted, the UDP RcvbufErrors of all runs and the steal share.

    scripts/bench/ab-summary.py [--pairs "c2c A2c c2A A2A"] [--max-steal PCT] [FILE ...]

--pairs      the columns, in this order (default: every pair, in the order first seen)
--max-steal  leaves out runs during which the hypervisor took more than PCT % of the machine's CPU time (the
             "steal=" field; runs without it are kept): on a virtual machine such a run is slower on both sides of
             a pairing by an amount the other runs did not pay (docs/benchmarks.md "Steal: timing on a shared
             virtual machine")
FILE         ab-mixed.sh's output (standard input when none). Lines it does not know are skipped.
Exits 2 on a bad argument, 1 when no run line was found. Standard library only.
"""
import argparse
import re
import statistics
import sys

RUN = re.compile(r"^(\w+2\w+)\t(\d+) msec\t")
STEAL = re.compile(r"\tsteal=([0-9.]+)%")
RCVBUF = re.compile(r"srv=(\d+) cli=(\d+)")


def parse(lines, max_steal):
    """Returns (workloads in order, {workload: {pair: [ms, ...]}}, RcvbufErrors, runs left out for steal)."""
    order, times, rcvbuf, dropped = [], {}, 0, 0
    workload = "-"
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("== "):
            workload = line[3:]
            continue
        m = RUN.match(line)
        if not m:
            continue
        r = RCVBUF.search(line)
        if r:
            rcvbuf += int(r.group(1)) + int(r.group(2))
        s = STEAL.search(line)
        if max_steal is not None and s and float(s.group(1)) > max_steal:
            dropped += 1
            continue
        if workload not in times:
            order.append(workload)
            times[workload] = {}
        times[workload].setdefault(m.group(1), []).append(int(m.group(2)))
    return order, times, rcvbuf, dropped


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", help='columns in order, e.g. "c2c A2c c2A A2A"')
    ap.add_argument("--max-steal", type=float, metavar="PCT", help="leave out runs above this steal share, %%")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.max_steal is not None and args.max_steal < 0:
        ap.error("--max-steal must be >= 0")
    lines = []
    for name in args.files or ["-"]:
        lines.extend(sys.stdin if name == "-" else open(name, encoding="utf-8"))
    order, times, rcvbuf, dropped = parse(lines, args.max_steal)
    if not order:
        print("ab-summary.py: no run lines (pair<TAB>N msec) found", file=sys.stderr)
        return 1
    for workload in order:
        runs = times[workload]
        pairs = args.pairs.split() if args.pairs else list(runs)
        base = statistics.median(runs["c2c"]) if runs.get("c2c") else None
        cells = []
        for pair in pairs:
            ms = runs.get(pair)
            if not ms:
                cells.append(f"{pair} -")
                continue
            med = statistics.median(ms)
            ratio = f" ({base / med:.2f}x)" if base and pair != "c2c" else ""
            cells.append(f"{pair} {med:.0f}{ratio} n={len(ms)}")
        print(f"{workload:34s} " + " | ".join(cells))
    steal = "" if args.max_steal is None else f"; runs left out for steal > {args.max_steal:g} %: {dropped}"
    print(f"UDP RcvbufErrors, all runs: {rcvbuf}{steal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
