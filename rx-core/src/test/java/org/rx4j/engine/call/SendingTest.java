// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.S;
import static org.rx4j.engine.EngineHarness.bytes;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;

/**
 * The transmit side (rx-wire-facts.md §3 trailer use, §5 windows, §6 empty streams, §8 REQUEST_ACK policy):
 * twind, DATA flags, zero-length LAST_PACKET packets.
 */
class SendingTest {
    private static final int SVC = 147;
    private static final int CI = PacketFlags.CLIENT_INITIATED;
    private static final int REQ = PacketFlags.REQUEST_ACK;
    private static final int LAST = PacketFlags.LAST_PACKET;
    private static final int MORE = PacketFlags.MORE_PACKETS;

    private static int highestSeqSent(EngineHarness h) {
        return h.dataSent().stream().mapToInt(d -> d.header().seq()).max().orElse(0);
    }

    @Test
    void twindStartsAt16AndFollowsTheAdvertisedRwindUpToMax32() {
        EngineHarness h = new EngineHarness(RxConfig.builder().initialCwnd(32).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(200 * 1412));
        assertEquals(16, call.twind(), "initial twind");
        assertEquals(16, highestSeqSent(h), "only seq < tfirst + twind goes out");

        h.advance(MS);
        h.clear();
        // 4-word trailer, rwind 255: twind follows up to the default max of 32.
        h.deliver(server.ack(0, 1, 5, 16, 0, AckReason.DELAY, new byte[0], 255, 1));
        assertEquals(32, call.twind());
        assertEquals(5 + 32 - 1, highestSeqSent(h));

        // 4-word trailer: down and up.
        h.deliver(server.ack(0, 1, 6, 16, 0, AckReason.DELAY, new byte[0], 20, 1));
        assertEquals(20, call.twind());
        h.deliver(server.ack(0, 1, 7, 16, 0, AckReason.DELAY, new byte[0], 24, 1));
        assertEquals(24, call.twind());
        // 3-word trailer (AFS 3.4): rwind may only lower twind.
        h.deliver(server.ack(0, 1, 8, 16, 0, AckReason.DELAY, new byte[0], 3, 28, 0, 0));
        assertEquals(24, call.twind());
        h.deliver(server.ack(0, 1, 9, 16, 0, AckReason.DELAY, new byte[0], 3, 10, 0, 0));
        assertEquals(10, call.twind());
        // 2 words: no rwind at all.
        h.deliver(server.ack(0, 1, 10, 16, 0, AckReason.DELAY, new byte[0], 2, 0, 0, 0));
        assertEquals(10, call.twind());
        // rwind 0 counts as 1.
        h.deliver(server.ack(0, 1, 11, 16, 0, AckReason.DELAY, new byte[0], 0, 1));
        assertEquals(1, call.twind());

        // With twind 1, hard-acking everything sent releases exactly one new packet.
        int highest = highestSeqSent(h);
        h.clear();
        h.deliver(server.ack(0, 1, highest + 1, highest, 0, AckReason.DELAY, new byte[0], 0, 1));
        List<DataPacket> sent = h.dataSent();
        assertEquals(1, sent.size());
        assertEquals(highest + 1, sent.get(0).header().seq());

        // A configured larger maximum lets twind follow further.
        EngineHarness wide = new EngineHarness(RxConfig.builder().maxTwind(64).build());
        Connection c2 = wide.engine.connect(REMOTE, SVC, 0);
        Call call2 = wide.engine.newCall(wide.now, c2, CallListener.NONE);
        call2.write(wide.now, bytes(10 * 1412));
        assertEquals(16, call2.twind());
        wide.deliver(FakePeer.serverOf(c2).ack(0, 1, 1, 0, 0, AckReason.DELAY, new byte[0], 255, 1));
        assertEquals(64, call2.twind());
    }

