// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.rx4j.rpc.LatencyStats;
import org.rx4j.rpc.runtime.ApiAccess;

/**
 * A fixed-bucket latency histogram, ns: bucket 0 holds values below 1,024 ns, then each power of two from 2^10 to
 * 2^39 ns is cut into 8 equal buckets (a value's bucket is at most 1/8 of its size wide: percentiles read within
 * 12.5 %), and the last bucket holds 2^40 ns (about 18 minutes) and more. 242 counters, allocated once;
 * {@link #record} allocates nothing and may run on any thread (the event loop records, readers snapshot). The
 * choice of this over HdrHistogram is measured in docs/embedding.md, "Metrics".
 */
public final class LatencyHistogram {
    /** Sub-buckets per power of two, as a shift: 2^3 = 8. */
    private static final int SUB_BITS = 3;
    private static final int SUBS = 1 << SUB_BITS;
    /** Values below 2^MIN_EXP ns share bucket 0. */
    private static final int MIN_EXP = 10;
    /** Values of 2^MAX_EXP ns and more share the last bucket. */
    private static final int MAX_EXP = 40;
    /** Number of buckets: one below 2^10, 8 per power of two up to 2^40, one above. */
    static final int BUCKETS = 2 + (MAX_EXP - MIN_EXP) * SUBS;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final AtomicLong totalNs = new AtomicLong();
    private final AtomicLong maxNs = new AtomicLong();

    /**
     * Counts one value. Any thread; allocation-free.
     *
     * @param ns the latency, ns (negative values count as 0)
     */
    void record(long ns) {
        long v = Math.max(0, ns);
        counts.incrementAndGet(bucket(v));
        totalNs.addAndGet(v);
        long m;
        while (v > (m = maxNs.get()) && !maxNs.compareAndSet(m, v)) {
            // another thread raised the maximum meanwhile: compare again
        }
    }

    /**
     * @param ns a latency, ns, ≥ 0
     * @return its bucket, 0 .. {@link #BUCKETS} − 1
     */
    static int bucket(long ns) {
        if (ns < (1L << MIN_EXP)) {
            return 0;
        }
        int exp = 63 - Long.numberOfLeadingZeros(ns);
        if (exp >= MAX_EXP) {
            return BUCKETS - 1;
        }
        return 1 + (exp - MIN_EXP) * SUBS + (int) ((ns >>> (exp - SUB_BITS)) & (SUBS - 1));
    }

    /**
     * @param bucket a bucket, 0 .. {@link #BUCKETS} − 1
     * @return the smallest value, ns, above the bucket ({@code Long.MAX_VALUE} for the last)
     */
    public static long upperBoundNs(int bucket) {
        if (bucket == 0) {
            return 1L << MIN_EXP;
        }
        if (bucket == BUCKETS - 1) {
            return Long.MAX_VALUE;
        }
        int exp = MIN_EXP + (bucket - 1) / SUBS;
        int sub = (bucket - 1) % SUBS;
        return (long) (SUBS + sub + 1) << (exp - SUB_BITS);
    }

    /**
     * A copy of the counters. Concurrent {@link #record} calls may be partly in it (a bucket counted, the total
     * not yet): the snapshot's count is the buckets' sum, so percentiles stay consistent.
     *
     * @return the snapshot
     */
    LatencyStats snapshot() {
        long[] c = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            c[i] = counts.get(i);
        }
        return ApiAccess.api().latencyStats(c, totalNs.get(), maxNs.get());
    }
}
