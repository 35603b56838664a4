// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import java.util.Collection;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.RxCounters;

/**
 * What an engine shows of itself to the code that reports on it (rxdebug's answers, {@link DebugResponder}): its
 * tables as live views and a snapshot of its counters. Read on the engine's thread only.
 */
public interface EngineView {
    /** @return the configuration */
    RxConfig config();

    /** @return every client connection (live view; engine thread only) */
    Collection<Connection> clientConnections();

    /** @return every server connection (live view; engine thread only) */
    Collection<Connection> serverConnections();

    /** @return every known peer (live view; engine thread only) */
    Collection<Peer> peers();

    /**
     * Sums the counters of every connection, closed ones included, with connectionless traffic, and adds the
     * endpoint's own: the defence counters (docs/robustness.md), dropped packets, server calls started, internal
     * errors, the security handshakes' counters, and the gauges of held calls and challenged sources as they are now.
     * Every {@link org.rx4j.counters.RxCounter} but the transport's, which the transport adds.
     *
     * @return a fresh, endpoint-scoped snapshot
     */
    RxCounters totals();
}
