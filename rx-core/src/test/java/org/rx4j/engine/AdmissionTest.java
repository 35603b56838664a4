// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;
import static org.rx4j.engine.EngineHarness.S;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;

/**
 * Admission of server calls (docs/robustness.md "Rule: packets that never create a server call" and "Rule: a call gets
 * a handler only after packet 1, from a reachable peer"): which packets may create a server call, and when an admitted
 * call may start (reach its handler, and so a worker): only once its request's packet 1 is here and its peer proved
 * reachable. Packets held by calls not yet started are bounded per call and in total.
 */
public class AdmissionTest {
    private static final int SVC = 147;
    private static final RxConfig NO_REACH = RxConfig.builder().checkReach(false).build();

    /** Answers every reachability PING the engine sent to {@code to} since the last clear, as {@code client}. */
    public static void answerPings(EngineHarness h, InetSocketAddress to, FakePeer client) {
        List<AckPacket> pings = new ArrayList<>();
        for (EngineHarness.Datagram d : h.sent) {
            if (d.to().equals(to) && d.first() instanceof AckPacket a && a.reason() == AckReason.PING
                    && (a.header().cid() & ~3) == client.cid) {
                pings.add(a);
            }
        }
        for (AckPacket a : pings) {
            h.deliverFrom(to, client.ack(a.header().channel(), a.header().callNumber(), 1, 0, a.header().serial(),
                    AckReason.PING_RESPONSE, new byte[0], 32, 1));
        }
    }

