// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineParts.source;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.admission.ConnectionLimits;
import org.rx4j.engine.admission.ReachChallenger;
import org.rx4j.engine.admission.SecurityHandshake;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.PacketType;

/** The engine's timed work on plain {@code now} values: the reaper's schedule and what it removes, record expiry. */
class EngineTimersTest {
    private static final long S = 1_000_000_000L;

    private static EngineParts parts() {
        return new EngineParts(RxConfig.builder().reapInterval(Duration.ofSeconds(10))
                .idleConnectionTime(Duration.ofSeconds(5)).idlePeerTime(Duration.ofSeconds(15))
                .deadTime(Duration.ofSeconds(3)).build());
    }

    private static ReachChallenger challenger(EngineParts e) {
        return new ReachChallenger(e.config, e.table, new ConnectionLimits(e.config, e.table, e.counters), e.sink,
                e.counters, UnpooledByteBufAllocator.DEFAULT, 1);
    }

    @Test
    void theReaperRunsOneIntervalApartAndRemovesIdleConnectionsThenUnusedPeers() {
        EngineParts e = parts();
        EngineTimers t = new EngineTimers(e.config, e.timers, e.events, challenger(e), e.table, e.counters,
                new SecurityHandshake(e.counters), 2 * S);
        assertEquals(12 * S, t.nextDeadline(), "nothing else due: the first reaper pass");
        Connection idle = e.serverConnection(source(1));
        idle.onReceived(S, PacketType.DATA, 100, true, false);
        Connection busy = e.serverConnection(source(2));
        busy.onReceived(11 * S, PacketType.DATA, 100, true, false);
        t.run(12 * S - 1);
        assertFalse(idle.closed, "not before the reaper is due");
        t.run(12 * S);
        assertTrue(idle.closed, "idle 11 s, more than 5 s");
        assertFalse(busy.closed, "idle 1 s");
        assertEquals(100, e.counters.get(RxCounter.BYTES_RECEIVED), "the reaped connection's counters stay with the endpoint");
        assertNotNull(e.table.knownPeer(source(1)), "its peer was used 11 s ago, less than 15 s");
        assertEquals(22 * S, t.nextDeadline());
        t.run(22 * S);
        assertNull(e.table.knownPeer(source(1)), "unused for 21 s with no connection");
        assertTrue(busy.closed, "idle 11 s by now");
        assertNotNull(e.table.knownPeer(source(2)), "its peer was used 11 s ago");
    }

    @Test
    void challengeRecordsExpireAndTheirExpiryIsADeadline() {
        EngineParts e = parts();
        ReachChallenger c = challenger(e);
        EngineTimers t = new EngineTimers(e.config, e.timers, e.events, c, e.table, e.counters,
                new SecurityHandshake(e.counters), 0);
        c.challenge(S, source(1), FakePeer.client(0x600D0000, 0x100, 1).data(0, 1, 1, 0, 100), 128);
        assertEquals(4 * S, t.nextDeadline(), "the record's dead time comes before the reaper");
        t.run(4 * S);
        RxCounters snapshot = new RxCounters(RxCounter.Scope.ENDPOINT);
        c.addCountersTo(snapshot);
        assertEquals(1, snapshot.get(RxCounter.CHALLENGES_EXPIRED));
        assertEquals(10 * S, t.nextDeadline());
    }
}
