// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.client.ProbeQuietTimes;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server that answered an unreachability probe is not probed again for a second, by any connection: the rule
 * itself on explicit clock values, then live — 100 connections to one server with the client's clock frozen, one
 * call each after the first probe's answer, start no further probe. Counts only, no elapsed time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ProbeQuietTimesTest {
    private static final InetSocketAddress A = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7000);
    private static final InetSocketAddress B = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7001);

    @Test
    void anAnsweredServerIsQuietForOneSecondOthersAreNot() {
        ProbeQuietTimes probes = new ProbeQuietTimes();
        assertTrue(probes.due(A, 5));
        probes.answered(A, 1_000L);
        assertFalse(probes.due(A, 1_000L));
        assertFalse(probes.due(A, 1_000L + ProbeQuietTimes.QUIET_NS - 1));
        assertTrue(probes.due(A, 1_000L + ProbeQuietTimes.QUIET_NS));
        assertTrue(probes.due(B, 1_000L), "another server is not vouched for");
    }

    @Test
    void manyConnectionsToALiveServerShareOneProbe() throws Exception {
        RxService service = RxService.builder(4242)
                .async(1, req -> CompletableFuture.completedFuture(new byte[] {7}))
                .build();
        ManualClock clock = new ManualClock(); // frozen: the quiet second never ends
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .service(service).open();
             RxEndpoint client = RxEndpoint.builder().clock(clock)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open()) {
            InetSocketAddress to = server.localAddress();
            ProbeQuietTimes probes = client.runtime().probes;
            RxConnection first = client.connect(to, 4242);
            assertEquals(7, first.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS)[0]);
            assertEquals(1, probes.startedCount());
            while (probes.due(to, clock.getAsLong())) { // the probe's answer is read on the loop's first check
                Thread.onSpinWait();
            }
            for (int i = 0; i < 100; i++) {
                RxConnection c = client.connect(to, 4242);
                assertEquals(7, c.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS)[0]);
            }
            assertEquals(1, probes.startedCount(), "no connection probed a server that had just answered");
        }
    }
}