    @Test
    void packetsThatMustNotCreateAServerCallCreateNone() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x12340000, 0x100, SVC);

        // For an unknown connection: no connection, no call, no reply.
        h.deliver(c.ack(0, 1, 1, 0, 0, AckReason.DELAY, new byte[0], 32, 1));
        h.deliver(c.control(PacketType.ACKALL, 0, 1));
        h.deliver(c.abort(0, 1, AbortCodes.RX_CALL_DEAD));
        h.deliver(c.control(PacketType.BUSY, 0, 1));
        h.deliver(c.control(PacketType.CHALLENGE, 0, 1));
        h.deliver(c.control(PacketType.RESPONSE, 0, 1));
        h.deliver(c.data(0, 0, 1, PacketFlags.LAST_PACKET, 10));
        h.deliver(c.data(0, 1, 0, PacketFlags.LAST_PACKET, 10));
        h.deliver(c.data(0, 1, 33, PacketFlags.LAST_PACKET, 10));
        assertTrue(h.engine.serverConnections().isEmpty());
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(0, svc.newCalls());
        assertTrue(h.sent.isEmpty(), "nothing answered: " + h.sent);
        assertEquals(9, h.engine.totals().get(RxCounter.DROPPED_PACKETS));

        // A known connection: the same packets for a call it does not have create none.
        h.deliver(c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertEquals(1, svc.newCalls());
        Connection conn = h.engine.serverConnections().iterator().next();
        h.clear();
        h.deliver(c.ack(1, 1, 1, 0, 0, AckReason.DELAY, new byte[0], 32, 1));
        h.deliver(c.control(PacketType.ACKALL, 1, 1));
        h.deliver(c.abort(1, 1, AbortCodes.RX_CALL_DEAD));
        h.deliver(c.control(PacketType.BUSY, 1, 1));
        h.deliver(c.control(PacketType.CHALLENGE, 1, 1));
        h.deliver(c.control(PacketType.RESPONSE, 1, 1));
        h.deliver(c.data(1, 0, 1, PacketFlags.LAST_PACKET, 10));
        h.deliver(c.data(1, 1, 0, PacketFlags.LAST_PACKET, 10));
        h.deliver(c.data(1, 1, 33, PacketFlags.LAST_PACKET, 10));
        // Another security index on the known connection's identity.
        h.deliver(c.withSecurityIndex(1).data(2, 1, 1, PacketFlags.LAST_PACKET, 10));
        for (int ch = 1; ch < 4; ch++) {
            assertNull(conn.call(ch), "channel " + ch);
        }
        assertEquals(1, h.engine.serverConnections().size());
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(1, svc.newCalls());
        assertTrue(h.sent.isEmpty(), "nothing answered: " + h.sent);
        assertEquals(1, conn.counters().get(RxCounter.PACKETS_RECEIVED, PacketType.CHALLENGE));
        assertEquals(1, conn.counters().get(RxCounter.PACKETS_RECEIVED, PacketType.RESPONSE));
    }

    @Test
    void abortRepliesToOnePeerArePaced() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x12340000, 0x100, SVC);
        h.deliver(c.data(0, 1, 1, 0, 100));
        h.deliver(c.abort(0, 1, AbortCodes.RX_USER_ABORT)); // the call failed: packets for it get its ABORT
        h.clear();
        for (int i = 0; i < 30; i++) {
            h.deliver(c.data(0, 1, 2, 0, 100));
        }
        assertEquals(Peer.ABORT_REPLY_BURST, h.abortsSent().size(), "a burst, then paced");
        Peer peer = h.engine.serverConnections().iterator().next().peer();
        assertEquals(30 - Peer.ABORT_REPLY_BURST, peer.abortRepliesSuppressed());
        h.clear();
        h.advance(S);
        for (int i = 0; i < 30; i++) {
            h.deliver(c.data(0, 1, 2, 0, 100));
        }
        assertEquals(S / Peer.ABORT_REPLY_INTERVAL_NS, h.abortsSent().size(), "one per 100 ms after the burst");
        for (AbortPacket a : h.abortsSent()) {
            assertEquals(AbortCodes.RX_USER_ABORT, a.code());
        }
    }

    @Test
    void fortyCallsWithoutPacketOneGetNoHandlerAndANormalCallIsServedAtOnce() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer[] attackers = new FakePeer[10];
        for (int k = 0; k < attackers.length; k++) {
            attackers[k] = FakePeer.client(0x2BAD0000, 0x1000 + 4 * k, SVC);
            for (int ch = 0; ch < 4; ch++) {
                for (int seq = 2; seq <= 9; seq++) {
                    h.deliver(attackers[k].data(ch, 1, seq, 0, 1412));
                }
            }
            answerPings(h, REMOTE, attackers[k]); // the attacker proves reachable: still no handler
        }
        assertEquals(0, svc.newCalls(), "no call holding only packets 2..9 reaches a handler");
        assertEquals(40, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(320, h.engine.totals().get(RxCounter.HELD_SERVER_PACKETS));

        // A normal client (another peer) is served at once.
        FakePeer good = FakePeer.client(0x600D0000, 0x40, SVC);
        h.clear();
        h.deliverFrom(REMOTE2, good.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        answerPings(h, REMOTE2, good);
        assertEquals(1, svc.newCalls());
        assertTrue(svc.record(0).readComplete);
        assertTrue(h.dataSent().stream().anyMatch(d -> d.header().hasFlag(PacketFlags.LAST_PACKET)),
                "the normal call got its reply");

        // The held calls end at dead time, whatever the attacker keeps sending, and release what they held.
        for (int t = 0; t < 12; t++) {
            h.advance(S);
            for (FakePeer a : attackers) {
                h.deliver(a.data(0, 1, 2, 0, 1412)); // a resend keeps the call heard, not alive
            }
        }
        h.advance(100 * MS);
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_PACKETS));
        assertEquals(1, svc.newCalls());
        for (Connection conn : h.engine.serverConnections()) {
            for (int ch = 0; ch < 4; ch++) {
                Call call = conn.call(ch);
                if (conn.peer().address().equals(REMOTE) && call != null) {
                    assertEquals(CallState.ERROR, call.state());
                    assertEquals(AbortCodes.RX_CALL_DEAD, call.error());
                }
            }
        }
    }

    @Test
    void packetOneStartsAHeldCallAtOnceOnceThePeerIsReachable() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x12340000, 0x100, SVC);
        h.deliver(c.data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        answerPings(h, REMOTE, c);
        assertEquals(0, svc.newCalls(), "reachable, but packet 1 is missing");
        h.advance(3 * S);
        assertEquals(0, svc.newCalls());
        h.deliver(c.data(0, 1, 1, 0, 1412));
        assertEquals(1, svc.newCalls());
        assertTrue(svc.record(0).readComplete);
        assertEquals(1512, svc.record(0).bytesRead);
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
    }

    @Test
    void heldPacketsAreBoundedPerCallAndInTotal() {
        RxConfig config = RxConfig.builder().checkReach(false).maxHeldPackets(64).build();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);

        // Per call: the receive window (32) bounds what one call holds.
        FakePeer one = FakePeer.client(0x11110000, 0x100, SVC);
        for (int seq = 2; seq <= 60; seq++) {
            h.deliver(one.data(0, 1, seq, 0, 100));
        }
        assertEquals(31, h.engine.totals().get(RxCounter.HELD_SERVER_PACKETS), "seq 2..32: the window from seq 1");

        // In total: 40 more calls of 8 packets each stay within maxHeldPackets; the oldest are forgotten.
        for (int k = 0; k < 10; k++) {
            FakePeer a = FakePeer.client(0x2BAD0000, 0x1000 + 4 * k, SVC);
            for (int ch = 0; ch < 4; ch++) {
                for (int seq = 2; seq <= 9; seq++) {
                    h.deliver(a.data(ch, 1, seq, 0, 100));
                    assertTrue(h.engine.totals().get(RxCounter.HELD_SERVER_PACKETS) <= 64);
                }
            }
        }
        assertTrue(h.engine.totals().get(RxCounter.HELD_CALLS_FORGOTTEN) > 0);
        assertEquals(0, svc.newCalls());
        assertTrue(h.abortsSent().isEmpty(), "forgetting is silent");

        // A forgotten call's client resends from packet 1: admitted afresh and served.
        Connection first = null;
        for (Connection conn : h.engine.serverConnections()) {
            if (conn.cid() == 0x100) {
                first = conn;
            }
        }
        assertNull(first.call(0), "the oldest held call was forgotten");
        h.deliver(one.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        assertEquals(1, svc.newCalls());
        assertTrue(svc.record(0).readComplete);
    }
}
