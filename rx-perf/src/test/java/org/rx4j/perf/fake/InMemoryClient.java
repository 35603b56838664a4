// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.fake;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.perf.transport.PerfEndpointOptions;

/** The client endpoint of the in-memory transport. */
public final class InMemoryClient implements PerfClientTransport {
    final InMemoryTransportFactory factory;
    final PerfEndpointOptions options;
    final LongAdder callsStarted = new LongAdder();
    private final List<InMemoryConnection> connections = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    InMemoryClient(InMemoryTransportFactory factory, PerfEndpointOptions options) {
        this.factory = factory;
        this.options = options;
    }

    @Override
    public PerfConnection connect(InetSocketAddress server, int serviceId) throws IOException {
        if (closed) {
            throw new IOException("transport closed");
        }
        InMemoryConnection connection = new InMemoryConnection(this, server.getPort(), serviceId);
        connections.add(connection);
        return connection;
    }

    /** @return the options this endpoint was created with */
    public PerfEndpointOptions options() {
        return options;
    }

    /** @return every connection made, in order */
    public List<InMemoryConnection> connections() {
        return connections;
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> stats = new TreeMap<>();
        if (options.statistics()) {
            stats.put("calls.started", callsStarted.sum());
            stats.put("connections", (long) connections.size());
        }
        return stats;
    }

    @Override
    public void close() {
        closed = true;
        connections.forEach(InMemoryConnection::close);
    }
}
