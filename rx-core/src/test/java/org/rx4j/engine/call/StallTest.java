// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.ServiceHandler;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;

/**
 * A client call that hears nothing from its server is reported stalled ({@link CallListener#onStall}), so that the
 * rpc layer re-probes the server's port long before the dead time (docs/embedding.md "A peer that does not
 * answer"): 500 ms of silence while its data waits for acknowledgement, a keepalive interval more while it waits for
 * the reply, then once per keepalive interval; never while the server answers, never on a server call. In the
 * simulator, on its virtual clock.
 */
class StallTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    private static final int SVC = 147;
    private static final long STALL = RxConfig.defaults().timeouts().deadTimeNs() / 24;
    private static final long KEEPALIVE = RxConfig.defaults().timeouts().deadTimeNs() / 6;

    /** Records the stalls and the end of a client call; sends what it is given, reads nothing. */
    private static final class Recorder implements CallListener {
        final SimNetwork net;
        final List<Long> stalls = new ArrayList<>();
        boolean done;

        Recorder(SimNetwork net) {
            this.net = net;
        }

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
        }

        @Override
        public void onStall(Call call, long now) {
            stalls.add(now);
        }
    }

    /** A server that takes each call and never answers it, reporting its own stalls (there must be none). */
    private static final class SilentServer implements ServiceHandler {
        final List<Long> stalls = new ArrayList<>();

        @Override
        public void onNewCall(Call call) {
            call.setListener(new CallListener() {
                @Override
                public void onData(Call c, io.netty.buffer.ByteBuf b, long now) {
                    b.release();
                }

                @Override
                public void onWritable(Call c) {
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                }

                @Override
                public void onStall(Call c, long now) {
                    stalls.add(now);
                }
            });
        }
    }

    private static SimNetwork net(long seed) {
        return new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS), LinkModel.delay(MS), seed);
    }

    @Test
    void aSendingCallWhoseServerFallsSilentStallsAfterHalfASecondThenOncePerKeepalive() {
        SimNetwork net = net(41);
        SilentServer server = new SilentServer();
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        Recorder client = new Recorder(net);
        Call call = net.client().engine.newCall(net.now(), conn, client);
        call.write(net.now(), Unpooled.buffer(4 << 20).writeZero(4 << 20));
        net.runFor(30 * MS);
        assertTrue(client.stalls.isEmpty(), "no stall while the server acknowledges");

        net.blackout = true;
        net.allowStalls = true;
        long silentFrom = net.now();
        net.runFor(5 * S);
        assertTrue(client.stalls.size() >= 3, "stalls " + client.stalls);
        long first = client.stalls.get(0) - silentFrom;
        assertTrue(first >= STALL - 2 * MS && first <= STALL + 5 * MS, "first stall " + first / 1e6 + " ms");
        for (int i = 1; i < client.stalls.size(); i++) {
            assertEquals(KEEPALIVE, client.stalls.get(i) - client.stalls.get(i - 1), 2 * MS, "stall interval");
        }
        assertTrue(!client.done, "a stall ends nothing: the dead time or a probe's verdict does");
        assertTrue(server.stalls.isEmpty(), "server calls never stall");
    }

    @Test
    void aCallWaitingForItsReplyStallsOnlyWhenItsKeepaliveGoesUnanswered() {
        SimNetwork net = net(42);
        SilentServer server = new SilentServer();
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        Recorder client = new Recorder(net);
        Call call = net.client().engine.newCall(net.now(), conn, client);
        call.write(net.now(), Unpooled.buffer(1000).writeZero(1000));
        call.finishSending(net.now());
        net.runFor(6 * S);
        assertTrue(client.stalls.isEmpty(), "a server that answers keepalives never stalls a call: " + client.stalls);

        net.blackout = true;
        net.allowStalls = true;
        long silentFrom = net.now();
        net.runFor(4 * S);
        assertTrue(!client.stalls.isEmpty(), "the unanswered keepalive stalls the call");
        long first = client.stalls.get(0) - silentFrom;
        assertTrue(first <= KEEPALIVE + STALL + 5 * MS && first >= STALL, "first stall " + first / 1e6 + " ms");
        for (int i = 1; i < client.stalls.size(); i++) {
            assertEquals(KEEPALIVE, client.stalls.get(i) - client.stalls.get(i - 1), 2 * MS, "stall interval");
        }
        assertTrue(server.stalls.isEmpty(), "server calls never stall");
    }
}
