#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
"""Summarises one scripts/bench.sh run (the speed goals of docs/benchmarks.md).

Reads the work directory bench.sh filled (machine.txt, manifest.tsv, runs/ID.out|.err|.time, floor-*.txt),
writes OUT/bench-<mode>-<UTC time>.json (every run and every summary figure, for tracking regressions) and,
with --docs/--svg, the generated section of docs/benchmarks.md (between <!-- bench.sh:begin --> and
<!-- bench.sh:end -->; the rest of the page is left as it is) and an SVG chart of rate against -b.
Standard library only. Units: rates in Mbit/s (decimal, payload bytes), calls/s, CPU in seconds, latency in us.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys
import time

BEGIN = "<!-- bench.sh:begin -->"
END = "<!-- bench.sh:end -->"
GIB = float(1 << 30)

RESULT_RE = re.compile(r"^(SEND|RECV|RPC): threads\t(\d+), times\t(\d+), "
                       r"(?:bytes\t(\d+)|write bytes\t(\d+), read bytes\t(\d+)):\t *(\d+) msec\t\[(.*)\]$", re.M)
LATENCY_RE = re.compile(r"^RPC latency usec:\tp50 ([\d.]+), p90 ([\d.]+), p99 ([\d.]+), p99\.9 ([\d.]+), "
                        r"max ([\d.]+)(?:, after first ([\d.]+))?", re.M)
CPU_RE = re.compile(r"^CPU \(process user\+sys\):\t([\d.]+) s", re.M)
RESENDS_RE = re.compile(r"^  resends +(\d+)$", re.M)
DATAGRAMS_SENT_RE = re.compile(r"^  datagramsSent +(\d+)$", re.M)
MIB = float(1 << 20)
PROGRESS_RE = re.compile(r"^\[ *([\d.]+)- *([\d.]+) sec\]\t *(\d+) bytes", re.M)
PINGPONG_RE = re.compile(r"pingpong: (\d+) round trips, min ([\d.]+) us, p50 ([\d.]+) us, p99 ([\d.]+) us, "
                         r"max ([\d.]+) us")
BLAST_RE = re.compile(r"blast: sent (\d+) datagrams of (\d+) bytes in ([\d.]+) s; received (\d+) "
                      r"\(([\d.]+) Mbit/s, (\d+) datagrams/s\)")

PAIR_NAMES = {"c2c": "C ↔ C", "rx4j2rx4j": "rx4j ↔ rx4j", "rx4j2c": "rx4j client → C server",
              "c2rx4j": "C client → rx4j server"}
WORKLOAD_NAMES = {
    "send8k": "send -b 8192", "send32k": "send -b 32768", "send128k": "send -b 131072",
    "send1m": "send -b 1048576", "recv32k": "recv -b 32768", "recv128k": "recv -b 131072",
    "recv1m": "recv -b 1048576", "rpc1": "rpc -S 4 -R 4 (-t 1)", "rpc1n": "rpc -S 4 -R 4 -T 5000 (-t 1)",
    "rpc8": "rpc -S 4 -R 4 -t 8", "w32": "send -b 1048576 -W 32 (both sides)",
    "w255": "send -b 1048576 -W 255 (both sides)", "nojumbo": "send -b 1048576 -j (both sides)",
    "ramp": "send -b 1048576 -T 1024 --interval 1", "first1": "first call: send -b 1048576 -T 1",
    "first10": "first calls: send -b 1048576 -T 10", "gib": "send -b 1048576 -T 1024 (1 GiB)"}
# The speed goals (docs/benchmarks.md "Speed goals"): short calls and short transfers between rx4j peers at 1.5x
# C <-> C or better (SHORT_GOAL_WORKLOADS on loopback, SHORT_GOAL_NETNS_WORKLOADS between the namespaces), the
# mixed pairs at 1x or better for the rows of the speed table (MIXED_GOAL_WORKLOADS, on loopback and at MTU 9000, and
# the 1 GiB sends), and the first-call rows, judged by their time (msec) rather than a rate.
SHORT_GOAL = 1.5
SHORT_GOAL_WORKLOADS = ["rpc1", "rpc8", "send32k", "send128k", "recv32k", "recv128k"]
SHORT_GOAL_NETNS_WORKLOADS = ["rpc1n", "rpc8"]
MIXED_GOAL_WORKLOADS = ["send1m", "recv1m", "send128k", "send32k", "recv32k", "rpc1", "rpc8"]
# The same rows between the namespaces, where one chain's rpc is the 5,000-call run (rpc1n)
MIXED_GOAL_NETNS_WORKLOADS = ["send1m", "recv1m", "send128k", "send32k", "recv32k", "rpc1n", "rpc8"]
MIXED_PAIRS = ("rx4j2c", "c2rx4j")
# A run during which the hypervisor took more than this share of the machine's CPU time (%, scripts/lib/steal.sh) is
# left out of its cell's figures, as scripts/bench/ab-summary.py --max-steal does; a cell none of whose runs stayed
# below it keeps them all, is marked, and is not judged.
MAX_STEAL = float(os.environ.get("BENCH_MAX_STEAL", "5"))
RPC_WORKLOADS = ("rpc1", "rpc1n", "rpc8")
FIRST_CALL_WORKLOADS = ("first1", "first10")
RCVBUF_RE = re.compile(r"(host|server|client) (-?\d+)")


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def read_machine(work):
    machine = {}
    for line in read_text(os.path.join(work, "machine.txt")).splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            machine[key] = value
    return machine


def read_floor(work):
    floors = {}
    for name in sorted(os.listdir(work)):
        if not (name.startswith("floor-") and name.endswith(".txt")):
            continue
        text = read_text(os.path.join(work, name))
        entry = {"raw": text.strip()}
        m = PINGPONG_RE.search(text)
        if m:
            entry["pingpong"] = {"roundTrips": int(m.group(1)), "minMicros": float(m.group(2)),
                                 "p50Micros": float(m.group(3)), "p99Micros": float(m.group(4)),
                                 "maxMicros": float(m.group(5))}
        m = BLAST_RE.search(text)
        if m:
            entry["blast"] = {"sent": int(m.group(1)), "datagramBytes": int(m.group(2)), "seconds": float(m.group(3)),
                              "received": int(m.group(4)), "mbitPerSecond": float(m.group(5)),
                              "datagramsPerSecond": int(m.group(6))}
        floors[name[len("floor-"):-len(".txt")]] = entry
    return floors


def parse_run(work, fields, clk_tck):
    (rid, run_set, pair, workload, rep, server_ticks, cuser, csys, wall, status, end_ns,
     steal) = (fields + [""] * 12)[:12]
    out = read_text(os.path.join(work, "runs", rid + ".out"))
    err = read_text(os.path.join(work, "runs", rid + ".err"))
    run = {"id": int(rid), "set": run_set, "pair": pair, "workload": workload, "rep": int(rep),
           "exitStatus": int(status or 0), "wallSeconds": float(wall or 0)}
    if steal:    # the hypervisor's share of the machine's CPU time during the run, % (scripts/lib/steal.sh)
        run["stealPercent"] = float(steal)
    # UDP RcvbufErrors counted during the run: the host's one count on loopback, each namespace's between them
    rcvbuf = {side: int(n) for side, n in RCVBUF_RE.findall(read_text(os.path.join(work, "runs", rid + ".rcvbuf")))}
    if rcvbuf:
        run["rcvbufErrors"] = rcvbuf
    m = RESULT_RE.search(out)
    if not m:
        run["error"] = (err or out).strip()[:500]
        return run
    kind, threads, times, size, wbytes, rbytes, msec = (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4),
                                                        m.group(5), m.group(6), int(m.group(7)))
    calls = threads * times
    per_call = int(size) if size is not None else int(wbytes) + int(rbytes)
    payload = calls * per_call
    msec = max(msec, 1)
    run.update({"result": m.group(0), "kind": kind, "threads": threads, "times": times, "calls": calls,
                "payloadBytes": payload, "msec": msec, "mbitPerSecond": payload * 8 / (msec * 1000.0),
                "callsPerSecond": calls * 1000.0 / msec})
    lat = LATENCY_RE.search(out) or LATENCY_RE.search(err)    # rx4j prints it on stderr, older builds on stdout
    if lat:
        run["latencyMicros"] = {"p50": float(lat.group(1)), "p90": float(lat.group(2)), "p99": float(lat.group(3)),
                                "p99.9": float(lat.group(4)), "max": float(lat.group(5))}
        if lat.group(6) is not None:    # rx4j: the slowest call that was not its thread's first
            run["latencyMicros"]["maxAfterFirst"] = float(lat.group(6))
    cpu = CPU_RE.search(out)
    if run_set == "warm" and cpu:
        run["clientCpuSeconds"] = float(cpu.group(1))
        run["clientCpuSource"] = "client's own CPU line over the measured window"
    elif cuser and csys:
        run["clientCpuSeconds"] = float(cuser) + float(csys)
        run["clientCpuSource"] = "rusage of the whole client process"
    if run_set == "warm" and end_ns:
        window = server_ticks_in_window(os.path.join(work, "runs", rid + ".server"), int(end_ns),
                                        int(end_ns) - msec * 1_000_000)
        if window is not None:
            run["serverCpuSeconds"] = window / clk_tck
            run["serverCpuSource"] = "/proc/PID/stat over the client's measured window (0.2 s samples)"
    if "serverCpuSeconds" not in run and server_ticks not in ("", None):
        run["serverCpuSeconds"] = int(server_ticks) / clk_tck
        run["serverCpuSource"] = "/proc/PID/stat from port bound to the client's end"
    for side in ("client", "server"):
        cpu_s = run.get(side + "CpuSeconds")
        if cpu_s is not None:
            run[side + "CpuSecondsPerGiB"] = cpu_s / (payload / GIB) if payload else None
            run[side + "CpuMicrosPerCall"] = cpu_s * 1e6 / calls if calls else None
    res = RESENDS_RE.search(out)
    if res and pair.startswith("rx4j"):
        run["clientResends"] = int(res.group(1))
    sent = DATAGRAMS_SENT_RE.search(out)
    if sent and pair.startswith("rx4j") and payload:
        run["clientDatagramsPerMiB"] = int(sent.group(1)) / (payload / MIB)
    progress = [(float(a), float(b), int(n)) for a, b, n in PROGRESS_RE.findall(err)]
    if progress:
        run["intervalMbitPerSecond"] = [n * 8 / ((b - a) * 1e6) for a, b, n in progress]
    return run


def server_ticks_in_window(path, end_ns, start_ns):
    """Server CPU ticks between start_ns and end_ns, interpolated linearly between the "ns ticks" samples."""
    samples = []
    for line in read_text(path).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            samples.append((int(parts[0]), int(parts[1])))
    samples.sort()
    if len(samples) < 2:
        return None

    def at(t):
        if t <= samples[0][0]:
            return samples[0][1]
        for (t0, v0), (t1, v1) in zip(samples, samples[1:]):
            if t0 <= t <= t1:
                return v0 + (v1 - v0) * ((t - t0) / (t1 - t0) if t1 > t0 else 1.0)
        return samples[-1][1]

    return max(0.0, at(end_ns) - at(start_ns))


def figure(run):
    """The figure a workload is judged by: msec for the first-call rows, calls/s for rpc, Mbit/s otherwise."""
    if run.get("workload") in FIRST_CALL_WORKLOADS:
        return run.get("msec")
    return run["callsPerSecond"] if run.get("kind") == "RPC" else run.get("mbitPerSecond")


def unit_of(workload, kind):
    """The unit of figure() for a workload."""
    if workload in FIRST_CALL_WORKLOADS:
        return "ms"
    return "calls/s" if kind == "RPC" else "Mbit/s"


def row_target(run_set, workload, pair):
    """The speed goal a table row is judged by (docs/benchmarks.md "Speed goals"), "" for the C <-> C rows."""
    if pair == "c2c":
        return ""
    if workload == "first1":
        return "≤ 30 ms" if pair == "rx4j2rx4j" else ""
    p99 = "; p99 < 1 ms" if workload in RPC_WORKLOADS else ""
    if pair == "rx4j2rx4j":
        if run_set == "cold" and workload in SHORT_GOAL_WORKLOADS:
            return f"≥ {SHORT_GOAL}×" + p99
        if run_set.startswith("netns") and workload in SHORT_GOAL_NETNS_WORKLOADS:
            return f"≥ {SHORT_GOAL}×" + p99
        return ""
    if pair in MIXED_PAIRS and ((run_set == "cold" and (workload in MIXED_GOAL_WORKLOADS or workload == "gib"))
                                or (run_set == "netns9000" and workload in MIXED_GOAL_NETNS_WORKLOADS)):
        return "≥ 1×"
    return ""


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarise(runs):
    groups = {}
    for run in runs:
        groups.setdefault((run["set"], run["workload"], run["pair"]), []).append(run)
    summary = []
    for (run_set, workload, pair), group in sorted(groups.items(), key=lambda kv: min(r["id"] for r in kv[1])):
        results = [r for r in group if "result" in r]
        calm = [r for r in results if r.get("stealPercent", 0.0) <= MAX_STEAL]
        ok = calm or results
        figures = sorted(figure(r) for r in ok)
        entry = {"set": run_set, "workload": workload, "pair": pair, "runs": len(group), "ok": len(results),
                 "unit": unit_of(workload, results[0]["kind"] if results else None),
                 "stealExcluded": len(results) - len(calm) if calm else 0,
                 "stealAll": bool(results) and not calm}
        if figures:
            entry.update({"min": figures[0], "median": statistics.median(figures), "max": figures[-1]})
        for key in ("clientCpuSecondsPerGiB", "clientCpuMicrosPerCall", "serverCpuSecondsPerGiB",
                    "serverCpuMicrosPerCall"):
            entry[key] = med([r.get(key) for r in ok])
        p99 = med([r["latencyMicros"]["p99"] for r in ok if "latencyMicros" in r])
        if p99 is not None:
            entry["p99Micros"] = p99
            entry["maxMicros"] = max(r["latencyMicros"]["max"] for r in ok if "latencyMicros" in r)
            later = [r["latencyMicros"]["maxAfterFirst"] for r in ok if "maxAfterFirst" in r.get("latencyMicros", {})]
            if later:
                entry["maxAfterFirstMicros"] = max(later)
        if any("clientResends" in r for r in ok):
            entry["clientResends"] = sum(r.get("clientResends", 0) for r in ok)
        per_mib = med([r.get("clientDatagramsPerMiB") for r in ok])
        if per_mib is not None:
            entry["clientDatagramsPerMiB"] = per_mib
        summary.append(entry)
    return summary


def find(summary, run_set, workload, pair):
    for entry in summary:
        if entry["set"] == run_set and entry["workload"] == workload and entry["pair"] == pair:
            return entry
    return None


def ratio(summary, run_set, workload, pair="rx4j2rx4j", base="c2c"):
    a, b = find(summary, run_set, workload, pair), find(summary, run_set, workload, base)
    if not a or not b or a.get("median") is None or not b.get("median") or a["stealAll"] or b["stealAll"]:
        return None
    return a["median"] / b["median"]


def unmeasured(summary, run_set, workload, pair, name, base="c2c"):
    """name for the list of rows ratio() gave no figure for, saying so when the pair's or the base's cell had no run
    at or below MAX_STEAL (its ratio is not judged)."""
    stolen = any(e and e["stealAll"] for e in (find(summary, run_set, workload, pair),
                                                find(summary, run_set, workload, base)))
    return name + (f" (every run above {MAX_STEAL:g} % steal)" if stolen else "")


def fmt(value, digits=3):
    if value is None:
        return "–"
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def targets(summary, runs, machine, floors, syscalls_text=""):
    """The speed goals of docs/benchmarks.md ("Speed goals"), each with the figures this run measured."""
    quick = machine.get("mode") == "quick"
    warm_note = f"warm = --time {machine.get('warm_time')} --omit {machine.get('warm_omit')}"
    not_here = "not measured by --quick" if quick else "not measured"
    rows = []

    def row(number, target, measured, verdict):
        rows.append({"target": number, "text": target, "measured": measured, "pass": verdict})

    def ratios(run_set, workloads, need, pair="rx4j2rx4j", label=""):
        parts, verdicts, missing = [], [], []
        for w in workloads:
            r = ratio(summary, run_set, w, pair)
            if r is None:
                missing.append(unmeasured(summary, run_set, w, pair, f"{label}{WORKLOAD_NAMES.get(w, w)}"))
                continue
            parts.append(f"{label}{WORKLOAD_NAMES.get(w, w)}: {r:.2f}×")
            verdicts.append(r >= need)
        return parts, verdicts, missing

    def p99s(run_set, workloads, label=""):
        parts, verdicts = [], []
        for w in workloads:
            e = find(summary, run_set, w, "rx4j2rx4j")
            if e and e.get("p99Micros") is not None:
                parts.append(f"{label}{WORKLOAD_NAMES.get(w, w)} p99 {e['p99Micros']:,.0f} µs")
                verdicts.append(e["p99Micros"] < 1000)
        return parts, verdicts

    def verdict_of(verdicts, missing):
        if not verdicts:
            return "not measured"
        if not all(verdicts):
            return "fail"
        return "pass" if not missing else "pass (measured part)"

    def joined(parts, missing):
        return "; ".join(parts + ([f"{', '.join(missing)}: {not_here}"] if missing else [])) or not_here

    netns_sets = sorted({e["set"] for e in summary if e["set"].startswith("netns")})

    # 1. short calls and short transfers between rx4j peers
    parts, verdicts, missing = ratios("cold", SHORT_GOAL_WORKLOADS, SHORT_GOAL)
    p, v = p99s("cold", ["rpc1", "rpc8"])
    parts, verdicts = parts + p, verdicts + v
    for run_set in netns_sets:
        label = f"MTU {run_set[len('netns'):]} "
        p, v, m = ratios(run_set, SHORT_GOAL_NETNS_WORKLOADS, SHORT_GOAL, label=label)
        parts, verdicts, missing = parts + p, verdicts + v, missing + m
        p, v = p99s(run_set, SHORT_GOAL_NETNS_WORKLOADS, label)
        parts, verdicts = parts + p, verdicts + v
    if not netns_sets:
        missing.append("between the namespaces (run with --netns)")
    row(1, f"Short calls: rx4j ↔ rx4j ≥ {SHORT_GOAL}× C ↔ C for rpc -S 4 -R 4 at -t 1 and -t 8 on loopback and "
           "between namespaces (MTU 1500 and 9000), rpc p99 < 1 ms there; send and recv at -b 32 KiB and 128 KiB "
           f"≥ {SHORT_GOAL}×", joined(parts, missing), verdict_of(verdicts, missing))

    # 2. OpenAFS peers: the mixed pairs, and what their receivers dropped
    parts, verdicts, missing = [], [], []
    for pair in MIXED_PAIRS:
        for run_set, workloads, label in (("cold", MIXED_GOAL_WORKLOADS, ""),
                                          ("netns9000", MIXED_GOAL_NETNS_WORKLOADS, "MTU 9000 ")):
            p, v, m = ratios(run_set, workloads, 1.0, pair, label)
            parts += [f"{PAIR_NAMES[pair]} {x}" for x in p]
            verdicts += v
            missing += [f"{PAIR_NAMES[pair]} {x}" for x in m]
        r = ratio(summary, "cold", "gib", pair)
        if r is None:
            missing.append(unmeasured(summary, "cold", "gib", pair, f"{PAIR_NAMES[pair]} 1 GiB send"))
        else:
            parts.append(f"{PAIR_NAMES[pair]} 1 GiB send: {r:.2f}×")
            verdicts.append(r >= 1.0)
    dropped = {}
    for run in runs:
        if run["pair"] in MIXED_PAIRS and "rcvbufErrors" in run:
            for side, n in run["rcvbufErrors"].items():
                key = f"{'loopback' if run['set'] in ('cold', 'warm', 'speed') else run['set']} {side}"
                dropped[key] = dropped.get(key, 0) + n
    if dropped:
        parts.append("UDP RcvbufErrors in the mixed runs: "
                     + ", ".join(f"{k} {n}" for k, n in sorted(dropped.items())))
        verdicts.append(all(n == 0 for n in dropped.values()))
    row(2, "OpenAFS peers: rx4j client → C server and C client → rx4j server ≥ 1× C ↔ C for send 1 MiB, recv 1 MiB, "
           "send 128 KiB, send 32 KiB, recv 32 KiB, rpc -t 1 and -t 8, cold, on loopback and at MTU 9000, and for "
           "1 GiB sends; 0 UDP RcvbufErrors at their receivers", joined(parts, missing),
        verdict_of(verdicts, missing))

    # 3. the first call
    parts, verdicts, missing = [], [], []
    one, c_one = find(summary, "cold", "first1", "rx4j2rx4j"), find(summary, "cold", "first1", "c2c")
    if one and one.get("median") is not None:
        parts.append(f"-T 1: rx4j {one['median']:.0f} ms (range {one['min']:.0f}–{one['max']:.0f})"
                     + (f", C {c_one['median']:.0f} ms" if c_one and c_one.get("median") is not None else ""))
        verdicts.append(one["max"] <= 30)
    else:
        missing.append("-T 1")
    row(3, "First call: a fresh client's send -b 1048576 -T 1 reports ≤ 30 ms, every run (the goal's server is "
           "running already; bench.sh starts a fresh one for every run, so here its warm-up counts too)",
        joined(parts, missing), verdict_of(verdicts, missing))

    # 4. packet size: datagrams per MiB between rx4j peers on loopback (client -D, cold 100 MiB runs); the default
    # window (-W 32) is judged, -W 255 (smaller packets keep that window's bytes within the socket buffers) is shown
    parts, verdicts = [], []
    for w in ("w32", "w255"):
        e = find(summary, "cold", w, "rx4j2rx4j")
        if e and e.get("clientDatagramsPerMiB") is not None:
            parts.append(f"{WORKLOAD_NAMES[w]}: {e['clientDatagramsPerMiB']:.1f} datagrams sent per MiB"
                         + ("" if w == "w32" else " (not judged)"))
            if w == "w32":
                verdicts.append(e["clientDatagramsPerMiB"] <= 20)
    row(4, "Packet size on loopback between rx4j peers: ≤ 20 datagrams per MiB over a 100 MiB run at the default "
           "window, -W 32 (client -D)", "; ".join(parts) or not_here, verdict_of(verdicts, []))

    # 5. warm figures: listed for the next run to compare against
    parts, _, missing = ratios("warm", ["send32k", "send128k", "send1m", "rpc1", "rpc8"], 0.0)
    row(5, "Warm figures no lower than the last full run's (docs/benchmarks.md, Speed goals)",
        joined(parts, missing) + f" ({warm_note})", "compare" if parts else "not measured")

    # 6. how the figures were taken
    pinned = machine.get("pinned", "?")
    row(6, "Figures as users get them: the launcher's flags, unpinned, fresh processes",
        f"pinned: {pinned}; rxperf: {machine.get('rx4j', '?')}",
        "unpinned" if pinned.startswith("no") else "pinned (--pinned)")
    return rows


def svg_chart(summary, path):
    """Median rate against -b (log scale) for each implementation pair and set, min–max as whiskers."""
    sizes = {"send8k": 8192, "send32k": 32768, "send128k": 131072, "send1m": 1048576}
    series = {}
    for entry in summary:
        if entry["workload"] in sizes and entry["set"] in ("cold", "warm") and entry.get("median") is not None:
            series.setdefault((entry["set"], entry["pair"]), []).append(
                (sizes[entry["workload"]], entry["min"], entry["median"], entry["max"]))
    width, height, left, right, top, bottom = 720, 420, 70, 200, 40, 60
    xs = sorted({p[0] for pts in series.values() for p in pts}) or [32768, 1048576]
    ymax = max([p[3] for pts in series.values() for p in pts] + [1.0])
    step = 10 ** math.floor(math.log10(ymax))
    for mult in (1, 2, 2.5, 5, 10):
        if ymax / (step * mult) <= 6:
            step *= mult
            break
    ytop = step * math.ceil(ymax / step)
    lx0, lx1 = math.log2(min(xs)) - 0.5, math.log2(max(xs)) + 0.5

    def px(x):
        return left + (math.log2(x) - lx0) / (lx1 - lx0) * (width - left - right)

    def py(y):
        return top + (1 - y / ytop) * (height - top - bottom)

    colours = {("cold", "c2c"): "#1f77b4", ("cold", "rx4j2rx4j"): "#d62728", ("warm", "c2c"): "#6baed6",
               ("warm", "rx4j2rx4j"): "#ff9896", ("cold", "rx4j2c"): "#2ca02c", ("cold", "c2rx4j"): "#9467bd"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">rxperf send rate against -b (median, min–max), '
           f'scripts/bench.sh</text>']
    y = 0.0
    while y <= ytop + 1e-9:
        out.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{width - right}" y2="{py(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:,.0f}</text>')
        y += step
    for x in xs:
        label = f"{x // 1048576} MiB" if x >= 1048576 else f"{x // 1024} KiB"
        out.append(f'<line x1="{px(x):.1f}" y1="{height - bottom}" x2="{px(x):.1f}" y2="{height - bottom + 5}" '
                   f'stroke="black"/>')
        out.append(f'<text x="{px(x):.1f}" y="{height - bottom + 18}" text-anchor="middle">{label}</text>')
    out.append(f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" '
               f'stroke="black"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="black"/>')
    out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 18}" text-anchor="middle">'
               f'-b (bytes per call, log scale)</text>')
    out.append(f'<text x="16" y="{(top + height - bottom) / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(top + height - bottom) / 2:.0f})">Mbit/s</text>')
    legend_y = top + 10
    for key in sorted(series, key=lambda k: (k[0], k[1] != "c2c", k[1])):
        pts = sorted(series[key])
        colour = colours.get(key, "#555")
        dash = ' stroke-dasharray="6 4"' if key[0] == "warm" else ""
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="'
                   + " ".join(f"{px(p[0]):.1f},{py(p[2]):.1f}" for p in pts) + '"/>')
        for x, lo, mid, hi in pts:
            out.append(f'<line x1="{px(x):.1f}" y1="{py(lo):.1f}" x2="{px(x):.1f}" y2="{py(hi):.1f}" '
                       f'stroke="{colour}"/>')
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(mid):.1f}" r="3.5" fill="{colour}"/>')
        out.append(f'<line x1="{width - right + 12}" y1="{legend_y}" x2="{width - right + 36}" y2="{legend_y}" '
                   f'stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{width - right + 42}" y="{legend_y + 4}">{PAIR_NAMES[key[1]]}, {key[0]}</text>')
        legend_y += 20
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def cpu_cell(entry, unit_key):
    if not entry:
        return "–"
    return f"{fmt(entry.get('client' + unit_key))} / {fmt(entry.get('server' + unit_key))}"


def docs_section(summary, rows, machine, floors, svg_name, json_name, syscalls_text="", curve_text=""):
    mode = machine.get("mode")
    lines = [BEGIN, "", "## scripts/bench.sh: rx4j against OpenAFS's C Rx (generated)", "",
             f"Generated by `scripts/bench.sh --{mode}` on {machine.get('date')} (commit {machine.get('git')}, "
             f"wall time {machine.get('wall_seconds')} s); do not edit by hand, rerun the script. "
             "C is our rxperf peer (`scripts/interop/rxperf-peer.c`) on Debian's OpenAFS libafsrpc; rx4j is "
             "`scripts/rxperf`. Cold runs are fresh server and client processes per run; warm runs are "
             f"`--time {machine.get('warm_time')} --omit {machine.get('warm_omit')}`. "
             f"{machine.get('runs')} runs per cold workload and {machine.get('warm_runs')} per warm one, C and rx4j "
             "alternating run by run. "
             f"The raw figures of every run are in `bench-results/{json_name}` (not committed).", "",
             f"Machine: {machine.get('cpus')} × {machine.get('cpu')}; {machine.get('kernel')}; "
             f"{machine.get('java')}; `{machine.get('rx4j')}`; OpenAFS libafsrpc {machine.get('openafs')}; "
             f"pinned: {machine.get('pinned')}; net.core.rmem_max {machine.get('rmem_max')}, wmem_max "
             f"{machine.get('wmem_max')}, rmem_default {machine.get('rmem_default')}; server socket buffers "
             f"granted (ss -m): C `{machine.get('skmem_c') or '?'}`, rx4j `{machine.get('skmem_rx4j') or '?'}`; "
             f"load average {machine.get('load_before')} before, {machine.get('load_after')} after.", ""]
    if mode == "quick":
        lines += ["**This run was `--quick` on a machine shared with other builds: the figures are noisy, "
                  "and several targets are out of its scope.**", ""]
    for label, entry in sorted(floors.items()):
        pp, blast = entry.get("pingpong"), entry.get("blast")
        text = f"Floor ({label}, two C processes, plain UDP): "
        if pp:
            text += (f"ping-pong round trip min {pp['minMicros']:.1f} µs, p50 {pp['p50Micros']:.1f} µs, p99 "
                     f"{pp['p99Micros']:.1f} µs over {pp['roundTrips']:,} round trips")
        if blast:
            text += (f"; blast of {blast['datagramBytes']}-byte datagrams {blast['mbitPerSecond']:,.0f} Mbit/s "
                     f"received ({blast['datagramsPerSecond']:,} datagrams/s)")
        lines += [text + ".", ""]
    lines += ["### Speed goals, as this run measured them", "", "| # | target | measured | result |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['target']} | {r['text']} | {r['measured']} | {r['pass']} |")
    lines.append("")
    # the two-host sets share one rank, so their names break the tie (a set's order is the hash seed's otherwise)
    for run_set in sorted({e["set"] for e in summary}, key=lambda s: (("cold", "warm", "speed").index(s)
                          if s in ("cold", "warm", "speed") else 9, s)):
        if run_set == "speed":
            continue
        entries = [e for e in summary if e["set"] == run_set]
        title = {"cold": "Cold runs (fresh processes)", "warm": f"Warm runs (--time {machine.get('warm_time')} "
                 f"--omit {machine.get('warm_omit')})"}.get(run_set, f"Two hosts: {run_set} (veth, MTU "
                                                                       f"{run_set[len('netns'):]}), cold")
        lines += [f"### {title}", "",
                  "| workload | pair | min | median | max | unit | ×C ↔ C | target | CPU s/GiB client / server | "
                  "CPU µs/call client / server | rpc p99 µs |", "|---|---|---|---|---|---|---|---|---|---|---|"]
        for e in entries:
            r = ratio(summary, run_set, e["workload"], e["pair"]) if e["pair"] != "c2c" else None
            steal_mark = " (steal)" if e["stealAll"] else ""
            lines.append(f"| {WORKLOAD_NAMES.get(e['workload'], e['workload'])} | {PAIR_NAMES[e['pair']]} | "
                         f"{fmt(e.get('min'))} | {fmt(e.get('median'))}{steal_mark} | {fmt(e.get('max'))} | "
                         f"{e['unit']} | "
                         f"{'' if r is None else f'{r:.2f}×'} | {row_target(run_set, e['workload'], e['pair'])} | "
                         f"{cpu_cell(e, 'CpuSecondsPerGiB')} | "
                         f"{cpu_cell(e, 'CpuMicrosPerCall')} | {fmt(e.get('p99Micros'))} |")
        lines.append("")
    left_out = sum(e["stealExcluded"] for e in summary)
    all_stolen = [e for e in summary if e["stealAll"]]
    measured = sum(e["ok"] for e in summary)
    lines += [f"Steal: {left_out} of {measured} runs during which the hypervisor took more than {MAX_STEAL:g} % of the "
              "machine's CPU time (scripts/lib/steal.sh) are left out of their cells' figures; "
              + (f"{len(all_stolen)} cells had no run below it, keep all their runs, are marked (steal) and are not "
                 "judged." if all_stolen else "every cell kept at least one run below it."), ""]
    lines += ["How to read the CPU columns: the server's figure is its process's utime + stime (/proc/PID/stat) "
              "from its port being bound to the client's end (warm: over the client's measured window, from "
              "0.2 s samples); the "
              "client's is its whole process's rusage for cold runs (JVM start and JIT included) and its own "
              "CPU line over the measured window for warm runs (rx4j `-D`, C peer `--cpu`). Per GiB divides by "
              "the payload bytes of the counted calls, per call by the counted calls. ×C ↔ C divides the median by "
              "C ↔ C's median of the same workload; for the first-call rows (ms) it is a ratio of times, lower "
              "is better.", ""]
    if curve_text.strip():
        lines += ["### The calls curve (scripts/bench/calls-curve.sh)", "", "```",
                  "\n".join(line.rstrip() for line in curve_text.strip().splitlines()), "```", ""]
    if syscalls_text.strip():
        lines += ["### Datagram system calls per MiB (scripts/bench/syscalls.sh)", "", "```",
                  "\n".join(line.rstrip() for line in syscalls_text.strip().splitlines()), "```", ""]
    lines += [f"![rxperf send rate against -b, C and rx4j]({svg_name})", "", END]
    return "\n".join(lines) + "\n"


def write_docs(path, section, begin=BEGIN, end=END):
    """Replaces the text between the begin and end markers of the file with section (which carries both
    markers), or appends section when the markers are not there yet."""
    text = read_text(path)
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + section.rstrip("\n") + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read_runs(work, machine):
    """Every run listed in WORK/manifest.tsv, parsed (parse_run)."""
    clk_tck = float(machine.get("clk_tck") or os.sysconf("SC_CLK_TCK"))
    return [parse_run(work, line.split("\t"), clk_tck)
            for line in read_text(os.path.join(work, "manifest.tsv")).splitlines() if line.strip()]


def write_json(out_dir, json_name, document):
    """Writes one run's JSON to OUT/json_name and says so on stderr."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, json_name), "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1, ensure_ascii=False)
        f.write("\n")  # a final newline: mvn verify's .editorconfig check also reads bench-results/
    print(f"bench.sh: wrote {os.path.join(out_dir, json_name)}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--docs")
    parser.add_argument("--svg")
    args = parser.parse_args()

    machine = read_machine(args.work)
    runs = read_runs(args.work, machine)
    floors = read_floor(args.work)
    summary = summarise(runs)
    syscalls_text = read_text(os.path.join(args.work, "syscalls.txt"))
    rows = targets(summary, runs, machine, floors, syscalls_text)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    json_name = f"bench-{machine.get('mode', 'run')}-{stamp}.json"
    write_json(args.out, json_name, {"tool": "scripts/bench.sh", "machine": machine, "floor": floors,
                                     "summary": summary, "targets": rows, "runs": runs})
    if args.svg:
        svg_chart(summary, args.svg)
    if args.docs:
        write_docs(args.docs, docs_section(summary, rows, machine, floors, os.path.basename(args.svg or
                                                                                           "bench-rate.svg"),
                                           json_name, syscalls_text,
                                           read_text(os.path.join(args.work, "calls-curve.txt"))))
        print(f"bench.sh: updated {args.docs} and {args.svg}", file=sys.stderr)
    failed = [r for r in runs if "result" not in r]
    for r in failed:
        print(f"bench.sh: run {r['id']} ({r['set']} {r['pair']} {r['workload']}) gave no result line: "
              f"{r.get('error', '')[:200]}", file=sys.stderr)
    # the table, for the terminal
    for e in summary:
        print(f"{e['set']:8} {WORKLOAD_NAMES.get(e['workload'], e['workload']):38} {PAIR_NAMES[e['pair']]:24} "
              f"{fmt(e.get('min')):>8} {fmt(e.get('median')):>8} {fmt(e.get('max')):>8} {e['unit']}")
    for r in rows:
        print(f"target {r['target']:>2}: {r['pass']:20} {r['measured']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
