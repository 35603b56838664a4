// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;
import static org.rx4j.engine.EngineHarness.bytes;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.telemetry.PacketTrace;
import org.rx4j.testing.CaptureLogger;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The TRACE log of packet decisions (docs/embedding.md "Packet traces"), driven through the engine on a virtual clock:
 * each decision's line names the packet and what became of it, and with TRACE off (the test binding logs INFO and up)
 * dispatching allocates nothing more than it did without the trace, counted with the JVM's per-thread allocation
 * counter (bytes, not time).
 */
class PacketTraceTest {
    private static final int SVC = 147;

    private static EngineHarness traced(RxConfig config, CaptureLogger capture) {
        EngineHarness h = new EngineHarness(config);
        h.engine.packetTrace().logTo(capture);
        return h;
    }

    /** A traced server of {@link #SVC} that takes any source's DATA at once (no reachability challenge). */
    private static EngineHarness serving(CaptureLogger capture) {
        EngineHarness h = traced(RxConfig.builder().checkReach(false).build(), capture);
        h.engine.registerService(SVC, 0, call -> { });
        return h;
    }

    @Test
    void aDeliveredDataPacketAndItsAckAreTraced() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = serving(log);
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        h.deliver(client.data(0, 1, 1, PacketFlags.REQUEST_ACK, 100));
        assertEquals("in DATA from " + REMOTE + " epoch 80000010 cid 20 ch 0 call 1 seq 1 serial 1 service 147 sec 0:"
                + " opened a new server connection", log.lines().get(0));
        assertEquals("in DATA from " + REMOTE + " epoch 80000010 cid 20 ch 0 call 1 seq 1 serial 1 service 147 sec 0:"
                + " admitted as a new server call", log.lines().get(1));
        h.deliver(client.data(0, 1, 1, 0, 100));
        log.lineWith("in DATA", "seq 1 serial 2", ": delivered to its call");
        log.lineWith("in DATA", "seq 1 serial 2", ": duplicate DATA");
        String ack = log.lineWith("out ACK to " + REMOTE, "reason " + AckReason.name(AckReason.DUPLICATE));
        assertTrue(ack.endsWith(" ch 0 call 1 seq 0 serial 2 service 147 sec 0: reason duplicate first 1 prev 1"
                + " acks serial 2"), ack);
    }

    @Test
    void serialsAtOrAbove2To31ReadTheSameInAndOut() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = serving(log);
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        client.serial = 0xC19A_F674;
        h.deliver(client.data(0, 1, 1, PacketFlags.REQUEST_ACK, 100));
        log.lineWith("in DATA", " seq 1 serial 3248158325 ", ": admitted as a new server call");
        String ack = log.lineWith("out ACK to " + REMOTE, "reason requested");
        assertTrue(ack.endsWith(": reason requested first 1 prev 1 acks serial 3248158325"), ack);
    }

    @Test
    void pathMtuProbesSayWhatTheyAreAndTheirSize() {
        RxConfig config = RxConfig.defaults();
        LinkModel link = LinkModel.delay(MS / 10);
        SimNetwork net = new SimNetwork(config, config, link, link, 7);
        try {
            net.routeMtu = 65_535;
            CaptureLogger log = new CaptureLogger(Level.TRACE);
            net.client().engine.packetTrace().logTo(log);
            net.server().engine.registerService(SVC, 0, new SimApps.BulkServer(net));
            Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
            SimApps.BulkClient client = new SimApps.BulkClient(net, 100_000, 100);
            client.start(conn);
            assertTrue(net.runUntil(() -> client.done, 1_000 * MS));
            // Large-packet probes: the route's size (less IPv4 and UDP headers), then 16,384 and 8,972 below it.
            for (int size : new int[] {65_507, 16_384, 8_972}) {
                log.lineWith("out ACK to " + SimNetwork.SERVER, ": reason ping (path-MTU probe, " + size + " bytes) first");
            }
            assertEquals(3, log.lines().stream().filter(l -> l.contains("reason ping ")).count(), log.lines()::toString);
        } finally {
            net.shutdown();
        }
    }

    @Test
    void aDroppedPacketNamesItsReason() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = serving(log);
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        h.deliver(client.data(0, 1, 0, 0, 100));
        assertEquals(List.of("in DATA from " + REMOTE + " epoch 80000010 cid 20 ch 0 call 1 seq 0 serial 1 service 147"
                + " sec 0: dropped, call number or seq 0"), log.lines());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        h.deliverFrom(REMOTE2, FakePeer.serverOf(conn).ack(0, 1, 1, 1, 1, AckReason.REQUESTED, new byte[0], 32, 1));
        log.lineWith("in ACK from " + REMOTE2, ": dropped, client connection's ids from a stranger's address");
    }

    @Test
    void aPacketOfASecurityClassTheServiceDoesNotOfferSaysSo() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = serving(log);
        h.deliver(FakePeer.client(0x80000010, 0x20, SVC, 2).data(0, 1, 1, 0, 100));
        assertEquals(1, h.sentOfType(PacketType.ABORT).size());
        assertEquals(List.of("in DATA from " + REMOTE + " epoch 80000010 cid 20 ch 0 call 1 seq 1 serial 1 service 147"
                + " sec 2: dropped, security class not offered: raw ABORT"), log.lines());
    }

    @Test
    void aPacketForAnUnknownServiceGetsARawAbort() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = traced(RxConfig.defaults(), log);
        h.deliver(FakePeer.client(0x80000010, 0x20, 99).data(0, 1, 1, 0, 100));
        assertEquals(1, h.sentOfType(PacketType.ABORT).size());
        assertEquals(List.of("in DATA from " + REMOTE + " epoch 80000010 cid 20 ch 0 call 1 seq 1 serial 1 service 99"
                + " sec 0: dropped, unknown service: raw ABORT"), log.lines());
    }

    @Test
    void aRetransmissionTimeoutIsTraced() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = traced(RxConfig.defaults(), log);
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(2 * 1412));
        h.advance(3200 * MS); // the initial RTO: 3 s RTT + 200 ms slack, and no ACK came
        assertEquals(1, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS));
        assertEquals("retransmit to " + REMOTE + " ch 0 call 1 seq 1..2 rto 3200 ms: retransmission timeout",
                log.lineWith("retransmit"));
    }

    @Test
    void aFastRetransmitIsTraced() {
        CaptureLogger log = new CaptureLogger(Level.TRACE);
        EngineHarness h = traced(RxConfig.builder().initialCwnd(32).build(), log);
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(10 * 1412));
        h.advance(MS);
        for (int prev = 2; prev <= 4; prev++) { // three ACKs reporting the hole at seq 1
            int serial = h.dataWithSeq(prev).get(0).header().serial();
            h.deliver(server.ack(0, 1, 1, prev, serial, AckReason.OUT_OF_SEQUENCE,
                    FakePeer.acks("-+++".substring(0, prev)), 32, 1));
        }
        assertEquals(1, conn.counters().get(RxCounter.FAST_RETRANSMITS));
        long rtoMs = conn.peer().rtt().rtoNs() / MS; // sampled from the ACKs
        assertEquals("retransmit to " + REMOTE + " ch 0 call 1 seq 1..10 rto " + rtoMs + " ms: fast retransmit",
                log.lineWith("retransmit"));
        assertEquals(3, log.lines().stream().filter(l -> l.startsWith("in ACK") && l.endsWith("delivered to its call"))
                .count(), "each ACK delivered to the call");
    }

    @Test
    void traceOffAddsNoAllocationToDispatch() throws Exception {
        assertFalse(LoggerFactory.getLogger(PacketTrace.INBOUND).isTraceEnabled(), "off by default");
        assertFalse(LoggerFactory.getLogger(PacketTrace.OUTBOUND).isTraceEnabled(), "off by default");
        // com.sun.management's counter, by reflection: the test module does not read jdk.management
        Object threads = ManagementFactory.getThreadMXBean();
        Method counter = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        PacketTrace trace = new EngineHarness(RxConfig.defaults()).engine.packetTrace();
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        org.rx4j.wire.RxPacket data = client.data(0, 1, 1, 0, 100);
        org.rx4j.wire.RxPacket ack = FakePeer.server(0x80000010, 0x20, SVC).ping(0, 1);
        for (int i = 0; i < 1000; i++) { // warm up: class loading and the counter's own first use
            decideAll(trace, data, ack);
        }
        counter.invoke(threads);
        long before = (long) counter.invoke(threads);
        for (int i = 0; i < 100_000; i++) {
            decideAll(trace, data, ack);
        }
        long allocated = (long) counter.invoke(threads) - before;
        // one object per decision would be >= 16 bytes x 100,000 x 7; allow the counter's own few bytes
        assertTrue(allocated < 1024, allocated + " bytes allocated for 700,000 untraced decisions");
    }

    /** Every kind of trace call the engine makes, with TRACE off. */
    private static void decideAll(PacketTrace trace, org.rx4j.wire.RxPacket data, org.rx4j.wire.RxPacket ack) {
        trace.inbound(PacketTrace.In.DELIVERED, REMOTE, data.header());
        trace.inbound(PacketTrace.In.NO_CONNECTION, REMOTE, ack.header());
        trace.inbound(PacketTrace.In.DUPLICATE, REMOTE, data.header());
        trace.retransmit(PacketTrace.Retransmit.RTO, REMOTE, 0, 1, 1, 3, 3_200_000_000L);
        trace.retransmit(PacketTrace.Retransmit.FAST, REMOTE, 0, 1, 1, 3, 3_200_000_000L);
        trace.sent(REMOTE, ack);
        trace.sent(REMOTE, data);
    }
}
