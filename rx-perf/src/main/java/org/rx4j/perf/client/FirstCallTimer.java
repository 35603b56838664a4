// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * When the run's first call ended (on any thread or chain): what the first call costs a short run, reported apart
 * from the result (docs/rxperf.md "The first call"). Takes the call's end time when the caller read it; reads the
 * clock itself at most once, for the first call of a run that reads no end times. Any thread.
 */
final class FirstCallTimer {
    private static final long NONE = Long.MIN_VALUE;
    private final LongSupplier nanoClock;
    private final AtomicLong firstEnd = new AtomicLong(NONE);

    /** @param nanoClock the run's monotonic clock, ns */
    FirstCallTimer(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /**
     * A call ended: records the time if it is the run's first.
     *
     * @param endRead whether {@code endNanos} was read from the clock at the call's end
     * @param endNanos the call's end, ns, when read
     */
    void callEnded(boolean endRead, long endNanos) {
        if (firstEnd.get() == NONE) {
            firstEnd.compareAndSet(NONE, endRead ? endNanos : nanoClock.getAsLong());
        }
    }

    /**
     * @param startNanos the run's start, ns from the same clock
     * @return ns from the start to the end of the first call; -1 if no call ended
     */
    long nanosAfter(long startNanos) {
        long end = firstEnd.get();
        return end == NONE ? -1 : Math.max(0, end - startNanos);
    }
}
