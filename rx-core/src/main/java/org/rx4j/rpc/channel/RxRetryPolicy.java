// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;

/**
 * Which typed calls an {@link RxConnectionPool} repeats, how often and after what pause (docs/embedding.md "Pools").
 * Only opcodes the application marks idempotent are ever repeated: the mark lives here, on the Java side, not in the
 * {@code .xg} file, so the file stays readable by OpenAFS's rxgen. A call is repeated only after a failure that says
 * the connection, not the procedure, failed ({@link #retryable(Throwable)}); application errors, deadlines, cancels
 * and a closing endpoint end it at once.
 *
 * <p>Backoff (docs/embedding.md "Pools", Backoff), the shape of gRPC's retry policy (gRFC A6 "gRPC Retry Design":
 * initialBackoff, maxBackoff, backoffMultiplier, random jitter): the pause before attempt n + 1 is drawn uniformly
 * from [0, min(max, initial × multiplier<sup>n−1</sup>)] ("full jitter", AWS Architecture Blog, "Exponential Backoff
 * And Jitter"), so clients that failed together do not repeat together. Defaults: initial
 * {@value #DEFAULT_INITIAL_BACKOFF_MS} ms, max {@value #DEFAULT_MAX_BACKOFF_MS} ms, multiplier 2 (doubling): with the
 * default 3 attempts a call pauses at most 20 + 40 = 60 ms (30 ms on average) in all, which lets a busy server (−10:
 * e.g. an rx4j server whose workers and queue were full) end a few handlers of the short procedures AFS services
 * run, or a restarting one (−100) get further, without adding much to a call that fails anyway; the 1 s cap keeps a
 * long {@link #maxAttempts(int)} from waiting ever longer, as gRPC's maxBackoff does. {@link #noBackoff()} repeats
 * at once.
 * Immutable.
 */
public final class RxRetryPolicy {
    /** Default ceiling of the first pause: 20 ms. */
    public static final long DEFAULT_INITIAL_BACKOFF_MS = 20;
    /** Default cap of every pause's ceiling: 1,000 ms. */
    public static final long DEFAULT_MAX_BACKOFF_MS = 1_000;
    /** Default growth of the ceiling per attempt: 2 (doubling). */
    public static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    /** Longest {@code max} {@link #backoff(Duration, Duration, double)} takes: 1 hour. */
    private static final Duration LONGEST_BACKOFF = Duration.ofHours(1);
    private static final RxRetryPolicy NONE = new RxRetryPolicy(Set.of(), 1,
            DEFAULT_INITIAL_BACKOFF_MS * 1_000_000L, DEFAULT_MAX_BACKOFF_MS * 1_000_000L, DEFAULT_BACKOFF_MULTIPLIER);

    private final Set<Integer> idempotent;
    private final int maxAttempts;
    private final long initialBackoffNs;
    private final long maxBackoffNs;
    private final double multiplier;

    private RxRetryPolicy(Set<Integer> idempotent, int maxAttempts, long initialBackoffNs, long maxBackoffNs,
                          double multiplier) {
        this.idempotent = idempotent;
        this.maxAttempts = maxAttempts;
        this.initialBackoffNs = initialBackoffNs;
        this.maxBackoffNs = maxBackoffNs;
        this.multiplier = multiplier;
    }

    /** @return the policy that repeats nothing (the default) */
    public static RxRetryPolicy none() {
        return NONE;
    }

    /**
     * A policy that repeats the given opcodes up to 3 attempts in all, with the default backoff (20 ms initial, 1 s
     * max, doubling, full jitter).
     *
     * @param opcodes the idempotent procedures' opcodes (e.g. from a generated {@code XxOpcodes} class)
     * @return the policy
     */
    public static RxRetryPolicy idempotent(int... opcodes) {
        return new RxRetryPolicy(Arrays.stream(opcodes).boxed().collect(Collectors.toUnmodifiableSet()), 3,
                NONE.initialBackoffNs, NONE.maxBackoffNs, NONE.multiplier);
    }

    /**
     * @param attempts tries in all, the first included, 1..100 (1 repeats nothing)
     * @return a policy with the same opcodes and this bound
     * @throws IllegalArgumentException if attempts is out of range
     */
    public RxRetryPolicy maxAttempts(int attempts) {
        if (attempts < 1 || attempts > 100) {
            throw new IllegalArgumentException("maxAttempts must be 1..100: " + attempts);
        }
        return new RxRetryPolicy(idempotent, attempts, initialBackoffNs, maxBackoffNs, multiplier);
    }

    /**
     * Pauses that double: as {@link #backoff(Duration, Duration, double)} with multiplier 2.
     *
     * @param initial the first pause's ceiling, &gt;= 0
     * @param max the cap of every ceiling, &gt;= initial, at most 1 hour
     * @return a policy with the same opcodes and attempts and this backoff
     * @throws IllegalArgumentException if a duration is out of range
     */
    public RxRetryPolicy backoff(Duration initial, Duration max) {
        return backoff(initial, max, DEFAULT_BACKOFF_MULTIPLIER);
    }

