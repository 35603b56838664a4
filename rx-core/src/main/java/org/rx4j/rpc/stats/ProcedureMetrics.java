// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.rx4j.rpc.LatencyStats;
import org.rx4j.rpc.RxEndpoint;

/**
 * One procedure's calls on one side of an endpoint, as a read-only snapshot ({@link RxEndpoint#metrics()}): the
 * calls that ended, those that failed by Rx code, and their latency (docs/embedding.md, "Metrics").
 *
 * @param server true for calls this endpoint served, false for calls it made
 * @param serviceId the Rx service id, 0..65535
 * @param opcode the procedure: the request's first 4 bytes, big-endian (rxgen's opcode, rx-wire-facts.md §6), or
 *     {@link #UNKNOWN_OPCODE} for a call that ended before 4 request bytes were seen and for a service registered
 *     with a whole-request handler (its request is not read by the endpoint)
 * @param calls calls that ended, successful or not
 * @param errorsByCode failed calls by their Rx code (negative Rx and rxgen codes, positive application codes; the
 *     peer's abort and local ends alike), ascending by code; success (0) never appears
 * @param latency the calls' durations, ns on the endpoint's clock: a client call from the API call that started it
 *     (waiting for a channel included) to its end (the reply read to its end, or the failure), a server call from
 *     its first packet to its reply's end handed to the engine, or to its failure when it failed before that (not to
 *     the client's ACK of the reply, which a client delays; docs/embedding.md "Metrics")
 */
public record ProcedureMetrics(boolean server, int serviceId, int opcode, long calls, Map<Integer, Long> errorsByCode,
                               LatencyStats latency) {
    /** {@link #opcode()} of calls whose request did not give one. */
    public static final int UNKNOWN_OPCODE = -1;

    /**
     * Copies {@code errorsByCode} into an unmodifiable map sorted by code.
     *
     * @param server see {@link #server()}
     * @param serviceId see {@link #serviceId()}
     * @param opcode see {@link #opcode()}
     * @param calls see {@link #calls()}
     * @param errorsByCode see {@link #errorsByCode()}
     * @param latency see {@link #latency()}
     * @throws NullPointerException if latency is null
     */
    public ProcedureMetrics {
        Objects.requireNonNull(latency, "latency");
        errorsByCode = Collections.unmodifiableMap(new TreeMap<>(errorsByCode));
    }

    /** @return failed calls, every code together */
    public long errors() {
        long n = 0;
        for (long c : errorsByCode.values()) {
            n += c;
        }
        return n;
    }

    /**
     * The snapshot flattened to names, each prefixed {@code <side>.<serviceId>.<opcode>.} (e.g.
     * {@code server.400.3.calls}): {@code calls}, {@code errors}, {@code errors.<code>} per failing code, and
     * {@code latency.count}, {@code latency.meanNs}, {@code latency.p50Ns}, {@code latency.p90Ns},
     * {@code latency.p99Ns}, {@code latency.maxNs}. The JMX view ({@link RxEndpointMXBean#getProcedureMetrics()})
     * is these maps together.
     *
     * @return the names and values, in that order
     */
    public Map<String, Long> toMap() {
        String p = side() + "." + serviceId + "." + opcode + ".";
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put(p + "calls", calls);
        m.put(p + "errors", errors());
        errorsByCode.forEach((code, n) -> m.put(p + "errors." + code, n));
        m.put(p + "latency.count", latency.count());
        m.put(p + "latency.meanNs", latency.meanNs());
        m.put(p + "latency.p50Ns", latency.percentileNs(0.5));
        m.put(p + "latency.p90Ns", latency.percentileNs(0.9));
        m.put(p + "latency.p99Ns", latency.percentileNs(0.99));
        m.put(p + "latency.maxNs", latency.maxNs());
        return Collections.unmodifiableMap(m);
    }

    /** @return {@code "server"} or {@code "client"} */
    public String side() {
        return server ? "server" : "client";
    }
}
