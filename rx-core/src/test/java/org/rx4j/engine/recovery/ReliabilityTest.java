// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.S;
import static org.rx4j.engine.EngineHarness.bytes;
import static org.rx4j.engine.FakePeer.acks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * Loss recovery (rx-wire-facts.md §3 hard/soft acks and the ignore rule, §4 jumbogram rules, §8 timers and
 * congestion): timeout backoff, NACK-driven fast retransmit, soft-acked packets, stale ACKs, jumbogram sizing.
 */
class ReliabilityTest {
    private static final int SVC = 147;

    private static int serialOf(EngineHarness h, int seq) {
        List<DataPacket> sent = h.dataWithSeq(seq);
        return sent.get(sent.size() - 1).header().serial();
    }

    private static List<Integer> dataDatagramSizes(EngineHarness h) {
        List<Integer> sizes = new ArrayList<>();
        for (EngineHarness.Datagram d : h.sentOfType(PacketType.DATA)) {
            sizes.add(d.packets().size());
        }
        return sizes;
    }

    @Test
    void timeoutResendsWithABackoffThatDoublesOncePerTimeoutUpTo60Seconds() {
        // A long dead time so the call outlives the backoff; the peer never answers.
        EngineHarness h = new EngineHarness(RxConfig.builder().deadTime(Duration.ofSeconds(1000)).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(4 * 1412));
        assertEquals(4, h.dataSent().size(), "initial cwnd 4");
        long rto = conn.peer().rtt().rtoNs();
        assertEquals(3200 * MS, rto, "initial RTT 3 s + 200 ms slack");

        h.advance(420 * S);
        List<Long> resendTimes = new ArrayList<>();
        for (EngineHarness.Datagram d : h.sentOfType(PacketType.DATA)) {
            DataPacket p = (DataPacket) d.first();
            if (d.at() > 0) {
                assertTrue(p.header().hasFlag(PacketFlags.REQUEST_ACK), "resends request acks");
                resendTimes.add(d.at());
            }
        }
        // After a timeout cwnd is 1: one packet per timeout, never a burst of timers.
        long[] expectedIntervals = {3200, 6400, 12800, 25600, 51200, 60000, 60000, 60000, 60000, 60000};
        long prev = 0;
        assertTrue(resendTimes.size() >= expectedIntervals.length, "resends: " + resendTimes);
        for (int i = 0; i < expectedIntervals.length; i++) {
            assertEquals(expectedIntervals[i] * MS, resendTimes.get(i) - prev, "interval before resend " + (i + 1));
            prev = resendTimes.get(i);
        }
        assertEquals(resendTimes.size(), conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS), "one timeout per resend round");
        assertEquals(60 * S, conn.peer().rtt().rtoNs(), "RTO capped at 60 s");
        assertEquals(CallState.ACTIVE, call.state());
    }

    @Test
    void threeAcksWithHolesTriggerAFastRetransmitAndTwoDoNot() {
        EngineHarness h = new EngineHarness(RxConfig.builder().initialCwnd(32).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(10 * 1412));
        assertEquals(10, h.dataSent().size());
        int[] serials = new int[11];
        for (int seq = 1; seq <= 10; seq++) {
            serials[seq] = serialOf(h, seq);
        }
        h.advance(MS);
        h.clear();
        h.deliver(server.ack(0, 1, 1, 2, serials[2], AckReason.OUT_OF_SEQUENCE, acks("-+"), 32, 1));
        h.deliver(server.ack(0, 1, 1, 3, serials[3], AckReason.OUT_OF_SEQUENCE, acks("-++"), 32, 1));
        assertTrue(h.dataSent().isEmpty(), "two ACKs with a hole: no retransmission yet");
        assertEquals(0, conn.counters().get(RxCounter.FAST_RETRANSMITS));
        h.deliver(server.ack(0, 1, 1, 4, serials[4], AckReason.OUT_OF_SEQUENCE, acks("-+++"), 32, 1));
        List<DataPacket> resent = h.dataSent();
        assertEquals(1, resent.size(), "the third ACK with a hole resends the hole");
        assertEquals(1, resent.get(0).header().seq());
        assertTrue(resent.get(0).header().hasFlag(PacketFlags.REQUEST_ACK));
        assertEquals(1, conn.counters().get(RxCounter.FAST_RETRANSMITS));
        assertEquals(1, conn.counters().get(RxCounter.RESENDS));
        assertEquals(0, conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS));
    }

    @Test
    void aSoftAckedPacketIsKeptUntilHardAckedAndResentWhenLaterNacked() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(4 * 1412));
        h.advance(MS);
        h.deliver(server.ack(0, 1, 1, 4, serialOf(h, 4), AckReason.IDLE, acks("++++"), 32, 1));
        assertEquals(4, call.queuedPackets(), "soft-acked packets stay queued");
        h.clear();
        h.advance(S);
        assertTrue(h.dataSent().isEmpty(), "soft-acked packets are not resent on timeout");

        h.deliver(server.ack(0, 1, 1, 4, 0, AckReason.DELAY, acks("-+++"), 32, 1));
        List<DataPacket> resent = h.dataSent();
        assertEquals(1, resent.size(), "the receiver dropped seq 1 after soft-acking it: resend");
        assertEquals(1, resent.get(0).header().seq());
        assertEquals(4, call.queuedPackets());

        h.deliver(server.ack(0, 1, 5, 4, 0, AckReason.DELAY, new byte[0], 32, 1));
        assertEquals(0, call.queuedPackets(), "the hard ack frees them");
    }

    @Test
    void whileEverythingSentIsOnlySoftAckedTheResendTimerAsksTheReceiverWithAPing() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(4 * 1412));
        h.advance(MS);
        h.deliver(server.ack(0, 1, 1, 4, serialOf(h, 4), AckReason.IDLE, acks("++++"), 32, 1));
        long rto = conn.peer().rtt().rtoNs();
        assertTrue(rto < S, "RTO from a 1 ms sample: " + rto);
        h.clear();
        // The hard ack that would free the packets is lost: the timer must not wait for the 2 s keepalive.
        h.advance(rto + MS);
        List<org.rx4j.wire.AckPacket> pings = h.acksSent();
        assertEquals(1, pings.size());
        assertEquals(AckReason.PING, pings.get(0).reason());
        assertTrue(pings.get(0).header().hasFlag(PacketFlags.REQUEST_ACK));
        assertEquals(MS + rto, h.sent.get(0).at(), "one RTO after the last ack");
        assertTrue(h.dataSent().isEmpty(), "soft-acked packets are not resent");
        h.deliver(server.ack(0, 1, 5, 4, pings.get(0).header().serial(), AckReason.PING_RESPONSE, new byte[0], 32,
                1));
        assertEquals(0, call.queuedPackets(), "the answer's hard ack frees them");
    }

    @Test
    void olderAcksAreIgnoredAndNeverTakenAsNacks() {
        EngineHarness h = new EngineHarness(RxConfig.builder().initialCwnd(32).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(12 * 1412));
        h.advance(MS);
        h.deliver(server.ack(0, 1, 5, 8, serialOf(h, 8), AckReason.IDLE, acks("++++"), 32, 1));
        h.clear();
        // Three reordered older ACKs (firstPacket went backwards) whose holes would trigger a fast retransmit.
        h.deliver(server.ack(0, 1, 1, 2, 0, AckReason.OUT_OF_SEQUENCE, acks("-+"), 32, 1));
        h.deliver(server.ack(0, 1, 1, 3, 0, AckReason.OUT_OF_SEQUENCE, acks("-++"), 32, 1));
        h.deliver(server.ack(0, 1, 1, 4, 0, AckReason.OUT_OF_SEQUENCE, acks("-+++"), 32, 1));
        assertEquals(3, conn.counters().get(RxCounter.ACKS_IGNORED));
        // Same firstPacket, smaller previousPacket: older too. Taken as new it would NACK soft-acked 5 and 6.
        h.deliver(server.ack(0, 1, 5, 6, 0, AckReason.OUT_OF_SEQUENCE, acks("--"), 32, 1));
        assertEquals(4, conn.counters().get(RxCounter.ACKS_IGNORED));
        assertTrue(h.dataSent().isEmpty(), "nothing resent: " + h.dataSent());
        assertEquals(0, conn.counters().get(RxCounter.FAST_RETRANSMITS));
        assertEquals(8, call.queuedPackets(), "seqs 5..12 still queued, 1..4 freed");
    }

    @Test
    void anAckBeyondWhatWasSentIsDroppedAndDoesNotMakeLaterAcksLookOlder() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(2 * 1412));
        h.advance(MS);
        // A broken peer hard-acks up to seq 99 when only seqs 1 and 2 were sent: it describes packets never
        // transmitted, so it is dropped whole.
        h.deliver(server.ack(0, 1, 100, 99, 0, AckReason.DELAY, new byte[0], 32, 1));
        assertEquals(1, conn.counters().get(RxCounter.ACKS_REJECTED), "the out-of-range ACK is counted");
        assertEquals(2, call.queuedPackets(), "nothing is freed by it");
        call.write(h.now, bytes(2 * 1412));
        assertEquals(2, h.dataWithSeq(3).size() + h.dataWithSeq(4).size(), "seqs 3 and 4 sent");
        h.advance(MS);
        h.deliver(server.ack(0, 1, 5, 4, serialOf(h, 4), AckReason.IDLE, new byte[0], 32, 1));
        assertEquals(0, conn.counters().get(RxCounter.ACKS_IGNORED), "the correct ACK is not taken as older than the broken one");
        assertEquals(0, call.queuedPackets(), "it frees seqs 1 to 4");
    }

    @Test
    void timersKeepTheirOrderWhenTheClockPassesLongMaxValue() {
        // The 60 s reaper deadline wraps past Long.MAX_VALUE, the call's 3.2 s retransmission deadline does not.
        EngineHarness h = new EngineHarness(RxConfig.defaults(), 42, Long.MAX_VALUE - 30 * S);
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(1412));
        long rto = conn.peer().rtt().rtoNs();
        h.advance(rto + MS);
        assertEquals(2, h.dataWithSeq(1).size(), "resent one RTO later, not at the reaper's wrapped deadline");

        // The 2 s keepalive does not wrap, the 3.2 s retransmission deadline does: the keepalive comes first.
        EngineHarness k = new EngineHarness(RxConfig.defaults(), 42, Long.MAX_VALUE - 2500 * MS);
        Connection kc = k.engine.connect(REMOTE, SVC, 0);
        Call kcall = k.engine.newCall(k.now, kc, CallListener.NONE);
        kcall.write(k.now, bytes(1412));
        k.advance(2100 * MS);
        assertEquals(1, k.acksSent().size(), "the keepalive PING is not put off to the later deadline");
        assertEquals(AckReason.PING, k.acksSent().get(0).reason());
    }

    @Test
    void jumbogramSizeGrowsOnlyAfterCleanAcks() {
        EngineHarness h = new EngineHarness(RxConfig.builder().initialCwnd(32).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(200 * 1412));
        assertEquals(16, h.dataSent().size());
        assertTrue(dataDatagramSizes(h).stream().allMatch(n -> n == 1), "no trailer seen yet: no jumbograms");

        h.advance(MS);
        h.clear();
        // The peer advertises 4 sub-packets; 4 packets newly acked is not more than the threshold.
        h.deliver(server.ack(0, 1, 5, 4, 0, AckReason.DELAY, new byte[0], 32, 4));
        assertEquals(4, conn.peer().maxDgramPackets());
        assertEquals(20, h.dataSent().size(), "seqs 17..36");
        assertTrue(dataDatagramSizes(h).stream().allMatch(n -> n == 1), "size stays 1: " + dataDatagramSizes(h));

        h.clear();
        // Many packets newly acked, but with a hole: no growth.
        h.deliver(server.ack(0, 1, 9, 20, 0, AckReason.DELAY, acks("-+++++++++++"), 32, 4));
        assertEquals(4, h.dataSent().size(), "seqs 37..40");
        assertTrue(dataDatagramSizes(h).stream().allMatch(n -> n == 1), "NACKed ack: " + dataDatagramSizes(h));

        h.clear();
        // A clean ack newly acking more than 4 packets: one step up, to 2 sub-packets.
        h.deliver(server.ack(0, 1, 21, 30, 0, AckReason.DELAY, acks("++++++++++"), 32, 4));
        List<Integer> sizes = dataDatagramSizes(h);
        assertEquals(12, h.dataSent().size(), "seqs 41..52");
        assertTrue(sizes.stream().allMatch(n -> n == 2), "grown to 2: " + sizes);
    }

    private static SimNetwork bulk(RxConfig clientConfig, RxConfig serverConfig, LinkModel link, long bytes,
                                   long seed, SimNetwork.SendTap tap) {
        SimNetwork net = new SimNetwork(clientConfig, serverConfig, link, link, seed);
        net.sendTap = tap;
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, bytes, bytes);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 3600 * S), "transfer did not complete");
        assertEquals(0, client.error);
        assertEquals(bytes, server.requestBytes);
        assertEquals(0, server.mismatches);
        assertEquals(bytes, client.reader.received);
        assertEquals(0, client.reader.mismatches);
        return net;
    }

    @Test
    void jumbogramsOnlyWhenThePeerAdvertisesMoreThanOnePacket() {
        LinkModel link = LinkModel.delay(MS);
        RxConfig jumbo = RxConfig.defaults();
        RxConfig noJumbo = RxConfig.builder().jumboMax(1).build();
        SimNetwork mixed = bulk(jumbo, noJumbo, link, 2 << 20, 21, null);
        assertEquals(0, mixed.deliveredToServer.jumbograms, "the server advertises 1: no jumbograms to it");
        assertEquals(0, mixed.deliveredToClient.jumbograms, "the server itself is configured without jumbograms");
        SimNetwork both = bulk(jumbo, jumbo, link, 2 << 20, 21, null);
        assertTrue(both.deliveredToServer.jumbograms > 0);
        assertTrue(both.deliveredToClient.jumbograms > 0);
    }

    @Test
    void retransmissionsAreNeverPutInJumbograms() {
        record Key(boolean fromClient, int cid, int callNumber, int seq) {
        }
        Set<Key> seen = new HashSet<>();
        long[] violations = new long[1];
        long[] jumbograms = new long[1];
        SimNetwork.SendTap tap = (now, fromClient, packets) -> {
            if (packets.get(0).header().type() != PacketType.DATA) {
                return;
            }
            if (packets.size() > 1) {
                jumbograms[0]++;
            }
            for (RxPacket p : packets) {
                Key key = new Key(fromClient, p.header().cid(), p.header().callNumber(), p.header().seq());
                if (!seen.add(key) && packets.size() > 1) {
                    violations[0]++;
                }
            }
        };
        LinkModel link = LinkModel.delay(2 * MS).withLoss(0.05);
        SimNetwork net = bulk(RxConfig.defaults(), RxConfig.defaults(), link, 8 << 20, 22, tap);
        assertTrue(net.client().engine.totals().get(RxCounter.RESENDS) > 0);
        assertTrue(net.server().engine.totals().get(RxCounter.RESENDS) > 0);
        assertTrue(jumbograms[0] > 0);
        assertEquals(0, violations[0], "a retransmitted packet travelled inside a jumbogram");
    }

    @Test
    void a46PacketJumbogramFlowsBetweenEnginesConfiguredForIt() {
        // At a full window the sender waits for room for a whole jumbogram (docs/engine.md "Jumbogram size"); a
        // receiver that pauses briefly and then consumes its backlog in one go opens the window by ~100 packets at
        // once, and the sender fills that with jumbograms of the full 46 packets as well.
        RxConfig config = RxConfig.builder().jumboMax(46).maxWindow(255).ifMtu(1444).build();
        LinkModel link = LinkModel.delay(MS).withBandwidth(1_000_000_000L, 4 << 20);
        SimNetwork net = new SimNetwork(config, config, link, link, 23);
        // 1,412-byte packets on a route as wide as loopback's: 46-packet jumbograms fit it unfragmented.
        net.routeMtu = 65_536;
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 16 << 20, 0);
        client.start(conn);
        net.runFor(50 * MS);
        assertEquals(46, conn.peer().maxDgramPackets(), "both sides accept 46");
        server.reading = false;
        net.runFor(MS);
        server.reading = true;
        assertTrue(net.runUntil(() -> client.done, 60 * S));
        assertEquals(0, client.error);
        assertEquals(16 << 20, server.requestBytes);
        assertEquals(0, server.mismatches);
        assertEquals(46, net.deliveredToServer.maxSubPackets);
    }
}
