// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.time.Duration;

/**
 * How many repeats an {@link RxChannel} may make across all its calls (docs/embedding.md "Channels"), in the shape of
 * Finagle's {@code RetryBudget} and gRPC's retry throttling (gRFC A6 "gRPC Retry Design"): within a sliding window,
 * repeats may number {@code ratio} × the calls started in it, plus a floor of {@code minRetriesPerSecond} × the
 * window's length in seconds. Per-call limits ({@link RxRetryPolicy#maxAttempts()}) still apply; the budget keeps a
 * failing cluster from receiving (1 + maxAttempts − 1) times its load: with the defaults, at most 20 % more calls
 * than the application makes, once the floor (10 per second) is spent. Immutable.
 *
 * @param ratio repeats allowed per call started in the window, 0..1000 (0: only the floor)
 * @param minRetriesPerSecond repeats always allowed per second of the window, whatever the calls, &gt;= 0
 * @param windowNs how long a call or a repeat counts, ns, 1 ms..1 h
 */
public record RxRetryBudget(double ratio, int minRetriesPerSecond, long windowNs) {
    /** Default ratio: 0.2 repeats per call (Finagle's default percentCanRetry). */
    public static final double DEFAULT_RATIO = 0.2;
    /** Default floor: 10 repeats per second (Finagle's default minRetriesPerSec). */
    public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 10;
    /** Default window: 10 s (Finagle's default ttl). */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    /**
     * Checks the ranges above.
     *
     * @throws IllegalArgumentException naming the setting out of range
     */
    public RxRetryBudget {
        if (!(ratio >= 0 && ratio <= 1000)) {
            throw new IllegalArgumentException("ratio must be 0..1000: " + ratio);
        }
        if (minRetriesPerSecond < 0) {
            throw new IllegalArgumentException("minRetriesPerSecond must be >= 0: " + minRetriesPerSecond);
        }
        if (windowNs < 1_000_000L || windowNs > Duration.ofHours(1).toNanos()) {
            throw new IllegalArgumentException("window must be 1 ms..1 h: " + windowNs + " ns");
        }
    }

    /** @return the defaults: ratio 0.2, floor 10 per second, window 10 s */
    public static RxRetryBudget defaults() {
        return new RxRetryBudget(DEFAULT_RATIO, DEFAULT_MIN_RETRIES_PER_SECOND, DEFAULT_WINDOW.toNanos());
    }

    /**
     * @param ratio repeats per call, 0..1000
     * @param minRetriesPerSecond the floor, repeats per second, &gt;= 0
     * @param window how long calls and repeats count, 1 ms..1 h
     * @return the budget
     * @throws IllegalArgumentException if a value is out of range
     */
    public static RxRetryBudget of(double ratio, int minRetriesPerSecond, Duration window) {
        return new RxRetryBudget(ratio, minRetriesPerSecond, window.toNanos());
    }

    /** @return a budget that allows no repeat at all, whatever the per-call policy says */
    public static RxRetryBudget none() {
        return new RxRetryBudget(0, 0, DEFAULT_WINDOW.toNanos());
    }

    /** @return the repeats the floor allows within one window: {@code minRetriesPerSecond} × window seconds */
    public double floorPerWindow() {
        return minRetriesPerSecond * (windowNs / 1e9);
    }
}
