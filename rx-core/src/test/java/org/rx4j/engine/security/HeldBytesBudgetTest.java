// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.config.Limits;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.AdmissionTest;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.admission.ReachChallenger;
import org.rx4j.engine.connection.Connection;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.wire.PacketFlags;

/**
 * The byte budget of what sources that have not proven themselves or not authenticated leave in the server
 * (docs/robustness.md "Rule: a byte budget for what unproven sources leave"), with the default limits: the
 * reachability challenge's kept first packets, held server calls' packets and DATA parked for the rxkad handshake
 * stay within {@code maxHeldBytesPerPeer} (1 MiB) per source and {@code maxHeldBytes} (8 MiB) per kind, read from the
 * {@code heldBytes} counter after every packet; a newcomer is served throughout. Virtual clock.
 */
class HeldBytesBudgetTest {
    private static final int SVC = 147;
    private static final long MAX = Limits.DEFAULT_MAX_HELD_BYTES;
    private static final long PER_PEER = Limits.DEFAULT_MAX_HELD_BYTES_PER_PEER;
    /** The largest first packet kept for a source that never proved a larger one, header included. */
    private static final int UNPROVEN_MAX = ReachChallenger.UNPROVEN_MAX_PACKET;

    private static InetSocketAddress source(int k) {
        return new InetSocketAddress("127." + (1 + k / 65536) + "." + (k / 256 % 256) + "." + (k % 256), 9000);
    }

