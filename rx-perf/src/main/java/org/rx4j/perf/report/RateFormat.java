// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

/**
 * rxperf's rate, as OpenAFS 1.8 end_and_print_timer computes and prints it (rx-wire-facts.md §10):
 * kbit/s = bytes × 8000.0 / elapsed µs (decimal units, C double arithmetic); shown in Gbit/s if above 10⁶ kbit/s,
 * else Mbit/s if above 1000, else kbit/s, with C's {@code %.4g}.
 */
public final class RateFormat {
    private RateFormat() {
    }

    /**
     * The rate in kbit/s. Elapsed 0 gives infinity (or NaN for 0 bytes), as the C division does.
     *
     * @param bytes bytes counted
     * @param elapsedMicros elapsed time, µs
     * @return kbit/s (1 kbit = 1000 bit)
     */
    public static double kbitPerSecond(long bytes, long elapsedMicros) {
        return bytes * 8000.0 / elapsedMicros;
    }

    /**
     * The rate as OpenAFS prints it inside the brackets.
     *
     * @param kbitPerSecond rate, kbit/s
     * @return e.g. {@code 600.5 Mbit/s}, {@code 1.2 Gbit/s}, {@code 987 kbit/s}
     */
    public static String format(double kbitPerSecond) {
        if (kbitPerSecond > 1_000_000.0) {
            return CFormat.g(kbitPerSecond / 1_000_000.0, 4) + " Gbit/s";
        }
        if (kbitPerSecond > 1000.0) {
            return CFormat.g(kbitPerSecond / 1000.0, 4) + " Mbit/s";
        }
        return CFormat.g(kbitPerSecond, 4) + " kbit/s";
    }
}
