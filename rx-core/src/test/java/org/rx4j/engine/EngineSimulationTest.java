// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.connection.Connection;

@org.junit.jupiter.api.extension.ExtendWith(org.rx4j.testing.LeakCheckExtension.class)
class EngineSimulationTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    private final java.util.List<SimNetwork> nets = new java.util.ArrayList<>();

    private SimNetwork net(RxConfig config, LinkModel link, long seed) {
        SimNetwork net = new SimNetwork(config, config, link, link, seed);
        nets.add(net);
        return net;
    }

    @org.junit.jupiter.api.AfterEach
    void shutdown() {
        nets.forEach(SimNetwork::shutdown);
    }

    @Test
    void smallCallCompletes() {
        SimNetwork net = net(RxConfig.defaults(), LinkModel.delay(MS), 1);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 100, 30);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 10 * S), "call did not complete");
        assertEquals(0, client.error);
        assertEquals(30, client.reader.received);
        assertEquals(0, client.reader.mismatches);
        net.runFor(1 * S);
        assertEquals(1, server.callsCompleted);
        assertEquals(100, server.requestBytes);
    }

    @Test
    void bulkBothWaysLossless() {
        SimNetwork net = net(RxConfig.defaults(), LinkModel.delay(5 * MS), 2);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 4 << 20, 4 << 20);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 120 * S), "call did not complete");
        assertEquals(0, client.error);
        assertEquals(4 << 20, client.reader.received);
        assertEquals(0, client.reader.mismatches);
        assertEquals(0, server.mismatches);
    }

    @Test
    void bulk64MiBEachWayWithLossReorderAndDuplication() {
        LinkModel link = LinkModel.delay(5 * MS).withLoss(0.05).withReorder(0.02).withDuplicate(0.01)
                .withJitter(MS);
        SimNetwork net = net(RxConfig.defaults(), link, 3);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 64L << 20, 64L << 20);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 3600 * S), "call did not complete");
        assertEquals(0, client.error);
        assertEquals(64L << 20, server.requestBytes);
        assertEquals(0, server.mismatches);
        assertEquals(64L << 20, client.reader.received);
        assertEquals(0, client.reader.mismatches);
        assertTrue(net.client().engine.totals().get(RxCounter.RESENDS) > 0, "loss must have caused resends");
    }

    @Test
    void windowLimitedThroughputOnLosslessLink() {
        RxConfig config = RxConfig.builder().maxWindow(255).build();
        LinkModel link = LinkModel.delay(5 * MS).withBandwidth(1_000_000_000L, 4 << 20);
        SimNetwork net = net(config, link, 4);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1L << 40, 0);
        client.start(conn);
        net.runFor(1 * S);
        long before = client.writer.sent - (net.client().engine.clientConnections().iterator().next().call(0).queuedPackets() * 1412L);
        long t0 = net.now();
        net.runFor(2 * S);
        long after = client.writer.sent - (net.client().engine.clientConnections().iterator().next().call(0).queuedPackets() * 1412L);
        double mbps = (after - before) * 8.0 / ((net.now() - t0) / 1e9) / 1e6;
        double windowLimited = 255 * 1412 * 8.0 / 0.010 / 1e6;
        assertTrue(mbps >= 0.9 * windowLimited, "throughput " + mbps + " Mbit/s < 90% of " + windowLimited);
    }

    @Test
    void smallRpcsCompleteWithinOneRttPlusOneMs() {
        SimNetwork net = net(RxConfig.defaults(), LinkModel.delay(MS / 2), 5);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        long worst = 0;
        for (int i = 0; i < 10_000; i++) {
            SimApps.BulkClient client = new SimApps.BulkClient(net, 4 - 8 + 8, 4);
            long start = net.now();
            client.start(conn);
            assertTrue(net.runUntil(() -> client.done, 10 * S), "call " + i + " did not complete");
            assertEquals(0, client.error);
            long took = client.completedAt - start;
            if (i > 0) {
                assertTrue(took <= 2 * MS, "call " + i + " took " + took / 1e6 + " ms");
                worst = Math.max(worst, took);
            }
        }
        assertTrue(worst <= 2 * MS, "worst " + worst);
        // The next call on a channel acknowledges the previous reply: no stray delayed acks, no resends.
        assertEquals(0, net.server().engine.totals().get(RxCounter.RESENDS));
        assertTrue(net.client().engine.totals().get(RxCounter.ACKS_SENT, org.rx4j.wire.AckReason.DELAY) < 10);
    }
}
