// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckReason;

/**
 * Dead peers, idle calls, keepalives and the hard dead time (rx-wire-facts.md §8 "Keepalive"), in the simulator.
 */
class LivenessTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    private static final int SVC = 147;

    private static SimNetwork net(RxConfig config, LinkModel link, long seed) {
        SimNetwork net = new SimNetwork(config, config, link, link, seed);
        return net;
    }

    /** A client call that sends {@code bytes} and then neither sends nor finishes: it only answers pings. */
    private static final class QuietClient implements CallListener {
        boolean done;
        int error;
        long completedAt;

        @Override
        public boolean wantsData(Call call) {
            return false; // leaves the bytes in the call
        }

        @Override
        public void onData(Call call, io.netty.buffer.ByteBuf b, long now) {
            b.release();
        }

        @Override
        public void onWritable(Call call) {
        }

        @Override
        public void onComplete(Call call, int errorCode) {
            done = true;
            error = errorCode;
        }
    }

    @Test
    void aPeerSilentLongerThanTheDeadTimeFailsTheCallWithCallDead() {
        SimNetwork net = net(RxConfig.defaults(), LinkModel.delay(MS), 31);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 1L << 40, 0);
        client.start(conn);
        net.runFor(S);
        assertTrue(client.writer.sent > 1 << 20, "data flows before the silence");
        long rto = conn.peer().rtt().rtoNs();
        long deadTime = RxConfig.defaults().timeouts().deadTimeNs();

        net.blackout = true;
        net.allowStalls = true;
        long silentFrom = net.now();
        assertTrue(net.runUntil(() -> client.done, 60 * S));
        assertEquals(AbortCodes.RX_CALL_DEAD, client.error);
        long took = client.completedAt - silentFrom;
        assertTrue(took >= deadTime - 2 * MS && took <= deadTime + rto,
                "failed " + took / 1e6 + " ms after the peer fell silent (dead time 12 s, RTO " + rto / 1e6 + " ms)");
        assertTrue(net.runUntil(() -> server.callsFailed == 1, 60 * S));
        assertEquals(AbortCodes.RX_CALL_DEAD, server.lastError, "the server's call dies too");
    }

    @Test
    void aPeerSilentForLessThanTheDeadTimeResumesAndTheCallCompletes() {
        SimNetwork net = net(RxConfig.defaults(), LinkModel.delay(MS), 32);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 8 << 20, 8 << 20);
        client.start(conn);
        net.runFor(20 * MS);
        net.blackout = true;
        net.allowStalls = true;
        net.runFor(9 * S);
        assertTrue(!client.done, "9 s of silence is below the 12 s dead time");
        net.blackout = false;
        net.allowStalls = false;
        assertTrue(net.runUntil(() -> client.done, 120 * S));
        assertEquals(0, client.error);
        assertEquals(8 << 20, server.requestBytes);
        assertEquals(0, server.mismatches);
        assertEquals(8 << 20, client.reader.received);
        assertEquals(0, client.reader.mismatches);
        assertTrue(net.client().engine.totals().get(RxCounter.RETRANSMIT_TIMEOUTS) > 0, "the silence caused retransmission timeouts");
    }

    @Test
    void aClientThatOnlyAnswersPingsFailsTheServerCallAfterTheIdleDeadTime() {
        SimNetwork net = net(RxConfig.defaults(), LinkModel.delay(MS), 33);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        QuietClient quiet = new QuietClient();
        Call call = net.client().engine.newCall(net.now(), conn, quiet);
        call.write(net.now(), Unpooled.buffer(10_000).writeZero(10_000));
        net.runFor(100 * MS);
        Call serverCall = net.server().engine.serverConnections().iterator().next().call(0);
        assertEquals(CallState.ACTIVE, serverCall.state());
        long lastData = net.now();

        assertTrue(net.runUntil(() -> quiet.done, 120 * S));
        assertEquals(1, server.callsFailed);
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, server.lastError, "server idle dead time: RX_CALL_TIMEOUT");
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, quiet.error, "the client learns it from the ABORT");
        long idle = RxConfig.defaults().timeouts().serverIdleDeadTimeNs();
        assertTrue(net.now() - lastData >= idle - 100 * MS && net.now() - lastData <= idle + 100 * MS,
                "failed " + (net.now() - lastData) / 1e6 + " ms after the last data");
        long pings = net.deliveredToServer.acksByReason[AckReason.PING] + net.deliveredToClient.acksByReason[AckReason.PING];
        long answers = net.deliveredToServer.acksByReason[AckReason.PING_RESPONSE]
                + net.deliveredToClient.acksByReason[AckReason.PING_RESPONSE];
        assertTrue(pings >= 25 && answers >= 25,
                "keepalives kept both sides alive past the 12 s dead time: " + pings + " pings, " + answers + " answers");
    }

    @Test
    void aQuietCallExchangesKeepalivePingsAndStaysAlive() {
        RxConfig config = RxConfig.builder().serverIdleDeadTime(Duration.ZERO).build();
        SimNetwork net = net(config, LinkModel.delay(MS), 34);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        QuietClient quiet = new QuietClient();
        Call call = net.client().engine.newCall(net.now(), conn, quiet);
        call.write(net.now(), Unpooled.buffer(10_000).writeZero(10_000));
        net.runFor(S);
        long dataBefore = net.deliveredToServer.dataPackets;
        long pingsBefore = net.deliveredToServer.acksByReason[AckReason.PING]
                + net.deliveredToClient.acksByReason[AckReason.PING];
        long responsesBefore = net.deliveredToServer.acksByReason[AckReason.PING_RESPONSE]
                + net.deliveredToClient.acksByReason[AckReason.PING_RESPONSE];

        net.runFor(30 * S); // 2.5 dead times
        long pings = net.deliveredToServer.acksByReason[AckReason.PING]
                + net.deliveredToClient.acksByReason[AckReason.PING] - pingsBefore;
        long responses = net.deliveredToServer.acksByReason[AckReason.PING_RESPONSE]
                + net.deliveredToClient.acksByReason[AckReason.PING_RESPONSE] - responsesBefore;
        assertTrue(pings >= 14 && pings <= 16, "a keepalive PING every deadTime/6 = 2 s: " + pings);
        assertEquals(pings, responses, "every PING answered");
        assertEquals(dataBefore, net.deliveredToServer.dataPackets, "no DATA while quiet");
        assertEquals(CallState.ACTIVE, call.state());
        assertEquals(0, server.callsFailed);
        assertTrue(!quiet.done);
    }

    @Test
    void theHardDeadTimeFailsALongCallWithCallTimeout() {
        RxConfig config = RxConfig.builder().serverIdleDeadTime(Duration.ofSeconds(15))
                .hardDeadTime(Duration.ofSeconds(20)).build();
        LinkModel link = LinkModel.delay(MS).withBandwidth(10_000_000L, 256 << 10);
        SimNetwork net = net(config, link, 35);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient client = new SimApps.BulkClient(net, 64 << 20, 0);
        long start = net.now();
        client.start(conn);
        assertTrue(net.runUntil(() -> client.done, 120 * S));
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, client.error);
        assertEquals(20 * S, client.completedAt - start, "the call lives exactly the hard dead time");
        assertTrue(client.writer.sent < 64 << 20, "the transfer was cut short");
        // The server's call ends too: by the client's ABORT, or (if the full link queue dropped it) by its own
        // hard dead time, which started a little later.
        assertTrue(net.runUntil(() -> server.callsFailed == 1, 10 * S));
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, server.lastError);
        assertTrue(net.now() - start <= 20 * S + 10 * MS);
    }
}
