// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.util.Map;
import org.rx4j.rpc.RxEndpoint;

/**
 * JMX view of one {@link RxEndpoint}'s totals, registered when {@link RxEndpoint.Builder#jmx(boolean)} is on
 * under {@code org.rx4j:type=RxEndpoint,address="<local address>"}. Besides the attributes below, the MBean has one
 * read-only {@code long} attribute per {@link org.rx4j.counters.RxCounter}, named by its key (e.g.
 * {@code resends}, {@code security.challengesSent}), and per label of a labelled counter (e.g.
 * {@code packetsSent.DATA}), each with JMX's {@code units} and {@code metricType} descriptor fields. Each attribute
 * read takes a fresh {@link EndpointStats} snapshot on the endpoint's event loop (one for all the counters asked
 * together); counts are since the endpoint opened.
 */
public interface RxEndpointMXBean {
    /** @return the bound address, e.g. {@code /127.0.0.1:7009} */
    String getLocalAddress();

    /** @return live connections */
    int getConnections();

    /** @return known peers */
    int getPeers();

    /**
     * Per-procedure calls, errors by Rx code and latency percentiles of both sides, from a fresh
     * {@link RxEndpoint#metrics()}: every procedure's {@link ProcedureMetrics#toMap()} together (keys such as
     * {@code server.400.3.latency.p99Ns}; docs/embedding.md, "Metrics").
     *
     * @return the names and values
     */
    Map<String, Long> getProcedureMetrics();
}