    /**
     * 4,096 spoofed sources each send one first DATA packet (new connection, never answering), 500 µs apart: of
     * 60,000 bytes (the attack: none is kept), then of the largest size kept for a stranger (the byte budget binds
     * before maxHeldPackets); a client arriving last is kept, proven and served.
     */
    @Test
    void forgedFirstPacketsFromUnprovenSourcesStayWithinTheBudget() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        for (int k = 0; k < 4_096; k++) {
            FakePeer f = FakePeer.client(0x7000_0000 + k, 0x40, SVC);
            h.deliverFrom(source(k), f.data(0, 1, 1, PacketFlags.LAST_PACKET, 60_000 - 28));
            h.advance(MS / 2);
            assertEquals(0, h.engine.totals().get(RxCounter.HELD_BYTES), "no 60,000-byte packet of a stranger is kept");
        }
        assertEquals(4_096, h.engine.totals().get(RxCounter.HELD_PACKETS_REFUSED));
        assertEquals(4_096, h.engine.totals().get(RxCounter.CHALLENGES_SENT), "each source still gets its PING");
        long most = 0;
        for (int k = 0; k < 4_096; k++) {
            FakePeer f = FakePeer.client(0x7100_0000 + k, 0x40, SVC);
            h.deliverFrom(source(10_000 + k), f.data(0, 1, 1, PacketFlags.LAST_PACKET, UNPROVEN_MAX - 28));
            h.advance(MS / 2);
            most = Math.max(most, h.engine.totals().get(RxCounter.HELD_BYTES));
            assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) <= MAX, "within maxHeldBytes: " + h.engine.totals().get(RxCounter.HELD_BYTES));
        }
        assertEquals(MAX / UNPROVEN_MAX * UNPROVEN_MAX, most, "the budget binds before maxHeldPackets (4,096)");
        assertEquals(MAX / UNPROVEN_MAX, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));

        FakePeer good = FakePeer.client(0x7EEE_0001, 0x80, SVC);
        h.clear();
        h.deliverFrom(REMOTE2, good.data(0, 1, 1, PacketFlags.LAST_PACKET, 1_416));
        AdmissionTest.answerPings(h, REMOTE2, good);
        assertEquals(1, svc.newCalls(), "the newcomer is kept, proven and served at once");
        assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) <= MAX);
        h.engine.shutdown(h.now);
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_BYTES));
    }

    /** One source opening 4,096 connections with a 5,800-byte first packet each keeps at most its share. */
    @Test
    void oneSourceKeepsAtMostItsShare() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        h.engine.registerService(SVC, 0, new Service(() -> h.now, 10));
        for (int k = 0; k < 4_096; k++) {
            FakePeer f = FakePeer.client(0x7200_0000 + k, 0x40, SVC);
            h.deliverFrom(REMOTE, f.data(0, 1, 1, PacketFlags.LAST_PACKET, UNPROVEN_MAX - 28));
            assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) <= PER_PEER);
        }
        assertEquals(PER_PEER / UNPROVEN_MAX * UNPROVEN_MAX, h.engine.totals().get(RxCounter.HELD_BYTES));
        assertEquals(4_096 - PER_PEER / UNPROVEN_MAX, h.engine.totals().get(RxCounter.HELD_PACKETS_REFUSED));
    }

    /**
     * Sources that proved reachable open connections whose call holds DATA 2..32 (never packet 1) of 60,000 bytes
     * each: one source keeps at most its share, 20 sources at most maxHeldBytes together; the calls are forgotten
     * oldest first. Each new connection answers its own reachability PING before it exists (a proof per connection);
     * its first 60,000-byte packet, larger than its source proved, is not kept by the challenge and is resent.
     */
    @Test
    void heldCallsStayWithinTheBudgetPerPeerAndInAll() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        for (int k = 0; k < 20; k++) {
            // Prove the source with a small call first, then hold 60,000-byte packets on new calls.
            FakePeer p = FakePeer.client(0x7300_0000 + k, 0x40, SVC);
            h.clear();
            h.deliverFrom(source(k), p.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
            AdmissionTest.answerPings(h, source(k), p);
            for (int conn = 1; conn < 20; conn++) {
                FakePeer q = FakePeer.client(0x7300_0000 + k, 0x40 + 4 * conn, SVC);
                h.clear();
                h.deliverFrom(source(k), q.data(0, 1, 2, 0, 60_000 - 28));
                AdmissionTest.answerPings(h, source(k), q);
                for (int seq = 2; seq <= 32; seq++) {
                    h.deliverFrom(source(k), q.data(0, 1, seq, 0, 60_000 - 28));
                    assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) <= MAX, "within maxHeldBytes");
                }
            }
            long mine = 0;
            for (Connection c : h.engine.serverConnections()) {
                if (c.peer().address().equals(source(k))) {
                    mine = c.peer().heldCallBytes;
                }
            }
            assertTrue(mine <= PER_PEER, "within maxHeldBytesPerPeer: " + mine);
        }
        assertEquals(20, svc.newCalls(), "only the proving calls started");
        assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) > MAX - PER_PEER, "the budget was used: "
                + h.engine.totals().get(RxCounter.HELD_BYTES));
        assertTrue(h.engine.totals().get(RxCounter.HELD_CALLS_FORGOTTEN) > 0);
        assertTrue(h.abortsSent().isEmpty(), "forgetting is silent");
    }

    /**
     * rxkad connections from proven sources that never answer the CHALLENGE, 16 parked packets of 60,000 bytes each:
     * one source parks at most its share, 200 connections from 20 sources at most maxHeldBytes; a client opening its
     * connection last still has its packet parked.
     */
    @Test
    void parkedDataStaysWithinTheBudgetPerPeerAndInAll() {
        // Parking needs a connection that exists before its client authenticated: with checkReach on, an rxkad
        // connection is made only by its accepted RESPONSE (the stateless CHALLENGE), so this runs without it.
        EngineHarness h = new EngineHarness(RxConfig.builder().checkReach(false).build());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, RxkadTestCredentials.server(RxkadLevel.CLEAR), svc);
        for (int k = 0; k < 20; k++) {
            for (int c = 0; c < 10; c++) {
                FakePeer p = FakePeer.client(0x7400_0000 + k, 0x40 + 4 * c, SVC).withSecurityIndex(2);
                h.clear();
                h.deliverFrom(source(k), p.data(0, 1, 1, 0, 60_000 - 28));
                AdmissionTest.answerPings(h, source(k), p); // each connection proves itself
                for (int seq = 2; seq <= 16; seq++) {
                    h.deliverFrom(source(k), p.data(0, 1, seq, 0, 60_000 - 28));
                    assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) <= MAX, "within maxHeldBytes");
                }
            }
            long parked = 0;
            for (Connection c : h.engine.serverConnections()) {
                if (c.peer().address().equals(source(k))) {
                    parked = c.peer().parkedBytes;
                }
            }
            assertTrue(parked <= PER_PEER, "within maxHeldBytesPerPeer: " + parked);
        }
        assertTrue(h.engine.totals().get(RxCounter.HELD_BYTES) > MAX - PER_PEER, "the budget was used: "
                + h.engine.totals().get(RxCounter.HELD_BYTES));
        assertTrue(h.engine.totals().get(RxCounter.HELD_PACKETS_REFUSED) > 0);
        long before = h.engine.totals().get(RxCounter.HELD_BYTES);
        FakePeer late = FakePeer.client(0x7500_0000, 0x40, SVC).withSecurityIndex(2);
        h.clear();
        h.deliverFrom(REMOTE2, late.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        AdmissionTest.answerPings(h, REMOTE2, late);
        assertEquals(before + 128, h.engine.totals().get(RxCounter.HELD_BYTES), "the newcomer's packet is parked: "
                + h.engine.totals().get(RxCounter.HELD_BYTES));
        assertEquals(0, svc.newCalls());
        h.engine.shutdown(h.now);
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_BYTES));
    }
}
