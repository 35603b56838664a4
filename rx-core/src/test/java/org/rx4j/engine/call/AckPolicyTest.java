// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.FakePeer.acks;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;

/**
 * The receiver's ACK policy (rx-wire-facts.md §3, §8): each ACK reason in its situation, hard acks as the
 * application consumes, soft acks for queued packets, the delayed-ack timer.
 */
class AckPolicyTest {
    private static final int SVC = 147;

    /** A server engine whose service does not read unless told to. */
    private EngineHarness h;
    private Service svc;
    private final FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);

    AckPolicyTest() {
        init(RxConfig.defaults().ackPolicy().ackRate());
    }

    /** @param ackRate {@code RxConfig.ackPolicy().ackRate()}: 2 gives OpenAFS's rates */
    private static AckPolicyTest withAckRate(int ackRate) {
        AckPolicyTest t = new AckPolicyTest();
        t.init(ackRate);
        return t;
    }

    private void init(int ackRate) {
        h = new EngineHarness(RxConfig.builder().checkReach(false).ackRate(ackRate).build());
        svc = new Service(() -> h.now, -1);
        svc.reading = false;
        h.engine.registerService(SVC, 0, svc);
    }

    private AckPacket onlyAck() {
        List<AckPacket> acks = h.acksSent();
        assertEquals(1, acks.size(), "exactly one ACK: " + acks);
        return acks.get(0);
    }

    private Call call() {
        return svc.calls.get(0);
    }

    @Test
    void requestAckGivesAnImmediateRequestedAck() {
        DataPacket d = client.data(0, 1, 1, PacketFlags.REQUEST_ACK, 1412);
        int serial = d.header().serial();
        h.deliver(d);
        AckPacket a = onlyAck();
        assertEquals(AckReason.REQUESTED, a.reason());
        assertEquals(serial, a.serial());
        assertEquals(1, a.firstPacket());
        assertEquals(1, a.previousPacket());
        assertArrayEquals(acks("+"), a.acks(), "the held packet is soft-acked");
        assertEquals(32, a.rwind());
        assertTrue(a.header().hasFlag(PacketFlags.SLOW_START_OK));
        assertEquals(0, a.header().flags() & PacketFlags.CLIENT_INITIATED, "server side");
    }

    @Test
    void aDuplicateGivesADuplicateAck() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        assertEquals(0, h.acksSent().size(), "one packet alone waits for the delayed ack");
        DataPacket dup = client.data(0, 1, 1, 0, 1412);
        h.deliver(dup);
        AckPacket a = onlyAck();
        assertEquals(AckReason.DUPLICATE, a.reason());
        assertEquals(dup.header().serial(), a.serial());
    }

    @Test
    void aGapGivesAnOutOfSequenceAck() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        DataPacket third = client.data(0, 1, 3, 0, 1412);
        h.deliver(third);
        AckPacket a = onlyAck();
        assertEquals(AckReason.OUT_OF_SEQUENCE, a.reason());
        assertEquals(third.header().serial(), a.serial());
        assertEquals(1, a.firstPacket());
        assertEquals(3, a.previousPacket());
        assertArrayEquals(acks("+-+"), a.acks(), "seq 2 is NACKed");
    }

    @Test
    void dataBeyondTheWindowGivesAnExceedsWindowAckAndIsDropped() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        DataPacket far = client.data(0, 1, 33, 0, 1412);
        h.deliver(far);
        AckPacket a = onlyAck();
        assertEquals(AckReason.EXCEEDS_WINDOW, a.reason());
        assertEquals(far.header().serial(), a.serial());
        assertArrayEquals(acks("+"), a.acks(), "seq 33 was not kept");
        h.clear();
        h.deliver(client.data(0, 1, 32, 0, 1412));
        assertEquals(AckReason.OUT_OF_SEQUENCE, onlyAck().reason(), "seq 32 is inside the window");
    }

    @Test
    void everySecondNewPacketGivesAnImmediateIdleAckWithSoftAcks() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        assertEquals(0, h.acksSent().size());
        DataPacket second = client.data(0, 1, 2, 0, 1412);
        h.deliver(second);
        AckPacket a = onlyAck();
        assertEquals(AckReason.IDLE, a.reason());
        assertEquals(second.header().serial(), a.serial());
        assertEquals(1, a.firstPacket(), "nothing consumed: no hard ack");
        assertArrayEquals(acks("++"), a.acks(), "queued packets are soft-acked");
        h.clear();
        h.deliver(client.data(0, 1, 3, 0, 1412));
        assertEquals(0, h.acksSent().size());
        h.deliver(client.data(0, 1, 4, 0, 1412));
        assertArrayEquals(acks("++++"), onlyAck().acks());
    }

    @Test
    void aServerLeavesTheAckOfAWholeRequestToItsReply() {
        // Before, the second new packet earned an IDLE ack at once although it ended the request: one more datagram
        // each way per call, just before the reply that acknowledges the whole request (§6.3).
        EngineHarness replying = new EngineHarness(RxConfig.builder().checkReach(false).build());
        replying.engine.registerService(SVC, 0, new Service(() -> replying.now, 4));
        replying.deliver(client.data(0, 1, 1, 0, 1412));
        replying.deliver(client.data(0, 1, 2, PacketFlags.LAST_PACKET, 1412));
        assertEquals(0, replying.acksSent().size(), "no ACK: " + replying.acksSent());
        assertEquals(1, replying.dataSent().size(), "the reply");
        replying.advance(200 * MS);
        assertEquals(0, replying.acksSent().size(), "the reply cancelled the delayed ack");
        // A handler that has not answered: the ack of the whole request follows after the soft-ack delay, well
        // before the client's smallest RTO (220 ms).
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.deliver(client.data(0, 1, 2, PacketFlags.LAST_PACKET, 1412));
        assertEquals(0, h.acksSent().size());
        h.advance(100 * MS);
        assertArrayEquals(acks("++"), onlyAck().acks(), "both packets acknowledged after 100 ms");
    }

    @Test
    void aLonePacketIsAckedByTheDelayedAckTimer() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.advance(99 * MS);
        assertEquals(0, h.acksSent().size());
        h.advance(MS);
        AckPacket a = onlyAck();
        assertEquals(AckReason.DELAY, a.reason());
        assertEquals(0, a.serial(), "DELAY acks carry serial 0");
        assertEquals(100 * MS, h.sent.get(0).at());
    }

    @Test
    void hardAckAdvancesAsTheApplicationConsumes() {
        // OpenAFS's rates: a hard ack after every third consumed packet, whatever the burst.
        AckPolicyTest openAfs = withAckRate(2);
        openAfs.hardAckAdvancesAtOpenAfsRates();
    }

    private void hardAckAdvancesAtOpenAfsRates() {
        for (int seq = 1; seq <= 6; seq++) {
            h.deliver(client.data(0, 1, seq, 0, 1412));
        }
        assertTrue(h.acksSent().stream().allMatch(a -> a.firstPacket() == 1));
        h.clear();
        Call call = call();
        call.read(h.now).release();
        call.read(h.now).release();
        assertEquals(0, h.acksSent().size(), "fewer than 3 consumed: no immediate ack");
        call.read(h.now).release();
        AckPacket a = onlyAck();
        assertEquals(AckReason.DELAY, a.reason());
        assertEquals(4, a.firstPacket(), "seqs 1..3 consumed: hard-acked");
        assertArrayEquals(acks("+++"), a.acks(), "4..6 still queued: soft-acked");

        // One more consumed: the hard ack follows after the 100 ms hard-ack delay.
        h.clear();
        call.read(h.now).release();
        h.advance(99 * MS);
        assertEquals(0, h.acksSent().size());
        h.advance(MS);
        a = onlyAck();
        assertEquals(AckReason.DELAY, a.reason());
        assertEquals(5, a.firstPacket());
        assertArrayEquals(acks("++"), a.acks());
    }

    @Test
    void aHardAckForConsumptionDoesNotReplaceARequestedAck() {
        // The application reads as packets arrive: the third consumed packet earns an immediate hard ack, in the same
        // datagram's flush as the REQUESTED ack its REQUEST_ACK earns. The one ACK must stay REQUESTED and name the
        // packet's serial, or the sender loses its RTT sample (Karn's rule: only an ACK naming a transmission's serial
        // times it).
        AckPolicyTest reading = new AckPolicyTest();
        reading.svc.reading = true;
        reading.h.deliver(reading.client.data(0, 1, 1, 0, 1412));
        reading.h.deliver(reading.client.data(0, 1, 2, 0, 1412));
        reading.h.clear();
        DataPacket third = reading.client.data(0, 1, 3, PacketFlags.REQUEST_ACK, 1412);
        reading.h.deliver(third);
        List<AckPacket> sent = reading.h.acksSent();
        assertEquals(1, sent.size(), "one ACK per datagram: " + sent);
        AckPacket a = sent.get(0);
        assertEquals(AckReason.REQUESTED, a.reason());
        assertEquals(third.header().serial(), a.serial());
        assertEquals(4, a.firstPacket(), "and it carries the hard ack of the consumed packets");
    }

    @Test
    void aPingIsAnsweredWithAPingResponse() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.clear();
        AckPacket ping = client.ping(0, 1);
        h.deliver(ping);
        AckPacket a = onlyAck();
        assertEquals(AckReason.PING_RESPONSE, a.reason());
        assertEquals(ping.header().serial(), a.serial());
    }

    @Test
    void aQuietCallSendsKeepalivePings() {
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.advance(100 * MS);
        assertEquals(AckReason.DELAY, onlyAck().reason());
        h.clear();
        // Nothing sent for deadTime/6 = 2 s: a PING (REQUEST_ACK, serial 0).
        h.advance(2000 * MS - MS);
        assertEquals(0, h.acksSent().size());
        h.advance(2 * MS);
        AckPacket ping = onlyAck();
        assertEquals(AckReason.PING, ping.reason());
        assertTrue(ping.header().hasFlag(PacketFlags.REQUEST_ACK));
        assertEquals(0, ping.serial());
        assertEquals(2100 * MS, h.sent.get(0).at());
    }

    /** Delivers seqs {@code from..to} as one jumbogram; MORE_PACKETS on every sub-packet but maybe the last. */
    private DataPacket[] jumbo(int from, int to, boolean moreAfter) {
        DataPacket[] d = new DataPacket[to - from + 1];
        for (int seq = from; seq <= to; seq++) {
            boolean last = seq == to;
            d[seq - from] = client.data(0, 1, seq, !last || moreAfter ? PacketFlags.MORE_PACKETS : 0, 1412);
        }
        h.deliver(d);
        return d;
    }

    @Test
    void withinABurstTheReceiverAcksEveryAckRatePackets() {
        // Default ackRate 8: a 32-packet burst of 4-packet jumbograms, read as it arrives, earns one ACK per 8
        // packets (every 2nd jumbogram), each hard-acking all it covers; OpenAFS's rates ack every jumbogram.
        AckPolicyTest reading = new AckPolicyTest();
        reading.svc.reading = true;
        int[] firsts = new int[8];
        for (int j = 0; j < 8; j++) {
            int from = 1 + 4 * j;
            reading.jumbo(from, from + 3, j < 7);
            List<AckPacket> acks = reading.h.acksSent();
            firsts[j] = acks.isEmpty() ? 0 : acks.get(acks.size() - 1).firstPacket();
            reading.h.clear();
        }
        assertArrayEquals(new int[] {0, 9, 0, 17, 0, 25, 0, 33}, firsts, "an ACK after every 8 packets");

        AckPolicyTest openAfs = withAckRate(2);
        openAfs.svc.reading = true;
        int acks = 0;
        for (int j = 0; j < 8; j++) {
            int from = 1 + 4 * j;
            openAfs.jumbo(from, from + 3, j < 7);
            acks += openAfs.h.acksSent().size();
            openAfs.h.clear();
        }
        assertEquals(8, acks, "OpenAFS's rates: one ACK per jumbogram");
    }

    @Test
    void theEndOfABurstIsAckedAtOnce() {
        // Four packets with MORE_PACKETS, then a jumbogram without it: the sender now waits, so it hears at once
        // (6 < ackRate packets), with everything read hard-acked.
        AckPolicyTest reading = new AckPolicyTest();
        reading.svc.reading = true;
        reading.jumbo(1, 4, true);
        assertEquals(0, reading.h.acksSent().size(), "mid-burst, fewer than ackRate packets: no ACK yet");
        DataPacket[] tail = reading.jumbo(5, 6, false);
        AckPacket a = reading.onlyAck();
        assertEquals(7, a.firstPacket(), "all six read and hard-acked");
        assertTrue(a.reason() == AckReason.IDLE || a.reason() == AckReason.DELAY, "reason " + a.reason());
        assertTrue(a.serial() == 0 || a.serial() == tail[1].header().serial());
    }

    @Test
    void aHoleIsAckedAtOnceEvenMidBurst() {
        jumbo(1, 2, true);
        assertEquals(0, h.acksSent().size());
        DataPacket[] later = jumbo(4, 5, true);
        AckPacket a = onlyAck();
        assertEquals(AckReason.OUT_OF_SEQUENCE, a.reason());
        assertEquals(later[1].header().serial(), a.serial());
        assertArrayEquals(acks("++-++"), a.acks(), "seq 3 is NACKed");
        h.clear();
        jumbo(6, 6, true);
        assertEquals(AckReason.OUT_OF_SEQUENCE, onlyAck().reason(), "every datagram above the hole is acked");
    }

    @Test
    void requestAckIsAnsweredAtOnceMidBurst() {
        jumbo(1, 3, true);
        DataPacket d = client.data(0, 1, 4, PacketFlags.MORE_PACKETS | PacketFlags.REQUEST_ACK, 1412);
        h.deliver(d);
        AckPacket a = onlyAck();
        assertEquals(AckReason.REQUESTED, a.reason());
        assertEquals(d.header().serial(), a.serial());
    }

    @Test
    void anUnfinishedBurstIsAckedByTheDelayedAckTimer() {
        // The rest of the burst is lost: the delayed ack (100 ms, below the sender's minimum RTO of 220 ms)
        // reports what arrived.
        AckPolicyTest reading = new AckPolicyTest();
        reading.svc.reading = true;
        reading.jumbo(1, 4, true);
        reading.h.advance(99 * MS);
        assertEquals(0, reading.h.acksSent().size());
        reading.h.advance(MS);
        AckPacket a = reading.onlyAck();
        assertEquals(AckReason.DELAY, a.reason());
        assertEquals(5, a.firstPacket());
        assertEquals(100 * MS, reading.h.sent.get(0).at());
    }

    @Test
    void aSlowReaderHardAcksEveryAckRateConsumedPacketsAndTheBurstTail() {
        // Sixteen packets soft-acked while the application does not read; then it reads them one by one.
        for (int j = 0; j < 4; j++) {
            jumbo(1 + 4 * j, 4 + 4 * j, j < 3);
        }
        assertTrue(h.acksSent().stream().allMatch(a -> a.firstPacket() == 1), "nothing consumed yet");
        h.clear();
        Call call = call();
        int[] acked = new int[16];
        for (int i = 0; i < 16; i++) {
            call.read(h.now).release();
            List<AckPacket> sent = h.acksSent();
            acked[i] = sent.isEmpty() ? 0 : sent.get(0).firstPacket();
            h.clear();
        }
        int[] expected = new int[16];
        expected[7] = 9; // 8 consumed: ackRate
        expected[15] = 17; // the burst (it ended at seq 16) is read: at once
        assertArrayEquals(expected, acked);
    }
}
