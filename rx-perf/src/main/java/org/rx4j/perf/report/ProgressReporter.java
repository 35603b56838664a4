// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * {@code --interval}: every interval, one line on stderr with the payload bytes moved since the previous line and
 * their rate, e.g. {@code [   1.0-   2.0 sec]\t     125829120 bytes\t[1.007 Gbit/s]}, and with path statistics
 * the RTT, cwnd and resends of the interval ({@code \trtt 10.31 ms\tcwnd 84\tresends 3}). Payload bytes are those
 * actually moved in both directions (not OpenAFS's threads × times × bytes formula). With the endpoint's statistics
 * they are counted per packet: bytes the server hard-acked plus bytes handed to the client in order
 * ({@code payloadBytesAcked + payloadBytesDelivered}); the run's own counter moves per written chunk or per
 * finished call (up to 1 MiB at once), which printed zero-byte lines on slow paths while data flowed. Runs on its
 * own daemon thread.
 */
public final class ProgressReporter implements AutoCloseable {
    /** Statistics key: payload bytes the peer hard-acked (rx-core's CounterStats). */
    static final String ACKED = "payloadBytesAcked";
    /** Statistics key: payload bytes handed to the application in order. */
    static final String DELIVERED = "payloadBytesDelivered";
    /** Statistics key: calls that ended without error. */
    static final String SUCCEEDED = "callsSucceeded";
    private final LongAdder moved;
    private final PrintWriter err;
    private final long startNanos;
    private final LongSupplier nanoClock;
    private ScheduledExecutorService timer;
    /** The end of the last printed interval (with an interval: a boundary start + k × interval), ns. */
    private long lastNanos;
    /** When the byte counters were last read, ns: the rate's time base. */
    private long lastReadNanos;
    private long lastBytes;
    private boolean closed;
    private final Supplier<Map<String, Long>> pathStats;
    private long lastResends;
    /** rxperf's header bytes per call, taken out of the per-packet counts (docs/rxperf.md "--interval progress"). */
    private final long headerBytesPerCall;
    /** Header bytes counted so far, for the interval's {@code headers} field. */
    private long lastHeaderBytes;
    /** The interval given to {@link #start}, ns; 0 before. */
    private long intervalNanos;

    /**
     * @param moved the run's payload byte counter
     * @param err where lines go (stderr)
     * @param startNanos the run's start time, ns from {@code nanoClock}
     * @param nanoClock monotonic clock, ns
     */
    public ProgressReporter(LongAdder moved, PrintWriter err, long startNanos, LongSupplier nanoClock) {
        this(moved, err, startNanos, nanoClock, null);
    }

    /**
     * A reporter whose lines also show the path (docs/rxperf.md): {@code rtt} (the busiest peer's srtt, ms), {@code
     * cwnd} (packets) and {@code resends} in the interval, read from the endpoint's flattened statistics ({@code
     * path.srttUs}, {@code cc.cwnd}, {@code resends}); keys that are missing print as 0.
     *
     * @param moved the run's payload byte counter
     * @param err where lines go (stderr)
     * @param startNanos the run's start time, ns from {@code nanoClock}
     * @param nanoClock monotonic clock, ns
     * @param pathStats the endpoint's statistics, or null for bytes and rate only
     */
    public ProgressReporter(LongAdder moved, PrintWriter err, long startNanos, LongSupplier nanoClock,
            Supplier<Map<String, Long>> pathStats) {
        this(moved, err, startNanos, nanoClock, pathStats, 0);
    }

    /**
     * A reporter whose byte figure is the application payload, as the result line's: the per-packet counts less
     * rxperf's own bytes (parameter block, sizes, cookie) of every call that completed, which the line shows apart
     * ({@code \theaders N bytes}).
     *
     * @param moved the run's payload byte counter
     * @param err where lines go (stderr)
     * @param startNanos the run's start time, ns from {@code nanoClock}
     * @param nanoClock monotonic clock, ns
     * @param pathStats the endpoint's statistics, or null for bytes and rate only
     * @param headerBytesPerCall rxperf's header bytes per call ({@code RxperfRequest.headerBytesPerCall()})
     */
    public ProgressReporter(LongAdder moved, PrintWriter err, long startNanos, LongSupplier nanoClock,
            Supplier<Map<String, Long>> pathStats, long headerBytesPerCall) {
        this.headerBytesPerCall = headerBytesPerCall;
        this.pathStats = pathStats;
        this.moved = moved;
        this.err = err;
        this.startNanos = startNanos;
        this.nanoClock = nanoClock;
        this.lastNanos = startNanos;
        this.lastReadNanos = startNanos;
        this.lastBytes = movedBytes(pathStats == null ? null : pathStats.get());
    }

    /**
     * @return payload bytes moved so far: per packet from the statistics when they have it (less the header bytes of
     *     the calls that completed), else the run's counter
     */
    private long movedBytes(Map<String, Long> stats) {
        if (stats != null && stats.containsKey(ACKED) && stats.containsKey(DELIVERED)) {
            return stats.get(ACKED) + stats.get(DELIVERED) - headerBytes(stats);
        }
        return moved.sum();
    }

    /** @return rxperf's header bytes of the calls completed so far (the client endpoint's callsSucceeded) */
    private long headerBytes(Map<String, Long> stats) {
        return stats == null ? 0 : headerBytesPerCall * stats.getOrDefault(SUCCEEDED, 0L);
    }

    /**
     * Starts printing one line per interval. Lines end on the boundaries start + k × interval, whenever the timer
     * runs: a timer that runs late (a loaded machine) neither shifts the later boundaries nor makes the run's end
     * look like a partial interval, so {@code --time 3 --interval 1} gives three lines however the timer and the
     * run's end fall.
     *
     * @param intervalNanos the interval, ns, &gt; 0
     */
    public synchronized void start(long intervalNanos) {
        this.intervalNanos = intervalNanos;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "rxperf-progress");
            thread.setDaemon(true);
            return thread;
        });
        long firstDelay = Math.max(0, startNanos + intervalNanos - nanoClock.getAsLong());
        timer.scheduleAtFixedRate(() -> tick(nanoClock.getAsLong()), firstDelay, intervalNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Prints the line for the interval that ends at {@code nowNanos}; after {@link #start}, for the whole intervals
     * that ended by then (one line; the line's end is the last boundary reached, within 1 % of an interval).
     *
     * @param nowNanos the current time, ns from the same clock as the start time
     * @return the line printed, or null after {@link #close()} or when no whole interval ended since the last line
     */
    public synchronized String tick(long nowNanos) {
        if (closed) {
            return null;
        }
        long endNanos = nowNanos;
        if (intervalNanos > 0) {
            long whole = (nowNanos - startNanos + intervalNanos / 100) / intervalNanos;
            endNanos = startNanos + whole * intervalNanos;
            if (endNanos <= lastNanos) {
                return null;
            }
        }
        Map<String, Long> m = pathStats == null ? null : pathStats.get();
        long bytes = movedBytes(m);
        long intervalBytes = bytes - lastBytes;
        long micros = (nowNanos - lastReadNanos) / 1000;
        String line = String.format(Locale.ROOT, "[%6.1f-%6.1f sec]\t%14d bytes\t[%s]",
                (lastNanos - startNanos) / 1e9, (endNanos - startNanos) / 1e9, intervalBytes,
                RateFormat.format(RateFormat.kbitPerSecond(intervalBytes, micros)));
        if (m != null) {
            long resends = m.getOrDefault("resends", 0L);
            // Before the first sample the srtt is the 3 s preset, not a measurement (docs/rxperf.md).
            String rtt = m.getOrDefault("rttSamples", 1L) == 0 ? "-"
                    : String.format(Locale.ROOT, "%.2f ms", m.getOrDefault("path.srttUs", 0L) / 1000.0);
            line += String.format(Locale.ROOT, "\trtt %s\tcwnd %d\tresends %d", rtt, m.getOrDefault("cc.cwnd", 0L),
                    resends - lastResends);
            lastResends = resends;
            if (headerBytesPerCall > 0) {
                long headers = headerBytes(m);
                line += String.format(Locale.ROOT, "\theaders %d bytes", headers - lastHeaderBytes);
                lastHeaderBytes = headers;
            }
        }
        err.println(line);
        err.flush();
        lastNanos = endNanos;
        lastReadNanos = nowNanos;
        lastBytes = bytes;
        return line;
    }

    /**
     * Ends the run at {@code nowNanos}: prints the line of the whole intervals that ended since the last line (the
     * timer's tick for the run's last boundary races with the run's end; whichever comes first prints it, the other
     * finds nothing new), then stops. A partial interval at the end prints nothing.
     *
     * @param nowNanos the run's end, ns from the same clock as the start time
     */
    public synchronized void finish(long nowNanos) {
        if (intervalNanos > 0) {
            tick(nowNanos);
        }
        close();
    }

    /** Stops the timer; no further lines. */
    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
