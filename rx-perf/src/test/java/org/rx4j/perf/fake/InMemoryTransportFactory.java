// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.fake;

import java.io.IOException;
import java.net.BindException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.perf.transport.PerfTransportFactory;

/**
 * A test-only transport: calls are pairs of in-memory pipes served by server threads, ports are keys in a map.
 * It lets rxperf's client and server logic run end to end in JUnit without the Rx engine, and records what the
 * CLI asked of it (endpoint options, connections) for assertions.
 */
public final class InMemoryTransportFactory implements PerfTransportFactory {
    private final Map<Integer, InMemoryServer> servers = new ConcurrentHashMap<>();
    private final AtomicInteger nextEphemeralPort = new AtomicInteger(49152);
    private final List<InMemoryClient> clients = new CopyOnWriteArrayList<>();
    private final List<InMemoryServer> serverEndpoints = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "in-memory";
    }

    @Override
    public InMemoryClient newClient(PerfEndpointOptions options) {
        InMemoryClient client = new InMemoryClient(this, options);
        clients.add(client);
        return client;
    }

    @Override
    public InMemoryServer newServer(PerfEndpointOptions options) {
        InMemoryServer server = new InMemoryServer(this, options);
        serverEndpoints.add(server);
        return server;
    }

    /** @return every client endpoint created, in order */
    public List<InMemoryClient> clients() {
        return clients;
    }

    /** @return every server endpoint created, in order */
    public List<InMemoryServer> servers() {
        return serverEndpoints;
    }

    int bind(InMemoryServer server, int port) throws IOException {
        int chosen = port == 0 ? nextEphemeralPort.getAndIncrement() : port;
        if (servers.putIfAbsent(chosen, server) != null) {
            throw new BindException("port " + chosen + " in use");
        }
        return chosen;
    }

    void unbind(int port) {
        servers.remove(port);
    }

    InMemoryServer server(int port) {
        return servers.get(port);
    }
}
