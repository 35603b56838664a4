package org.rx4j.perf.report;

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
 * @param times {@code -T}
 * @param server server host as given ({@code -s}, or the loopback address)
 * @param port server UDP port
 * @param transportName the transport factory's name
 * @param options the endpoint tunables
 * @param verify whether reply payload was checked
 * @param result the measurements
 * @param clientStats client endpoint counters for {@code -D}, or null without {@code -D}
 * @param serverStats in-process server counters for {@code loopback -D}, or null
 */
public record RunReport(RxperfRequest request, int threads, int times, String server, int port, String transportName,
        PerfEndpointOptions options, boolean verify, RunResult result, Map<String, Long> clientStats,
        Map<String, Long> serverStats) {

    /**
     * The OpenAFS result line.
     *
     * @return the line, see {@link ResultLine}
     */
    public String resultLine() {
        return ResultLine.format(ResultLine.stamp(request, threads, times), totalBytes(), result.elapsedMicros());
    }

    /**
     * Bytes the rate is computed from (OpenAFS's formula, see {@link ResultLine#totalBytes}).
     *
     * @return bytes
     */
    public long totalBytes() {
        return ResultLine.totalBytes(request, threads, times);
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
        return result.latencyNanos() == null ? null : LatencySummary.of(result.latencyNanos());
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
