// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The client side of an Rx endpoint for rxperf: one local UDP socket (ephemeral port) from which connections
 * to servers are made, configured by the {@link PerfEndpointOptions} it was created with.
 */
public interface PerfClientTransport extends AutoCloseable {
    /**
     * Creates a connection to a server's service with rxnull security (index 0). Like rx_NewConnection it
     * sends nothing: a server that does not exist shows up on the first call (as RX_CALL_DEAD −1 after the dead
     * time, or another {@link PerfCallException}).
     *
     * @param server the server's address and UDP port; IPv4 or IPv6 (IPv6 works between rx4j peers only)
     * @param serviceId the service id (rxperf: 147, rx-wire-facts.md §10), 1..65535
     * @return a new connection, owned by the caller
     * @throws IOException if the transport is closed or the address cannot be used (e.g. wrong family)
     */
    PerfConnection connect(InetSocketAddress server, int serviceId) throws IOException;

    /**
     * A snapshot of this endpoint's Rx counters for {@code rxperf -D} (rx-wire-facts.md, "Numbers a benchmark should
     * report": packets read/sent per type, data packets sent, resends, acks sent and received, jumbograms,
     * RTT samples, connections, calls, peers).
     *
     * @return counter name to value; names are dotted, the part before the first dot is the group -D prints it
     *     under (e.g. {@code packetsSent.data}, {@code rtt.meanMicros}); units in the name where not a count;
     *     empty when statistics are off ({@code -N})
     */
    Map<String, Long> stats();

    /**
     * Closes every connection and the socket. Idempotent.
     *
     * @throws IOException if closing the socket fails
     */
    @Override
    void close() throws IOException;
}
