// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FallingBehindDetectorTest {
    private static final long SECOND = 1_000_000_000L;
    private final DirectionCounters up = new DirectionCounters(Direction.UPSTREAM);
    private final DirectionCounters down = new DirectionCounters(Direction.DOWNSTREAM);
    private final FallingBehindDetector detector = new FallingBehindDetector(SECOND, 1_000_000);

    private String check(long nowNs) {
        return detector.check(nowNs, up.snapshot(0), down.snapshot(0));
    }

    @Test
    void silentWhileOnTimeAndImpairmentDropsOnly() {
        up.received(100);
        up.sent(100);
        up.dropped(DropReason.LOSS);
        down.dropped(DropReason.QUEUE, 5);
        assertNull(check(SECOND));
        assertEquals(0, detector.warnings());
    }

    @Test
    void warnsOnLateReleasesAndRelayDropsAtMostOncePerInterval() {
        up.late(3_200_000);
        down.dropped(DropReason.RELAY_SOCKET, 2);
        String line = check(SECOND);
        assertNotNull(line);
        assertTrue(line.startsWith("relay: falling behind: up 1 datagrams released > 1 ms late (max so far 3.2 ms)"),
                line);
        assertTrue(line.contains("down 2 dropped by the relay (relay-socket 2 so far)"), line);
        up.late(1_500_000);
        assertNull(check(SECOND + SECOND / 2), "second line held back within the interval");
        String next = check(2 * SECOND);
        assertNotNull(next, "carried over to the next interval");
        assertTrue(next.contains("up 1 datagrams released"), next);
        assertNull(check(5 * SECOND), "nothing new");
        assertEquals(2, detector.warnings());
    }

    @Test
    void kernelReceiveDropsCount() {
        up.dropped(DropReason.RELAY_RECEIVE, 17);
        String line = check(SECOND);
        assertNotNull(line);
        assertTrue(line.contains("up 17 dropped by the relay (relay-receive 17 so far)"), line);
    }
}
