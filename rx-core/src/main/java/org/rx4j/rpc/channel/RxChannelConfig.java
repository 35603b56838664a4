// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.rx4j.rpc.RxEndpoint;

/**
 * The settings of an {@link RxChannel} (docs/embedding.md "Channels"): how calls are spread over the addresses, when
 * an address is ejected and for how long, which calls are repeated on another address and within what budget, each
 * address's pool, and the clock ejection times are measured on. Immutable.
 *
 * @param balancing how an address is picked for each attempt
 * @param consecutiveFailures attempts in a row that fail at the connection level (−1, or the server's −10 or −100)
 *     after which an address is ejected, 1..1000 (Envoy's outlier detection, consecutive_5xx)
 * @param baseEjectionNs how long the first ejection lasts, ns, &gt; 0; each ejection in a row (a failed re-probe)
 *     doubles it, up to {@code maxEjectionNs}
 * @param maxEjectionNs the longest ejection, ns, &gt;= baseEjectionNs
 * @param maxEjectedPercent most addresses ejected at once, percent of the addresses, 0..100 (at least one address
 *     may always be ejected unless 0)
 * @param retry which typed calls are repeated, how often in all and with what pause; a repeat goes to another address
 *     when one is in service
 * @param budget how many repeats the whole channel may make, relative to its calls
 * @param pool each address's pool (bound, idle time, ticker); its retry policy is not used: the channel repeats
 * @param ticker the clock ejections and the budget's window are measured on (ns, monotonic), or null for the
 *     endpoint's ({@link RxEndpoint#now()})
 */
public record RxChannelConfig(Balancing balancing, int consecutiveFailures, long baseEjectionNs, long maxEjectionNs,
                              int maxEjectedPercent, RxRetryPolicy retry, RxRetryBudget budget, RxPoolConfig pool,
                              LongSupplier ticker) {
    /** Default consecutive failures before an ejection: 5 (Envoy's consecutive_5xx outlier detection). */
    public static final int DEFAULT_CONSECUTIVE_FAILURES = 5;
    /** Default first ejection: 30 s (Envoy's and gRPC's base ejection time). */
    public static final Duration DEFAULT_BASE_EJECTION = Duration.ofSeconds(30);
    /** Default longest ejection: 300 s (Envoy's and gRPC's max ejection time). */
    public static final Duration DEFAULT_MAX_EJECTION = Duration.ofSeconds(300);
    /** Default share of addresses that may be ejected at once: 50 %. */
    public static final int DEFAULT_MAX_EJECTED_PERCENT = 50;

    /** How a channel picks the address of an attempt among those in service. */
    public enum Balancing {
        /** Each address in turn, in list order (gRPC's round_robin). */
        ROUND_ROBIN,
        /**
         * The address with the fewest attempts running from this channel now; ties go in turn (Finagle's and
         * Envoy's least-loaded / least-request with a full scan, fine for the few servers of an AFS cell).
         */
        LEAST_OUTSTANDING
    }

    /**
     * Checks the ranges above.
     *
     * @throws IllegalArgumentException naming the setting out of range
     * @throws NullPointerException if balancing, retry, budget or pool is null
     */
    public RxChannelConfig {
        Objects.requireNonNull(balancing, "balancing");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(pool, "pool");
        if (consecutiveFailures < 1 || consecutiveFailures > 1000) {
            throw new IllegalArgumentException("consecutiveFailures must be 1..1000: " + consecutiveFailures);
        }
        if (baseEjectionNs <= 0 || maxEjectionNs < baseEjectionNs) {
            throw new IllegalArgumentException("need 0 < baseEjection <= maxEjection: " + baseEjectionNs + " ns, "
                    + maxEjectionNs + " ns");
        }
        if (maxEjectedPercent < 0 || maxEjectedPercent > 100) {
            throw new IllegalArgumentException("maxEjectedPercent must be 0..100: " + maxEjectedPercent);
        }
    }

    /** @return the defaults: round robin, 5 failures, 30..300 s ejections, 50 %, no repeats, default budget and pool */
    public static RxChannelConfig defaults() {
        return builder().build();
    }

    /** @return a builder starting from the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param ejectionsInARow the ejection's number in a row without a successful re-probe between, 1 for the first
     * @return how long that ejection lasts, ns: base × 2<sup>n−1</sup>, at most the max
     */
    public long ejectionNs(int ejectionsInARow) {
        int doublings = Math.min(Math.max(ejectionsInARow - 1, 0), 40);
        long ns = baseEjectionNs;
        for (int i = 0; i < doublings && ns < maxEjectionNs; i++) {
            ns *= 2;
        }
        return Math.min(ns, maxEjectionNs);
    }

    /** Builder for {@link RxChannelConfig}; not thread-safe. */
    public static final class Builder {
        private Balancing balancing = Balancing.ROUND_ROBIN;
        private int consecutiveFailures = DEFAULT_CONSECUTIVE_FAILURES;
        private Duration baseEjection = DEFAULT_BASE_EJECTION;
        private Duration maxEjection = DEFAULT_MAX_EJECTION;
        private int maxEjectedPercent = DEFAULT_MAX_EJECTED_PERCENT;
        private RxRetryPolicy retry = RxRetryPolicy.none();
        private RxRetryBudget budget = RxRetryBudget.defaults();
        private RxPoolConfig pool = RxPoolConfig.defaults();
        private LongSupplier ticker;

        private Builder() {
        }

        /**
         * @param b how addresses are picked (default {@link Balancing#ROUND_ROBIN})
         * @return this
         */
        public Builder balancing(Balancing b) {
            this.balancing = Objects.requireNonNull(b, "balancing");
            return this;
        }

        /**
         * @param n connection-level failures in a row that eject an address, 1..1000 (default 5)
         * @return this
         */
        public Builder consecutiveFailures(int n) {
            this.consecutiveFailures = n;
            return this;
        }

        /**
         * @param base the first ejection's length, positive (default 30 s)
         * @param max the longest ejection, at least {@code base} (default 300 s)
         * @return this
         */
        public Builder ejection(Duration base, Duration max) {
            this.baseEjection = Objects.requireNonNull(base, "base");
            this.maxEjection = Objects.requireNonNull(max, "max");
            return this;
        }

        /**
         * @param percent most addresses ejected at once, 0..100 (default 50; 0 ejects none)
         * @return this
         */
        public Builder maxEjectedPercent(int percent) {
            this.maxEjectedPercent = percent;
            return this;
        }

        /**
         * @param policy which typed calls are repeated, at most how many attempts in all, with what pause (default
         *     {@link RxRetryPolicy#none()})
         * @return this
         */
        public Builder retry(RxRetryPolicy policy) {
            this.retry = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * @param b the channel-wide repeat budget (default {@link RxRetryBudget#defaults()})
         * @return this
         */
        public Builder budget(RxRetryBudget b) {
            this.budget = Objects.requireNonNull(b, "budget");
            return this;
        }

        /**
         * @param config each address's pool settings (default {@link RxPoolConfig#defaults()}); its retry policy is
         *     replaced by none
         * @return this
         */
        public Builder pool(RxPoolConfig config) {
            this.pool = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * @param nanos the clock ejections and the budget are measured on, ns, monotonic (default the endpoint's;
         *     tests inject one to pass an ejection without waiting)
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
        public RxChannelConfig build() {
            return new RxChannelConfig(balancing, consecutiveFailures, baseEjection.toNanos(), maxEjection.toNanos(),
                    maxEjectedPercent, retry, budget, pool, ticker);
        }
    }
}
