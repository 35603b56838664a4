package org.rx4j.perf.client;

import org.HdrHistogram.Histogram;

/**
 * What one client run measured.
 *
 * @param elapsedNanos time from just after connection setup until every thread finished, ns
 *     (rx-wire-facts.md §10: includes the first reachability ping)
 * @param calls calls completed
 * @param connections connections used ({@code ceil(threads / 4)})
 * @param payloadBytes payload bytes actually moved, both directions (rxperf's header fields and cookies excluded)
 * @param latencyNanos per-call latency (new call to end of call), ns; null unless latency was recorded
 */
public record RunResult(long elapsedNanos, long calls, int connections, long payloadBytes, Histogram latencyNanos) {
    /**
     * Elapsed time truncated to whole microseconds, as OpenAFS computes it from gettimeofday.
     *
     * @return µs
     */
    public long elapsedMicros() {
        return elapsedNanos / 1000;
    }
}
