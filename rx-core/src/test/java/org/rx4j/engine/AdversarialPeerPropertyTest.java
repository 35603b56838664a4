package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.S;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.AdversarialPeer.Behaviour;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.wire.AbortCodes;

/**
 * A property over {@link AdversarialPeer}s (docs/robustness.md "Rule: progress, not activity, keeps a server call
 * alive"): for each seed, one to five clients of random behaviour, answer delay and start time against one server
 * engine (default configuration, virtual clock). Every server call ends within its documented bound: a client that
 * answers nothing at dead time (12 s after its request; its call never gets a handler), one that answers PINGs or
 * soft-acks without reading with RX_CALL_TIMEOUT and an ABORT one idle dead time (60 s) after its reply began (or at
 * once with success when it soft-acked the whole reply: a fully acknowledged reply is done), one
 * that reads slowly (within each idle dead time) with success. Afterwards no call is held and no channel busy.
 */
class AdversarialPeerPropertyTest {
    private static final int SVC = 147;
    private static final int[] REPLY_SIZES = {16 << 10, 64 << 10, 256 << 10};

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void everyServerCallEndsWithinItsBoundAndIsReleased(long seed) {
        Random r = new Random(seed);
        RxConfig config = RxConfig.defaults();
        EngineHarness h = new EngineHarness(config, seed);
        Service svc = new Service(() -> h.now, REPLY_SIZES[r.nextInt(REPLY_SIZES.length)]);
        h.engine.registerService(SVC, 0, svc);
        List<AdversarialPeer> peers = new ArrayList<>();
        int n = 1 + r.nextInt(5);
        for (int i = 0; i < n; i++) {
            Behaviour b = Behaviour.values()[r.nextInt(Behaviour.values().length)];
            FakePeer ids = FakePeer.client(0x80000010 + i, 0x40 * (i + 1), SVC);
            InetSocketAddress from = new InetSocketAddress("10.0.1." + (i + 1), 7001);
            AdversarialPeer p = new AdversarialPeer(ids, from, b, r.nextInt(300) * MS);
            AdversarialPeer.run(h, peers, h.now + r.nextInt(2000) * MS);
            p.sendRequest(h);
            peers.add(p);
        }
        // The silent ones, checked at their own bound: their call is gone one dead time after the request.
        List<AdversarialPeer> silent = new ArrayList<>(peers.stream()
                .filter(p -> p.behaviour == Behaviour.SILENT).toList());
        silent.sort(Comparator.comparingLong(p -> p.requestAt));
        for (AdversarialPeer p : silent) {
            AdversarialPeer.run(h, peers, p.requestAt + config.timeouts().deadTimeNs() + 10 * MS);
            assertFalse(hasActiveCall(h, p), "seed " + seed + ": a silent client's call is gone at dead time");
        }
        AdversarialPeer.run(h, peers, h.now + 1000 * S);
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
        assertEquals(0, h.engine.totals().heldServerCalls(), where + ": no call held");
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
