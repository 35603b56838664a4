// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.client;

/**
 * How long a client run goes and which calls its figures count: either {@code -T} calls per thread, all counted
 * (OpenAFS rxperf), or iperf3-style {@code --time}/{@code --omit}: every thread starts calls until the duration has
 * passed since the start, and only calls that end at or after {@code start + omit} count. The measured window then
 * runs from {@code start + omit} to the end of the last call. A call that straddles the omit boundary counts whole
 * (its share before the boundary is at most one call's time; the windows this is meant for are seconds long).
 *
 * <p>Pure arithmetic on times the caller reads from its clock (ns), so it is tested without a real clock.
 */
public final class RunSchedule {
    private final int times;
    private final long durationNanos;
    private final long omitNanos;

    private RunSchedule(int times, long durationNanos, long omitNanos) {
        this.times = times;
        this.durationNanos = durationNanos;
        this.omitNanos = omitNanos;
    }

    /**
     * {@code -T}: a fixed number of calls per thread, all counted.
     *
     * @param times calls per thread, ≥ 1
     * @return the schedule
     * @throws IllegalArgumentException if {@code times < 1}
     */
    public static RunSchedule calls(int times) {
        if (times < 1) {
            throw new IllegalArgumentException("times " + times + " < 1");
        }
        return new RunSchedule(times, 0, 0);
    }

    /**
     * {@code --time}/{@code --omit}: calls until the duration has passed, the first {@code omitNanos} left out.
     *
     * @param durationNanos run duration from the start, ns, &gt; 0
     * @param omitNanos leading time left out of the figures, ns, 0 ≤ omit &lt; duration
     * @return the schedule
     * @throws IllegalArgumentException if a duration is out of range
     */
    public static RunSchedule timed(long durationNanos, long omitNanos) {
        if (durationNanos <= 0 || omitNanos < 0 || omitNanos >= durationNanos) {
            throw new IllegalArgumentException("need 0 <= omit < duration, got omit " + omitNanos + " ns, duration "
                    + durationNanos + " ns");
        }
        return new RunSchedule(0, durationNanos, omitNanos);
    }

    /**
     * Whether the run is timed ({@code --time}) rather than counted ({@code -T}).
     *
     * @return true for {@code --time}
     */
    public boolean isTimed() {
        return durationNanos > 0;
    }

    /**
     * Calls per thread of a counted run.
     *
     * @return {@code -T}, or 0 for a timed run
     */
    public int times() {
        return times;
    }

    /**
     * The leading time left out of a timed run.
     *
     * @return ns, 0 for a counted run
     */
    public long omitNanos() {
        return omitNanos;
    }

    /**
     * Whether a thread starts another call.
     *
     * @param doneByThread calls this thread has completed
     * @param startNanos the run's start, ns
     * @param nowNanos now, ns (same clock)
     * @return true if the thread has calls left ({@code -T}) or the duration has not yet passed ({@code --time})
     */
    public boolean startAnother(long doneByThread, long startNanos, long nowNanos) {
        return isTimed() ? nowNanos - startNanos < durationNanos : doneByThread < times;
    }

    /**
     * Whether a completed call counts in the figures.
     *
     * @param startNanos the run's start, ns
     * @param callEndNanos when the call ended, ns (same clock)
     * @return true unless the call ended inside the omitted leading time
     */
    public boolean counts(long startNanos, long callEndNanos) {
        return callEndNanos - startNanos >= omitNanos;
    }

    /**
     * Whether the omitted leading time is over (the measured window has begun).
     *
     * @param startNanos the run's start, ns
     * @param nowNanos now, ns (same clock)
     * @return true once {@code now >= start + omit}
     */
    public boolean windowOpen(long startNanos, long nowNanos) {
        return nowNanos - startNanos >= omitNanos;
    }

    /**
     * The start of the measured window.
     *
     * @param startNanos the run's start, ns
     * @return {@code start + omit}, ns
     */
    public long windowStart(long startNanos) {
        return startNanos + omitNanos;
    }
}
