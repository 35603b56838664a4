// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.S;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.RecordingApps.CallRecord;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;

/**
 * A call listener that throws (CallListener's contract): the engine counts it, aborts that call with
 * RX_INVALID_OPERATION so that its end reaches both sides, and delivers every other call's events as usual.
 */
class ListenerFailureTest {
    private static final int SVC = 147;

    /** Answers each request with 8 bytes, except that the listener of the call numbered {@code failing} throws on data. */
    private static final class Service implements ServiceHandler {
        final List<CallRecord> records = new ArrayList<>();
        final SimNetwork net;
        final int failing;

        Service(SimNetwork net, int failing) {
            this.net = net;
            this.failing = failing;
        }

        @Override
        public void onNewCall(Call call) {
            boolean fails = records.size() == failing;
            CallRecord r = new CallRecord(net::now) {
                @Override
                public void onData(Call c, ByteBuf b, long now) {
                    super.onData(c, b, now); // releases b
                    if (fails) {
                        throw new IllegalStateException("listener bug");
                    }
                }

                @Override
                public void onReadComplete(Call c, long now) {
                    if (!c.isDone()) {
                        c.write(now, io.netty.buffer.Unpooled.buffer(8).writeZero(8));
                        c.finishSending(now);
                    }
                }
            };
            records.add(r);
            call.setListener(r);
        }
    }

    @Test
    void aThrowingListenerAbortsItsOwnCallOnlyAndIsCounted() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 7);
        Service service = new Service(net, 1);
        net.server().engine.registerService(SVC, 0, service);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        Client[] clients = new Client[3];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = new Client(net::now, 100);
            clients[i].start(net.client().engine, conn);
        }
        assertTrue(net.runUntil(() -> List.of(clients).stream().allMatch(c -> c.completed), 5 * S),
                "every client call ends: none waits for a listener that failed");
        assertEquals(0, clients[0].code);
        assertEquals(AbortCodes.RX_INVALID_OPERATION, clients[1].code, "the failing call's ABORT reached the client");
        assertEquals(0, clients[2].code);
        assertEquals(1, service.records.get(1).completions, "the failing listener was told its call's end");
        assertEquals(AbortCodes.RX_INVALID_OPERATION, service.records.get(1).code);
        assertEquals(1L, net.server().engine.totals().get(RxCounter.LISTENER_FAILURES));
        assertEquals(0L, net.client().engine.totals().get(RxCounter.LISTENER_FAILURES));
    }

    @Test
    void aListenerThatThrowsOnItsCallsEndStillLetsTheNextCallsRun() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 8);
        net.server().engine.registerService(SVC, 0, new Service(net, -1));
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        Client throwing = new Client(net::now, 10) {
            @Override
            public void onComplete(Call c, int errorCode) {
                super.onComplete(c, errorCode);
                throw new IllegalStateException("listener bug at the end");
            }
        };
        Client other = new Client(net::now, 10);
        Call first = throwing.start(net.client().engine, conn);
        other.start(net.client().engine, conn);
        assertTrue(net.runUntil(() -> throwing.completed && other.completed, 5 * S));
        assertEquals(0, other.code);
        assertEquals(1, throwing.completions);
        assertNotSame(throwing, first.listener(), "a done call lets go of its listener even when it threw");
        Client next = new Client(net::now, 10);
        next.start(net.client().engine, conn);
        assertTrue(net.runUntil(() -> next.completed, 5 * S));
        assertEquals(0, next.code);
        assertEquals(1L, net.client().engine.totals().get(RxCounter.LISTENER_FAILURES));
    }
}
