// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

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
 * @param maxAfterFirst the slowest call that was not its thread's first, µs; negative if unknown
 */
public record LatencySummary(double p50, double p90, double p99, double p999, double max, double mean, long count,
        double maxAfterFirst) {
    /**
     * Summarizes a histogram.
     *
     * @param nanos latencies in ns
     * @return the summary (all zero for an empty histogram)
     */
    public static LatencySummary of(Histogram nanos) {
        return of(nanos, -1);
    }

    /**
     * Summarizes a histogram and the slowest later call.
     *
     * @param nanos latencies in ns
     * @param maxLaterCallNanos the slowest call after each thread's first, ns; -1 if unknown
     * @return the summary (all zero for an empty histogram)
     */
    public static LatencySummary of(Histogram nanos, long maxLaterCallNanos) {
        return new LatencySummary(micros(nanos.getValueAtPercentile(50.0)), micros(nanos.getValueAtPercentile(90.0)),
                micros(nanos.getValueAtPercentile(99.0)), micros(nanos.getValueAtPercentile(99.9)),
                micros(nanos.getMaxValue()), nanos.getTotalCount() == 0 ? 0.0 : nanos.getMean() / 1000.0,
                nanos.getTotalCount(), maxLaterCallNanos < 0 ? -1.0 : micros(maxLaterCallNanos));
    }

    /**
     * The line rxperf prints on stderr for an rpc run (stdout keeps OpenAFS's lines).
     *
     * @param callsPerSecond completed calls per second over the run
     * @return e.g. {@code RPC latency usec:\tp50 45.1, p90 60.2, p99 120.5, p99.9 300.1, max 1203.0, after first
     *     410.2\t[31234 calls/s]} ("after first": the slowest call that was not its thread's first; left out when
     *     unknown)
     */
    public String line(double callsPerSecond) {
        String later = maxAfterFirst < 0 ? "" : String.format(Locale.ROOT, ", after first %.1f", maxAfterFirst);
        return String.format(Locale.ROOT, "RPC latency usec:\tp50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f, max %.1f%s\t"
                + "[%.0f calls/s]", p50, p90, p99, p999, max, later, callsPerSecond);
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
