// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE2;
import static org.rx4j.engine.EngineHarness.S;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.AdmissionTest;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;

/**
 * Half-reachable clients (docs/robustness.md "Rule: half-reachable clients"; they send requests and resend them, but
 * never answer a PING or an ACK) from many addresses never reach a handler, are ended within dead time of their call's
 * admission, and do not delay a well-behaved client; a client that recovers is served at once. Virtual clock.
 */
class HalfReachableTest {
    private static final int SVC = 147;

    private static InetSocketAddress source(int k) {
        return new InetSocketAddress("127.0." + (k / 250) + "." + (2 + k % 250), 9000 + k);
    }

    @Test
    void halfReachableClientsHoldNoHandlerAreEndedWithinDeadTimeAndOthersAreServed() {
        RxConfig config = RxConfig.defaults();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        int n = 30;
        FakePeer[] half = new FakePeer[n];
        for (int k = 0; k < n; k++) {
            half[k] = FakePeer.client(0x0BAD0000, 0x1000 + 4 * k, SVC);
        }
        FakePeer good = FakePeer.client(0x600D0000, 0x40, SVC);
        int goodCalls = 0;
        long deadTime = config.timeouts().deadTimeNs();
        for (long t = 0; t < deadTime + 2 * S; t += 500 * MS) {
            if (t < 20 * S) {
                for (int k = 0; k < n; k++) {
                    // The same request, resent: heard, but the peer never answers the reachability PING.
                    h.deliverFrom(source(k), half[k].data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
                }
            }
            // The well-behaved client: a new call every 500 ms, served at once each time.
            int ch = goodCalls % 4;
            int callNumber = goodCalls / 4 + 1;
            h.clear();
            h.deliverFrom(REMOTE2, good.data(ch, callNumber, 1, PacketFlags.LAST_PACKET, 20));
            AdmissionTest.answerPings(h, REMOTE2, good);
            goodCalls++;
            assertEquals(goodCalls, svc.newCalls(), "the good client's call " + goodCalls + " started at once");
            assertTrue(svc.record(goodCalls - 1).readComplete);
            h.deliverFrom(REMOTE2, good.ack(ch, callNumber, 2, 1, 0, AckReason.DELAY, new byte[0], 32, 1));
            if (t < deadTime - 500 * MS) {
                // Stateless reachability challenge: one small record per source, no connection, call or peer.
                assertEquals(n, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES), "at " + t / MS + " ms");
                assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
                assertEquals(1, h.engine.serverConnections().size(), "only the good client's connection");
            }
            h.advance(500 * MS);
        }
        assertEquals(n, h.engine.totals().get(RxCounter.CHALLENGES_EXPIRED),
                "each record ended at dead time, though they kept resending");
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(goodCalls, svc.newCalls(), "no half-reachable call reached a handler");
        assertEquals(1, h.engine.serverConnections().size(), "the half-reachable sources never got a connection");

        // One of them recovers: its next call is served as soon as it answers the PING, with the request it kept
        // resending (its record, at most a dead time old, kept both).
        h.clear();
        h.deliverFrom(source(3), half[3].data(1, 1, 1, PacketFlags.LAST_PACKET, 100));
        assertEquals(goodCalls, svc.newCalls());
        AdmissionTest.answerPings(h, source(3), half[3]);
        assertEquals(goodCalls + 2, svc.newCalls());
        assertTrue(svc.record(goodCalls).readComplete && svc.record(goodCalls + 1).readComplete);
        assertEquals(n - 1, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES),
                "the others' records: they still resend (until 20 s)");
    }
}
