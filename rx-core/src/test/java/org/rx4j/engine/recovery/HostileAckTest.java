// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.S;
import static org.rx4j.engine.EngineHarness.bytes;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.RecordingApps;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Hostile ACKs (docs/robustness.md "Rule: ACK trailers out of range" and "Rule: ACKs checked against what was
 * transmitted"): trailers outside their range are clamped and counted, the window never closes, and a transfer under a
 * stream of such trailers still delivers every byte; an ACK or ACKALL that describes packets never transmitted is
 * dropped whole and counted, releasing and soft-acking nothing.
 */
class HostileAckTest {
    private static final int SVC = 147;

    /** Out-of-range trailers, each a value outside its protocol range: {maxMTU, ifMTU, rwind, maxDgramPackets}. */
    static final int[][] BAD_TRAILERS = {
        {0, 1444, 32, 4}, {1, 1444, 32, 4}, {27, 1444, 32, 4}, {28, 1444, 32, 4}, {0xFFFFFFFF, 1444, 32, 4},
        {5692, 0, 32, 4}, {5692, 0xFFFFFFFF, 32, 4}, {5692, 1444, 0, 4}, {5692, 1444, 0xFFFFFFFF, 4},
        {5692, 1444, 32, 0}, {5692, 1444, 32, 0xFFFFFFFF},
    };

    /** An ACK from {@code peer} with a 4-word trailer of the given raw values. */
    static AckPacket ackWithTrailer(FakePeer peer, int channel, int callNumber, int first, byte[] acks, int[] t) {
        RxHeader h = peer.header(channel, callNumber, 0, PacketType.ACK, PacketFlags.SLOW_START_OK);
        return new AckPacket(h, 0, 0, first, first - 1, 0, AckReason.IDLE, acks, 4, t[0], t[1], t[2], t[3], 0);
    }

    private static void assertPeerInRange(Connection conn, Call call) {
        Peer p = conn.peer();
        assertTrue(p.maxMtu() >= RxConstants.MIN_PACKET_SIZE && p.maxMtu() <= RxConstants.MAX_DATAGRAM_SIZE,
                "maxMTU " + p.maxMtu());
        assertTrue(p.ifMtu() >= RxConstants.MIN_PACKET_SIZE && p.ifMtu() <= RxConstants.MAX_DATAGRAM_SIZE,
                "ifMTU " + p.ifMtu());
        assertTrue(p.maxDgramPackets() >= 1 && p.maxDgramPackets() <= 46, "maxDgramPackets " + p.maxDgramPackets());
        assertTrue(p.lastRwind() >= 1 && p.lastRwind() <= RxConstants.MAX_ACKS, "rwind " + p.lastRwind());
        assertTrue(call.twind() >= 1, "the window stays open: twind " + call.twind());
    }

    @Test
    void outOfRangeTrailerValuesAreClampedAndCounted() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(2 * 1412));
        h.advance(MS);
        for (int[] t : BAD_TRAILERS) {
            h.deliver(ackWithTrailer(server, 0, 1, 1, new byte[0], t));
            assertPeerInRange(conn, call);
        }
        assertEquals(BAD_TRAILERS.length, conn.counters().get(RxCounter.TRAILERS_CLAMPED), "every bad trailer counted");
        assertEquals(0, conn.counters().get(RxCounter.ACKS_REJECTED), "the bodies themselves were valid");
        // rwind 0xFFFFFFFF read unsigned is "as many as allowed", 0 is "one": neither closes the window.
        h.deliver(ackWithTrailer(server, 0, 1, 1, new byte[0], new int[] {5692, 1444, 0, 4}));
        assertEquals(1, call.twind());
        h.deliver(ackWithTrailer(server, 0, 1, 1, new byte[0], new int[] {5692, 1444, 0xFFFFFFFF, 4}));
        assertEquals(Math.min(RxConstants.MAX_ACKS, RxConfig.defaults().windows().maxTwind()), call.twind());
        // A good trailer is not counted.
        h.deliver(ackWithTrailer(server, 0, 1, 1, new byte[0], new int[] {5692, 1444, 32, 4}));
        assertEquals(BAD_TRAILERS.length + 2, conn.counters().get(RxCounter.TRAILERS_CLAMPED));
    }

    @Test
    void aTrailerCutAfterSixBytesIsNoTrailerAtAll() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(1412));
        h.advance(MS);
        int mtuBefore = conn.peer().maxMtu();
        AckPacket full = ackWithTrailer(server, 0, 1, 1, new byte[0], new int[] {600, 600, 1, 1});
        ByteBuf wire = PacketEncoder.encode(full, Unpooled.buffer().alloc());
        // Header, 18 fixed bytes, no acks, 3 pad bytes, then only 6 of the 16 trailer bytes.
        int cut = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE + RxConstants.ACK_PAD_SIZE + 6;
        ByteBuf truncated = wire.retainedSlice(0, cut);
        wire.release();
        List<RxPacket> out = new ArrayList<>();
        try {
            assertEquals(null, PacketDecoder.decode(truncated, out));
        } finally {
            truncated.release();
        }
        AckPacket partial = (AckPacket) out.get(0);
        assertEquals(0, partial.trailerWords(), "a partial trailer is no trailer");
        h.engine.onDatagram(h.now, REMOTE, out);
        assertEquals(mtuBefore, conn.peer().maxMtu(), "nothing from the partial trailer was used");
        assertEquals(0, conn.peer().lastRwind());
        assertTrue(call.twind() >= 1);
    }

    @Test
    void aTransferUnderAStreamOfHostileTrailersDeliversEveryByte() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 12);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        int[] k = {0};
        // After every ACK the server sends, the client also gets a copy of it with an out-of-range trailer.
        net.sendTap = (now, fromClient, packets) -> {
            if (!fromClient && packets.get(0) instanceof AckPacket a && a.hasTrailer()) {
                int[] t = BAD_TRAILERS[k[0]++ % BAD_TRAILERS.length];
                RxHeader h = a.header();
                RxHeader forged = new RxHeader(h.epoch(), h.cid(), h.callNumber(), 0, h.serial(), PacketType.ACK,
                        h.flags() & ~PacketFlags.REQUEST_ACK, 0, h.securityIndex(), 0, h.serviceId());
                net.inject(false, new AckPacket(forged, 0, 0, a.firstPacket(), a.previousPacket(), a.serial(),
                        a.reason(), a.acks().clone(), 4, t[0], t[1], t[2], t[3], 0));
            }
        };
        net.allowStalls = true; // rwind 0 → 1 slows the sender on purpose
        SimApps.BulkClient client = new SimApps.BulkClient(net, 2 << 20, 2 << 20);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 600 * S), "the call ends");
        assertEquals(0, client.error);
        assertEquals(2 << 20, server.requestBytes);
        assertEquals(0, server.mismatches);
        assertEquals(2 << 20, client.reader.received);
        assertEquals(0, client.reader.mismatches);
        assertTrue(conn.counters().get(RxCounter.TRAILERS_CLAMPED) > 10, "bad trailers arrived: " + conn.counters().get(RxCounter.TRAILERS_CLAMPED));
        net.shutdown();
    }

    @Test
    void acksDescribingPacketsNeverTransmittedAreDroppedWhole() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        EngineHarness.fullSizeProven(conn); // the test counts full-size packets from seq 1
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(2 * 1412));
        call.flush(h.now);
        h.advance(MS);
        assertEquals(1, h.dataWithSeq(1).size());
        assertEquals(1, h.dataWithSeq(2).size());
        long lastReceive = h.now;
        h.advance(10 * MS);
        // firstPacket 0; firstPacket beyond seq 3; soft acks for seqs 1..4 when 1..2 were sent; an entry of 2.
        h.deliver(server.ack(0, 1, 0, 0, 0, AckReason.IDLE, FakePeer.acks("++"), 32, 1));
        h.deliver(server.ack(0, 1, 4, 3, 0, AckReason.IDLE, new byte[0], 32, 1));
        h.deliver(server.ack(0, 1, 1, 2, 0, AckReason.IDLE, FakePeer.acks("++++"), 32, 1));
        h.deliver(server.ack(0, 1, 1, 2, 0, AckReason.IDLE, new byte[] {1, 2}, 32, 1));
        assertEquals(4, conn.counters().get(RxCounter.ACKS_REJECTED));
        assertEquals(2, call.queuedPackets(), "nothing released");
        assertEquals(0, conn.counters().get(RxCounter.ACKS_RECEIVED, AckReason.IDLE), "rejected before they are read");
        // Nothing was soft-acked either: the retransmission timer resends both.
        h.advance(4 * S);
        assertTrue(h.dataWithSeq(1).size() >= 2, "seq 1 resent");
        assertTrue(lastReceive <= h.now);
        // A valid ACK of the same shape is believed.
        h.deliver(server.ack(0, 1, 1, 2, 0, AckReason.IDLE, FakePeer.acks("++"), 32, 1));
        assertEquals(4, conn.counters().get(RxCounter.ACKS_REJECTED));
        assertEquals(1, conn.counters().get(RxCounter.ACKS_RECEIVED, AckReason.IDLE));
    }

    @Test
    void anAckWhoseFirstPacketIsHalfTheSeqSpaceAwayIsDroppedWithoutHarm() {
        // Found by the stateful fuzzer (Jazzer): firstPacket 2^31 from what was sent read as "ahead" in the
        // hard-ack loop and walked into seqs never queued.
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        EngineHarness.fullSizeProven(conn); // the test counts full-size packets from seq 1
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(1412));
        call.flush(h.now);
        h.advance(MS);
        for (int first : new int[] {0x80000001, 0x80000002, 0x7FFFFFFF, 0xC0000000}) {
            h.deliver(server.ack(0, 1, first, first - 1, 0, AckReason.IDLE, FakePeer.acks("+"), 32, 1));
        }
        assertEquals(0, h.engine.totals().get(RxCounter.INTERNAL_ERRORS), "nothing threw: " + h.engine.lastInternalError());
        assertEquals(4, conn.counters().get(RxCounter.ACKS_REJECTED));
        assertEquals(1, call.queuedPackets());
    }

    @Test
    void aServerCallThatSentNothingDropsAnAckHalfTheSeqSpaceAhead() {
        // The fuzzer's shape: a server call that has sent nothing (tfirst = next = 1) gets firstPacket 2^31 + 1.
        EngineHarness s = new EngineHarness(RxConfig.builder().checkReach(false).build());
        s.engine.registerService(SVC, 0, c -> { });
        FakePeer client = FakePeer.client(0x80000077, 0x400, SVC);
        s.deliver(client.data(0, 1, 1, 0, 100));
        s.deliver(client.ack(0, 1, 0x80000001, 0x80000000, 0, AckReason.IDLE, new byte[0], 32, 1));
        assertEquals(0, s.engine.totals().get(RxCounter.INTERNAL_ERRORS), "nothing threw: " + s.engine.lastInternalError());
        assertEquals(1, s.engine.totals().get(RxCounter.ACKS_REJECTED));
        s.engine.shutdown(s.now);
    }

    @Test
    void aRejectedAckDoesNotKeepAQuietCallAlive() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        RecordingApps.Client app = null;
        int[] error = {Integer.MIN_VALUE};
        Call call = h.engine.newCall(h.now, conn, new CallListener() {
            @Override
            public boolean wantsData(Call c) {
                return false; // leaves the bytes in the call
            }

            @Override
            public void onData(Call c, ByteBuf b, long now) {
                b.release();
            }

            @Override
            public void onWritable(Call c) {
            }

            @Override
            public void onComplete(Call c, int errorCode) {
                error[0] = errorCode;
            }
        });
        call.write(h.now, bytes(100));
        call.finishSending(h.now);
        long start = h.now;
        // Every second a forged ACK beyond what was sent: never a sign of life.
        for (int i = 0; i < 30 && error[0] == Integer.MIN_VALUE; i++) {
            h.advance(S);
            h.deliver(server.ack(0, 1, 9, 8, 0, AckReason.IDLE, new byte[0], 32, 1));
        }
        assertEquals(org.rx4j.wire.AbortCodes.RX_CALL_DEAD, error[0], "dead time still applies");
        assertTrue(h.now - start <= RxConfig.defaults().timeouts().deadTimeNs() + S, "at the dead time");
        assertTrue(app == null);
    }

    @Test
    void anAckAllReleasesOnlyWhatWasTransmittedAndNothingBeforeAnythingWas() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        h.deliver(server.control(PacketType.ACKALL, 0, 1));
        assertEquals(1, conn.counters().get(RxCounter.ACKS_REJECTED), "ACKALL before anything was sent");
        call.write(h.now, bytes(10 * 1412));
        call.finishSending(h.now);
        h.advance(MS);
        int sent = h.dataSent().size();
        int total = call.queuedPackets();
        assertTrue(sent > 0 && sent < total, "the window holds part of the request back: " + sent);
        h.deliver(server.control(PacketType.ACKALL, 0, 1));
        assertEquals(1, conn.counters().get(RxCounter.ACKS_REJECTED));
        assertEquals(total - sent, call.queuedPackets(), "only the transmitted packets were released");
        // The rest still goes out, from the first seq not yet transmitted; the call does not complete on its own.
        h.advance(10 * MS);
        assertEquals(1, h.dataWithSeq(sent + 1).size(), "seq " + (sent + 1) + " transmitted after the ACKALL");
        assertTrue(!call.isDone());
    }
}
