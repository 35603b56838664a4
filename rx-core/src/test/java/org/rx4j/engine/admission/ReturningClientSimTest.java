// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * A returning client keeps its large first packets (docs/robustness.md "Rule: a byte budget for what unproven sources
 * leave"): a source that never proved anything gets no packet above 5,800 bytes kept by the reachability challenge,
 * but a client that sent large packets while proven may start a new connection's call at that size after its
 * reachability lapsed. Two rx4j engines on a simulated loopback route, virtual clock.
 */
class ReturningClientSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    /** Another host than the client, never proven. */
    static final InetSocketAddress STRANGER = new InetSocketAddress("10.0.0.9", 7001);

    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    @Test
    void aCallAfterSixtyOneIdleSecondsStartsAtTheLearnedSizeWhileAStrangersLargeFirstPacketIsNotKept() {
        RxConfig defaults = RxConfig.defaults();
        SimNetwork net = new SimNetwork(defaults, defaults,
                LinkModel.delay(MS / 20).withMtu(RxConstants.MAX_UDP_PAYLOAD_IPV4),
                LinkModel.delay(MS / 20).withMtu(RxConstants.MAX_UDP_PAYLOAD_IPV4), 43);
        nets.add(net);
        net.routeMtu = 65_536;
        int[] firstPacketOfCall = new int[2];
        int[] conn2Cid = {-1};
        net.sendTap = (now, fromClient, packets) -> {
            if (fromClient && packets.get(0) instanceof DataPacket d && (d.header().cid() & ~3) == conn2Cid[0]
                    && d.header().seq() == 1 && firstPacketOfCall[1] == 0) {
                firstPacketOfCall[1] = RxConstants.HEADER_SIZE + d.payload().readableBytes();
            }
        };
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn1 = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient first = new SimApps.BulkClient(net, 4L << 20, 100);
        first.start(conn1);
        assertTrue(net.runUntil(() -> first.done, 60 * S));
        assertEquals(0, first.error);
        Peer serverSide = net.server().engine.peers().iterator().next();
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4,
                serverSide.provenReceivedSize(), "the server saw the client's largest packets");

        net.runFor(61 * S); // past the reachability TTL (60 s)
        assertTrue(!serverSide.isReachable(net.now()), "the client's proof has lapsed");

        // A stranger's first packet as large as the client's is not kept: it never proved it sends such packets.
        DataPacket forged = new DataPacket(new RxHeader(0x7123_4567, 0x100, 1, 1, 1, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SVC),
                Unpooled.buffer(60_000).writeZero(60_000));
        net.injectFrom(STRANGER, true, forged);
        net.runFor(10 * MS);
        assertEquals(0, net.server().engine.totals().get(RxCounter.CHALLENGED_PACKETS), "the stranger's 60,000 bytes not kept");
        assertEquals(1, net.server().engine.totals().get(RxCounter.HELD_PACKETS_REFUSED));
        assertEquals(0, net.server().engine.totals().get(RxCounter.HELD_BYTES));

        // The returning client on a new connection: challenged again, its large packets kept and served at once.
        Connection conn2 = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        conn2Cid[0] = conn2.cid() & ~3;
        long start = net.now();
        SimApps.BulkClient second = new SimApps.BulkClient(net, 1L << 20, 100);
        second.start(conn2);
        assertTrue(net.runUntil(() -> second.done, 60 * S));
        assertEquals(0, second.error);
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4, firstPacketOfCall[1], "the new call starts at the learned size");
        assertEquals(1, net.server().engine.totals().get(RxCounter.HELD_PACKETS_REFUSED), "none of the client's packets refused");
        System.out.printf("returning client: first packet %d bytes, 1 MiB call on a new connection in %.2f ms%n",
                firstPacketOfCall[1], (net.now() - start) / 1e6);
        assertTrue(net.now() - start < 100 * MS, "served without a resend: " + (net.now() - start) / MS + " ms");
        assertEquals(0, net.server().engine.totals().get(RxCounter.HELD_BYTES), "nothing kept once served");
    }
}
