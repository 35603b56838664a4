#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
"""Summarises one scripts/bench.sh --wan run (docs/benchmarks.md "Long and lossy paths").

Reads the work directory bench.sh filled (machine.txt, manifest.tsv, runs/ID.out|.err, relay-ID.out|.err), writes
OUT/bench-wan-<UTC time>.json (every run and every summary figure) and, with --docs/--svg, the section of
docs/benchmarks.md between <!-- bench.sh --wan:begin --> and <!-- bench.sh --wan:end --> (the rest of the page is
left as it is) and an SVG chart of rate against random loss for C <-> C, rx4j NewReno and rx4j BBR.
Standard library only; run parsing is report.py's. Units: Mbit/s (decimal, payload bytes).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (the sibling script's run parser)

BEGIN = "<!-- bench.sh --wan:begin -->"
END = "<!-- bench.sh --wan:end -->"
# The relay's path: 5 ms each way, measured as 10.4 ms RTT on loopback through it.
RTT_S = 0.0104
BOUND_255 = 255 * 1412 * 8 / RTT_S / 1e6
BOUND_32 = 32 * 1412 * 8 / RTT_S / 1e6
PAIRS = {"c2c": "C ↔ C", "rx4j2rx4j": "rx4j ↔ rx4j (NewReno)", "bbr2rx4j": "rx4j ↔ rx4j (--cc bbr)",
         "rx4j2c": "rx4j client → C server", "c2rx4j": "C client → rx4j server"}
WORKLOADS = {"w255": "10 ms, 0 % loss, -W 255", "w255u": "10 ms, 0 % loss, -W 255, -u 2880",
             "w32": "10 ms, 0 % loss, default window (32)", "loss0.5": "10 ms, 0.5 % loss each way, -W 255",
             "loss1": "10 ms, 1 % loss each way, -W 255", "loss2": "10 ms, 2 % loss each way, -W 255",
             "loss5": "10 ms, 5 % loss each way, -W 255", "burst": "10 ms, Gilbert–Elliott 1 % mean burst 5, -W 255",
             "mtu9000": "10 ms, relay MTU cap 9000, -W 255 -m 9000", "rtt1loss0.5": "1 ms, 0.5 % loss, -W 255"}
LOSS_SERIES = [("w255", 0.0), ("loss0.5", 0.5), ("loss1", 1.0), ("loss2", 2.0), ("loss5", 5.0)]


def summarise(runs):
    groups = {}
    for run in runs:
        groups.setdefault((run["workload"], run["pair"]), []).append(run)
    out = []
    for (workload, pair), group in sorted(groups.items(), key=lambda kv: min(r["id"] for r in kv[1])):
        ok = [r for r in group if "result" in r]
        rates = sorted(r["mbitPerSecond"] for r in ok)
        entry = {"workload": workload, "pair": pair, "runs": len(group), "ok": len(ok)}
        if rates:
            entry.update({"min": rates[0], "median": statistics.median(rates), "max": rates[-1]})
        intervals = [v for r in ok for v in r.get("intervalMbitPerSecond", [])]
        if intervals:
            entry["intervals"] = len(intervals)
            entry["zeroIntervals"] = sum(1 for v in intervals if v <= 0)
            entry["minIntervalMbitPerSecond"] = min(intervals)
        out.append(entry)
    return out


def find(summary, workload, pair):
    for e in summary:
        if e["workload"] == workload and e["pair"] == pair:
            return e
    return None


def median_of(summary, workload, pair):
    e = find(summary, workload, pair)
    return e.get("median") if e else None


def fmt(v, digits=1):
    return "—" if v is None else f"{v:,.{digits}f}"


def targets(summary):
    rows = []

    def row(number, target, measured, ok):
        verdict = "not measured" if ok is None else ("met" if ok else "not met")
        rows.append({"target": number, "text": target, "measured": measured, "pass": verdict})

    r = median_of(summary, "w255", "rx4j2rx4j")
    b = median_of(summary, "w255", "bbr2rx4j")
    rc = median_of(summary, "w255u", "rx4j2c")
    d = median_of(summary, "w32", "rx4j2rx4j")
    cr = median_of(summary, "w255", "c2rx4j")
    best = max([v for v in (r, b) if v is not None], default=None)
    row(1, f"lossless 10 ms -W 255 ≥ 90 % of the window bound ({BOUND_255:.0f} Mbit/s) where rx4j sends",
        f"rx4j ↔ rx4j NewReno {fmt(r)}, BBR {fmt(b)}, rx4j → C (-u 2880) {fmt(rc)} Mbit/s "
        f"(= {fmt(None if best is None else 100 * best / BOUND_255, 0)} % / "
        f"{fmt(None if rc is None else 100 * rc / BOUND_255, 0)} %); C → rx4j {fmt(cr)} (C's per-call slow start)",
        None if best is None or rc is None else best >= 0.9 * BOUND_255 and rc >= 0.9 * BOUND_255)
    row(1, f"default window ≥ 90 % of its bound ({BOUND_32:.1f} Mbit/s)", f"rx4j ↔ rx4j {fmt(d)} Mbit/s",
        None if d is None else d >= 0.9 * BOUND_32)
    for loss in ("loss0.5", "loss2"):
        c = median_of(summary, loss, "c2c")
        n = median_of(summary, loss, "rx4j2rx4j")
        bb = median_of(summary, loss, "bbr2rx4j")
        zero = sum((find(summary, loss, p) or {}).get("zeroIntervals", 0) for p in ("rx4j2rx4j", "bbr2rx4j"))
        row(2, f"{WORKLOADS[loss]}: BBR ≥ 5× C ↔ C, NewReno ≥ C ↔ C, no --interval 1 line at zero",
            f"C ↔ C {fmt(c)}, NewReno {fmt(n)}, BBR {fmt(bb)} Mbit/s "
            f"(BBR/C {fmt(None if not c or bb is None else bb / c, 2)}×); zero-byte intervals: {zero}",
            None if c is None or n is None or bb is None else bb >= 5 * c and n >= c and zero == 0)
    m = median_of(summary, "mtu9000", "bbr2rx4j")
    row(3, f"MTU cap 9000: ≥ 2× the 1412-byte window bound ({2 * BOUND_255:.0f} Mbit/s)", f"BBR {fmt(m)} Mbit/s",
        None if m is None else m >= 2 * BOUND_255)
    burst = [find(summary, "burst", p) for p in ("rx4j2rx4j", "bbr2rx4j")]
    burst = [e for e in burst if e]
    if burst:
        failed = sum(e["runs"] - e["ok"] for e in burst)
        zero = sum(e.get("zeroIntervals", 0) for e in burst)
        row(4, "bursty loss (1 %, mean burst 5): every call completes, no stall",
            f"runs without a result: {failed}; zero-byte --interval 1 lines: {zero}; "
            + ", ".join(f"{PAIRS[e['pair']]} {fmt(e.get('median'))} Mbit/s" for e in burst),
            failed == 0 and zero == 0)
    else:
        row(4, "bursty loss (1 %, mean burst 5): every call completes, no stall", "—", None)
    return rows


def svg_chart(summary, path):
    """Median rate against random loss (0–5 %), one line per pair, min–max whiskers."""
    width, height, left, right, top, bottom = 720, 420, 70, 210, 40, 60
    series = {}
    for pair in ("c2c", "rx4j2rx4j", "bbr2rx4j"):
        pts = []
        for workload, loss in LOSS_SERIES:
            e = find(summary, workload, pair)
            if e and e.get("median") is not None:
                pts.append((loss, e["min"], e["median"], e["max"]))
        if pts:
            series[pair] = pts
    ymax = max([p[3] for pts in series.values() for p in pts] + [1.0])
    step = 50 if ymax > 200 else 20 if ymax > 80 else 10
    ytop = step * (int(ymax / step) + 1)

    def px(x):
        return left + x / 5.0 * (width - left - right)

    def py(y):
        return top + (1 - y / ytop) * (height - top - bottom)

    colours = {"c2c": "#1f77b4", "rx4j2rx4j": "#d62728", "bbr2rx4j": "#2ca02c"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">rxperf send -b 1048576 -W 255 through the relay, 10 ms RTT: '
           f'rate against loss (median, min–max)</text>']
    y = 0
    while y <= ytop:
        out.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{width - right}" y2="{py(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y}</text>')
        y += step
    for _, loss in LOSS_SERIES:
        out.append(f'<text x="{px(loss):.1f}" y="{height - bottom + 18}" text-anchor="middle">{loss:g} %</text>')
    out.append(f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" '
               f'stroke="black"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="black"/>')
    out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 18}" text-anchor="middle">'
               f'random loss each way</text>')
    out.append(f'<text x="16" y="{(top + height - bottom) / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(top + height - bottom) / 2:.0f})">Mbit/s</text>')
    legend_y = top + 10
    for pair, pts in series.items():
        colour = colours[pair]
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                   + " ".join(f"{px(p[0]):.1f},{py(p[2]):.1f}" for p in pts) + '"/>')
        for x, lo, mid, hi in pts:
            out.append(f'<line x1="{px(x):.1f}" y1="{py(lo):.1f}" x2="{px(x):.1f}" y2="{py(hi):.1f}" '
                       f'stroke="{colour}"/>')
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(mid):.1f}" r="3.5" fill="{colour}"/>')
        out.append(f'<line x1="{width - right + 12}" y1="{legend_y}" x2="{width - right + 36}" y2="{legend_y}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{width - right + 42}" y="{legend_y + 4}">{PAIRS[pair]}</text>')
        legend_y += 20
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def docs_section(summary, rows, machine, svg_name, json_name, relay_warnings):
    runs = machine.get("runs", "?")
    secs = machine.get("wan_time", "?")
    lines = [BEGIN, "",
             f"*Generated by `scripts/bench.sh --wan` on {machine.get('date', '?')} ({machine.get('cpus', '?')} CPUs, "
             f"{machine.get('java', '?')}, {machine.get('rx4j', '?')}, OpenAFS {machine.get('openafs', '?')}, git "
             f"{machine.get('git', '?')}): {runs} run(s) per pair and workload of `--time {secs}`, pairs alternating "
             f"run by run, through the relay on loopback (5 ms each way). Raw runs: `bench-results/{json_name}`. "
             f"Wall time {machine.get('wall_seconds', '?')} s.*", ""]
    if str(runs) != "3" or str(secs) != "30":
        lines += [f"**Shortened run** ({runs} run(s) of {secs} s, not the default median of 3 × 30 s): figures are "
                  "indicative only.", ""]
    if relay_warnings:
        lines += ["**The relay reported falling behind during: " + ", ".join(relay_warnings)
                  + "** — those figures are partly relay-bound.", ""]
    lines += ["| target | measured | verdict |", "|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['target']}. {r['text']} | {r['measured']} | {r['pass']} |")
    lines += ["", "| path | pair | runs ok | min | median | max | Mbit/s; zero-byte 1 s intervals |",
              "|---|---|---|---|---|---|---|"]
    for e in summary:
        zero = "" if "intervals" not in e else f"{e['zeroIntervals']} of {e['intervals']}"
        lines.append(f"| {WORKLOADS.get(e['workload'], e['workload'])} | {PAIRS.get(e['pair'], e['pair'])} | "
                     f"{e['ok']}/{e['runs']} | {fmt(e.get('min'))} | {fmt(e.get('median'))} | {fmt(e.get('max'))} | "
                     f"{zero} |")
    lines += ["", f"![rate against loss]({svg_name})", "", END, ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--docs")
    parser.add_argument("--svg")
    args = parser.parse_args()
    machine = report.read_machine(args.work)
    runs = report.read_runs(args.work, machine)
    relay_warnings = sorted(name[len("relay-"):-len(".err")] for name in os.listdir(args.work)
                            if name.startswith("relay-") and name.endswith(".err")
                            and "falling behind" in report.read_text(os.path.join(args.work, name)))
    summary = summarise(runs)
    rows = targets(summary)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    json_name = f"bench-wan-{stamp}.json"
    report.write_json(args.out, json_name, {"tool": "scripts/bench.sh --wan", "machine": machine,
                                            "summary": summary, "targets": rows,
                                            "relayFellBehind": relay_warnings, "runs": runs})
    if args.svg:
        svg_chart(summary, args.svg)
    if args.docs:
        report.write_docs(args.docs, docs_section(summary, rows, machine,
                                                  os.path.basename(args.svg or "bench-wan-loss.svg"), json_name,
                                                  relay_warnings), BEGIN, END)
        print(f"bench.sh: updated {args.docs}" + (f" and {args.svg}" if args.svg else ""), file=sys.stderr)
    failed = [r for r in runs if "result" not in r]
    for r in failed:
        print(f"bench.sh: run {r['id']} ({r['pair']} {r['workload']}) gave no result line: "
              f"{r.get('error', '')[:200]}", file=sys.stderr)
    for e in summary:
        print(f"{WORKLOADS.get(e['workload'], e['workload']):48} {PAIRS.get(e['pair'], e['pair']):26} "
              f"{fmt(e.get('min')):>8} {fmt(e.get('median')):>8} {fmt(e.get('max')):>8} Mbit/s")
    for r in rows:
        print(f"target {r['target']}: {r['pass']:12} {r['measured']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
