// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.S;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.AdversarialPeer.Behaviour;
import org.rx4j.engine.AdversarialPeer;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.RecordingApps;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;

/**
 * Progress, not activity, keeps a server call alive (docs/robustness.md "Rule: progress, not activity, keeps a
 * server call alive"): a server call whose reply waits for acknowledgements and sees firstPacket move for none of
 * the idle dead time (60 s) ends with RX_CALL_TIMEOUT and an ABORT, however faithfully its client answers PINGs or
 * soft-acks; a client that does read, however slowly, keeps its call. Packet level, virtual clock.
 */
class SendProgressTest {
    private static final int SVC = 147;
    private static final int REPLY = 1 << 20;

    private record Run(AdversarialPeer peer, Service svc, EngineHarness h) {
    }

    private static Run run(RxConfig config, Behaviour behaviour, int replyBytes, long forNs) {
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, replyBytes);
        h.engine.registerService(SVC, 0, svc);
        AdversarialPeer peer = new AdversarialPeer(FakePeer.client(0x80000010, 0x20, SVC), REMOTE, behaviour,
                5 * MS);
        peer.sendRequest(h);
        AdversarialPeer.run(h, List.of(peer), forNs);
        peer.discard();
        return new Run(peer, svc, h);
    }

    private static void assertTimedOutWithoutProgress(Run r) {
        assertEquals(1, r.svc().newCalls(), "the call got its handler");
        RecordingApps.CallRecord call = r.svc().record(0);
        assertTrue(call.completed, "the call ended");
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, call.code, "RX_CALL_TIMEOUT");
        long idle = RxConfig.defaults().timeouts().serverIdleDeadTimeNs();
        long waited = call.completedAt - r.peer().firstReplyAt;
        assertTrue(waited >= idle && waited <= idle + 10 * MS, "ended one idle dead time after the reply began: "
                + waited / 1e9 + " s");
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, r.peer().abortCode, "the client was told with an ABORT");
        CallOrigin origin = r.svc().calls.get(0).origin();
        Connection conn = r.h().engine.serverConnections().stream()
                .filter(c -> c.cid() == origin.cid() && c.epoch() == origin.epoch()).findFirst().orElseThrow();
        assertFalse(conn.hasActiveCalls(), "the channel is free");
    }

    @Test
    void aClientThatAnswersOnlyPingsEndsTheServerCallAfterTheIdleDeadTime() {
        assertTimedOutWithoutProgress(run(RxConfig.defaults(), Behaviour.PINGS_ONLY, REPLY, 200 * S));
    }

    @Test
    void aClientThatSoftAcksWithoutReadingEndsTheServerCallAfterTheIdleDeadTime() {
        assertTimedOutWithoutProgress(run(RxConfig.defaults(), Behaviour.SOFT_ACKS_ONLY, REPLY, 200 * S));
    }

    @Test
    void aClientThatReadsSlowlyButReadsKeepsItsCall() {
        Run r = run(RxConfig.defaults(), Behaviour.SLOW_READER, 256 << 10, 1200 * S);
        RecordingApps.CallRecord call = r.svc().record(0);
        assertTrue(call.completed, "the reply was read to its end");
        assertEquals(0, call.code, "no timeout while firstPacket moves within each idle dead time");
        assertTrue(call.completedAt - r.peer().firstReplyAt > 2 * RxConfig.defaults().timeouts().serverIdleDeadTimeNs(),
                "it took longer than the idle dead time in all: " + call.completedAt / 1e9 + " s");
    }

    @Test
    void withoutAServerIdleDeadTimeTheCallIsKept() {
        RxConfig config = RxConfig.builder().serverIdleDeadTime(Duration.ZERO).build();
        Run r = run(config, Behaviour.SOFT_ACKS_ONLY, REPLY, 200 * S);
        assertFalse(r.svc().record(0).completed, "idle dead time 0 turns the rule off");
        r.h().engine.shutdown(r.h().now);
    }
}
