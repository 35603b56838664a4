// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineParts.source;

import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineParts;
import org.rx4j.engine.connection.Connection;

/** The server's connection and peer limits on plain {@code now} values (docs/robustness.md "Rule: limits"). */
class ConnectionLimitsTest {
    private static final long S = 1_000_000_000L;

    @Test
    void atThePerPeerLimitThatPeersOldestUnprovenConnectionMakesRoom() {
        EngineParts e = new EngineParts(RxConfig.builder().maxConnectionsPerPeer(2).build());
        ConnectionLimits limits = new ConnectionLimits(e.config, e.table, e.counters);
        Connection first = e.serverConnection(source(1));
        Connection second = e.serverConnection(source(1));
        Connection other = e.serverConnection(source(2));
        assertTrue(limits.admit(10, source(1)));
        assertTrue(first.closed, "the peer's oldest unproven connection is evicted");
        assertFalse(second.closed);
        assertFalse(other.closed, "another peer's connection is not touched");
        assertEquals(1, e.counters.get(RxCounter.CONNECTIONS_EVICTED));
        assertEquals(1, e.table.knownPeer(source(1)).connectionCount());
    }

    @Test
    void aPeerWhoseConnectionsAreAllProvenIsRefused() {
        EngineParts e = new EngineParts(RxConfig.builder().maxConnectionsPerPeer(2).build());
        ConnectionLimits limits = new ConnectionLimits(e.config, e.table, e.counters);
        e.table.proven(e.serverConnection(source(1)));
        e.table.proven(e.serverConnection(source(1)));
        assertFalse(limits.admit(10, source(1)));
        assertEquals(1, e.counters.get(RxCounter.CONNECTIONS_REFUSED));
        assertEquals(0, e.counters.get(RxCounter.CONNECTIONS_EVICTED));
        assertTrue(limits.admit(10, source(2)), "another peer is still admitted");
    }

    @Test
    void atTheUnprovenLimitTheOldestUnprovenConnectionGoesWithItsUnprovenPeer() {
        EngineParts e = new EngineParts(RxConfig.builder().maxUnprovenConnections(2).build());
        ConnectionLimits limits = new ConnectionLimits(e.config, e.table, e.counters);
        Connection oldest = e.serverConnection(source(1));
        e.serverConnection(source(2));
        assertTrue(limits.admit(10, source(3)));
        assertTrue(oldest.closed);
        assertNull(e.table.knownPeer(source(1)), "a flood source's peer is forgotten with its last connection");
        assertEquals(1, e.table.unprovenCount());
        assertEquals(1, e.counters.get(RxCounter.CONNECTIONS_EVICTED));
    }

    @Test
    void atTheTotalLimitWithEveryConnectionProvenANewOneIsRefused() {
        EngineParts e = new EngineParts(RxConfig.builder().maxConnections(2).build());
        ConnectionLimits limits = new ConnectionLimits(e.config, e.table, e.counters);
        e.table.proven(e.serverConnection(source(1)));
        e.table.proven(e.serverConnection(source(2)));
        assertFalse(limits.admit(10, source(3)));
        assertFalse(limits.admit(11, source(1)), "the total limit holds for a known peer too");
        assertEquals(2, e.counters.get(RxCounter.CONNECTIONS_REFUSED));
    }

    @Test
    void atThePeerLimitPeersWithoutConnectionsAreSweptAtMostOnceASecond() {
        EngineParts e = new EngineParts(RxConfig.builder().maxPeers(2).build());
        ConnectionLimits limits = new ConnectionLimits(e.config, e.table, e.counters);
        Connection a = e.serverConnection(source(1));
        e.table.proven(a);
        e.table.proven(e.serverConnection(source(2)));
        assertTrue(limits.roomForPeer(0, source(1)), "a known peer needs no room");
        assertFalse(limits.roomForPeer(0, source(3)), "the first sweep finds every peer with a connection");
        e.table.remove(a, e.counters);
        assertFalse(limits.roomForPeer(S / 2, source(3)), "no second sweep within a second");
        assertEquals(2, e.table.peerCount());
        assertTrue(limits.roomForPeer(S, source(3)), "a second later the connectionless peer is swept");
        assertNull(e.table.knownPeer(source(1)));
    }
}
