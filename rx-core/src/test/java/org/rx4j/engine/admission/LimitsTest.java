// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;
import static org.rx4j.engine.EngineHarness.S;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.AdmissionTest;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.PacketFlags;

/**
 * The endpoint's limits (docs/robustness.md "Rule: limits" and "Limits"): connections per endpoint and per peer,
 * unproven connections, peers, what the endpoint answers past each limit (as RxConfig's javadoc says), and the reaper
 * bringing the tables back to baseline, on the virtual clock.
 */
class LimitsTest {
    private static final int SVC = 147;

    private static InetSocketAddress source(int k) {
        return new InetSocketAddress("10.1." + (k / 250) + "." + (1 + k % 250), 7000 + k);
    }

    @Test
    void unprovenConnectionsAreEvictedFirstAndAClientArrivingMidFloodIsServed() {
        EngineHarness h = new EngineHarness(RxConfig.builder().maxUnprovenConnections(8).build());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        for (int k = 0; k < 25; k++) {
            FakePeer f = FakePeer.client(0x3BAD0000, 0x1000 + 4 * k, SVC);
            h.deliverFrom(source(k), f.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
            assertTrue(h.engine.serverConnections().size() <= 8);
        }
        FakePeer good = FakePeer.client(0x600D0000, 0x40, SVC);
        h.clear();
        h.deliverFrom(REMOTE2, good.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        AdmissionTest.answerPings(h, REMOTE2, good);
        assertEquals(1, svc.newCalls(), "the legitimate client is served mid-flood");
        for (int k = 25; k < 50; k++) {
            FakePeer f = FakePeer.client(0x3BAD0000, 0x1000 + 4 * k, SVC);
            h.deliverFrom(source(k), f.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
            assertTrue(h.engine.serverConnections().size() <= 9, "8 unproven + the proven one");
        }
        assertTrue(h.engine.serverConnections().stream().anyMatch(c -> c.cid() == 0x40),
                "the proven connection is never evicted");
        // Stateless reachability challenge: the unproven flood made no connection and no peer; its sources' records
        // (at most 8) are what is evicted, oldest first.
        assertEquals(1, h.engine.serverConnections().size(), "only the proven client has a connection");
        assertEquals(0, h.engine.totals().get(RxCounter.CONNECTIONS_EVICTED));
        assertEquals(8, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(50 - 8, h.engine.totals().get(RxCounter.CHALLENGES_EVICTED));
        assertEquals(1, h.engine.peers().size(), "flood sources never became peers");
        assertEquals(0, h.engine.totals().get(RxCounter.CONNECTIONS_REFUSED));
        assertEquals(1, svc.newCalls());
    }

    @Test
    void aClientWithManyConnectionsIsNotCappedByTheUnprovenLimit() {
        RxConfig config = RxConfig.builder().maxUnprovenConnections(8).build();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        // A burst of 20 new connections before the peer has answered a PING: one source, so one record keeps all 20
        // first packets and no connection exists yet (stateless reachability challenge); each gets its own PING.
        FakePeer[] conns = new FakePeer[120];
        for (int k = 0; k < conns.length; k++) {
            conns[k] = FakePeer.client(0x600D0000, 0x100 + 4 * k, SVC);
        }
        for (int k = 0; k < 20; k++) {
            h.deliver(conns[k].data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        }
        assertEquals(0, h.engine.serverConnections().size());
        assertEquals(20, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
        for (int k = 0; k < 20; k++) {
            AdmissionTest.answerPings(h, REMOTE, conns[k]); // whichever call the PING went to answers it
        }
        assertEquals(20, svc.newCalls(), "all 20 start once each answered its PING");
        // Many more connections from the now proven client, each answering its own PING: all served, none evicted,
        // none refused.
        for (int k = 20; k < conns.length; k++) {
            h.deliver(conns[k].data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
            AdmissionTest.answerPings(h, REMOTE, conns[k]);
        }
        assertEquals(conns.length, svc.newCalls());
        assertEquals(conns.length, h.engine.serverConnections().size());
        assertEquals(0, h.engine.totals().get(RxCounter.CONNECTIONS_EVICTED));
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGES_EVICTED));
        assertEquals(0, h.engine.totals().get(RxCounter.CONNECTIONS_REFUSED));
        RxConfig d = RxConfig.defaults();
        assertTrue(d.limits().maxConnectionsPerPeer() >= 10_000 && d.limits().maxConnections() >= 10_000,
                "the defaults admit one client's 10,000 connections");
    }

    @Test
    void pastMaxConnectionsANewConnectionIsRefusedWithCallBusy() {
        RxConfig config = RxConfig.builder().checkReach(false).maxConnections(3).build();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        for (int k = 0; k < 3; k++) {
            FakePeer c = FakePeer.client(0x12340000, 0x100 + 4 * k, SVC);
            h.deliver(c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        }
        assertEquals(3, svc.newCalls());
        h.clear();
        FakePeer fourth = FakePeer.client(0x12340000, 0x200, SVC);
        h.deliver(fourth.data(1, 7, 1, PacketFlags.LAST_PACKET, 10));
        List<AbortPacket> aborts = h.abortsSent();
        assertEquals(1, aborts.size());
        assertEquals(AbortCodes.RX_CALL_BUSY, aborts.get(0).code());
        assertEquals(0x201, aborts.get(0).header().cid(), "the refused call's identity");
        assertEquals(7, aborts.get(0).header().callNumber());
        assertEquals(3, h.engine.serverConnections().size(), "nothing kept for the refused one");
        assertEquals(1, h.engine.totals().get(RxCounter.CONNECTIONS_REFUSED));
        assertEquals(3, svc.newCalls());
    }

    @Test
    void perPeerLimitEvictsThatPeersUnprovenConnectionThenRefuses() {
        RxConfig config = RxConfig.builder().checkReach(false).maxConnectionsPerPeer(2).build();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer a = FakePeer.client(0x12340000, 0x100, SVC);
        FakePeer b = FakePeer.client(0x12340000, 0x104, SVC);
        FakePeer c = FakePeer.client(0x12340000, 0x108, SVC);
        FakePeer d = FakePeer.client(0x12340000, 0x10C, SVC);
        h.deliver(a.data(0, 1, 2, 0, 10)); // held (no packet 1): unproven
        h.deliver(b.data(0, 1, 1, PacketFlags.LAST_PACKET, 10)); // started: proven
        h.deliver(c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10)); // evicts a
        assertEquals(1, h.engine.totals().get(RxCounter.CONNECTIONS_EVICTED));
        assertTrue(h.engine.serverConnections().stream().noneMatch(x -> x.cid() == 0x100));
        assertEquals(2, svc.newCalls());
        h.clear();
        h.deliver(d.data(0, 1, 1, PacketFlags.LAST_PACKET, 10)); // both proven: refused
        assertEquals(1, h.abortsSent().size());
        assertEquals(AbortCodes.RX_CALL_BUSY, h.abortsSent().get(0).code());
        assertEquals(1, h.engine.totals().get(RxCounter.CONNECTIONS_REFUSED));
        // Another peer is not limited by this one.
        h.deliverFrom(REMOTE2, d.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertEquals(3, svc.newCalls());
    }

    @Test
    void pastMaxPeersANewAddressIsRefusedUntilAPeerIsFree() {
        RxConfig config = RxConfig.builder().checkReach(false).maxPeers(2).build();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x12340000, 0x100, SVC);
        h.deliverFrom(REMOTE, c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        h.deliverFrom(REMOTE2, c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        h.clear();
        h.deliverFrom(source(1), c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertEquals(1, h.abortsSent().size());
        assertEquals(AbortCodes.RX_CALL_BUSY, h.abortsSent().get(0).code());
        assertEquals(2, h.engine.peers().size());
        assertEquals(2, svc.newCalls());
    }

    @Test
    void idleConnectionsAndPeersAreReapedBackToBaselineWithTheDefaults() {
        RxConfig config = RxConfig.defaults();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        for (int k = 0; k < 20; k++) {
            FakePeer c = FakePeer.client(0x12340000, 0x100 + 4 * k, SVC);
            h.deliverFrom(source(k), c.data(0, 1, 1, PacketFlags.LAST_PACKET, 40)); // 68 B: pays for the PING
            AdmissionTest.answerPings(h, source(k), c);
        }
        assertEquals(20, svc.newCalls());
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(20, h.engine.serverConnections().size());
        assertEquals(20, h.engine.peers().size());
        long quiet = config.reaping().idleConnectionTimeNs() + config.reaping().reapIntervalNs();
        h.advance(quiet - config.reaping().reapIntervalNs() - S);
        assertEquals(20, h.engine.serverConnections().size(), "not idle long enough yet");
        h.advance(config.reaping().reapIntervalNs() + S);
        assertEquals(0, h.engine.serverConnections().size());
        assertEquals(0, h.engine.peers().size());
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
    }

    @Test
    void reaperTimesComeFromTheConfiguration() {
        RxConfig config = RxConfig.builder().checkReach(false).idleConnectionTime(Duration.ofSeconds(30))
                .idlePeerTime(Duration.ofSeconds(5)).reapInterval(Duration.ofSeconds(1)).build();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x12340000, 0x100, SVC);
        h.deliver(c.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        h.deliver(c.ack(0, 1, 2, 1, 0, org.rx4j.wire.AckReason.DELAY, new byte[0], 32, 1)); // reply acked
        assertEquals(1, h.engine.serverConnections().size());
        h.advance(29 * S);
        assertEquals(1, h.engine.serverConnections().size());
        h.advance(2 * S + S);
        assertEquals(0, h.engine.serverConnections().size(), "idle 30 s + one 1 s reaper pass");
        assertEquals(0, h.engine.peers().size());
    }
}
