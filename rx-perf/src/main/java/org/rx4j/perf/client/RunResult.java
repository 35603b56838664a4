// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

import org.HdrHistogram.Histogram;

/**
 * What one client run measured.
 *
 * @param elapsedNanos time from just after connection setup (plus {@code --omit}) until every thread finished, ns
 *     (rx-wire-facts.md §10: includes the first reachability ping)
 * @param calls calls counted (all calls of a {@code -T} run; those ending after the omitted time of a timed run)
 * @param connections connections used ({@code ceil(threads / 4)})
 * @param payloadBytes payload bytes moved by the counted calls, both directions (rxperf's header fields and cookies
 *     excluded)
 * @param latencyNanos per-call latency (new call to end of call), ns; null unless latency was recorded
 * @param cpuNanos process CPU time (user + system, all threads) during the measured window, ns; -1 if unknown
 * @param omittedCalls calls completed inside {@code --omit}'s leading time, not counted in the other figures
 * @param maxLaterCallNanos the slowest counted call that was not its thread's first (the first pays for connection
 *     set-up and the reachability check, rx-wire-facts.md §10), ns; -1 if latency was not recorded or no such call
 *     was counted (the speed goal "no call after the first slower than 20 ms" reads it, docs/benchmarks.md)
 * @param firstCallNanos from the run's start (after connection setup) to the end of the first call to end, ns
 *     (inside the measured time of a {@code -T} run: the first call's cost, docs/rxperf.md "The first call"); -1 if
 *     unknown
 */
public record RunResult(long elapsedNanos, long calls, int connections, long payloadBytes, Histogram latencyNanos,
        long cpuNanos, long omittedCalls, long maxLaterCallNanos, long firstCallNanos) {
    /**
     * A result without the first call's time.
     *
     * @param elapsedNanos see the record
     * @param calls see the record
     * @param connections see the record
     * @param payloadBytes see the record
     * @param latencyNanos see the record
     * @param cpuNanos see the record
     * @param omittedCalls see the record
     * @param maxLaterCallNanos see the record
     */
    public RunResult(long elapsedNanos, long calls, int connections, long payloadBytes, Histogram latencyNanos,
            long cpuNanos, long omittedCalls, long maxLaterCallNanos) {
        this(elapsedNanos, calls, connections, payloadBytes, latencyNanos, cpuNanos, omittedCalls, maxLaterCallNanos,
                -1);
    }

    /**
     * A result without the later-call maximum.
     *
     * @param elapsedNanos see the record
     * @param calls see the record
     * @param connections see the record
     * @param payloadBytes see the record
     * @param latencyNanos see the record
     * @param cpuNanos see the record
     * @param omittedCalls see the record
     */
    public RunResult(long elapsedNanos, long calls, int connections, long payloadBytes, Histogram latencyNanos,
            long cpuNanos, long omittedCalls) {
        this(elapsedNanos, calls, connections, payloadBytes, latencyNanos, cpuNanos, omittedCalls, -1);
    }

    /**
     * A counted run's result without a CPU figure.
     *
     * @param elapsedNanos see the record
     * @param calls see the record
     * @param connections see the record
     * @param payloadBytes see the record
     * @param latencyNanos see the record
     */
    public RunResult(long elapsedNanos, long calls, int connections, long payloadBytes, Histogram latencyNanos) {
        this(elapsedNanos, calls, connections, payloadBytes, latencyNanos, -1, 0);
    }

    /**
     * Elapsed time truncated to whole microseconds, as OpenAFS computes it from gettimeofday.
     *
     * @return µs
     */
    public long elapsedMicros() {
        return elapsedNanos / 1000;
    }
}
