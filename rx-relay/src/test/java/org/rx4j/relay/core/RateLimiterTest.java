// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RateLimiterTest {
    @Test
    void serialisationTimeRoundsUp() {
        RateLimiter link = new RateLimiter(3_000_000, 10); // 3 Mbit/s
        assertEquals(2_667, link.serialisationNs(1)); // 8 bits / 3e6 = 2666.67 ns
        assertEquals(24_000_000, link.serialisationNs(9000));
    }

    @Test
    void queueCountsWhatHasNotDepartedAndAnIdleLinkStartsAtArrival() {
        RateLimiter link = new RateLimiter(8_000_000, 3); // 1000 B = 1 ms
        assertEquals(1_000_000, link.admit(0, 1000));
        assertEquals(2_000_000, link.admit(0, 1000));
        assertEquals(3_000_000, link.admit(0, 1000));
        assertEquals(3, link.queued(0));
        assertEquals(-1, link.admit(500_000, 1000));
        assertEquals(1, link.queued(2_500_000));
        assertEquals(4_000_000, link.admit(2_500_000, 1000)); // behind the last one
        assertEquals(11_000_000, link.admit(10_000_000, 1000)); // idle link: starts at arrival
        assertEquals(1, link.queued(10_000_000));
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(1, 0));
    }
}