    @Test
    void aOnePacketRequestHasFlags0x05() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(27));
        call.finishSending(h.now);
        List<DataPacket> sent = h.dataSent();
        assertEquals(1, sent.size());
        assertEquals(CI | LAST, sent.get(0).header().flags());
    }

    @Test
    void withCwndOneEveryNewPacketRequestsAnAck() {
        EngineHarness h = new EngineHarness(RxConfig.builder().initialCwnd(1).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(5 * 1412));
        List<DataPacket> sent = h.dataSent();
        assertEquals(1, sent.size(), "cwnd 1");
        assertEquals(CI | REQ, sent.get(0).header().flags(), "first packet of a longer request: 0x03");
        h.advance(MS);
        h.clear();
        h.deliver(FakePeer.serverOf(conn).ack(0, 1, 2, 1, sent.get(0).header().serial(), AckReason.REQUESTED,
                new byte[0], 32, 1));
        assertEquals(2, call.cwnd());
        sent = h.dataSent();
        assertEquals(2, sent.size());
        for (DataPacket d : sent) {
            assertTrue(d.header().hasFlag(REQ), "cwnd <= 2: every datagram requests an ack: " + d.header());
        }
    }

    @Test
    void burstFlagsFollowTheRequestAckAndMorePacketsRules() {
        EngineHarness h = new EngineHarness(RxConfig.defaults()); // initial cwnd 4
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        EngineHarness.fullSizeProven(conn); // the test counts full-size packets from seq 1
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(9 * 1412 + 700));
        call.finishSending(h.now);
        List<DataPacket> burst = h.dataSent();
        assertEquals(4, burst.size(), "cwnd 4");
        // No SLOW_START_OK seen yet: odd seqs request acks; MORE_PACKETS on all but the burst's last.
        assertEquals(CI | MORE | REQ, burst.get(0).header().flags());
        assertEquals(CI | MORE, burst.get(1).header().flags());
        assertEquals(CI | MORE | REQ, burst.get(2).header().flags());
        assertEquals(CI, burst.get(3).header().flags());

        h.advance(MS);
        h.clear();
        h.deliver(server.ack(0, 1, 5, 4, burst.get(2).header().serial(), AckReason.REQUESTED, new byte[0], 32, 1));
        List<DataPacket> second = h.dataSent();
        assertEquals(6, second.size(), "seqs 5..10 (cwnd 8)");
        int requests = 0;
        for (int i = 0; i < second.size(); i++) {
            DataPacket d = second.get(i);
            int seq = d.header().seq();
            boolean lastOfBurst = i == second.size() - 1;
            assertEquals(!lastOfBurst, d.header().hasFlag(MORE), "MORE_PACKETS on seq " + seq);
            assertEquals(seq == 10, d.header().hasFlag(LAST), "LAST_PACKET only on seq 10");
            if (d.header().hasFlag(REQ)) {
                requests++;
                assertTrue(seq % 2 == 1, "after SLOW_START_OK even seqs do not request acks: " + seq);
            }
        }
        assertFalse(second.get(5).header().hasFlag(REQ), "never REQUEST_ACK on a new LAST_PACKET packet");
        assertTrue(requests <= 1, "after SLOW_START_OK at most an RTT probe requests an ack: " + requests);

        // Everything but the last packet is hard-acked; the last one times out and is resent.
        h.advance(MS);
        h.deliver(server.ack(0, 1, 10, 9, 0, AckReason.DELAY, new byte[0], 32, 1));
        h.clear();
        h.advance(5 * S);
        List<DataPacket> resent = h.dataWithSeq(10);
        assertFalse(resent.isEmpty(), "the unacked last packet is retransmitted");
        assertEquals(CI | LAST | REQ, resent.get(0).header().flags(),
                "a resend keeps CLIENT_INITIATED|LAST_PACKET and always requests an ack");
    }

    @Test
    void anEmptyRequestAndAnEmptyReplyEachSendOneZeroLengthLastPacket() {
        EngineHarness client = new EngineHarness(RxConfig.defaults());
        Connection conn = client.engine.connect(REMOTE, SVC, 0);
        Call call = client.engine.newCall(client.now, conn, CallListener.NONE);
        call.finishSending(client.now);
        List<DataPacket> request = client.dataSent();
        assertEquals(1, request.size());
        assertEquals(1, request.get(0).header().seq());
        assertEquals(0, request.get(0).payload().readableBytes());
        assertEquals(CI | LAST, request.get(0).header().flags());

        EngineHarness server = new EngineHarness(RxConfig.builder().checkReach(false).build());
        Service svc = new Service(() -> server.now, 0);
        server.engine.registerService(SVC, 0, svc);
        server.deliver(FakePeer.client(0x80000010, 0x20, SVC).data(0, 1, 1, LAST, 0));
        assertEquals(1, svc.newCalls());
        assertTrue(svc.record(0).readComplete);
        assertEquals(0, svc.record(0).bytesRead);
        List<DataPacket> reply = server.dataSent();
        assertEquals(1, reply.size());
        assertEquals(1, reply.get(0).header().seq());
        assertEquals(0, reply.get(0).payload().readableBytes());
        assertEquals(LAST, reply.get(0).header().flags(), "reply: LAST_PACKET, no CLIENT_INITIATED, no REQUEST_ACK");
    }
}
