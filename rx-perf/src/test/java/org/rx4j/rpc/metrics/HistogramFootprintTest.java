// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.function.ObjLongConsumer;
import java.util.function.Supplier;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The measurement behind rx-core's choice of its own fixed-bucket latency histogram over HdrHistogram
 * (docs/embedding.md, "Metrics"): bytes allocated to make one histogram and to record a million values, counted by
 * the JVM's per-thread allocation counter (counts, not times: the figures do not depend on the machine's load).
 * Lives in rx-perf because rx-perf is the module that already depends on HdrHistogram; in rx-core's package to reach
 * the package-private {@link LatencyHistogram}.
 */
class HistogramFootprintTest {
    /** 1 ns .. 1 h, the range a call's latency needs. */
    private static final long HOUR_NS = 3_600_000_000_000L;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocated() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** @return {bytes to make one, bytes to record 10^6 values after a warm-up} */
    private static <H> long[] measure(Supplier<H> make, ObjLongConsumer<H> record) {
        for (int i = 0; i < 50; i++) {
            make.get();
        }
        long before = allocated();
        H h = make.get();
        long made = allocated() - before;
        for (int i = 0; i < 300_000; i++) {
            record.accept(h, i * 997L % 2_000_000_000L);
        }
        // The least of three passes: what the runtime itself allocates on this thread now and then (seen under
        // load) only adds, while an allocation per record would show in every pass (at least 16 MB).
        long least = Long.MAX_VALUE;
        for (int pass = 0; pass < 3; pass++) {
            before = allocated();
            for (int i = 0; i < 1_000_000; i++) {
                record.accept(h, i * 7919L % 2_000_000_000L);
            }
            least = Math.min(least, allocated() - before);
        }
        return new long[] {made, least};
    }

    @Test
    void ownHistogramIsAFractionOfHdrHistogramsAndNeitherAllocatesPerRecord() {
        long[] own = measure(LatencyHistogram::new, LatencyHistogram::record);
        long[] hdr = measure(() -> new Histogram(HOUR_NS, 2), Histogram::recordValue);
        long[] atomic = measure(() -> new AtomicHistogram(HOUR_NS, 2), AtomicHistogram::recordValue);
        System.out.printf("LatencyHistogram %d B, Histogram(1h, 2 digits) %d B, AtomicHistogram %d B; "
                + "per 10^6 records: %d, %d, %d B%n", own[0], hdr[0], atomic[0], own[1], hdr[1], atomic[1]);
        // A thread's allocation counter may include a few hundred bytes of its own bookkeeping.
        assertTrue(own[1] < 4096 && hdr[1] < 4096 && atomic[1] < 4096, "record() allocates nothing: own " + own[1]
                + " B, Histogram " + hdr[1] + " B, AtomicHistogram " + atomic[1] + " B per 10^6 records");
        assertTrue(own[0] < 2_200, "242 counters and three fields: " + own[0]);
        assertTrue(hdr[0] > 15 * own[0], "HdrHistogram at 2 digits: " + hdr[0]);
    }
}
