// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NewRenoCongestionControllerTest {
    private static final int SENT = 1_000;

    @Test
    void startsWithOpenAfsDefaults() {
        NewRenoCongestionController cc = new NewRenoCongestionController();

        assertEquals(1, cc.cwnd());
        assertEquals(32, cc.ssthresh());
        assertEquals(32, cc.maxCwnd());
        assertFalse(cc.inRecovery());
    }

    @Test
    void modeSaysWindowLimitedOnceCwndReachesItsCapEvenBelowSsthresh() {
        NewRenoCongestionController cc = new NewRenoCongestionController(1, 255, 32);
        assertEquals("slow-start", cc.mode());
        cc.onAck(31, 31, SENT);
        assertEquals(32, cc.cwnd());
        assertEquals("window-limited", cc.mode(), "cwnd 32 of 32 cannot grow: not slow start any more");
        cc.setMaxCwnd(64);
        assertEquals("slow-start", cc.mode());
        NewRenoCongestionController avoiding = new NewRenoCongestionController(8, 8, 32);
        avoiding.onAck(1, 1, SENT);
        assertEquals("congestion-avoidance", avoiding.mode());
    }

    @Test
    void slowStartGrowsByTheNumberOfNewlyAckedPackets() {
        NewRenoCongestionController cc = new NewRenoCongestionController(1, 32, 64);

        cc.onAck(1, 1, SENT);
        assertEquals(2, cc.cwnd());
        cc.onAck(2, 3, SENT);
        assertEquals(4, cc.cwnd());
        cc.onAck(4, 7, SENT);
        assertEquals(8, cc.cwnd());
        cc.onAck(8, 15, SENT);
        assertEquals(16, cc.cwnd());
    }

    @Test
    void slowStartStopsAtSsthreshAndCarriesTheRestIntoCongestionAvoidance() {
        NewRenoCongestionController cc = new NewRenoCongestionController(1, 8, 64);

        cc.onAck(10, 10, SENT);
        // 7 packets take cwnd from 1 to 8, the other 3 count towards the next +1
        assertEquals(8, cc.cwnd());
        cc.onAck(4, 14, SENT);
        assertEquals(8, cc.cwnd());
        cc.onAck(1, 15, SENT);
        assertEquals(9, cc.cwnd());
    }

    @Test
    void congestionAvoidanceAddsOnePacketPerWindowOfAckedPackets() {
        NewRenoCongestionController cc = new NewRenoCongestionController(10, 10, 255);

        for (int i = 1; i <= 9; i++) {
            cc.onAck(1, i, SENT);
            assertEquals(10, cc.cwnd(), "after " + i + " acks");
        }
        cc.onAck(1, 10, SENT);
        assertEquals(11, cc.cwnd());
        for (int i = 1; i <= 10; i++) {
            cc.onAck(1, 10 + i, SENT);
        }
        assertEquals(11, cc.cwnd());
        cc.onAck(1, 21, SENT);
        assertEquals(12, cc.cwnd());
    }

    @Test
    void congestionAvoidanceHandlesAcksCoveringSeveralWindows() {
        NewRenoCongestionController cc = new NewRenoCongestionController(10, 10, 255);

        cc.onAck(25, 25, SENT);
        // 10 acks -> 11, 11 more -> 12, 4 left over
        assertEquals(12, cc.cwnd());
        cc.onAck(7, 32, SENT);
        assertEquals(12, cc.cwnd());
        cc.onAck(1, 33, SENT);
        assertEquals(13, cc.cwnd());
    }

    @Test
    void windowIsCappedAtMaxCwndInBothPhases() {
        NewRenoCongestionController slowStart = new NewRenoCongestionController(1, 100, 16);
        slowStart.onAck(50, 50, SENT);
        assertEquals(16, slowStart.cwnd());

        NewRenoCongestionController avoidance = new NewRenoCongestionController(16, 16, 16);
        avoidance.onAck(Integer.MAX_VALUE, 100, SENT);
        avoidance.onAck(1_000, 200, SENT);
        assertEquals(16, avoidance.cwnd());
    }

    @Test
    void setMaxCwndLowersTheWindowButNeverRaisesIt() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);

        cc.setMaxCwnd(8);
        assertEquals(8, cc.cwnd());
        cc.setMaxCwnd(64);
        assertEquals(8, cc.cwnd());
        // growth resumes from the lowered window, in slow start since cwnd < ssthresh (20)
        cc.onAck(8, 8, SENT);
        assertEquals(16, cc.cwnd());
    }

    @Test
    void threeConsecutiveNackedAcksEnterFastRecoveryExactlyOnce() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);

        assertFalse(cc.onNackedAck(100));
        assertFalse(cc.onNackedAck(100));
        assertEquals(20, cc.cwnd());
        assertTrue(cc.onNackedAck(100));

        assertTrue(cc.inRecovery());
        assertEquals(10, cc.ssthresh());
        assertEquals(13, cc.cwnd());
        for (int i = 0; i < 10; i++) {
            assertFalse(cc.onNackedAck(100 + i), "second fast retransmit in one episode");
        }
        assertEquals(10, cc.ssthresh());
        assertEquals(13, cc.cwnd());
    }

    @Test
    void aCleanAckResetsTheConsecutiveNackCount() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);

        assertFalse(cc.onNackedAck(100));
        assertFalse(cc.onNackedAck(100));
        cc.onAck(1, 50, 100);
        assertFalse(cc.onNackedAck(100));
        assertFalse(cc.onNackedAck(100));
        assertFalse(cc.inRecovery());
        assertTrue(cc.onNackedAck(100));
    }

    @Test
    void partialAckHoldsTheWindowAndFullAckExitsRecoveryAtSsthresh() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);
        enterRecovery(cc, 100);

        // 30 newly acked packets would add 2 in congestion avoidance; a partial ack must not grow the window
        cc.onAck(30, 99, 110);
        assertTrue(cc.inRecovery());
        assertEquals(13, cc.cwnd());

        cc.onAck(1, 100, 110);
        assertFalse(cc.inRecovery());
        assertEquals(10, cc.cwnd());
        assertEquals(10, cc.ssthresh());

        // back in congestion avoidance
        cc.onAck(10, 110, 120);
        assertEquals(11, cc.cwnd());
    }

    @Test
    void afterRecoveryANewEpisodeNeedsThreeFreshNackedAcks() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);
        enterRecovery(cc, 100);
        cc.onNackedAck(100);
        cc.onAck(1, 100, 110);

        assertFalse(cc.onNackedAck(110));
        assertFalse(cc.onNackedAck(110));
        assertTrue(cc.onNackedAck(110));
        assertEquals(5, cc.ssthresh());
        assertEquals(8, cc.cwnd());
    }

    @Test
    void recoveryPointComparisonIsWrapSafe() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);
        enterRecovery(cc, Integer.MAX_VALUE);

        cc.onAck(1, Integer.MAX_VALUE - 1, Integer.MIN_VALUE);
        assertTrue(cc.inRecovery());
        cc.onAck(1, Integer.MIN_VALUE + 1, Integer.MIN_VALUE + 2);
        assertFalse(cc.inRecovery());
    }

    @Test
    void fastRecoveryFromTinyWindowUsesTheFloorOfTwo() {
        NewRenoCongestionController cc = new NewRenoCongestionController();

        enterRecovery(cc, 5);

        assertEquals(2, cc.ssthresh());
        assertEquals(5, cc.cwnd());
    }

    @Test
    void fastRecoveryWindowIsCappedAtMaxCwnd() {
        NewRenoCongestionController cc = new NewRenoCongestionController(4, 4, 4);

        enterRecovery(cc, 50);

        assertEquals(2, cc.ssthresh());
        assertEquals(4, cc.cwnd());
    }

    @Test
    void nackThresholdIsConfigurable() {
        NewRenoCongestionController one = new NewRenoCongestionController(8, 8, 32, 1);
        assertTrue(one.onNackedAck(10));

        NewRenoCongestionController five = new NewRenoCongestionController(8, 8, 32, 5);
        for (int i = 0; i < 4; i++) {
            assertFalse(five.onNackedAck(10));
        }
        assertTrue(five.onNackedAck(10));
        // cwnd = ssthresh + nackThreshold
        assertEquals(4 + 5, five.cwnd());
    }

    @Test
    void timeoutHalvesTheSmallerOfCwndAndTwindAndRestartsAtOnePacket() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);

        cc.onTimeout(16);

        assertEquals(8, cc.ssthresh());
        assertEquals(1, cc.cwnd());
        assertFalse(cc.inRecovery());

        NewRenoCongestionController wideTwind = new NewRenoCongestionController(20, 20, 64);
        wideTwind.onTimeout(32);
        assertEquals(10, wideTwind.ssthresh());

        NewRenoCongestionController small = new NewRenoCongestionController(3, 20, 64);
        small.onTimeout(32);
        assertEquals(2, small.ssthresh());
    }

    @Test
    void timeoutEndsRecoveryAndSlowStartResumes() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);
        enterRecovery(cc, 100);

        cc.onTimeout(32);

        assertFalse(cc.inRecovery());
        assertEquals(6, cc.ssthresh()); // min(13, 32) / 2
        assertEquals(1, cc.cwnd());
        cc.onAck(1, 101, 110);
        cc.onAck(2, 103, 110);
        cc.onAck(4, 107, 110);
        assertEquals(6, cc.cwnd());
        // and three NACKed acks start a new episode
        assertFalse(cc.onNackedAck(120));
        assertFalse(cc.onNackedAck(120));
        assertTrue(cc.onNackedAck(120));
    }

    @Test
    void nackedAcksBeforeATimeoutDoNotCountAfterIt() {
        NewRenoCongestionController cc = new NewRenoCongestionController(20, 20, 64);
        cc.onNackedAck(100);
        cc.onNackedAck(100);

        cc.onTimeout(32);

        assertFalse(cc.onNackedAck(100));
    }

    @Test
    void rejectsInvalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> new NewRenoCongestionController(0, 32, 32));
        assertThrows(IllegalArgumentException.class, () -> new NewRenoCongestionController(33, 32, 32));
        assertThrows(IllegalArgumentException.class, () -> new NewRenoCongestionController(1, 0, 32));
        assertThrows(IllegalArgumentException.class, () -> new NewRenoCongestionController(1, 32, 0));
        assertThrows(IllegalArgumentException.class, () -> new NewRenoCongestionController(1, 32, 256));
        assertThrows(IllegalArgumentException.class, () -> new NewRenoCongestionController(1, 32, 32, 0));
        NewRenoCongestionController cc = new NewRenoCongestionController();
        assertThrows(IllegalArgumentException.class, () -> cc.onAck(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> cc.onTimeout(0));
        assertThrows(IllegalArgumentException.class, () -> cc.setMaxCwnd(0));
        assertThrows(IllegalArgumentException.class, () -> cc.setMaxCwnd(256));
        assertEquals(1, cc.cwnd());
        assertEquals(32, cc.maxCwnd());
    }

    private static void enterRecovery(CongestionController cc, int highestSentSeq) {
        assertFalse(cc.onNackedAck(highestSentSeq));
        assertFalse(cc.onNackedAck(highestSentSeq));
        assertTrue(cc.onNackedAck(highestSentSeq));
    }
}
