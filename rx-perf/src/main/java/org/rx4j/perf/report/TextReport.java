// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text output of a client run. On stdout ({@link #render}) OpenAFS's lines first: the result line and, with
 * {@code -D}, the client's {@code rx stats:} block ({@link OpenAfsStatsBlock}); then rx4j's additions: the
 * statistics blocks (client, then the in-process server for loopback), the first call's time and last the CPU line
 * ({@link RunReport#cpuLine()}). rpc's latency line goes to stderr ({@link #latencyLine}), so that stdout holds what
 * a script written for OpenAFS's rxperf reads (docs/rxperf.md "Output").
 */
public final class TextReport {
    private TextReport() {
    }

    /**
     * Renders the report.
     *
     * @param report the run's report
     * @return lines without terminators
     */
    public static List<String> render(RunReport report) {
        List<String> lines = new ArrayList<>();
        lines.add(report.resultLine());
        if (report.clientStats() != null) {
            lines.addAll(OpenAfsStatsBlock.render(report.clientStats()));
            lines.addAll(StatsBlock.render("client", report.clientStats()));
        }
        if (report.serverStats() != null) {
            lines.addAll(StatsBlock.render("server", report.serverStats()));
        }
        if (report.clientStats() != null) {
            if (report.result().firstCallNanos() >= 0) {
                lines.add(String.format(Locale.ROOT, "First call:\t%.3f ms (from the start to its end, "
                        + "inside the elapsed time)", report.result().firstCallNanos() / 1e6));
            }
            lines.add(report.cpuLine());    // last, so the blocks stay where -D always put them
        }
        return lines;
    }

    /**
     * rpc's latency line, for stderr.
     *
     * @param report the run's report
     * @return the line ({@link LatencySummary#line}), or null when latency was not recorded (not rpc)
     */
    public static String latencyLine(RunReport report) {
        LatencySummary latency = report.latency();
        return latency == null ? null : latency.line(report.callsPerSecond());
    }
}
