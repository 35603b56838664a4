package org.rx4j.perf.report;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Per-call latency percentiles of an rpc run, from an HdrHistogram recorded in ns (3 significant digits), in µs.
 *
 * @param p50 median, µs
 * @param p90 90th percentile, µs
 * @param p99 99th percentile, µs
 * @param p999 99.9th percentile, µs
 * @param max largest, µs
 * @param mean mean, µs
 * @param count calls recorded
 */
public record LatencySummary(double p50, double p90, double p99, double p999, double max, double mean, long count) {
    /**
     * Summarizes a histogram.
     *
     * @param nanos latencies in ns
     * @return the summary (all zero for an empty histogram)
     */
    public static LatencySummary of(Histogram nanos) {
        return new LatencySummary(micros(nanos.getValueAtPercentile(50.0)), micros(nanos.getValueAtPercentile(90.0)),
                micros(nanos.getValueAtPercentile(99.0)), micros(nanos.getValueAtPercentile(99.9)),
                micros(nanos.getMaxValue()), nanos.getTotalCount() == 0 ? 0.0 : nanos.getMean() / 1000.0,
                nanos.getTotalCount());
    }

    /**
     * The line printed after an rpc result line.
     *
     * @param callsPerSecond completed calls per second over the run
     * @return e.g. {@code RPC latency usec:\tp50 45.1, p90 60.2, p99 120.5, p99.9 300.1, max 1203.0\t[31234 calls/s]}
     */
    public String line(double callsPerSecond) {
        return String.format(Locale.ROOT, "RPC latency usec:\tp50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f, max %.1f\t"
                + "[%.0f calls/s]", p50, p90, p99, p999, max, callsPerSecond);
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
