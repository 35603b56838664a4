// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.ServiceHandler;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.PacketType;

/**
 * The engine hook for per-call deadlines ({@link Call#setDeadline}) and cancellation of calls that wait for a channel,
 * in virtual time (docs/embedding.md "Cancellation and deadlines").
 */
class CallDeadlineTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SERVICE = 147;

    /** Reads every request and never replies; records how each server call ended. */
    static final class SilentServer implements ServiceHandler {
        final SimNetwork net;
        final List<Integer> ended = new ArrayList<>();
        int started;

        SilentServer(SimNetwork net) {
            this.net = net;
        }

        @Override
        public void onNewCall(Call call) {
            started++;
            call.setListener(new CallListener() {
                @Override
                public void onData(Call c, ByteBuf b, long now) {
                    b.release();
                }

                @Override
                public void onWritable(Call c) {
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                    ended.add(errorCode);
                }
            });
        }
    }

    /** Records a client call's end. */
    static final class Outcome implements CallListener {
        final SimNetwork net;
        boolean done;
        int error = Integer.MIN_VALUE;
        long doneAt;

        Outcome(SimNetwork net) {
            this.net = net;
        }

        @Override
        public void onData(Call c, ByteBuf b, long now) {
            b.release();
        }

        @Override
        public void onWritable(Call c) {
        }

        @Override
        public void onComplete(Call c, int errorCode) {
            done = true;
            error = errorCode;
            doneAt = net.now();
        }
    }

    private static SimNetwork net(long seed) {
        return new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS), LinkModel.delay(MS), seed);
    }

    private static Call request(SimNetwork net, Connection conn, Outcome o, boolean finish) {
        Call call = net.client().engine.newCall(net.now(), conn, o);
        // Two full packets go out at once; the rest waits for more bytes or finishSending.
        call.write(net.now(), Unpooled.wrappedBuffer(new byte[3000]));
        if (finish) {
            call.finishSending(net.now());
        }
        return call;
    }

    @Test
    void deadlineAbortsAnActiveCallWithCallTimeoutAndTellsThePeer() {
        SimNetwork net = net(21);
        SilentServer server = new SilentServer(net);
        net.server().engine.registerService(SERVICE, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SERVICE, 0);
        Outcome o = new Outcome(net);
        Call call = request(net, conn, o, true);
        long deadline = net.now() + 500 * MS;
        call.setDeadline(net.now(), deadline);
        assertEquals(deadline, call.deadline());

        assertTrue(net.runUntil(() -> o.done, 10 * S), "the deadline never fired");
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, o.error);
        assertEquals(deadline, o.doneAt, "fails exactly at its deadline, in virtual time");
        assertFalse(call.isRemoteError());
        net.runFor(100 * MS);
        assertEquals(List.of(AbortCodes.RX_CALL_TIMEOUT), server.ended, "the server call got ABORT -3");
    }

    @Test
    void callWithoutDeadlineOutlivesTheOtherOne() {
        SimNetwork net = net(22);
        SilentServer server = new SilentServer(net);
        net.server().engine.registerService(SERVICE, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SERVICE, 0);
        Outcome timed = new Outcome(net);
        Outcome untimed = new Outcome(net);
        request(net, conn, timed, true).setDeadline(net.now(), net.now() + 300 * MS);
        request(net, conn, untimed, true);
        assertTrue(net.runUntil(() -> timed.done, 10 * S));
        net.runFor(5 * S);
        assertFalse(untimed.done, "a deadline belongs to one call only");
    }

    @Test
    void waitingCallDeadlineFailsItWithoutTouchingTheWire() {
        SimNetwork net = net(23);
        SilentServer server = new SilentServer(net);
        net.server().engine.registerService(SERVICE, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SERVICE, 0);
        List<Outcome> busy = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Outcome o = new Outcome(net);
            busy.add(o);
            request(net, conn, o, false); // never finished: keeps its channel
        }
        Outcome queued = new Outcome(net);
        Call fifth = request(net, conn, queued, true);
        assertEquals(CallState.WAITING, fifth.state());
        fifth.setDeadline(net.now(), net.now() + 200 * MS);

        assertTrue(net.runUntil(() -> queued.done, 10 * S));
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, queued.error);
        assertEquals(0, conn.waitingCalls());
        net.runFor(S);
        assertEquals(0, net.server().engine.totals().get(RxCounter.PACKETS_RECEIVED, PacketType.ABORT), "no ABORT for a call never sent");
        assertEquals(4, server.started);
        assertTrue(server.ended.isEmpty(), "the four active calls are untouched");
        for (Outcome o : busy) {
            assertFalse(o.done);
        }
    }

    @Test
    void cancellingAWaitingCallSendsNoAbortAndFreesItsPlace() {
        SimNetwork net = net(24);
        SilentServer server = new SilentServer(net);
        net.server().engine.registerService(SERVICE, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SERVICE, 0);
        List<Call> active = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            active.add(request(net, conn, new Outcome(net), false));
        }
        Outcome cancelled = new Outcome(net);
        Call fifth = request(net, conn, cancelled, true);
        net.runFor(50 * MS);
        fifth.abort(net.now(), AbortCodes.RX_USER_ABORT);
        assertTrue(cancelled.done, "a waiting call fails at once");
        assertEquals(AbortCodes.RX_USER_ABORT, cancelled.error);
        assertEquals(0, conn.waitingCalls());

        // A channel that frees later goes to the next new call, not to the cancelled one.
        active.get(0).abort(net.now(), AbortCodes.RX_USER_ABORT);
        Outcome next = new Outcome(net);
        Call sixth = request(net, conn, next, true);
        assertEquals(CallState.ACTIVE, sixth.state());
        net.runFor(S);
        assertEquals(1, net.server().engine.totals().get(RxCounter.PACKETS_RECEIVED, PacketType.ABORT),
                "only the active call's ABORT reached the server (no connection abort)");
        assertEquals(List.of(AbortCodes.RX_USER_ABORT), server.ended);
        assertEquals(5, server.started);
    }
}
