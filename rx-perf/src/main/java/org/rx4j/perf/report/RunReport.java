// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import java.util.Locale;
import java.util.Map;
import org.rx4j.perf.client.RunResult;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.transport.PerfEndpointOptions;

/**
 * Everything a client run reports, for the text ({@link TextReport}) and JSON ({@link JsonReport}) forms.
 *
 * @param request the request of every call
 * @param threads {@code -t}
 * @param times {@code -T}; for a timed run the counted calls divided by the threads, rounded down
 * @param server server host as given ({@code -s}, or the loopback address)
 * @param port server UDP port
 * @param transportName the transport factory's name
 * @param options the endpoint tunables
 * @param verify whether reply payload was checked
 * @param result the measurements
 * @param clientStats client endpoint counters for {@code -D}, or null without {@code -D}
 * @param serverStats in-process server counters for {@code loopback -D}, or null
 * @param timeSeconds {@code --time}, or null for a counted ({@code -T}) run
 * @param omitSeconds {@code --omit}, or null for a counted run
 */
public record RunReport(RxperfRequest request, int threads, int times, String server, int port, String transportName,
        PerfEndpointOptions options, boolean verify, RunResult result, Map<String, Long> clientStats,
        Map<String, Long> serverStats, Double timeSeconds, Double omitSeconds) {
    private static final double GIB = 1024.0 * 1024 * 1024;

    /**
     * A counted ({@code -T}) run's report.
     *
     * @param request see the record
     * @param threads see the record
     * @param times see the record
     * @param server see the record
     * @param port see the record
     * @param transportName see the record
     * @param options see the record
     * @param verify see the record
     * @param result see the record
     * @param clientStats see the record
     * @param serverStats see the record
     */
    public RunReport(RxperfRequest request, int threads, int times, String server, int port, String transportName,
            PerfEndpointOptions options, boolean verify, RunResult result, Map<String, Long> clientStats,
            Map<String, Long> serverStats) {
        this(request, threads, times, server, port, transportName, options, verify, result, clientStats, serverStats,
                null, null);
    }

    /**
     * Whether this was a timed ({@code --time}) run.
     *
     * @return true if {@code --time} was given
     */
    public boolean isTimed() {
        return timeSeconds != null;
    }

    /**
     * The OpenAFS result line.
     *
     * @return the line, see {@link ResultLine}
     */
    public String resultLine() {
        return ResultLine.format(ResultLine.stamp(request, threads, times), totalBytes(), result.elapsedMicros());
    }

    /**
     * Bytes the rate is computed from (OpenAFS's formula, see {@link ResultLine#totalBytes}); for a timed run the
     * same per-call figure times the counted calls.
     *
     * @return bytes
     */
    public long totalBytes() {
        return isTimed() ? ResultLine.totalBytesOfCalls(request, result.calls())
                : ResultLine.totalBytes(request, threads, times);
    }

    /**
     * Process CPU time (user + system) of the measured window: the client process's, which for {@code loopback}
     * includes the in-process server.
     *
     * @return seconds, or NaN if the platform does not report CPU time
     */
    public double cpuSeconds() {
        return result.cpuNanos() < 0 ? Double.NaN : result.cpuNanos() / 1e9;
    }

    /**
     * CPU seconds per GiB (2^30 bytes) of payload moved by the counted calls.
     *
     * @return s/GiB, or NaN if unknown or no payload moved
     */
    public double cpuSecondsPerGiB() {
        return result.payloadBytes() == 0 ? Double.NaN : cpuSeconds() / (result.payloadBytes() / GIB);
    }

    /**
     * CPU time per counted call.
     *
     * @return µs per call, or NaN if unknown or no calls
     */
    public double cpuMicrosPerCall() {
        return result.calls() == 0 ? Double.NaN : cpuSeconds() * 1e6 / result.calls();
    }

    /**
     * The CPU line of {@code -D}.
     *
     * @return e.g. {@code CPU (process user+sys):	1.234 s, 0.617 s/GiB, 12.3 usec/call}, or
     *     {@code CPU (process user+sys):	not reported by this platform}
     */
    public String cpuLine() {
        if (Double.isNaN(cpuSeconds())) {
            return "CPU (process user+sys):\tnot reported by this platform";
        }
        return String.format(Locale.ROOT, "CPU (process user+sys):\t%.3f s, %.3f s/GiB, %.1f usec/call",
                cpuSeconds(), cpuSecondsPerGiB(), cpuMicrosPerCall());
    }

    /**
     * The rate in kbit/s from {@link #totalBytes()}.
     *
     * @return kbit/s
     */
    public double kbitPerSecond() {
        return RateFormat.kbitPerSecond(totalBytes(), result.elapsedMicros());
    }

    /**
     * Completed calls per second.
     *
     * @return calls/s (infinite if no time elapsed)
     */
    public double callsPerSecond() {
        return result.calls() * 1e9 / result.elapsedNanos();
    }

    /**
     * Latency percentiles, for rpc runs.
     *
     * @return the summary, or null if latency was not recorded
     */
    public LatencySummary latency() {
        return result.latencyNanos() == null ? null
                : LatencySummary.of(result.latencyNanos(), result.maxLaterCallNanos());
    }

    /**
     * Whether this is an rpc run (which reports latency).
     *
     * @return true for {@code -c rpc}
     */
    public boolean isRpc() {
        return request.command() == RxperfCommand.RPC;
    }
}
