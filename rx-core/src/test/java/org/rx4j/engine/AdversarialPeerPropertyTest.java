// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.S;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.AdversarialPeer.Behaviour;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;

/**
 * A property over {@link AdversarialPeer}s (docs/robustness.md "Rule: progress, not activity, keeps a server call
 * alive" and "Rule: a server connection's address never moves on an unauthenticated packet"): for each seed, one to
 * five clients of random behaviour, answer delay and start time against one server engine (default configuration,
 * virtual clock). Every server call ends within its documented bound: a client that answers nothing at dead time
 * (12 s after its request; its call never gets a handler), one that answers PINGs or soft-acks without reading with
 * RX_CALL_TIMEOUT and an ABORT one idle dead time (60 s) after its reply began (or at once with success when it
 * soft-acked the whole reply: a fully acknowledged reply is done), one that reads slowly (within each idle dead
 * time) with success, a reader whose call's ids an attacker replays from another host with success and every reply
 * byte.
 *
 * <p>A client that moves to another port on its reply's first DATA (and hears nothing sent to its old port after)
 * ends by the dead time rule, not the idle dead time rule: its ACK and PINGs from the new port are processed by its
 * call (the connection stays where it is, but the packets are the call's), so the call hears from it until its last
 * PING, makes no progress after its first ACK, and ends with RX_CALL_DEAD exactly one dead time (12 s) after that
 * last packet: 24 s after the move with {@link AdversarialPeer#MOVED_PING_INTERVAL_NS} and
 * {@link AdversarialPeer#CLIENT_DEAD_TIME_NS}, inside the 60 s idle dead time that would end it were it to keep
 * PINGing.
 *
 * <p>Over the whole run, every datagram the engine sends goes to a client's home address (the one it answered the
 * reachability challenge from), never to a moved client's new port or an attacker's address, and each packet sent
 * from another address is counted in addressChangesRefused. Afterwards no call is held and no channel busy.
 */
