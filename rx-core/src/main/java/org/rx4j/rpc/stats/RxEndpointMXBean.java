// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.util.Map;
import org.rx4j.rpc.RxEndpoint;

/**
 * JMX view of one {@link RxEndpoint}'s totals, registered when {@link RxEndpoint.Builder#jmx(boolean)} is on
 * under {@code org.rx4j:type=RxEndpoint,address="<local address>"}. Each attribute read takes a fresh
 * {@link EndpointStats} snapshot on the endpoint's event loop; counts are since the endpoint opened.
 */
public interface RxEndpointMXBean {
    /** @return the bound address, e.g. {@code /127.0.0.1:7009} */
    String getLocalAddress();

    /** @return bytes sent (Rx header + body) */
    long getBytesSent();

    /** @return bytes received */
    long getBytesReceived();

    /** @return packets sent, every type */
    long getPacketsSent();

    /** @return packets received, every type */
    long getPacketsReceived();

    /** @return DATA packets retransmitted */
    long getResends();

    /** @return retransmission timeouts that fired */
    long getRetransmitTimeouts();

    /** @return jumbograms sent */
    long getJumbogramsSent();

    /** @return calls started (client and server) */
    long getCallsStarted();

    /** @return calls ended without error */
    long getCallsSucceeded();

    /** @return calls ended with an abort code */
    long getCallsFailed();

    /** @return live connections */
    int getConnections();

    /** @return known peers */
    int getPeers();

    /** @return datagrams dropped because they did not decode */
    long getMalformedDatagrams();

    /**
     * Per-procedure calls, errors by Rx code and latency percentiles of both sides, from a fresh
     * {@link RxEndpoint#metrics()}: every procedure's {@link ProcedureMetrics#toMap()} together (keys such as
     * {@code server.400.3.latency.p99Ns}; docs/embedding.md, "Metrics").
     *
     * @return the names and values
     */
    Map<String, Long> getProcedureMetrics();
}
