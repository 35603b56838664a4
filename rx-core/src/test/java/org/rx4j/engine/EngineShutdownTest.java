// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
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
        assertEquals(1, net.server().engine.totals().get(RxCounter.PACKETS_RECEIVED, PacketType.ACKALL));
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
    /** Records the nesting depth of listener callbacks when its call completes. */
    private static final class DepthListener extends RecordingApps.CallRecord {
        final int[] depth;
        final List<Integer> completedAtDepth = new ArrayList<>();
        Runnable onComplete = () -> { };

        DepthListener(EngineHarness h, int[] depth) {
            super(() -> h.now);
            this.depth = depth;
        }

        @Override
        public void onComplete(Call call, int errorCode) {
            super.onComplete(call, errorCode);
            completedAtDepth.add(depth[0]);
            depth[0]++;
            onComplete.run();
            depth[0]--;
        }
    }

    @Test
    void closeConnectionFromAListenerDeliversItsEventsAfterThatListenerReturns() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection a = h.engine.connect(EngineHarness.REMOTE, 147, 0);
        Connection b = h.engine.connect(EngineHarness.REMOTE, 147, 0);
        int[] depth = {0};
        DepthListener onA = new DepthListener(h, depth);
        DepthListener onB = new DepthListener(h, depth);
        onA.onComplete = () -> h.engine.closeConnection(h.now, b);
        h.engine.newCall(h.now, b, onB);
        h.engine.newCall(h.now, a, onA);

        h.deliver(FakePeer.serverOf(a).abort(0, 1, 5));
        assertEquals(List.of(0), onA.completedAtDepth);
        assertEquals(List.of(0), onB.completedAtDepth,
                "call b's completion is delivered after a's listener returns, never nested inside it");
    }
    /** Opens 5 calls on one connection (the fifth waits for a channel), ends them with {@code end}, checks all 5. */
    private static void everyCallEnds(java.util.function.BiConsumer<EngineHarness, Connection> end, int code) {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(EngineHarness.REMOTE, 147, 0);
        List<RecordingApps.CallRecord> records = new ArrayList<>();
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            RecordingApps.CallRecord r = new RecordingApps.CallRecord(() -> h.now);
            records.add(r);
            calls.add(h.engine.newCall(h.now, conn, r));
        }
        assertEquals(CallState.WAITING, calls.get(4).state());
        end.accept(h, conn);
        for (int i = 0; i < 5; i++) {
            assertTrue(records.get(i).completed, "call " + i + " (" + calls.get(i) + ") ended");
            assertEquals(code, records.get(i).code);
            assertEquals(1, records.get(i).completions);
        }
    }

    @Test
    void closingAConnectionEndsTheCallThatWasWaitingForAChannelToo() {
        everyCallEnds((h, conn) -> h.engine.closeConnection(h.now, conn), AbortCodes.RX_USER_ABORT);
    }

    @Test
    void shutdownEndsTheCallThatWasWaitingForAChannelToo() {
        everyCallEnds((h, conn) -> h.engine.shutdown(h.now), AbortCodes.RX_USER_ABORT);
    }

    @Test
    void aConnectionAbortEndsTheCallThatWasWaitingForAChannelToo() {
        everyCallEnds((h, conn) -> h.engine.abortConnection(h.now, conn, 17), 17);
        everyCallEnds((h, conn) -> h.deliver(FakePeer.serverOf(conn).abort(0, 0, 18)), 18);
    }
}
