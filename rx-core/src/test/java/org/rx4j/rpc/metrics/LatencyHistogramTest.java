// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.rx4j.rpc.LatencyStats;

/** The fixed-bucket latency histogram: bucket edges, percentile precision, and a record() that allocates nothing. */
class LatencyHistogramTest {
    @Test
    void bucketsTileTheRangeWithoutGaps() {
        assertEquals(0, LatencyHistogram.bucket(0));
        assertEquals(0, LatencyHistogram.bucket(1023));
        assertEquals(1, LatencyHistogram.bucket(1024));
        for (int i = 0; i < LatencyHistogram.BUCKETS - 1; i++) {
            long upper = LatencyHistogram.upperBoundNs(i);
            assertEquals(i, LatencyHistogram.bucket(upper - 1), "last value of bucket " + i);
            assertEquals(i + 1, LatencyHistogram.bucket(upper), "first value above bucket " + i);
        }
        assertEquals(LatencyHistogram.BUCKETS - 1, LatencyHistogram.bucket(Long.MAX_VALUE));
        assertEquals(242, LatencyHistogram.BUCKETS);
    }

    @Test
    void bucketsAreAtMostAnEighthOfTheirValues() {
        for (int i = 2; i < LatencyHistogram.BUCKETS - 1; i++) {
            long lower = LatencyHistogram.upperBoundNs(i - 1);
            long width = LatencyHistogram.upperBoundNs(i) - lower;
            assertTrue(width * 8 <= lower, "bucket " + i + " is " + width + " ns wide from " + lower);
        }
    }

    @Test
    void percentilesReadWithinABucket() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 1000; v++) {
            h.record(v * 1_000_000); // 1 ms .. 1 s
        }
        h.record(-5); // counts as 0
        LatencyStats s = h.snapshot();
        assertEquals(1001, s.count());
        assertEquals(1_000_000_000L, s.maxNs());
        assertEquals(500_500_000_000L, s.totalNs());
        long p50 = s.percentileNs(0.5);
        assertTrue(p50 >= 500_000_000 && p50 <= 500_000_000L * 9 / 8, "p50 " + p50);
        long p99 = s.percentileNs(0.99);
        assertTrue(p99 >= 990_000_000 && p99 <= 1_000_000_000, "p99 " + p99);
        assertEquals(s.maxNs(), s.percentileNs(1.0));
        assertThrows(IllegalArgumentException.class, () -> s.percentileNs(0));
        assertEquals(0, new LatencyHistogram().snapshot().percentileNs(0.99));
    }

    @Test
    void recordAllocatesNothing() throws Exception {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < 200_000; i++) {
            h.record(i * 997L); // warm up (JIT), so the measurement sees the compiled code
        }
        long before = allocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            h.record(i * 7919L);
        }
        long allocated = allocatedBytes() - before;
        // Reading the counter through reflection allocates a few hundred bytes itself; one allocation per record
        // would be 100,000 times 16 bytes or more.
        assertTrue(allocated < 4096, "bytes allocated around 100,000 record() calls: " + allocated);
    }

    /**
     * This thread's allocated bytes, through the JDK's {@code com.sun.management.ThreadMXBean} (read reflectively:
     * the test compiles inside the core module, which does not read jdk.management).
     */
    static long allocatedBytes() throws Exception {
        Class<?> type = Class.forName("com.sun.management.ThreadMXBean");
        Object threads = ManagementFactory.getThreadMXBean();
        return (Long) type.getMethod("getThreadAllocatedBytes", long.class).invoke(threads,
                Thread.currentThread().getId());
    }
}
