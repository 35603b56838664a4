package org.rx4j.perf.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The text output of a client run: the OpenAFS result line; for rpc a second line with latency percentiles;
 * with {@code -D} the statistics blocks (client, then the in-process server for loopback) and
 * last the CPU line ({@link RunReport#cpuLine()}).
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
        LatencySummary latency = report.latency();
        if (latency != null) {
            lines.add(latency.line(report.callsPerSecond()));
        }
        if (report.clientStats() != null) {
            lines.addAll(StatsBlock.render("client", report.clientStats()));
        }
        if (report.serverStats() != null) {
            lines.addAll(StatsBlock.render("server", report.serverStats()));
        }
        if (report.clientStats() != null) {
            lines.add(report.cpuLine());    // last, so the blocks stay where -D always put them
        }
        return lines;
    }
}
