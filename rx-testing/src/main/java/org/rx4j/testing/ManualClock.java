// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A clock that stands still until the test moves it, for {@code RxEndpoint.Builder.clock}: time-dependent
 * behaviour (deadlines, timers) happens exactly when the test says so, never because the machine was slow.
 * Thread-safe.
 */
public final class ManualClock implements LongSupplier {
    private final AtomicLong nanos;

    /** Starts at an arbitrary non-zero time, so that nothing may assume the clock starts at 0. */
    public ManualClock() {
        this(1_000_000_000_000L);
    }

    /** @param startNanos the initial time, ns */
    public ManualClock(long startNanos) {
        this.nanos = new AtomicLong(startNanos);
    }

    /** @return the current time, ns */
    @Override
    public long getAsLong() {
        return nanos.get();
    }

    /**
     * Moves the clock forward.
     *
     * @param d how far, not negative
     * @return the new time, ns
     * @throws IllegalArgumentException if d is negative
     */
    public long advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a monotonic clock does not go back: " + d);
        }
        return nanos.addAndGet(d.toNanos());
    }
}
