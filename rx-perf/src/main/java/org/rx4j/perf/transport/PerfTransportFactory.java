// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;

/**
 * Creates rxperf's Rx endpoints. rxperf finds its implementation with {@link java.util.ServiceLoader} (register
 * the class in {@code META-INF/services/org.rx4j.perf.transport.PerfTransportFactory}); with none on the class path
 * rxperf exits with {@code rxperf: no Rx transport available}. Implementations need a public no-argument
 * constructor and must be safe to use from several threads.
 */
public interface PerfTransportFactory {
    /**
     * A short name for messages and JSON output.
     *
     * @return e.g. {@code rx4j}
     */
    String name();

    /**
     * Creates a client endpoint (ephemeral UDP port, bound lazily or at once as the implementation prefers).
     *
     * @param options the tunables; server-only fields are ignored
     * @return a new client transport, owned by the caller
     * @throws IOException if the socket cannot be opened
     */
    PerfClientTransport newClient(PerfEndpointOptions options) throws IOException;

    /**
     * Creates a server endpoint; it binds in {@link PerfServerTransport#start}.
     *
     * @param options the tunables, including minProcs and maxProcs
     * @return a new server transport, owned by the caller
     * @throws IOException if resources cannot be allocated
     */
    PerfServerTransport newServer(PerfEndpointOptions options) throws IOException;

    /**
     * Creates a client endpoint whose connections use {@code security} (see {@link #newClient(PerfEndpointOptions)}).
     *
     * @param options the tunables
     * @param security the connections' security class and credentials
     * @return a new client transport, owned by the caller
     * @throws IOException if the socket cannot be opened, the KeyFile cannot be read, or this implementation has no
     *     security but rxnull
     */
    default PerfClientTransport newClient(PerfEndpointOptions options, PerfSecurity security) throws IOException {
        if (!security.none()) {
            throw new IOException(name() + " transport has no --security " + security.level());
        }
        return newClient(options);
    }

    /**
     * Creates a server endpoint whose service takes connections of {@code security} (see
     * {@link #newServer(PerfEndpointOptions)}).
     *
     * @param options the tunables
     * @param security the least security callers must use, and the KeyFile
     * @return a new server transport, owned by the caller
     * @throws IOException if resources cannot be allocated, the KeyFile cannot be read, or this implementation has
     *     no security but rxnull
     */
    default PerfServerTransport newServer(PerfEndpointOptions options, PerfSecurity security) throws IOException {
        if (!security.none()) {
            throw new IOException(name() + " transport has no --security " + security.level());
        }
        return newServer(options);
    }
}
