// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DebugConn;
import org.rx4j.wire.DebugPeer;
import org.rx4j.wire.DebugReply;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.DebugStats;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.RxStatistics;
import org.rx4j.wire.VersionPacket;

/** rxdebug answers from the engine's tables (rx-wire-facts.md §9). */
class EngineDebugResponderTest {
    static final InetSocketAddress RXDEBUG = new InetSocketAddress("127.0.0.1", 40000);
    static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 40001);

    private final List<RxPacket> sent = new ArrayList<>();
    private final PacketSink sink = new PacketSink() {
        @Override
        public void send(InetSocketAddress peer, RxPacket packet) {
            sent.add(packet);
        }

        @Override
        public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
            packets.forEach(RxPacket::release);
        }
    };

    private RxEngine engine() {
        RxEngine engine = new RxEngine(RxConfig.builder().versionString("rx4j 9.9").checkReach(false).build(), sink,
                UnpooledByteBufAllocator.DEFAULT, 7, 0);
        engine.setDebugResponder(new EngineDebugResponder());
        engine.registerService(147, 0, call -> { });
        return engine;
    }

    private static RxHeader debugHeader(int type, int flags, int callNumber) {
        return new RxHeader(999, 0, callNumber, 0, 0, type, flags, 0, 0, 0, 0);
    }

    private DebugReply ask(RxEngine engine, int debugType, int index) {
        sent.clear();
        RxHeader h = debugHeader(PacketType.DEBUG, PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 101);
        engine.onDatagram(1, RXDEBUG, new ArrayList<>(List.of(new DebugRequest(h, debugType, index, 0))));
        assertEquals(1, sent.size(), "one reply per request");
        DebugReply reply = (DebugReply) sent.get(0);
        assertEquals(101, reply.header().callNumber(), "reply reuses the request's callNumber");
        assertEquals(PacketFlags.LAST_PACKET, reply.header().flags(), "CLIENT_INITIATED cleared");
        return reply;
    }

    private void startServerCall(RxEngine engine) {
        RxHeader h = new RxHeader(0x80001234, 0x40, 1, 1, 1, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED, 0, 0, 0, 147);
        engine.onDatagram(1, CLIENT, new ArrayList<>(List.of(
                new DataPacket(h, io.netty.buffer.Unpooled.wrappedBuffer(new byte[100])))));
        sent.forEach(RxPacket::release);
    }

    @Test
    void versionAnsweredOnlyWhenClientInitiated() {
        RxEngine engine = engine();
        RxHeader request = debugHeader(PacketType.VERSION, PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 5);
        engine.onDatagram(1, RXDEBUG, new ArrayList<>(List.of(new VersionPacket(request, new byte[1]))));
        assertEquals(1, sent.size());
        VersionPacket reply = (VersionPacket) sent.get(0);
        assertEquals("rx4j 9.9", reply.versionString());
        assertEquals(65, reply.body().length);
        sent.clear();
        RxHeader natPing = debugHeader(PacketType.VERSION, PacketFlags.LAST_PACKET, 0);
        engine.onDatagram(1, RXDEBUG, new ArrayList<>(List.of(new VersionPacket(natPing, new byte[1]))));
        RxHeader debugReply = debugHeader(PacketType.DEBUG, PacketFlags.LAST_PACKET, 6);
        engine.onDatagram(1, RXDEBUG, new ArrayList<>(List.of(new DebugRequest(debugReply, 1, 0, 0))));
        assertTrue(sent.isEmpty(), "nothing answers a packet without CLIENT_INITIATED");
    }

    @Test
    void statsConnectionsPeersAndBadType() {
        RxEngine engine = engine();
        startServerCall(engine);
        DebugStats stats = DebugStats.decode(ask(engine, DebugRequest.GETSTATS, 0).body());
        assertNotNull(stats);
        assertEquals('S', stats.version());
        assertEquals(1, stats.callsExecuted());

        DebugConn conn = DebugConn.decode(ask(engine, DebugRequest.GETALLCONN, 0).body());
        assertNotNull(conn);
        assertEquals(0x40, conn.cid());
        assertEquals(0x80001234, conn.epoch());
        assertEquals(1, conn.callNumber()[0]);
        assertEquals(DebugConn.TYPE_SERVER, conn.type());
        assertEquals(0x7f000001, conn.host());
        assertEquals(40001, conn.port());
        assertEquals(DebugConn.END_CID, DebugConn.decode(ask(engine, DebugRequest.GETALLCONN, 1).body()).cid());
        assertEquals(0x40, DebugConn.decode(ask(engine, DebugRequest.GETCONN, 0).body()).cid(),
                "a connection with an active call is interesting");

        DebugPeer peer = DebugPeer.decode(ask(engine, DebugRequest.GETPEER, 0).body());
        assertEquals(0x7f000001, peer.host());
        assertEquals(40001, peer.port());
        assertTrue(peer.bytesReceived() > 0);
        assertTrue(peer.timeoutSec() > 0 || peer.timeoutUsec() > 0, "the peer's RTO is reported");
        assertEquals(DebugPeer.END_HOST, DebugPeer.decode(ask(engine, DebugRequest.GETPEER, 1).body()).host());

        RxStatistics rx = RxStatistics.decode(ask(engine, DebugRequest.RXSTATS, 0).body());
        assertEquals(1, rx.values()[RxStatistics.PACKETS_READ + PacketType.DATA - 1]);
        assertEquals(1, rx.values()[RxStatistics.N_SERVER_CONNS]);

        assertTrue(ask(engine, 77, 0).isBadType(), "unknown debug type gets {-8, -8}");
    }
}
