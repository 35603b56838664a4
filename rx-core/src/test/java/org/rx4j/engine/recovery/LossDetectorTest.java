// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.recovery.RecoveryFixture.MS;
import static org.rx4j.engine.recovery.RecoveryFixture.ack;
import static org.rx4j.engine.recovery.RecoveryFixture.sent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;

/** The loss detector on its own: one send queue, ACKs built by hand, times as plain ns values. */
@ExtendWith(LeakCheckExtension.class)
class LossDetectorTest {

    @Test
    void aHardAckFreesThePacketsBelowItAndTakesOneRttSample() {
        SendQueue sq = sent(4, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();

        loss.onAck(10 * MS, ack(3, 2, ""), rtt);

        assertEquals(3, sq.first(), "seqs 1 and 2 hard-acked");
        assertEquals(2, sq.inFlight());
        assertEquals(2, loss.newlyAcked());
        assertTrue(loss.madeProgress());
        assertFalse(loss.sawHoles());
        assertEquals(1, loss.rttSamples(), "one sample per ACK");
        assertEquals(1, rtt.samples());
        assertEquals(10 * MS, rtt.srttNs());
        sq.releaseAll();
    }

    @Test
    void theSampleComesFromTheTransmissionTheAckNames() {
        SendQueue sq = sent(4, 0);
        // Seq 2 is resent at 30 ms with serial 9; the ACK names serial 9 and arrives at 40 ms.
        sq.get(2).recordTransmit(9, 30 * MS);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();

        loss.onAck(40 * MS, ack(3, 9, ""), rtt);

        assertEquals(1, loss.rttSamples());
        assertEquals(10 * MS, loss.lastSampleNs(), "timed from the resend the ACK names");
        sq.releaseAll();
    }

    @Test
    void aRetransmittedPacketIsNotTimedFromItsLastSendUnlessTheAckNamesIt() {
        SendQueue sq = sent(2, 0);
        // Seq 1 was resent at 30 ms (serial 5); the ACK names serial 7 (some other packet) and arrives at 35 ms.
        sq.get(1).recordTransmit(5, 30 * MS);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();

        loss.onAck(35 * MS, ack(2, 7, ""), rtt);

        assertEquals(0, loss.rttSamples(), "ambiguous: sent twice and not named");
        assertEquals(0, rtt.samples());
        sq.releaseAll();
    }

    @Test
    void packetsSoftAckedEarlierGiveNoSampleWhenAHoleFills() {
        SendQueue sq = sent(4, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();
        // At 10 ms: seq 1 missing, 2..4 soft-acked (sample from serial 4).
        loss.onAck(10 * MS, ack(1, 4, "-+++"), rtt);
        assertEquals(1, rtt.samples());
        // Seq 1 resent at 500 ms (serial 5); the ACK at 510 ms names it and frees 1..4.
        sq.get(1).recordTransmit(5, 500 * MS);
        loss.onAck(510 * MS, ack(5, 5, ""), rtt);

        assertEquals(1, loss.rttSamples());
        assertEquals(10 * MS, loss.lastSampleNs(), "from the resend, not from 2..4 sent at 0");
        assertEquals(10 * MS, rtt.maxRttNs());
        sq.releaseAll();
    }

    @Test
    void withoutANamedTransmissionTheLatestPacketSentOnceIsTimed() {
        SendQueue sq = sent(3, 0);
        sq.get(3).recordTransmit(3, 0); // a second transmission of seq 3, so it is ambiguous
        sq.get(2).sentAtNs = 4 * MS;    // seq 2 (sent once) went out later than seq 1
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();

        loss.onAck(12 * MS, ack(4, 99, ""), rtt);

        assertEquals(8 * MS, loss.lastSampleNs());
        sq.releaseAll();
    }

    @Test
    void aRetransmissionNackedOneRttAfterItsResendIsLostAgain() {
        SendQueue sq = sent(4, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);
        // Seq 1 was lost and resent at 20 ms (serial 5); seqs 2..4 arrived.
        sq.get(1).recordTransmit(5, 20 * MS);

        loss.onAck(25 * MS, ack(1, 9, AckReason.DELAY, "-+++"), rtt);
        assertEquals(0, loss.lostAgain(), "5 ms after the resend: it may still be on its way");
        assertFalse(sq.get(1).isLost());

        loss.onAck(30 * MS, ack(1, 9, AckReason.DELAY, "-+++"), rtt);
        assertEquals(1, loss.lostAgain(), "one srtt after the resend and still a hole: lost again");
        assertTrue(sq.get(1).isLost());
        assertEquals(1, sq.lostCount());
        assertEquals(0, sq.inFlight());

        loss.onAck(40 * MS, ack(1, 9, AckReason.DELAY, "-+++"), rtt);
        assertEquals(0, loss.lostAgain(), "marked once, until resent again");
        sq.releaseAll();
    }

    @Test
    void afterATimeoutARetransmissionAProbesAnswerDoesNotAcknowledgeIsLostAgainWithNoAckAboveIt() {
        SendQueue sq = sent(2, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);
        loss.onAck(10 * MS, ack(2, 1, ""), rtt);
        // Seq 2, the call's last packet, timed out and was resent at 230 ms (serial 3); a probe PING (serial 4)
        // went out at 480 ms and its PING_RESPONSE shows nothing beyond seq 1: no ACK lies above seq 2.
        sq.get(2).recordTransmit(3, 230 * MS);

        loss.onAck(250 * MS, ack(2, 2, AckReason.PING_RESPONSE, ""), rtt, false, true);
        assertEquals(0, loss.lostAgain(), "an answer to an earlier transmission says nothing of the resend");
        loss.onAck(490 * MS, ack(2, 4, AckReason.PING_RESPONSE, ""), rtt, false, false);
        assertEquals(0, loss.lostAgain(), "outside a timeout recovery the rule needs an ACK above the packet");
        loss.onAck(490 * MS, ack(2, 4, AckReason.PING_RESPONSE, ""), rtt, false, true);
        assertEquals(1, loss.lostAgain(), "after a timeout: an answer to a later probe that lacks it");
        assertTrue(sq.get(2).isLost());
        assertEquals(0, sq.inFlight());
        sq.releaseAll();
    }

    @Test
    void afterATimeoutAFirstTransmissionOrARecentResendIsNotLostAgain() {
        SendQueue sq = sent(3, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);
        // Seq 2 resent at 100 ms (serial 4); seq 3 sent once (serial 3). A probe's answer (serial 5) at 105 ms.
        sq.get(2).recordTransmit(4, 100 * MS);

        loss.onAck(105 * MS, ack(2, 5, AckReason.PING_RESPONSE, ""), rtt, false, true);

        assertEquals(0, loss.lostAgain(), "seq 2 resent 5 ms ago may be on its way; seq 3 was sent once");
        assertFalse(sq.get(2).isLost());
        assertFalse(sq.get(3).isLost());
        sq.releaseAll();
    }

    @Test
    void aFirstTransmissionIsNotLostAgainByTime() {
        SendQueue sq = sent(3, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(10 * MS);

        loss.onAck(50 * MS, ack(1, 3, "-++"), rtt);

        assertEquals(0, loss.lostAgain(), "first losses are the congestion controller's call (NACK threshold)");
        assertFalse(sq.get(1).isLost());
        sq.releaseAll();
    }

    @Test
    void aDelayedAckTakesNoRttSample() {
        SendQueue sq = sent(2, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();

        loss.onAck(50 * MS, ack(3, 0, AckReason.DELAY, ""), rtt);

        assertEquals(2, loss.newlyAcked());
        assertEquals(0, loss.rttSamples());
        assertEquals(0, rtt.samples());
        sq.releaseAll();
    }

    @Test
    void softAcksCountOnceAndANackBelowAnAckIsAHole() {
        SendQueue sq = sent(5, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();

        loss.onAck(MS, ack(1, 4, "-+-+"), rtt);

        assertEquals(2, loss.newlyAcked(), "seqs 2 and 4 soft-acked");
        assertEquals(4, loss.highestSoftAcked());
        assertTrue(loss.sawHoles(), "seq 1 and 3 are NACKed below an ACK");
        assertEquals(1, sq.first(), "nothing hard-acked");
        assertEquals(3, sq.inFlight(), "1, 3 and 5 still in flight");
        assertTrue(sq.get(2).isSoftAcked());

        loss.onAck(2 * MS, ack(1, 5, "-+-+"), rtt);
        assertEquals(0, loss.newlyAcked(), "already soft-acked packets are not counted again");
        assertFalse(loss.madeProgress());
        sq.releaseAll();
    }

    @Test
    void nackingASoftAckedPacketMarksItLost() {
        SendQueue sq = sent(3, 0);
        LossDetector loss = new LossDetector(sq);
        RttEstimator rtt = new RttEstimator();
        loss.onAck(MS, ack(1, 3, "++"), rtt);

        loss.onAck(2 * MS, ack(1, 3, "-+"), rtt);

        assertTrue(sq.get(1).isLost(), "the receiver dropped seq 1 after soft-acking it");
        assertEquals(1, sq.lostCount());
        assertTrue(loss.sawHoles());
        sq.releaseAll();
    }

    @Test
    void markHolesLostMarksOnlyTransmittedUnackedPacketsBelowTheHighestSoftAck() {
        SendQueue sq = sent(6, 0);
        LossDetector loss = new LossDetector(sq);
        loss.onAck(MS, ack(1, 5, "-+--+"), new RttEstimator());

        loss.markHolesLost(1, loss.highestSoftAcked());

        assertTrue(sq.get(1).isLost());
        assertFalse(sq.get(2).isLost(), "soft-acked");
        assertTrue(sq.get(3).isLost());
        assertTrue(sq.get(4).isLost());
        assertFalse(sq.get(5).isLost(), "the highest soft ack itself");
        assertFalse(sq.get(6).isLost(), "above the highest soft ack");
        assertEquals(3, sq.lostCount());
        assertEquals(1, sq.inFlight(), "only seq 6 still in flight");
        sq.releaseAll();
    }

    @Test
    void anAckOlderThanOneAlreadyReadIsStale() {
        SendQueue sq = sent(6, 0);
        LossDetector loss = new LossDetector(sq);
        AckPacket newer = ack(3, 3, "+");
        assertFalse(loss.isStale(newer.firstPacket(), newer.previousPacket()));
        loss.onAck(MS, newer, new RttEstimator());

        assertTrue(loss.isStale(2, 5), "a lower firstPacket");
        assertFalse(loss.isStale(3, 2), "previousPacket below firstPacket is not read as older");
        assertFalse(loss.isStale(3, 3), "the same ACK again");
        assertFalse(loss.isStale(4, 4));
        sq.releaseAll();
    }

    @Test
    void anAckBeyondWhatWasSentIsClampedSoLaterCorrectAcksAreNotStale() {
        SendQueue sq = sent(4, 0);
        LossDetector loss = new LossDetector(sq);

        loss.onAck(MS, ack(100, 1, ""), new RttEstimator());

        assertEquals(5, sq.first(), "everything sent is hard-acked, nothing beyond");
        assertEquals(0, sq.inFlight());
        assertFalse(loss.isStale(5, 5), "remembered as firstPacket 5, not 100");
        sq.releaseAll();
    }
}
