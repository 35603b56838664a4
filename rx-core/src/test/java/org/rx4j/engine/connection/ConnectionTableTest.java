// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineParts.source;

import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineParts;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;

/**
 * The table keeps each peer's connection count (nowhere else changes it), the unproven connections oldest first, and
 * a received packet is counted with its connection and its peer (one from another address with its connection only).
 */
class ConnectionTableTest {
    @Test
    void aPeersConnectionCountFollowsAddAndRemove() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        Connection client = new Connection(e.link, e.table.peer(source(1)), true, 0x1234, 0x40, 1,
                org.rx4j.security.RxNullSecurityClass.INSTANCE);
        e.table.addClient(client);
        Connection server = e.serverConnection(source(1));
        Peer first = e.table.knownPeer(source(1));
        assertEquals(2, first.connectionCount());
        e.table.remove(server, e.counters);
        assertEquals(1, first.connectionCount());
        e.table.remove(client, e.counters);
        assertEquals(0, first.connectionCount());
        e.table.forgetPeer(first);
        assertNull(e.table.knownPeer(source(1)));
    }

    @Test
    void unprovenConnectionsLeaveTheEvictionOrderWhenProvenOrRemoved() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        Connection a = e.serverConnection(source(1));
        Connection b = e.serverConnection(source(2));
        Connection c = e.serverConnection(source(1));
        assertSame(a, e.table.oldestUnproven(null));
        e.table.proven(a);
        e.table.proven(a);
        assertEquals(2, e.table.unprovenCount());
        assertSame(b, e.table.oldestUnproven(null));
        assertSame(c, e.table.oldestUnproven(a.peer()));
        e.table.remove(b, e.counters);
        assertSame(c, e.table.oldestUnproven(null));
        assertEquals(2, e.table.serverCount());
    }

    @Test
    void aReceivedPacketIsCountedWithItsConnectionAndItsPeer() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        Connection c = e.serverConnection(source(1));
        int bytes = RxConstants.HEADER_SIZE + 100;
        c.onReceived(5, PacketType.DATA, bytes, false, true);
        c.onReceived(6, PacketType.DATA, bytes, true, true);
        c.onReceived(7, PacketType.ACK, 60, true, false);
        c.onReceived(8, 14, 28, true, false);
        RxCounters k = c.counters();
        assertEquals(2, k.get(RxCounter.DATA_PACKETS_RECEIVED), "each sub-packet");
        assertEquals(1, k.get(RxCounter.PACKETS_RECEIVED, PacketType.DATA), "one datagram");
        assertEquals(1, k.get(RxCounter.JUMBOGRAMS_RECEIVED), "counted with its last sub-packet");
        assertEquals(1, k.get(RxCounter.PACKETS_RECEIVED, PacketType.ACK));
        assertEquals(1, k.get(RxCounter.PACKETS_RECEIVED, 14));
        assertEquals(2 * bytes + 60 + 28, k.get(RxCounter.BYTES_RECEIVED));
        assertEquals(8, c.lastActivityNs);
        Peer p = c.peer();
        assertEquals(2 * bytes + 60 + 28, p.counters().get(RxCounter.BYTES_RECEIVED));
        assertEquals(3 * (2 * bytes + 60 + 28), p.replyCredit(), "an unproven peer's bytes pay three times over");
        assertEquals(8, p.lastUsedNs);
        assertTrue(p.heardSince(7));
    }

    @Test
    void aPacketFromAnotherAddressIsCountedWithItsConnectionOnly() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        Connection c = e.serverConnection(source(1));
        c.countReceived(5, PacketType.ACK, 65, true, false);
        assertEquals(1, c.counters().get(RxCounter.PACKETS_RECEIVED, PacketType.ACK));
        assertEquals(65, c.counters().get(RxCounter.BYTES_RECEIVED));
        assertEquals(5, c.lastActivityNs);
        Peer p = c.peer();
        assertEquals(0, p.counters().get(RxCounter.BYTES_RECEIVED), "another address's bytes are not the peer's");
        assertEquals(0, p.replyCredit(), "they pay for no reply to the peer");
        assertFalse(p.heardSince(0), "and do not count as hearing from it");
    }
}
