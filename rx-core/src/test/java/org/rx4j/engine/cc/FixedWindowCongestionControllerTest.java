// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FixedWindowCongestionControllerTest {
    @Test
    void windowStaysFixedThroughAcksLossAndTimeouts() {
        FixedWindowCongestionController cc = new FixedWindowCongestionController(24);

        cc.onAck(100, 100, 200);
        assertEquals(24, cc.cwnd());
        cc.onNackedAck(200);
        cc.onNackedAck(200);
        cc.onNackedAck(200);
        assertEquals(24, cc.cwnd());
        cc.onTimeout(16);
        assertEquals(24, cc.cwnd());
        assertEquals(24, cc.ssthresh());
    }

    @Test
    void signalsOneFastRetransmitPerRecoveryEpisode() {
        FixedWindowCongestionController cc = new FixedWindowCongestionController(24);

        assertFalse(cc.onNackedAck(50));
        assertFalse(cc.onNackedAck(50));
        assertTrue(cc.onNackedAck(50));
        assertTrue(cc.inRecovery());
        assertFalse(cc.onNackedAck(60));
        assertFalse(cc.onNackedAck(60));
        assertFalse(cc.onNackedAck(60));

        cc.onAck(1, 49, 60);
        assertTrue(cc.inRecovery());
        cc.onAck(1, 50, 60);
        assertFalse(cc.inRecovery());

        assertFalse(cc.onNackedAck(60));
        assertFalse(cc.onNackedAck(60));
        assertTrue(cc.onNackedAck(60));
    }

    @Test
    void cleanAckAndTimeoutResetTheNackCount() {
        FixedWindowCongestionController cc = new FixedWindowCongestionController(24);

        cc.onNackedAck(50);
        cc.onNackedAck(50);
        cc.onAck(1, 10, 50);
        assertFalse(cc.onNackedAck(50));
        assertFalse(cc.onNackedAck(50));
        cc.onTimeout(16);
        assertFalse(cc.onNackedAck(50));
        assertFalse(cc.onNackedAck(50));
        assertTrue(cc.onNackedAck(50));
        cc.onTimeout(16);
        assertFalse(cc.inRecovery());
    }

    @Test
    void maxCwndClampsTheWindowWhileItIsLower() {
        FixedWindowCongestionController cc = new FixedWindowCongestionController(24);

        cc.setMaxCwnd(16);
        assertEquals(16, cc.cwnd());
        cc.setMaxCwnd(255);
        assertEquals(24, cc.cwnd());
    }

    @Test
    void nackThresholdIsConfigurable() {
        FixedWindowCongestionController cc = new FixedWindowCongestionController(8, 2);

        assertFalse(cc.onNackedAck(5));
        assertTrue(cc.onNackedAck(5));
    }

    @Test
    void rejectsInvalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> new FixedWindowCongestionController(0));
        assertThrows(IllegalArgumentException.class, () -> new FixedWindowCongestionController(256));
        assertThrows(IllegalArgumentException.class, () -> new FixedWindowCongestionController(8, 0));
        FixedWindowCongestionController cc = new FixedWindowCongestionController(8);
        assertThrows(IllegalArgumentException.class, () -> cc.onAck(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> cc.onTimeout(0));
        assertThrows(IllegalArgumentException.class, () -> cc.setMaxCwnd(0));
        assertThrows(IllegalArgumentException.class, () -> cc.setMaxCwnd(256));
        assertEquals(8, cc.cwnd());
    }
}