    /**
     * The pauses between attempts: before attempt n + 1, a pause drawn uniformly from [0, ceiling], where the
     * ceiling is min(max, initial × multiplier<sup>n−1</sup>) (gRPC's initialBackoff, maxBackoff and
     * backoffMultiplier, with full jitter).
     *
     * @param initial the first pause's ceiling, &gt;= 0 (zero with max zero: repeat at once)
     * @param max the cap of every ceiling, &gt;= initial, at most 1 hour
     * @param multiplier how the ceiling grows per attempt, 1..10 (1: every ceiling is {@code initial})
     * @return a policy with the same opcodes and attempts and this backoff
     * @throws IllegalArgumentException if a value is out of range
     */
    public RxRetryPolicy backoff(Duration initial, Duration max, double multiplier) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.compareTo(max) > 0 || max.compareTo(LONGEST_BACKOFF) > 0) {
            throw new IllegalArgumentException("backoff needs 0 <= initial <= max <= 1 h: initial " + initial
                    + ", max " + max);
        }
        if (!(multiplier >= 1 && multiplier <= 10)) {
            throw new IllegalArgumentException("backoff multiplier must be 1..10: " + multiplier);
        }
        return new RxRetryPolicy(idempotent, maxAttempts, initial.toNanos(), max.toNanos(), multiplier);
    }

    /** @return a policy with the same opcodes and attempts that repeats at once, without a pause */
    public RxRetryPolicy noBackoff() {
        return backoff(Duration.ZERO, Duration.ZERO);
    }

    /** @return the first pause's ceiling (default 20 ms) */
    public Duration initialBackoff() {
        return Duration.ofNanos(initialBackoffNs);
    }

    /** @return the cap of every pause's ceiling (default 1 s) */
    public Duration maxBackoff() {
        return Duration.ofNanos(maxBackoffNs);
    }

    /** @return the ceiling's growth per attempt (default 2) */
    public double backoffMultiplier() {
        return multiplier;
    }

    /**
     * @param failedAttempt the attempt that just failed, 1 for the first
     * @return the ceiling of the pause before the next attempt, ns: min(max, initial × multiplier<sup>n−1</sup>)
     * @throws IllegalArgumentException if failedAttempt &lt; 1
     */
    public long backoffCeilingNs(int failedAttempt) {
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("attempts count from 1: " + failedAttempt);
        }
        double ceiling = initialBackoffNs * Math.pow(multiplier, failedAttempt - 1);
        return ceiling >= maxBackoffNs ? maxBackoffNs : (long) ceiling;
    }

    /**
     * The pause before the attempt after {@code failedAttempt}: uniform in [0, {@link #backoffCeilingNs(int)}]
     * ("full jitter").
     *
     * @param failedAttempt the attempt that just failed, 1 for the first
     * @param random the source of the jitter (e.g. a seeded one in a test)
     * @return the pause, ns
     * @throws IllegalArgumentException if failedAttempt &lt; 1
     */
    public long backoffNs(int failedAttempt, RandomGenerator random) {
        long ceiling = backoffCeilingNs(failedAttempt);
        return ceiling == 0 ? 0 : random.nextLong(ceiling + 1);
    }

    /** @return tries in all for an idempotent opcode, the first included */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * @param opcode an opcode
     * @return true if it was marked idempotent
     */
    public boolean isIdempotent(int opcode) {
        return idempotent.contains(opcode);
    }

    /** @return the opcodes marked idempotent */
    public Set<Integer> idempotentOpcodes() {
        return idempotent;
    }

    /**
     * Whether a failed attempt may be repeated (for an idempotent opcode): RX_CALL_DEAD (−1: the peer went silent,
     * or is known unreachable), and the peer's RX_CALL_BUSY (−10) or RX_RESTARTING (−100), which a server sends for a
     * call it did not run (rx-wire-facts.md §7). Never a deadline (−3), a cancel (−6), a closing endpoint, an
     * XDR failure or an application's code.
     *
     * @param failure what the attempt failed with
     * @return true if a new attempt may be made
     */
    public static boolean retryable(Throwable failure) {
        if (!(failure instanceof RxException rx) || rx.reason() == RxException.Reason.ENDPOINT_CLOSING) {
            return false;
        }
        return rx.code() == RxCodes.RX_CALL_DEAD
                || rx.remote() && (rx.code() == RxCodes.RX_CALL_BUSY || rx.code() == RxCodes.RX_RESTARTING);
    }

    @Override
    public String toString() {
        return "RxRetryPolicy[idempotent=" + idempotent + ", maxAttempts=" + maxAttempts + ", backoff="
                + initialBackoff().toMillis() + ".." + maxBackoff().toMillis() + " ms, multiplier=" + multiplier + "]";
    }
}
