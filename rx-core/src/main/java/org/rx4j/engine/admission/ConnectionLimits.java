// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import java.net.InetSocketAddress;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.AbortCodes;

/**
 * The server's connection and peer limits (docs/robustness.md "Rule: limits"): whether a new server connection or a new
 * peer may be made, making room by evicting the oldest unproven connection (of that peer at the per-peer limit; of
 * anyone at the unproven or total limit) and, at the peer limit, forgetting peers without connections (at most once a
 * second). Counts evicted and refused connections in the endpoint's counters. Engine thread only.
 */
public final class ConnectionLimits {
    /** The peer table is swept for peers without connections at most this often when it is full, ns. */
    static final long PEER_SWEEP_INTERVAL_NS = 1_000_000_000L;

    private final RxConfig config;
    private final ConnectionTable table;
    private final RxCounters counters;
    private long lastPeerSweepNs;
    private boolean peerSwept;

    /**
     * @param config the limits (maxConnections, maxConnectionsPerPeer, maxUnprovenConnections, maxPeers)
     * @param table the connection and peer tables
     * @param counters the endpoint's counters (connectionsEvicted, connectionsRefused, closed connections)
     */
    public ConnectionLimits(RxConfig config, ConnectionTable table, RxCounters counters) {
        this.config = config;
        this.table = table;
        this.counters = counters;
    }

    /**
     * Makes room for a new server connection from {@code from}, evicting unproven connections as the limits
     * require; a refusal is counted (the caller answers it with ABORT RX_CALL_BUSY).
     *
     * @param now current time, ns
     * @param from the new connection's source address
     * @return true when the connection may be created
     */
    public boolean admit(long now, InetSocketAddress from) {
        if (makeRoom(now, from)) {
            return true;
        }
        counters.increment(RxCounter.CONNECTIONS_REFUSED);
        return false;
    }

    private boolean makeRoom(long now, InetSocketAddress from) {
        Peer known = table.knownPeer(from);
        if (known != null && known.connections >= config.limits().maxConnectionsPerPeer()) {
            Connection victim = table.oldestUnproven(known);
            if (victim == null) {
                return false;
            }
            evict(now, victim);
        }
        while (table.unprovenCount() >= config.limits().maxUnprovenConnections()
                || table.serverCount() >= config.limits().maxConnections()) {
            Connection victim = table.oldestUnproven(null);
            if (victim == null) {
                break;
            }
            evict(now, victim);
        }
        if (table.serverCount() >= config.limits().maxConnections()) {
            return false;
        }
        return roomForPeer(now, from);
    }

    /**
     * Whether {@code from} has a peer or one may be made: at the peer limit, peers without connections are forgotten
     * first (at most once per {@link #PEER_SWEEP_INTERVAL_NS}).
     *
     * @param now current time, ns
     * @param from a source address
     * @return true when {@code from}'s peer is known or a new peer may be made
     */
    public boolean roomForPeer(long now, InetSocketAddress from) {
        if (table.knownPeer(from) != null || table.peerCount() < config.limits().maxPeers()) {
            return true;
        }
        if (now - lastPeerSweepNs >= PEER_SWEEP_INTERVAL_NS || !peerSwept) {
            peerSwept = true;
            lastPeerSweepNs = now;
            table.reapPeers(now, -1);
        }
        return table.peerCount() < config.limits().maxPeers();
    }

    /** Removes an unproven server connection silently: its calls fail with RX_CALL_DEAD, nothing is sent. */
    private void evict(long now, Connection victim) {
        counters.increment(RxCounter.CONNECTIONS_EVICTED);
        victim.fail(now, AbortCodes.RX_CALL_DEAD, false);
        table.remove(victim, counters);
        if (!victim.peer.isReachable(now)) {
            table.forgetPeer(victim.peer);
        }
    }
}
