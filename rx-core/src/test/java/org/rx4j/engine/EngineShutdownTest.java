package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.PacketType;

/** {@link RxEngine#shutdown} and {@link RxEngine#closeConnection}, in virtual time. */
class EngineShutdownTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    private static SimNetwork net(long seed) {
        return new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS), LinkModel.delay(MS), seed);
    }

    @Test
    void shutdownSettlesAFinishedCallsPendingAckWithAckAll() {
        SimNetwork net = net(31);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 10, 10);
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 10 * S));
        assertEquals(0, client.error);
        assertEquals(0, server.callsCompleted, "the server waits for the client's delayed final ack");

        net.client().engine.shutdown(net.now());
        long shutdownAt = net.now();
        assertTrue(net.runUntil(() -> server.callsCompleted == 1, 10 * S));
        assertEquals(1, net.server().engine.totals().packetsReceived[PacketType.ACKALL]);
        assertTrue(net.now() - shutdownAt <= 2 * MS, "ACKALL ends the server call after one link delay, not a timer");
        assertEquals(0, server.callsFailed);
    }

    @Test
    void shutdownAbortsActiveCallsWithUserAbortOnBothSides() {
        SimNetwork net = net(32);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1 << 20, 10);
        client.start(conn);
        net.runFor(20 * MS);
        net.client().engine.shutdown(net.now());
        assertTrue(client.done);
        assertEquals(AbortCodes.RX_USER_ABORT, client.error);
        assertTrue(net.runUntil(() -> server.callsFailed == 1, 10 * S));
        assertEquals(AbortCodes.RX_USER_ABORT, server.lastError);
    }
}
