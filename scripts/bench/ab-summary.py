#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
"""Summarises the lines scripts/bench/ab-mixed.sh printed.

Per workload and pair: the median elapsed time (ms) of its runs, the ratio C <-> C's median / the pair's median
(above 1 = faster than OpenAFS's C Rx between C peers, as the speed issue's tables give it) and the runs counted.
Then one line: the runs read, kept and failed (no elapsed time), the UDP RcvbufErrors of all runs read, and the
median and largest steal share of the runs that carry one.

    scripts/bench/ab-summary.py [--pairs "c2c A2c c2A A2A"] [--max-steal PCT] [FILE ...]

--pairs      the columns, in this order (default: every pair, in the order first seen in the input)
--max-steal  leaves out runs during which the hypervisor took more than PCT % of the machine's CPU time (the
             "steal=" field; runs without it are kept): on a virtual machine such a run is slower on both sides of
             a pairing by an amount the other runs did not pay (docs/benchmarks.md "Steal: timing on a shared
             virtual machine"). Runs are left out one by one, so a row's medians may come from different rounds.
FILE         ab-mixed.sh's output (standard input when none or "-"); each file's lines before its first "== FLAGS"
             line belong to the workload "-". Lines it does not know are skipped.
Exit status: 0; 1 when no run line was found; 2 on a bad argument or a file that cannot be read.
Standard library only.
"""
import argparse
import math
import re
import signal
import statistics
import sys

RUN = re.compile(r"^(\w+2\w+)\t(\d*)(?: msec)?\t")
STEAL = re.compile(r"\tsteal=([0-9.]+)%")
RCVBUF = re.compile(r"srv=(\d+) cli=(\d+)")


class Totals:
    """What every run line adds up to, kept or not."""

    def __init__(self):
        self.read = self.kept = self.failed = self.rcvbuf = 0
        self.steal = []


def parse(sources, max_steal, totals):
    """Returns (workloads in the order first seen, pairs in the order first seen, {workload: {pair: [ms, ...]}});
    counts into totals."""
    workloads, pairs, times = [], [], {}
    for lines in sources:
        workload = "-"
        for line in lines:
            line = line.rstrip("\r\n")
            if line.startswith("== "):
                workload = line[3:]
                continue
            m = RUN.match(line)
            if not m:
                continue
            totals.read += 1
            if workload not in times:
                workloads.append(workload)
                times[workload] = {}
            pair = m.group(1)
            if pair not in pairs:
                pairs.append(pair)
            r = RCVBUF.search(line)
            if r:
                totals.rcvbuf += int(r.group(1)) + int(r.group(2))
            s = STEAL.search(line)
            if s:
                totals.steal.append(float(s.group(1)))
            if not m.group(2):
                totals.failed += 1
                continue
            if max_steal is not None and s and float(s.group(1)) > max_steal:
                continue
            totals.kept += 1
            times[workload].setdefault(pair, []).append(int(m.group(2)))
    return workloads, pairs, times


def read_sources(names, ap):
    """Each named file's lines (standard input for "-"); a file that cannot be read is a bad argument."""
    sources = []
    for name in names or ["-"]:
        if name == "-":
            sources.append(sys.stdin.read().splitlines())
            continue
        try:
            with open(name, encoding="utf-8") as f:
                sources.append(f.read().splitlines())
        except (OSError, UnicodeDecodeError) as e:
            ap.error(f"cannot read {name}: {e}")
    return sources


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", help='the columns in order, e.g. "c2c A2c c2A A2A"')
    ap.add_argument("--max-steal", type=float, metavar="PCT", help="leave out runs above this steal share, %%")
    ap.add_argument("files", nargs="*", metavar="FILE", help="ab-mixed.sh output; standard input when none")
    args = ap.parse_args()
    if args.max_steal is not None and not (math.isfinite(args.max_steal) and args.max_steal >= 0):
        ap.error("--max-steal must be a number >= 0")
    totals = Totals()
    workloads, pairs, times = parse(read_sources(args.files, ap), args.max_steal, totals)
    if totals.read == 0:
        print("ab-summary.py: no run lines (PAIR<TAB>N msec) found", file=sys.stderr)
        return 1
    columns = args.pairs.split() if args.pairs else pairs
    for workload in workloads:
        runs = times[workload]
        base = statistics.median(runs["c2c"]) if runs.get("c2c") else None
        cells = []
        for pair in columns:
            ms = runs.get(pair)
            if not ms:
                cells.append(f"{pair} -")
                continue
            med = statistics.median(ms)
            ratio = f" ({base / med:.2f}x)" if base and med and pair != "c2c" else ""
            cells.append(f"{pair} {med:.0f}{ratio} n={len(ms)}")
        print(f"{workload:34s} " + " | ".join(cells))
    steal = "no steal field"
    if totals.steal:
        steal = f"steal median {statistics.median(totals.steal):.1f} %, max {max(totals.steal):.1f} %"
    limit = "" if args.max_steal is None else f" (at most {args.max_steal:g} % steal)"
    print(f"runs: {totals.read} read, {totals.kept} kept{limit}, {totals.failed} failed; "
          f"UDP RcvbufErrors {totals.rcvbuf}; {steal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
