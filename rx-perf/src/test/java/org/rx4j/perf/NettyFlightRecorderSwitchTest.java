// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** rxperf's main turns Netty's Flight Recorder events off unless the user chose a value for them. */
class NettyFlightRecorderSwitchTest {
    private String before;

    @BeforeEach
    void saveProperty() {
        before = System.getProperty(RxPerf.NETTY_JFR_PROPERTY);
    }

    @AfterEach
    void restoreProperty() {
        if (before == null) {
            System.clearProperty(RxPerf.NETTY_JFR_PROPERTY);
        } else {
            System.setProperty(RxPerf.NETTY_JFR_PROPERTY, before);
        }
    }

    @Test
    void turnsNettysEventsOffWhenUnset() {
        System.clearProperty(RxPerf.NETTY_JFR_PROPERTY);
        RxPerf.skipNettyFlightRecorderEvents();
        assertEquals("false", System.getProperty(RxPerf.NETTY_JFR_PROPERTY));
    }

    @Test
    void keepsTheUsersChoice() {
        System.setProperty(RxPerf.NETTY_JFR_PROPERTY, "true");
        RxPerf.skipNettyFlightRecorderEvents();
        assertEquals("true", System.getProperty(RxPerf.NETTY_JFR_PROPERTY));
    }
}
