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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rx4j.config.CongestionControl;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * A path whose MTU is below one full packet (docs/engine.md "Path MTU below one full packet"), in the simulator on the
 * virtual clock: the link drops every datagram above N bytes of UDP payload. The sender finds N with a ladder of padded
 * PINGs, re-cuts its packets (those never sent always; sent ones only when the receiver's answer to a later probe shows
 * it does not hold them), and probes upward again later. Every stream is checked byte by byte.
 */
@ExtendWith(LeakCheckExtension.class)
class PathMtuSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    /** UDP payload of a 1500-byte IPv4 Ethernet path. */
    static final int ETHERNET = 1472;

    /** Prints every datagram of the first 20 s (-Drx4j.trace=true in the test JVM). */
    static final boolean TRACE = Boolean.getBoolean("rx4j.trace");
    private final List<SimNetwork> nets = new ArrayList<>();

    @AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    /** DATA datagram sizes one side sent (Rx header included, bytes). */
    static final class Sizes {
        /** Largest DATA datagram sent. */
        int largest;
        /** Largest DATA datagram sent since {@link #reset}. */
        int largestSinceReset;
        /** Largest DATA datagram sent after the first ACK trailer reached this side. */
        int largestAfterFirstAck;
        boolean ackSeen;
        /** DATA datagrams larger than the link's MTU when sent (dropped by it). */
        int dropped;
        int mtu;

        void reset() {
            largestSinceReset = 0;
        }
    }

    private static int datagramBytes(List<? extends RxPacket> packets) {
        if (packets.size() > 1) {
            @SuppressWarnings("unchecked")
            List<DataPacket> jumbo = (List<DataPacket>) packets;
            return PacketEncoder.jumbogramLength(jumbo);
        }
        return RxConstants.HEADER_SIZE + ((DataPacket) packets.get(0)).payload().readableBytes();
    }

    private SimNetwork net(RxConfig clientConfig, RxConfig serverConfig, int mtu, Sizes up, Sizes down) {
        SimNetwork net = new SimNetwork(clientConfig, serverConfig, link(mtu), link(mtu), 12);
        nets.add(net);
        up.mtu = mtu;
        down.mtu = mtu;
        net.allowStalls = true; // a path that drops full-size packets stalls until the probes found its MTU
        net.sendTap = (now, fromClient, packets) -> {
            Sizes d = fromClient ? up : down;
            if (TRACE && now < 20 * S) {
                RxPacket p0 = packets.get(0);
                System.out.printf("%8.3f %s %s seq=%d serial=%d n=%d bytes=%s%n", now / 1e6, fromClient ? "C>" : "<S",
                        PacketType.name(p0.header().type()), p0.header().seq(), p0.header().serial(), packets.size(),
                        p0 instanceof DataPacket ? datagramBytes(packets) : p0 instanceof AckPacket a
                                ? "ack r=" + a.reason() + " first=" + a.firstPacket() + " nacks=" + a.nAcks() + " ser="
                                + a.serial() + " tail=" + a.tailBytes() : "");
            }
            if (packets.get(0).header().type() == PacketType.DATA) {
                int bytes = datagramBytes(packets);
                d.largest = Math.max(d.largest, bytes);
                d.largestSinceReset = Math.max(d.largestSinceReset, bytes);
                if (d.ackSeen) {
                    d.largestAfterFirstAck = Math.max(d.largestAfterFirstAck, bytes);
                }
                if (bytes > d.mtu) {
                    d.dropped++;
                }
            }
        };
        net.deliveryFilter = (now, toServer, packets) -> {
            if (packets.get(0) instanceof AckPacket a && a.hasTrailer()) {
                (toServer ? down : up).ackSeen = true;
            }
            return true;
        };
        return net;
    }

    static LinkModel link(int mtu) {
        return LinkModel.delay(5 * MS).withMtu(mtu);
    }

    static void setMtu(SimNetwork net, int mtu, Sizes up, Sizes down) {
        net.setLinks(link(mtu), link(mtu));
        up.mtu = mtu;
        down.mtu = mtu;
    }

    /** Runs one call of {@code request} bytes up and {@code reply} bytes down to completion; checks every byte. */
    private static SimApps.BulkClient call(SimNetwork net, Connection conn, SimApps.BulkServer server, long request,
            long reply) {
        long before = server.requestBytes;
        SimApps.BulkClient c = new SimApps.BulkClient(net, request, reply);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 300 * S), "the call did not end");
        assertEquals(0, c.error, "the call completed");
        assertEquals(reply, c.reader.received, "reply bytes");
        assertEquals(0, c.reader.mismatches, "the reply is exact");
        net.runFor(S);
        assertEquals(request, server.requestBytes - before, "request bytes");
        assertEquals(0, server.mismatches, "the request is exact");
        return c;
    }

    private static Connection connect(SimNetwork net, SimApps.BulkServer server) {
        net.server().engine.registerService(SVC, 0, server);
        return net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
    }

    private static Peer serverPeer(SimNetwork net) {
        return net.server().engine.serverConnections().iterator().next().peer();
    }

    @ParameterizedTest(name = "path MTU {0}, {1}")
    @CsvSource({"1232, NEWRENO", "1200, NEWRENO", "1000, NEWRENO", "600, NEWRENO", "1200, BBR"})
    void aOneMebibyteSendAndReplyCompleteOnAPathBelowOneFullPacket(int mtu, CongestionControl cc) {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        RxConfig config = RxConfig.builder().congestionControl(cc).build();
        SimNetwork net = net(config, config, mtu, up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        long start = net.now();
        SimApps.BulkClient c = call(net, conn, server, 1L << 20, 1L << 20);
        System.out.printf("path MTU %d, " + cc + ": 1 MiB up + 1 MiB down in %.1f s, client path MTU %d, server path MTU %d,"
                + " client datagrams dropped %d, server %d%n", mtu, (c.completedAt - start) / 1e9,
                conn.peer().pathMtu(), serverPeer(net).pathMtu(), up.dropped, down.dropped);
        assertTrue(conn.peer().pathMtu() <= mtu, "the client found the path's MTU: " + conn.peer().pathMtu());
        assertTrue(serverPeer(net).pathMtu() <= mtu, "so did the server: " + serverPeer(net).pathMtu());
        // Well within one dead time of each direction's first loss, not at it (RX_CALL_DEAD would be -1).
        assertTrue(c.completedAt - start < 60 * S, (c.completedAt - start) / 1e9 + " s");
        // A second call is cut at the path's size from its first packet: nothing dropped.
        up.dropped = 0;
        down.dropped = 0;
        call(net, conn, server, 256 << 10, 256 << 10);
        assertEquals(0, up.dropped, "no client datagram above the path MTU");
        assertEquals(0, down.dropped, "no server datagram above the path MTU");
    }

    @Test
    void aPathThatShrinksMidCallFallsBackAndTheCallCompletes() {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        SimNetwork net = net(RxConfig.builder().build(), RxConfig.builder().build(), ETHERNET, up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        call(net, conn, server, 64 << 10, 0); // the path carried full-size packets
        assertEquals(Integer.MAX_VALUE, conn.peer().pathMtu());
        SimApps.BulkClient c = new SimApps.BulkClient(net, 8L << 20, 1L << 20);
        Call call = c.start(conn);
        // Shrink while the request is in full flow: jumbograms and full packets from then on are dropped.
        net.runFor(300 * MS);
        assertTrue(!c.done && call.counters().dataPacketsSent > 100, "the request is in full flow");
        long shrunkAt = net.now();
        setMtu(net, 1000, up, down);
        assertTrue(net.runUntil(() -> c.done, 300 * S), "the call ends");
        assertEquals(0, c.error, "completed, not RX_CALL_DEAD");
        assertEquals(1L << 20, c.reader.received);
        assertEquals(0, c.reader.mismatches, "the reply is exact");
        net.runFor(S);
        assertEquals((64L << 10) + (8L << 20), server.requestBytes, "request bytes");
        assertEquals(0, server.mismatches, "the request is exact");
        assertTrue(conn.peer().pathMtu() <= 1000, "path MTU " + conn.peer().pathMtu());
        System.out.printf("shrink to 1000 mid-call: completed %.1f s after, client re-cuts %d%n",
                (c.completedAt - shrunkAt) / 1e9, call.counters().recuts);
        assertTrue(call.counters().recuts >= 1, "packets already sent were re-cut");
    }

    @Test
    void packetsGrowAgainAfterThePathWidens() {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        SimNetwork net = net(RxConfig.builder().build(), RxConfig.builder().build(), 1000, up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        call(net, conn, server, 1L << 20, 0);
        assertTrue(conn.peer().pathMtu() <= 1000);
        // The path is Ethernet again. A long send probes upward while it runs and grows its packets.
        setMtu(net, ETHERNET, up, down);
        up.reset();
        SimApps.BulkClient c = new SimApps.BulkClient(net, 64L << 20, 0);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 300 * S));
        assertEquals(0, c.error);
        assertEquals(Integer.MAX_VALUE, conn.peer().pathMtu(), "the limit was lifted");
        assertTrue(up.largestSinceReset > 1000, "full-size packets again: " + up.largestSinceReset);
        // A later call uses full-size packets (and jumbograms are allowed again: none above the path's 1472 here).
        up.reset();
        call(net, conn, server, 1L << 20, 0);
        assertEquals(RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE, up.largestSinceReset,
                "full 1412-byte packets (two in a jumbogram would exceed the path's 1472)");
    }

    @Test
    void aPeerAdvertisingLessThanOneFullPacketNeverGetsMore() {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        // An OpenAFS peer told rx_SetMaxMTU(1000) without jumbograms: maxMTU = ifMTU = 1000 in its trailers.
        RxConfig small = RxConfig.builder().jumboMax(1).maxMtu(1000).build();
        SimNetwork net = net(RxConfig.builder().build(), small, 65535, up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        call(net, conn, server, 1L << 20, 64 << 10);
        assertTrue(up.largestAfterFirstAck > 0 && up.largestAfterFirstAck <= 1000,
                "after its first trailer, nothing above what it advertises: " + up.largestAfterFirstAck);
        assertTrue(down.largest <= 1000, "its own packets: " + down.largest);
        assertEquals(Integer.MAX_VALUE, conn.peer().pathMtu(), "no probing was needed");
    }

    @Test
    void aPacketTheReceiverHoldsIsNeverRenumberedSoTheCallEndsInsteadOfCorrupting() {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        SimNetwork net = net(RxConfig.builder().build(), RxConfig.builder().build(), 1200, up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        // Request: 8-byte header + pattern = 492 + 2 × 1412 + 100 bytes. The first flight (cwnd 4) is seq 1 (492,
        // fits), seqs 2-3 (1412, dropped) and seq 4 (100 bytes, LAST_PACKET, fits): the server holds seqs 1 and 4.
        // Re-cutting 2-3 would renumber 4 with other bytes, so the sender must not: the call ends.
        SimApps.BulkClient c = new SimApps.BulkClient(net, 492 + 2 * 1412 + 100 - 8, 0);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 120 * S), "the call ends");
        assertEquals(-1, c.error, "RX_CALL_DEAD, not a corrupted request");
        assertTrue(c.completedAt < 30 * S, "one dead time after the failed re-cut: " + c.completedAt / 1e9 + " s");
        assertEquals(1200, conn.peer().pathMtu(), "the probes found the path's MTU");
        net.runFor(S);
        assertEquals(0, server.mismatches, "nothing wrong reached the server");
        // The next call is cut at the path's size from its first packet and completes.
        call(net, conn, server, 64 << 10, 64 << 10);
    }

    @Test
    void aLossyPathAtFullSizeKeepsFullSizePackets() {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        RxConfig config = RxConfig.builder().maxWindow(64).build();
        SimNetwork net = new SimNetwork(config, config, link(ETHERNET).withLoss(0.05), link(ETHERNET).withLoss(0.05),
                7);
        nets.add(net);
        net.allowStalls = true;
        int[] probes = new int[1];
        net.sendTap = (now, fromClient, packets) -> {
            if (packets.get(0) instanceof AckPacket a && a.tailBytes() > 0) {
                probes[0]++;
            }
            if (fromClient && packets.get(0).header().type() == PacketType.DATA) {
                up.largestSinceReset = Math.max(up.largestSinceReset, datagramBytes(packets));
            }
        };
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        for (int i = 0; i < 4; i++) {
            call(net, conn, server, 4L << 20, 256 << 10);
        }
        System.out.printf("5%% loss at 1472 bytes: %d padded probes, client path MTU %d, timeouts %d%n", probes[0],
                conn.peer().pathMtu(), conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS));
        // Ladders may run after timeouts in a row; the failing size answered twice over keeps the full size.
        up.reset();
        call(net, conn, server, 1L << 20, 0);
        assertEquals(Integer.MAX_VALUE, conn.peer().pathMtu(), "no limit learned from plain loss");
        assertEquals(RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE, up.largestSinceReset,
                "full-size packets");
    }

    @Test
    void oneHalfMebibyteWriteFitsTheQueueAtTheSmallestPacketSize() {
        Sizes up = new Sizes();
        Sizes down = new Sizes();
        SimNetwork net = net(RxConfig.builder().build(), RxConfig.builder().build(), 520, up, down);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        call(net, conn, server, 64 << 10, 0);
        assertEquals(520, conn.peer().pathMtu());
        // rxperf writes 512 KiB chunks: 1,066 packets of 492 bytes in one write, more than SendQueue.CAPACITY.
        int n = 512 << 10;
        SimApps.BulkClient c = new SimApps.BulkClient(net, 0, 0);
        c.headerSent = true; // this test writes the request itself, in one piece
        c.writer = new SimApps.PatternWriter(0);
        up.dropped = 0;
        Call call = net.client().engine.newCall(net.now(), conn, c);
        call.write(net.now(), io.netty.buffer.Unpooled.buffer(8).writeLong(0));
        call.write(net.now(), SimApps.pattern(0, n));
        assertTrue(call.queuedPackets() > org.rx4j.engine.recovery.SendQueue.CAPACITY, "" + call.queuedPackets());
        call.finishSending(net.now());
        assertTrue(net.runUntil(() -> c.done, 120 * S));
        assertEquals(0, c.error);
        net.runFor(S);
        assertEquals((64L << 10) + n, server.requestBytes);
        assertEquals(0, server.mismatches);
        assertEquals(0, up.dropped, "every packet fits the path");
    }

    @Test
    void aMidSizeRequestsFirstPacketIsSmallOnlyUntilAProbeProvesThePath() {
        SimNetwork net = new SimNetwork(RxConfig.builder().build(), RxConfig.builder().build(), link(ETHERNET),
                link(ETHERNET), 3);
        nets.add(net);
        List<Integer> requestPackets = new ArrayList<>();
        int[] probes = new int[1];
        net.sendTap = (now, fromClient, packets) -> {
            if (fromClient && packets.get(0) instanceof DataPacket d) {
                int call = d.header().callNumber();
                while (requestPackets.size() < call) {
                    requestPackets.add(0);
                }
                requestPackets.set(call - 1, requestPackets.get(call - 1) + packets.size());
            } else if (fromClient && packets.get(0) instanceof AckPacket a && a.tailBytes() > 0) {
                probes[0]++;
            }
        };
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        Connection conn = connect(net, server);
        for (int i = 0; i < 3; i++) {
            call(net, conn, server, 1000 - 8, 100); // 1,000-byte requests: one full-size packet would hold them
        }
        assertEquals(2, requestPackets.get(0), "first call to the new peer: 492 + 508 bytes");
        assertEquals(1, probes[0], "one full-size PING proved the path");
        assertEquals(RxConstants.HEADER_SIZE + RxConstants.JUMBO_BUFFER_SIZE,
                conn.peer().pathMtuState().verifiedPacketSize());
        assertEquals(1, requestPackets.get(1), "later calls: one packet");
        assertEquals(1, requestPackets.get(2));
    }
}
