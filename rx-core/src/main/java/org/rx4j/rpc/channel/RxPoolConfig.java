// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.rx4j.rpc.RxEndpoint;

/**
 * The settings of an {@link RxConnectionPool} (docs/embedding.md "Pools"): how many Rx connections it opens to one
 * (server, service, security class) at most, how long an idle one is kept, which calls it repeats, and the clock idle
 * time is measured on. Immutable; one config may serve many pools (e.g. one per server of a cell).
 *
 * @param maxConnections most connections open at once, 1..1024 (each runs 4 calls at once, its channels)
 * @param idleTimeoutNs how long a connection without calls is kept before it is closed, ns, &gt; 0
 * @param retry which typed calls are repeated after a connection-level failure
 * @param ticker the clock idle time is measured on (ns, monotonic), or null for the endpoint's ({@link RxEndpoint#now()})
 */
public record RxPoolConfig(int maxConnections, long idleTimeoutNs, RxRetryPolicy retry, LongSupplier ticker) {
    /** Default bound: 8 connections, 32 calls at once (OpenAFS's cache manager also opens several per server). */
    public static final int DEFAULT_MAX_CONNECTIONS = 8;
    /** Default idle time: 60 s. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Checks the ranges above.
     *
     * @throws IllegalArgumentException naming the setting out of range
     * @throws NullPointerException if retry is null
     */
    public RxPoolConfig {
        if (maxConnections < 1 || maxConnections > 1024) {
            throw new IllegalArgumentException("maxConnections must be 1..1024: " + maxConnections);
        }
        if (idleTimeoutNs <= 0) {
            throw new IllegalArgumentException("idleTimeout must be positive: " + idleTimeoutNs + " ns");
        }
        Objects.requireNonNull(retry, "retry");
    }

    /** @return the defaults: 8 connections, 60 s idle, no retries, the endpoint's clock */
    public static RxPoolConfig defaults() {
        return builder().build();
    }

    /** @return a builder starting from the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** Builder for {@link RxPoolConfig}; not thread-safe. */
    public static final class Builder {
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private RxRetryPolicy retry = RxRetryPolicy.none();
        private LongSupplier ticker;

        private Builder() {
        }

        /**
         * @param n most connections to one (server, service, security class), 1..1024 (default 8); past
         *     {@code 4 × n} calls at once, calls wait for a channel on the least busy connection
         * @return this
         */
        public Builder maxConnections(int n) {
            this.maxConnections = n;
            return this;
        }

        /**
         * @param timeout how long a connection without calls stays open, positive (default 60 s)
         * @return this
         */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * @param policy which typed calls are repeated, how often and after what pause (default
         *     {@link RxRetryPolicy#none()})
         * @return this
         */
        public Builder retry(RxRetryPolicy policy) {
            this.retry = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * @param nanos the clock idle time is measured on, ns, monotonic (default the endpoint's clock; tests inject
         *     one to age connections without waiting)
         * @return this
         */
        public Builder ticker(LongSupplier nanos) {
            this.ticker = Objects.requireNonNull(nanos, "nanos");
            return this;
        }

        /**
         * @return the config
         * @throws IllegalArgumentException if a setting is out of range
         */
        public RxPoolConfig build() {
            return new RxPoolConfig(maxConnections, idleTimeout.toNanos(), retry, ticker);
        }
    }
}
