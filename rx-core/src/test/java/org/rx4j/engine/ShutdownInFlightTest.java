// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * Graceful shutdown (docs/robustness.md "Rule: graceful shutdown") in the simulator: an engine shut down with calls in
 * flight in both directions (four running calls, one waiting for a channel) wakes every call with a clear error, sends
 * nothing but its ABORTs, answers nothing that arrives afterwards, and holds no buffer. The transport-level counterpart
 * is {@code org.rx4j.rpc.GracefulCloseTest}.
 */
@ExtendWith(LeakCheckExtension.class)
class ShutdownInFlightTest {
    private static final int SVC = 147;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    @Test
    void shutdownWithCallsInFlightOnBothSidesWakesEveryCallAndThenSendsNothing() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 131);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        List<SimApps.BulkClient> clients = new ArrayList<>();
        // Two calls sending, two receiving, a fifth waiting for a channel.
        long[][] sizes = {{1L << 30, 0}, {1L << 30, 0}, {10, 1L << 30}, {10, 1L << 30}, {10, 10}};
        for (long[] s : sizes) {
            SimApps.BulkClient c = new SimApps.BulkClient(net, s[0], s[1]);
            clients.add(c);
            c.start(conn);
        }
        net.runFor(200 * MS);
        assertTrue(clients.stream().noneMatch(c -> c.done), "all in flight");
        List<Integer> afterShutdown = new ArrayList<>();
        boolean[] shutDown = {false};
        net.sendTap = (now, fromClient, packets) -> {
            if (fromClient && shutDown[0]) {
                for (RxPacket p : packets) {
                    afterShutdown.add(p.header().type());
                }
            }
        };
        shutDown[0] = true;
        net.client().engine.shutdown(net.now());
        for (SimApps.BulkClient c : clients) {
            assertTrue(c.done, "every caller woken");
            assertEquals(AbortCodes.RX_USER_ABORT, c.error, "with a clear error");
        }
        assertTrue(afterShutdown.stream().allMatch(t -> t == PacketType.ABORT), "only ABORTs: " + afterShutdown);
        int aborts = afterShutdown.size();
        assertTrue(aborts >= 4, "the four calls on the wire are aborted: " + aborts);
        // The server's calls end from the ABORTs; whatever it still sends is not answered.
        assertTrue(net.runUntil(() -> server.callsFailed == 4, 10 * S));
        net.runFor(30 * S);
        assertEquals(aborts, afterShutdown.size(), "nothing sent after the shutdown's ABORTs");
        assertEquals(0, net.client().engine.totals().get(RxCounter.INTERNAL_ERRORS));
        net.server().engine.shutdown(net.now());
    }
}
