// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * Packets larger than 1444 bytes between rx4j peers on a large-MTU path (docs/engine.md "Packet size"), in
 * the simulator on the virtual clock: the first data goes at the default size, a padded PING proves the path after
 * the first ACK trailer, later data (of the same call and of later calls) is cut at min(peer maxMTU, peer ifMTU, own
 * limit); a peer that advertises 1444 (as OpenAFS does) never gets a larger datagram; a path that drops large
 * datagrams keeps the default size. Every stream is checked byte by byte.
 */
@ExtendWith(LeakCheckExtension.class)
class LargePacketSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    static final int BIG = 9000;

    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    /** What one side's DATA datagrams looked like. */
    static final class DataSizes {
        /** Largest DATA datagram, Rx header included, bytes. */
        int largest;
        /** Largest DATA packet (one sub-packet of a jumbogram counts alone), Rx header included, bytes. */
        int largestPacket;
        /** Largest DATA datagram sent before the sender had received any ACK, bytes. */
        int largestBeforeFirstAck;
        /** Size of the first DATA datagram of more than 1 KiB of each call (in call order), bytes. */
        final List<Integer> firstOfCall = new ArrayList<>();
        int lastCallNumber;
        int firstCallNumber;
        /** Largest DATA packet of the first call, bytes. */
        int largestPacketOfFirstCall;
        /** DATA packets of the first call (retransmissions included). */
        int packetsOfFirstCall;
        /** Padded PINGs (ACK datagrams larger than 1444 bytes). */
        int largeProbes;
        boolean ackSeen;
        /** Padded PINGs from this side the link is to drop before delivering any. */
        int probesToDrop;
    }

    private static int datagramBytes(List<? extends RxPacket> packets) {
        if (packets.size() > 1) {
            @SuppressWarnings("unchecked")
            List<DataPacket> jumbo = (List<DataPacket>) packets;
            return org.rx4j.wire.PacketEncoder.jumbogramLength(jumbo);
        }
        RxPacket p = packets.get(0);
        if (p instanceof DataPacket d) {
            return RxConstants.HEADER_SIZE + d.payload().readableBytes();
        }
        return -1;
    }

    private SimNetwork net(RxConfig clientConfig, RxConfig serverConfig, LinkModel link, DataSizes client,
            DataSizes server) {
        SimNetwork net = new SimNetwork(clientConfig, serverConfig, link, link, 41);
        nets.add(net);
        net.sendTap = (now, fromClient, packets) -> {
            DataSizes d = fromClient ? client : server;
            RxPacket first = packets.get(0);
            if (first.header().type() == PacketType.DATA) {
                int bytes = datagramBytes(packets);
                d.largest = Math.max(d.largest, bytes);
                for (RxPacket p : packets) {
                    int size = RxConstants.HEADER_SIZE + ((DataPacket) p).payload().readableBytes();
                    d.largestPacket = Math.max(d.largestPacket, size);
                    if (d.firstCallNumber == 0) {
                        d.firstCallNumber = p.header().callNumber();
                    }
                    if (p.header().callNumber() == d.firstCallNumber) {
                        d.largestPacketOfFirstCall = Math.max(d.largestPacketOfFirstCall, size);
                        d.packetsOfFirstCall++;
                    }
                }
                if (!d.ackSeen) {
                    d.largestBeforeFirstAck = Math.max(d.largestBeforeFirstAck, bytes);
                }
                if (first.header().callNumber() != d.lastCallNumber && bytes > 1024) {
                    d.lastCallNumber = first.header().callNumber();
                    d.firstOfCall.add(bytes);
                }
            } else if (first instanceof AckPacket a && a.tailBytes() > 0) {
                d.largeProbes++;
            }
        };
        net.deliveryFilter = (now, toServer, packets) -> {
            if (packets.get(0) instanceof AckPacket a) {
                DataSizes from = toServer ? client : server;
                if (a.tailBytes() > 0 && from.probesToDrop > 0) {
                    from.probesToDrop--;
                    return false;
                }
                (toServer ? server : client).ackSeen = true;
            }
            return true;
        };
        return net;
    }

    static RxConfig bigConfig() {
        return RxConfig.builder().maxWindow(255).maxMtu(BIG).ifMtu(BIG).build();
    }

    /** Runs {@code calls} calls of {@code request} bytes up and {@code reply} bytes down; checks every byte. */
    private static SimApps.BulkServer run(SimNetwork net, int calls, long request, long reply) {
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        long requestTotal = 0;
        for (int i = 0; i < calls; i++) {
            SimApps.BulkClient c = new SimApps.BulkClient(net, request, reply);
            c.start(conn);
            assertTrue(net.runUntil(() -> c.done, 120 * S), "call " + i + " did not complete");
            assertEquals(0, c.error, "call " + i);
            assertEquals(reply, c.reader.received, "reply bytes of call " + i);
            assertEquals(0, c.reader.mismatches, "reply of call " + i + " is exact");
            requestTotal += request;
        }
        net.runFor(S);
        assertEquals(calls, server.callsCompleted);
        assertEquals(requestTotal, server.requestBytes, "request bytes");
        assertEquals(0, server.mismatches, "requests are exact");
        return server;
    }

    @Test
    void rx4jPeersOnANineThousandBytePathUseLargePacketsAfterTheFirstAck() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        SimNetwork net = net(bigConfig(), bigConfig(), LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        run(net, 3, 4L << 20, 1L << 20);
        System.out.printf("large packets: client largest %d (before first ack %d, first of each call %s), server"
                + " largest %d, probes %d/%d, peer proven %d%n", up.largest, up.largestBeforeFirstAck, up.firstOfCall,
                down.largest, up.largeProbes, down.largeProbes,
                net.client().engine.clientConnections().iterator().next().peer().provenPacketSize());
        assertTrue(up.largestBeforeFirstAck > 0 && up.largestBeforeFirstAck <= RxConstants.REMOTE_PACKET_SIZE,
                "before the first ACK only default-size packets: " + up.largestBeforeFirstAck);
        assertEquals(BIG, up.largest, "the client's data reached the path's 9000 bytes");
        assertEquals(BIG, up.largestPacketOfFirstCall, "already in the first call, once the probe was answered");
        assertEquals(BIG, down.largest, "so did the server's reply");
        assertEquals(BIG, up.firstOfCall.get(1), "a later call starts with the peer's proven size");
        assertEquals(BIG, up.firstOfCall.get(2));
        assertEquals(1, up.largeProbes, "one probe per peer, not per call");
    }

    @Test
    void aLostProbeIsRetriedAfterTwoRoundTrips() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        up.probesToDrop = 1;
        SimNetwork net = net(bigConfig(), bigConfig(), LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        run(net, 1, 4L << 20, 0);
        assertEquals(2, up.largeProbes, "the lost probe and its retry");
        assertEquals(BIG, up.largestPacketOfFirstCall, "large packets still within the first call");
    }

    @Test
    void aRouteThatShrinksUnderLargePacketsFallsBack() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        SimNetwork net = net(bigConfig(), bigConfig(), LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient c1 = new SimApps.BulkClient(net, 2L << 20, 0);
        c1.start(conn);
        assertTrue(net.runUntil(() -> c1.done, 60 * S));
        assertEquals(BIG, conn.peer().provenPacketSize());
        // The route now drops everything above 1500 bytes. Call 2 is cut at 9000 bytes before anything shows it,
        // its first packet too: the server never hears of the call, so no probe of it can be answered and no packet
        // may be re-cut (docs/engine.md "Path MTU below one full packet"): it must end, not hang.
        long shrunkAt = net.now();
        net.setLinks(LinkModel.delay(5 * MS).withMtu(1500), LinkModel.delay(5 * MS).withMtu(1500));
        net.allowStalls = true;
        SimApps.BulkClient c2 = new SimApps.BulkClient(net, 2L << 20, 0);
        c2.start(conn);
        assertTrue(net.runUntil(() -> c2.done, 60 * S), "call 2 ends");
        assertEquals(-1, c2.error, "RX_CALL_DEAD after the dead time");
        assertTrue(c2.completedAt - shrunkAt <= 20 * S, "within a dead time of the first timeout: "
                + (c2.completedAt - shrunkAt) / 1e9 + " s");
        assertEquals(RxConstants.REMOTE_PACKET_SIZE, conn.peer().provenPacketSize(), "the timeout dropped the size");
        // The server still holds 9000 bytes as proven toward the client: call 3's reply is cut at 9000 and lost. The
        // client holds call 3 and answers the server's probe ladder, which finds 1444 and shows the reply packets
        // not received: the server re-cuts them and the call completes (before the re-cut of "Path MTU below one full
        // packet" it ended
        // with RX_CALL_DEAD one dead time after the reply's first timeout).
        SimApps.BulkClient c3 = new SimApps.BulkClient(net, 64 << 10, 64 << 10);
        c3.start(conn);
        assertTrue(net.runUntil(() -> c3.done, 60 * S), "call 3 ends");
        assertEquals(0, c3.error, "completed");
        assertEquals(64 << 10, c3.reader.received);
        assertEquals(0, c3.reader.mismatches);
        Peer towardClient = net.server().engine.serverConnections().iterator().next().peer();
        assertEquals(RxConstants.REMOTE_PACKET_SIZE, towardClient.provenPacketSize());
        assertEquals(RxConstants.REMOTE_PACKET_SIZE, towardClient.pathMtu(), "the ladder found the path's 1444");
        // Call 4 is cut at the default size both ways and completes, byte-exact.
        net.allowStalls = false;
        up.largestPacket = 0;
        down.largestPacket = 0;
        SimApps.BulkClient c4 = new SimApps.BulkClient(net, 2L << 20, 64 << 10);
        c4.start(conn);
        assertTrue(net.runUntil(() -> c4.done, 60 * S), "call 4 completes");
        assertEquals(0, c4.error);
        assertEquals(64 << 10, c4.reader.received);
        assertEquals(0, c4.reader.mismatches);
        net.runFor(S);
        assertEquals(0, server.mismatches);
        assertTrue(up.largestPacket <= RxConstants.REMOTE_PACKET_SIZE, "call 4's packets: " + up.largestPacket);
        assertTrue(down.largestPacket <= RxConstants.REMOTE_PACKET_SIZE, "call 4's reply: " + down.largestPacket);
    }

    /**
     * Loopback: the route's interface carries 65,536-byte IP packets, so with the default configuration rx4j peers
     * prove and use 65,507-byte packets (the largest UDP payload over IPv4), both ways, byte-exact.
     */
    @Test
    void theDefaultsUseTheLargestPacketALoopbackRouteCarries() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        RxConfig defaults = RxConfig.defaults();
        SimNetwork net = net(defaults, defaults, LinkModel.delay(MS / 20).withMtu(RxConstants.MAX_UDP_PAYLOAD_IPV4),
                up, down);
        net.routeMtu = 65_536;
        run(net, 3, 4L << 20, 1L << 20);
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4, up.largestPacket, "the client's data");
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4, down.largestPacket, "the server's reply");
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4, up.firstOfCall.get(1), "a later call starts large");
        // 4 MiB is 2,971 packets of 1412 bytes, 65 of 65,479: once the size is proven, the packets still queued at the
        // old size are joined before they go out (PacketCutter.growUnsent), so the first call is mostly large ones.
        System.out.printf("loopback route: first call %d packets%n", up.packetsOfFirstCall);
        assertTrue(up.packetsOfFirstCall <= 120, "packets of the first call: " + up.packetsOfFirstCall);
        Peer peer = net.client().engine.clientConnections().iterator().next().peer();
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4, peer.provenPacketSize());
        assertEquals(RxConstants.MAX_UDP_PAYLOAD_IPV4, peer.localIfMtu(), "what our trailers advertise");
    }

    /**
     * Loopback with Debian's default socket buffers (rmem_max 212,992 bytes): a window of 32 packets of 65,507 bytes
     * would overflow the receive buffer at once, so each side advertises and cuts at most buffer / maxRwind = 6,656.
     */
    @Test
    void theReceiveBufferCapsThePacketSize() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        RxConfig defaults = RxConfig.defaults();
        SimNetwork net = net(defaults, defaults, LinkModel.delay(MS / 20).withMtu(RxConstants.MAX_UDP_PAYLOAD_IPV4),
                up, down);
        net.routeMtu = 65_536;
        net.receiveBufferBytes = 212_992;
        run(net, 2, 2L << 20, 1L << 20);
        assertEquals(212_992 / 32, up.largestPacket, "the client's data");
        assertEquals(212_992 / 32, down.largestPacket, "the server's reply");
    }

    /**
     * A wide route, a narrower path (a relay's MTU cap of 9,000 bytes, both directions): the probes of the sizes in
     * between prove 8,972 bytes in the first call, and nothing larger is ever cut; every byte arrives.
     */
    @Test
    void aPathNarrowerThanTheRouteProvesTheLargestStepItCarries() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        RxConfig defaults = RxConfig.builder().maxWindow(255).build();
        SimNetwork net = net(defaults, defaults, LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        net.routeMtu = 65_536;
        run(net, 3, 2L << 20, 1L << 20);
        assertEquals(8972, up.largestPacket, "the client's data: the 9000-byte step less IPv4/UDP headers");
        assertEquals(8972, down.largestPacket, "the server's reply likewise");
        assertTrue(up.largeProbes >= 3, "target, 16384 and 8972 probed: " + up.largeProbes);
        assertEquals(8972, net.client().engine.clientConnections().iterator().next().peer().provenPacketSize());
    }

    /**
     * An Ethernet route (interface MTU 1,500): a jumbogram of two 1412-byte packets (2,856 bytes) would be fragmented,
     * so neither side sends one nor invites one (trailer maxMTU 1444, maxDgramPackets 1); asked for OpenAFS's habit
     * ({@code fragmentJumbograms}), both send jumbograms of up to four again. Both ways, byte-exact.
     */
    @Test
    void anEthernetRouteGetsNoJumbogramsUnlessFragmentsAreAsked() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        RxConfig defaults = RxConfig.builder().maxWindow(255).build();
        SimNetwork net = net(defaults, defaults, LinkModel.delay(MS), up, down);
        net.routeMtu = 1500;
        run(net, 2, 2L << 20, 1L << 20);
        assertTrue(up.largest <= RxConstants.REMOTE_PACKET_SIZE, "client datagrams: " + up.largest);
        assertTrue(down.largest <= RxConstants.REMOTE_PACKET_SIZE, "server datagrams: " + down.largest);
        Peer peer = net.client().engine.clientConnections().iterator().next().peer();
        assertEquals(1, peer.jumboLimit());
        assertEquals(1, peer.maxDgramPackets(), "the server invited none either");

        DataSizes up2 = new DataSizes();
        DataSizes down2 = new DataSizes();
        RxConfig openAfs = RxConfig.builder().maxWindow(255).fragmentJumbograms(true).build();
        SimNetwork net2 = net(openAfs, openAfs, LinkModel.delay(MS), up2, down2);
        net2.routeMtu = 1500;
        run(net2, 2, 2L << 20, 1L << 20);
        int fourPackets = 5688; // 28 + 4 * 1412 + 3 * 4: a jumbogram of four, fragmented on the wire
        assertEquals(fourPackets, up2.largest, "four-packet jumbograms");
        assertEquals(fourPackets, down2.largest);
    }

    /**
     * A 9,000-byte route carries a jumbogram of six 1412-byte packets (8,520 bytes) unfragmented, and OpenAFS advertises
     * six there (RX_MAX_DGRAM_PACKETS): by default an rx4j receiver invites six too, so a sender that cuts 1412-byte
     * packets (here one with a fixed 1,444-byte ifMtu, as OpenAFS does) sends it six-packet jumbograms; with
     * {@code jumboMax} 4 it gets four-packet ones, as before the default was six.
     */
    @Test
    void aNineThousandByteRouteInvitesSixPacketJumbograms() {
        int sixPackets = RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE + 5 * RxConstants.JUMBO_STRIDE;
        int fourPackets = RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE + 3 * RxConstants.JUMBO_STRIDE;
        RxConfig jumboSender = RxConfig.builder().maxWindow(255).ifMtu(1444).build();
        for (int jumboMax : new int[] {0, 4}) {
            DataSizes up = new DataSizes();
            DataSizes down = new DataSizes();
            RxConfig receiver = jumboMax == 0 ? RxConfig.builder().maxWindow(255).build()
                    : RxConfig.builder().maxWindow(255).jumboMax(jumboMax).build();
            SimNetwork net = net(receiver, jumboSender, LinkModel.delay(MS), up, down);
            net.routeMtu = 9000;
            run(net, 2, 4 << 10, 1L << 20);
            Peer peer = net.client().engine.clientConnections().iterator().next().peer();
            if (jumboMax == 0) {
                assertEquals(6, peer.jumboLimit(), "the default on a 9,000-byte route");
                assertEquals(sixPackets, down.largest, "six-packet jumbograms to the default receiver");
            } else {
                assertEquals(4, peer.jumboLimit());
                assertEquals(fourPackets, down.largest, "no more than jumboMax invites");
            }
        }
    }

    /** @return {@code bytes} if it is the size of a jumbogram of 2..4 full 1412-byte packets, else -1 */
    private static int jumbogramOfAtMostFour(int bytes) {
        for (int k = 2; k <= 4; k++) {
            if (bytes == RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE + (k - 1) * RxConstants.JUMBO_STRIDE) {
                return bytes;
            }
        }
        return -1;
    }

    @Test
    void aPeerAdvertising1444NeverReceivesALargerDatagram() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        // OpenAFS with rx_SetNoJumbo (rxperf -j): maxMTU 1444, ifMTU 1444, one packet per datagram.
        RxConfig openAfsLike = RxConfig.builder().maxWindow(255).jumboMax(1).maxMtu(1444).build();
        SimNetwork net = net(bigConfig(), openAfsLike, LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        run(net, 2, 2L << 20, 64 << 10);
        assertTrue(up.largest <= RxConstants.REMOTE_PACKET_SIZE, "largest datagram to it " + up.largest);
        assertEquals(0, up.largeProbes, "nothing to probe for");
    }

    @Test
    void aPeerWithOpenAfsDefaultsGetsSinglePacketsUpToItsMaxMtuWhereOurRouteCarriesThem() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        // OpenAFS on loopback: maxMTU 5692, ifMTU 1444, jumbograms of up to 4; our route carries 9000.
        SimNetwork net = net(bigConfig(), RxConfig.builder().maxWindow(255).build(),
                LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        run(net, 2, 2L << 20, 64 << 10);
        assertTrue(up.largeProbes > 0, "its maxMTU above 1444 is probed for");
        assertEquals(5692, up.largestPacket, "single packets as large as its maxMTU, no larger");
        assertEquals(5692, up.largest, "no datagram above its maxMTU");
    }

    @Test
    void aPeerWithOpenAfsDefaultsOnAnEthernetRouteGetsJumbogramsButNoLargePackets() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        // The same peer, our route 1500 bytes: a 5692-byte packet would be IP fragments, so base packets in
        // jumbograms of up to 4, as OpenAFS's own sender sends.
        RxConfig ethernet = RxConfig.builder().maxWindow(255).ifMtu(RxConstants.REMOTE_PACKET_SIZE).build();
        SimNetwork net = net(ethernet, RxConfig.builder().maxWindow(255).build(),
                LinkModel.delay(5 * MS).withMtu(BIG), up, down);
        run(net, 2, 2L << 20, 64 << 10);
        assertTrue(up.largest <= 5692, "largest datagram to it " + up.largest);
        assertTrue(up.largest == RxConstants.REMOTE_PACKET_SIZE || jumbogramOfAtMostFour(up.largest) > 0,
                "only default packets or jumbograms of them: " + up.largest);
        assertEquals(1440, up.largestPacket, "1412 bytes of data per packet");
        assertEquals(0, up.largeProbes, "our route's 1444 rules large packets out");
    }

    @Test
    void aPathThatDropsLargeDatagramsKeepsTheDefaultSize() {
        DataSizes up = new DataSizes();
        DataSizes down = new DataSizes();
        // Both ends configured for 9000, but the path between them drops anything above 1500 bytes.
        SimNetwork net = net(bigConfig(), bigConfig(), LinkModel.delay(5 * MS).withMtu(1500), up, down);
        run(net, 2, 2L << 20, 256 << 10);
        assertTrue(up.largeProbes >= PathMtuState.LARGE_PROBE_QUICK_TRIES, "the client probed, and retried: "
                + up.largeProbes);
        // Jumbograms of 1412-byte packets are lost on it too until the path-MTU rule (docs/engine.md "Path MTU
        // below one full packet") holds them
        // back; what this test is about is that no single packet is cut larger.
        assertTrue(up.largestPacket <= RxConstants.REMOTE_PACKET_SIZE,
                "no packet above 1444 bytes: " + up.largestPacket);
        assertTrue(down.largestPacket <= RxConstants.REMOTE_PACKET_SIZE,
                "no packet above 1444 bytes: " + down.largestPacket);
        assertEquals(RxConstants.REMOTE_PACKET_SIZE,
                net.client().engine.clientConnections().iterator().next().peer().provenPacketSize());
    }
}
