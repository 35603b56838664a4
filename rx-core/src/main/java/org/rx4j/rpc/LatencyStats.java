// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.util.Arrays;
import org.rx4j.rpc.metrics.LatencyHistogram;

/**
 * A snapshot of one procedure's call latencies, ns, on the endpoint's clock: how many, their sum and maximum, and
 * a fixed-bucket histogram (bucket 0 below 1,024 ns, then 8 buckets per power of two up to 2^40 ns, then one
 * bucket above; docs/embedding.md, "Metrics"). Percentiles are read from the buckets, within 12.5 % of the true
 * value. Immutable.
 */
public final class LatencyStats {
    private final long[] counts;
    private final long count;
    private final long totalNs;
    private final long maxNs;

    /**
     * @param counts the bucket counts, {@link LatencyHistogram#BUCKETS} of them (not copied: owned by this)
     * @param totalNs the sum of the values, ns
     * @param maxNs the largest value, ns
     */
    LatencyStats(long[] counts, long totalNs, long maxNs) {
        this.counts = counts;
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        this.count = n;
        this.totalNs = totalNs;
        this.maxNs = maxNs;
    }

    /** @return values recorded (calls ended) */
    public long count() {
        return count;
    }

    /** @return the sum of the values, ns */
    public long totalNs() {
        return totalNs;
    }

    /** @return the largest value, ns; 0 when none */
    public long maxNs() {
        return maxNs;
    }

    /** @return the mean, ns; 0 when none */
    public long meanNs() {
        return count == 0 ? 0 : totalNs / count;
    }

    /**
     * The value below which a share {@code q} of the calls ended: the upper bound of the bucket holding the
     * q-th value, capped at {@link #maxNs()}.
     *
     * @param q the share, 0 &lt; q ≤ 1 (0.5 for the median, 0.99 for p99)
     * @return the percentile, ns; 0 when none
     * @throws IllegalArgumentException if q is outside (0, 1]
     */
    public long percentileNs(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("percentile share must be in (0, 1]: " + q);
        }
        if (count == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * count);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(LatencyHistogram.upperBoundNs(i) - 1, maxNs);
            }
        }
        return maxNs;
    }

    /** @return the number of buckets (fixed) */
    public int buckets() {
        return counts.length;
    }

    /**
     * @param bucket 0 .. {@link #buckets()} − 1
     * @return values in the bucket
     */
    public long bucketCount(int bucket) {
        return counts[bucket];
    }

    /**
     * @param bucket 0 .. {@link #buckets()} − 1
     * @return the smallest value above the bucket, ns ({@code Long.MAX_VALUE} for the last)
     */
    public long bucketUpperBoundNs(int bucket) {
        java.util.Objects.checkIndex(bucket, counts.length);
        return LatencyHistogram.upperBoundNs(bucket);
    }

    /** @return e.g. {@code count=12 mean=310000ns p50=294911ns p99=458751ns max=460001ns} */
    @Override
    public String toString() {
        return "count=" + count + " mean=" + meanNs() + "ns p50=" + percentileNs(0.5) + "ns p99="
                + percentileNs(0.99) + "ns max=" + maxNs + "ns";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LatencyStats s && s.totalNs == totalNs && s.maxNs == maxNs
                && Arrays.equals(s.counts, counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts) * 31 + Long.hashCode(totalNs);
    }
}
