// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.recovery.RecoveryFixture.MS;
import static org.rx4j.engine.recovery.RecoveryFixture.ack;
import static org.rx4j.engine.recovery.RecoveryFixture.sent;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.engine.cc.CongestionController;
import org.rx4j.engine.cc.JumboSizer;
import org.rx4j.testing.LeakCheckExtension;

/** The recovery manager with a recording congestion controller, ACKs built by hand and plain {@code now} values. */
@ExtendWith(LeakCheckExtension.class)
class RecoveryManagerTest {

    /** Records what the manager tells it; enters recovery on the {@code enterOn}-th ACK with holes. */
    private static final class RecordingCc implements CongestionController {
        final List<String> calls = new ArrayList<>();
        final int enterOn;
        int nacked;

        RecordingCc(int enterOn) {
            this.enterOn = enterOn;
        }

        @Override
        public int cwnd() {
            return 16;
        }

        @Override
        public int ssthresh() {
            return 16;
        }

        @Override
        public boolean inRecovery() {
            return false;
        }

        @Override
        public void onAck(int newlyAcked, int highestAckedSeq, int highestSentSeq) {
            calls.add("ack " + newlyAcked + " " + highestAckedSeq + " " + highestSentSeq);
        }

        @Override
        public boolean onNackedAck(int highestSentSeq) {
            calls.add("nack " + highestSentSeq);
            return ++nacked == enterOn;
        }

        @Override
        public void onTimeout(int twind) {
            calls.add("timeout " + twind);
        }

        @Override
        public void setMaxCwnd(int packets) {
            calls.add("max " + packets);
        }
    }

    @Test
    void aCleanAckGrowsTheWindowAndRestartsTheRetransmitTimer() {
        SendQueue sq = sent(4, 0);
        RecordingCc cc = new RecordingCc(3);
        RecoveryManager rm = new RecoveryManager(sq, cc, new JumboSizer(4));
        RttEstimator rtt = new RttEstimator();

        int result = rm.onAck(10 * MS, ack(2, 2, "+"), rtt);

        assertEquals(RecoveryManager.PROGRESS, result);
        assertEquals(List.of("ack 2 2 4"), cc.calls, "2 newly acked, highest acked seq 2, highest sent 4");
        assertEquals(1, rm.rttSamplesOfLastAck(), "one sample per ACK");
        assertEquals(10 * MS + rtt.rtoNs(), rm.resendDeadlineNs(), "seqs 3 and 4 still unacked");
        sq.releaseAll();
    }

    @Test
    void theTimerStopsWhenEverythingSentIsHardAcked() {
        SendQueue sq = sent(2, 0);
        RecoveryManager rm = new RecoveryManager(sq, new RecordingCc(3), new JumboSizer(4));
        RttEstimator rtt = new RttEstimator();
        rm.armIfIdle(0, rtt);
        assertEquals(rtt.rtoNs(), rm.resendDeadlineNs());

        rm.onAck(5 * MS, ack(3, 2, ""), rtt);

        assertEquals(RecoveryManager.NONE, rm.resendDeadlineNs());
        sq.releaseAll();
    }

    @Test
    void theThirdAckWithHolesFastRetransmitsTheHoles() {
        SendQueue sq = sent(6, 0);
        RecordingCc cc = new RecordingCc(3);
        JumboSizer jumbo = new JumboSizer(4);
        RecoveryManager rm = new RecoveryManager(sq, cc, jumbo);
        RttEstimator rtt = new RttEstimator();

        assertEquals(RecoveryManager.PROGRESS, rm.onAck(MS, ack(1, 3, "-++"), rtt));
        assertEquals(0, rm.onAck(2 * MS, ack(1, 4, "-+++"), rtt) & RecoveryManager.FAST_RETRANSMIT);
        assertEquals(0, sq.lostCount(), "two ACKs with holes: no retransmit yet");
        int third = rm.onAck(3 * MS, ack(1, 5, "-++++"), rtt);

        assertEquals(RecoveryManager.PROGRESS | RecoveryManager.FAST_RETRANSMIT, third);
        assertTrue(sq.get(1).isLost(), "the hole below the highest soft ack");
        assertEquals(1, sq.lostCount());
        assertEquals(List.of("nack 6", "nack 6", "nack 6"), cc.calls, "no clean-ack growth while holes show");
        sq.releaseAll();
    }

    @Test
    void aStaleAckIsIgnoredWithoutTouchingTheController() {
        SendQueue sq = sent(6, 0);
        RecordingCc cc = new RecordingCc(3);
        RecoveryManager rm = new RecoveryManager(sq, cc, new JumboSizer(4));
        RttEstimator rtt = new RttEstimator();
        rm.onAck(MS, ack(4, 3, ""), rtt);
        cc.calls.clear();

        assertEquals(RecoveryManager.IGNORED, rm.onAck(2 * MS, ack(2, 1, "+"), rtt));
        assertTrue(cc.calls.isEmpty());
        assertEquals(4, sq.first());
        sq.releaseAll();
    }

    @Test
    void aTimeoutBacksOffMarksEverythingInFlightLostAndCollapsesTheWindow() {
        SendQueue sq = sent(3, 0);
        RecordingCc cc = new RecordingCc(3);
        RecoveryManager rm = new RecoveryManager(sq, cc, new JumboSizer(4));
        RttEstimator rtt = new RttEstimator();
        rm.armIfIdle(0, rtt);
        long rto = rtt.rtoNs();

        assertTrue(rm.onTimeout(8, rtt));

        assertEquals(3, sq.lostCount());
        assertEquals(0, sq.inFlight());
        assertEquals(List.of("timeout 8"), cc.calls);
        assertEquals(2 * rto, rtt.rtoNs(), "RTO doubled");
        assertEquals(RecoveryManager.NONE, rm.resendDeadlineNs(), "re-armed by the sender's next transmission");
        rm.rearm(rto, rtt);
        assertEquals(rto + 2 * rto, rm.resendDeadlineNs());
        sq.releaseAll();
    }

    @Test
    void aTimeoutWithEverythingSoftAckedOnlyBacksOff() {
        SendQueue sq = sent(2, 0);
        RecordingCc cc = new RecordingCc(3);
        RecoveryManager rm = new RecoveryManager(sq, cc, new JumboSizer(4));
        RttEstimator rtt = new RttEstimator();
        rm.onAck(MS, ack(1, 2, "++"), rtt);
        cc.calls.clear();

        assertFalse(rm.onTimeout(4, rtt), "nothing to resend: the sender PINGs instead");
        assertEquals(0, sq.lostCount());
        assertTrue(cc.calls.isEmpty());
        rm.rearm(10 * MS, rtt);
        assertEquals(10 * MS + rtt.rtoNs(), rm.resendDeadlineNs(), "soft-acked but not hard-acked: keep the timer");
        sq.releaseAll();
    }

    @Test
    void armIfIdleLeavesARunningTimerAlone() {
        SendQueue sq = sent(1, 0);
        RecoveryManager rm = new RecoveryManager(sq, new RecordingCc(3), new JumboSizer(4));
        RttEstimator rtt = new RttEstimator();
        rm.armIfIdle(0, rtt);
        rm.armIfIdle(MS, rtt);

        assertEquals(rtt.rtoNs(), rm.resendDeadlineNs(), "armed at 0, not moved at 1 ms");
        rm.onAckAll();
        assertEquals(RecoveryManager.NONE, rm.resendDeadlineNs());
        assertEquals(0, sq.size(), "ACKALL frees everything sent");
    }
}
