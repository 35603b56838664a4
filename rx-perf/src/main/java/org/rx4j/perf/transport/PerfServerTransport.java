// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The server side of an Rx endpoint for rxperf: one UDP socket offering one service with the rxnull security
 * object at index 0, reachability checks on (rx-wire-facts.md §6 item 2, as OpenAFS rxperf's server), configured by
 * the {@link PerfEndpointOptions} it was created with (including minProcs/maxProcs: calls beyond maxProcs
 * wait for a thread).
 */
public interface PerfServerTransport extends AutoCloseable {
    /**
     * Binds the socket and starts serving. Each incoming call of {@code serviceId} runs
     * {@link PerfCallHandler#handle} on a server thread (at most maxProcs at once). Calls may arrive from any number
     * of connections and clients. Call once.
     *
     * @param bind the local address and UDP port; port 0 picks an ephemeral port; a wildcard address serves all
     *     interfaces (IPv4 and, where the JVM is dual-stack, IPv6)
     * @param serviceId the service id to offer (rxperf: 147), 1..65535
     * @param handler the request handler, shared by all server threads
     * @return the bound UDP port
     * @throws IOException if the socket cannot be bound (e.g. port in use) or the server was already started
     */
    int start(InetSocketAddress bind, int serviceId, PerfCallHandler handler) throws IOException;

    /**
     * A snapshot of this endpoint's Rx counters; same naming as {@link PerfClientTransport#stats()}.
     *
     * @return counter name to value; empty when statistics are off
     */
    Map<String, Long> stats();

    /**
     * Stops serving: calls in progress are aborted, the socket is closed. Idempotent.
     *
     * @throws IOException if closing the socket fails
     */
    @Override
    void close() throws IOException;
}