class AdversarialPeerPropertyTest {
    private static final int SVC = 147;
    private static final int[] REPLY_SIZES = {16 << 10, 64 << 10, 256 << 10};

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24})
    void everyServerCallEndsWithinItsBoundAndIsReleased(long seed) {
        Random r = new Random(seed);
        RxConfig config = RxConfig.defaults();
        EngineHarness h = new EngineHarness(config, seed);
        int replyBytes = REPLY_SIZES[r.nextInt(REPLY_SIZES.length)];
        Service svc = new Service(() -> h.now, replyBytes);
        h.engine.registerService(SVC, 0, svc);
        List<AdversarialPeer> peers = new ArrayList<>();
        Map<InetSocketAddress, Integer> sentTo = new HashMap<>();
        int n = 1 + r.nextInt(5);
        for (int i = 0; i < n; i++) {
            Behaviour b = Behaviour.values()[r.nextInt(Behaviour.values().length)];
            FakePeer ids = FakePeer.client(0x80000010 + i, 0x40 * (i + 1), SVC);
            InetSocketAddress from = new InetSocketAddress("10.0.1." + (i + 1), 7001);
            AdversarialPeer p = new AdversarialPeer(ids, from, b, r.nextInt(300) * MS);
            AdversarialPeer.run(h, peers, h.now + r.nextInt(2000) * MS, sentTo);
            p.sendRequest(h);
            peers.add(p);
        }
        // The silent ones, checked at their own bound: their call is gone one dead time after the request.
        List<AdversarialPeer> silent = new ArrayList<>(peers.stream()
                .filter(p -> p.behaviour == Behaviour.SILENT).toList());
        silent.sort(Comparator.comparingLong(p -> p.requestAt));
        for (AdversarialPeer p : silent) {
            AdversarialPeer.run(h, peers, p.requestAt + config.timeouts().deadTimeNs() + 10 * MS, sentTo);
            assertFalse(hasActiveCall(h, p), "seed " + seed + ": a silent client's call is gone at dead time");
        }
        AdversarialPeer.run(h, peers, h.now + 1000 * S, sentTo);
        String where = "seed " + seed + ", " + peers.stream().map(p -> p.behaviour.name()).toList();
        for (AdversarialPeer p : peers) {
            Call call = serverCall(svc, p);
            if (p.behaviour == Behaviour.SILENT) {
                assertEquals(null, call, where + ": no handler for a client that never answered");
                continue;
            }
            assertTrue(call != null, where + ": the call got its handler");
            RecordingApps.CallRecord rec = svc.records.get(svc.calls.indexOf(call));
            assertTrue(rec.completed, where + ": every call ends");
            if (p.behaviour == Behaviour.SLOW_READER) {
                assertEquals(0, rec.code, where + ": a reader that reads keeps its call");
            } else if (p.behaviour == Behaviour.REPLAYS_IDS) {
                assertEquals(0, rec.code, where + ": the replayed ids do not spoil the real client's call");
                assertEquals(0, p.abortCode, where + ": no ABORT for the real client");
                assertTrue(p.replyEnded, where + ": the real client got the reply's last packet");
                assertEquals(replyBytes, p.replyBytes, where + ": the real client got every reply byte");
                assertTrue(p.sentFromElsewhere > 0, where + ": the attacker did replay the ids");
            } else if (p.behaviour == Behaviour.MOVES_ADDRESS) {
                assertTrue(p.movedAt >= 0 && p.sentFromElsewhere > 0, where + ": the client moved and sent from there");
                assertEquals(AbortCodes.RX_CALL_DEAD, rec.code, where + ": the moved client's call dies");
                assertTrue(rec.completedAt - p.lastSentAt <= config.timeouts().deadTimeNs() + 10 * MS,
                        where + ": one dead time after the moved client's last packet");
                assertTrue(rec.completedAt - p.lastSentAt >= config.timeouts().deadTimeNs(),
                        where + ": not before (its packets from the new address are the call's)");
                assertTrue(rec.completedAt - p.movedAt <= config.timeouts().serverIdleDeadTimeNs(),
                        where + ": within one idle dead time of its last progress");
                assertTrue(p.replyBytes < replyBytes, where + ": it lost the rest of the reply with its old port");
            } else {
                // A reply short enough to be soft-acked whole completes the call at once: a server call whose
                // reply is all acknowledged is done (rx-wire-facts.md §6.4), and it holds nothing more.
                boolean wholeReplySoftAcked = p.behaviour == Behaviour.SOFT_ACKS_ONLY && rec.code == 0;
                if (!wholeReplySoftAcked) {
                    assertEquals(AbortCodes.RX_CALL_TIMEOUT, rec.code, where + ": " + p.behaviour);
                    assertEquals(AbortCodes.RX_CALL_TIMEOUT, p.abortCode, where + ": the client got the ABORT");
                }
                assertTrue(rec.completedAt - p.firstReplyAt <= config.timeouts().serverIdleDeadTimeNs() + 10 * MS,
                        where + ": within one idle dead time of no progress");
            }
        }
        // Only addresses that proved themselves (each client's home, whose request it answered the reachability
        // challenge from) are ever sent to: not a moved client's new port, not an attacker's address.
        for (InetSocketAddress to : sentTo.keySet()) {
            assertTrue(peers.stream().anyMatch(p -> p.homeAddress().equals(to)),
                    where + ": " + sentTo.get(to) + " datagrams sent to " + to + ", which never proved itself");
        }
        for (AdversarialPeer p : peers) {
            assertEquals(null, sentTo.get(p.movedAddress()), where + ": nothing to a moved client's new port");
            assertEquals(null, sentTo.get(p.attackerAddress()), where + ": nothing to an attacker");
        }
        int elsewhere = peers.stream().mapToInt(p -> p.sentFromElsewhere).sum();
        assertEquals(elsewhere, h.engine.totals().get(RxCounter.ADDRESS_CHANGES_REFUSED),
                where + ": each packet from another address counted as a refused move");
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS), where + ": no call held");
        for (Connection c : h.engine.serverConnections()) {
            assertFalse(c.hasActiveCalls(), where + ": every channel free");
        }
        peers.forEach(AdversarialPeer::discard);
    }

    private static boolean hasActiveCall(EngineHarness h, AdversarialPeer p) {
        for (Connection c : h.engine.serverConnections()) {
            if (c.cid() == p.ids.cid && c.hasActiveCalls()) {
                return true;
            }
        }
        return false;
    }

    private static Call serverCall(Service svc, AdversarialPeer p) {
        for (Call c : svc.calls) {
            if (c.origin().cid() == p.ids.cid && c.origin().epoch() == p.ids.epoch) {
                return c;
            }
        }
        return null;
    }
}
