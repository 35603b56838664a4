// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.transport.EngineChannel.MS;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The engine handler in an {@code EmbeddedChannel} with frozen time: datagrams in, encoded datagrams out, timers
 * fired by advancing the loop's ticker (deterministic: a virtual clock, no sockets).
 */
@ExtendWith(LeakCheckExtension.class)
class EngineHandlerTest {
    private static final int SVC = 147;

    /** Client-side listener that reads and drops whatever arrives and records how the call ended. */
    static class Drain implements CallListener {
        final List<Integer> ended = new ArrayList<>();
        final EngineChannel ch;

        Drain(EngineChannel ch) {
            this.ch = ch;
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
            ended.add(errorCode);
        }
    }

    private static List<DataPacket> data(List<RxPacket> packets) {
        List<DataPacket> d = new ArrayList<>();
        for (RxPacket p : packets) {
            if (p instanceof DataPacket dp) {
                d.add(dp);
            }
        }
        return d;
    }

    private static List<AckPacket> acks(List<RxPacket> packets, int reason) {
        List<AckPacket> a = new ArrayList<>();
        for (RxPacket p : packets) {
            if (p instanceof AckPacket ap && ap.reason() == reason) {
                a.add(ap);
            }
        }
        return a;
    }

    @Test
    void clientDataIsWrittenAndResentWhenTheTimerFiresAfterTheRto() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            ch.handler.run(e -> {
                Connection conn = e.connect(EngineChannel.PEER, SVC, 0);
                Call call = e.newCall(ch.now(), conn, new Drain(ch));
                call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
                call.finishSending(ch.now());
            });
            List<DataPacket> first = data(ch.sent());
            assertEquals(1, first.size(), "the request went out, flushed once the task ended");
            RxHeader h = first.get(0).header();
            assertEquals(1, h.seq());
            assertTrue(h.isClientInitiated() && h.hasFlag(PacketFlags.LAST_PACKET), h.toString());

            // No answer. Well inside the initial RTO (OpenAFS: 3 s initial RTT) nothing is resent ...
            ch.advance(1000 * MS);
            assertTrue(data(ch.sent()).isEmpty(), "resent before the RTO");
            // ... and once the loop's clock passes the RTO, the engine timer fires and resends seq 1.
            List<DataPacket> resent = new ArrayList<>();
            long waited = 1000 * MS;
            while (resent.isEmpty() && waited < 20_000 * MS) {
                ch.advance(100 * MS);
                waited += 100 * MS;
                resent = data(ch.sent());
            }
            assertFalse(resent.isEmpty(), "no resend within 20 s of virtual time");
            RxHeader r = resent.get(0).header();
            assertEquals(h.seq(), r.seq());
            assertEquals(h.callNumber(), r.callNumber());
            assertEquals(h.cid(), r.cid());
            assertTrue(r.serial() > h.serial(), "a resend carries a new serial");
            assertEquals(0, ch.handler.timerFailures());
        }
    }

    @Test
    void aTaskThatReadsTheLastPacketOfAReplyEndsTheCallBeforeTheNextDatagramOrTick() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            Call[] call = new Call[1];
            Drain reader = new Drain(ch) {
                @Override
                public boolean wantsData(Call c) {
                    return false; // as a blocking reader whose inbox is full: the reply stays in the call
                }
            };
            ch.handler.run(e -> {
                Connection conn = e.connect(EngineChannel.PEER, SVC, 0);
                call[0] = e.newCall(ch.now(), conn, reader);
                call[0].write(ch.now(), Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
                call[0].finishSending(ch.now());
            });
            RxHeader request = data(ch.sent()).get(0).header();
            RxHeader reply = new RxHeader(request.epoch(), request.cid(), request.callNumber(), 1, 1,
                    PacketType.DATA, PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            ch.receive(EngineChannel.data(reply, new byte[] {7, 8}));
            assertTrue(reader.ended.isEmpty(), "the reply waits in the call for its reader");

            // The application's reader pulls the reply out in a task of its own, outside any datagram or tick.
            ch.handler.run(e -> {
                io.netty.buffer.ByteBuf b;
                while ((b = call[0].read(ch.now())) != null) {
                    b.release();
                }
            });
            assertEquals(List.of(0), reader.ended, "the call's end is told when the task ends, not at the next tick");
        }
    }

    @Test
    void serverChecksReachabilityWithAPingBeforeStartingTheCall() {
        List<Call> started = new ArrayList<>();
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> {
                started.add(call);
                call.setListener(new Drain(ch));
                call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {9}));
                call.finishSending(ch.now());
            }));
            int epoch = 0x80000123;
            int cid = 0x400;
            RxHeader request = new RxHeader(epoch, cid, 1, 1, 1, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            // 20 bytes: a request smaller than the PING (46 bytes bare) waits for more bytes from its peer.
            ch.receive(EngineChannel.data(request, new byte[20]));

            List<AckPacket> pings = acks(ch.sent(), AckReason.PING);
            assertEquals(1, pings.size(), "a new peer is pinged first");
            AckPacket ping = pings.get(0);
            assertTrue(ping.header().hasFlag(PacketFlags.REQUEST_ACK));
            assertTrue(started.isEmpty(), "the call waits for the PING_RESPONSE");

            RxHeader ah = new RxHeader(epoch, cid, 1, 0, 2, PacketType.ACK,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.SLOW_START_OK, 0, 0, 0, SVC);
            ch.receive(AckPacket.of(ah, 1, 1, ping.header().serial(), AckReason.PING_RESPONSE, new byte[0],
                    1444, 1444, 32, 1));
            assertEquals(1, started.size(), "the PING_RESPONSE proved the peer reachable");
            List<DataPacket> reply = data(ch.sent());
            assertEquals(1, reply.size(), "the handler's reply went out: " + reply);
            RxHeader rh = reply.get(0).header();
            assertFalse(rh.isClientInitiated());
            assertTrue(rh.hasFlag(PacketFlags.LAST_PACKET));
            assertEquals(1, rh.callNumber());
            assertEquals(2, ch.decoder.datagramsReceived());
            assertEquals(0, ch.decoder.malformedDatagrams());
        }
    }

    @Test
    void theOutputOfAReadBurstIsFlushedOnce() {
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (EngineChannel ch = new EngineChannel(config)) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new Drain(ch))));
            int before = ch.flushes.flushes;
            RxHeader h1 = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK, 0, 0, 0, SVC);
            RxHeader h2 = new RxHeader(0x80000001, 0x100, 1, 2, 2, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK | PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            ch.receiveBurst(EngineChannel.data(h1, new byte[1412]), EngineChannel.data(h2, new byte[5]));
            List<AckPacket> requested = acks(ch.sent(), AckReason.REQUESTED);
            assertEquals(2, requested.size(), "each REQUEST_ACK was answered");
            assertEquals(before + 1, ch.flushes.flushes, "two datagrams out, one flush for the burst");
        }
    }

    /**
     * Replies handed over from inside the engine's callback (as the rpc layer's async handlers do through the
     * transport's execute) run at once but leave the flush to the read burst: two calls answered in one burst go out
     * in one flush, not one flush (one sendto) per reply.
     */
    @Test
    void repliesHandedOverInsideAReadBurstLeaveInOneFlush() {
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (EngineChannel ch = new EngineChannel(config)) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new Drain(ch) {
                @Override
                public void onReadComplete(Call c, long now) {
                    ch.handler.run(en -> {
                        c.write(now, Unpooled.copiedBuffer(new byte[] {7, 7, 7, 7}));
                        c.finishSending(now);
                    });
                }
            })));
            int before = ch.flushes.flushes;
            RxHeader h1 = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            RxHeader h2 = new RxHeader(0x80000001, 0x101, 1, 1, 2, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            ch.receiveBurst(EngineChannel.data(h1, new byte[4]), EngineChannel.data(h2, new byte[4]));
            List<DataPacket> replies = data(ch.sent());
            assertEquals(2, replies.size(), "both calls were answered: " + replies);
            assertEquals(before + 1, ch.flushes.flushes, "two replies, one flush for the burst");
            assertEquals(0L, ch.handler.taskFailures());
        }
    }

    /**
     * Tasks handed to the loop one after another (the completions of a read burst's calls, each starting the next call)
     * flush once, at the end of the loop's iteration, not once each: three requests, one flush.
     */
    @Test
    void theTasksOfOneLoopIterationFlushOnceAtItsEnd() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            List<Runnable> tail = new ArrayList<>();
            ch.handler.endOfIteration(tail::add);
            List<Connection> conn = new ArrayList<>();
            ch.handler.run(e -> conn.add(e.connect(EngineChannel.PEER, SVC, 0)));
            tail.forEach(Runnable::run);
            tail.clear();
            int before = ch.flushes.flushes;
            for (int i = 0; i < 3; i++) {
                ch.handler.run(e -> {
                    Call call = e.newCall(ch.now(), conn.get(0), new Drain(ch));
                    call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {1, 2, 3, 4}));
                    call.finishSending(ch.now());
                });
            }
            assertEquals(before, ch.flushes.flushes, "nothing flushed before the iteration ends");
            assertEquals(1, tail.size(), "one end-of-iteration flush queued for the three tasks");
            tail.forEach(Runnable::run);
            assertEquals(before + 1, ch.flushes.flushes, "three requests, one flush");
            assertEquals(3, data(ch.sent()).size());
        }
    }

    /**
     * A completion handed over while the reply's datagram is handled (an application's callback on the loop, as
     * {@code RxTransport.loopCallbacks()} hands it over) runs once the engine has returned from that datagram, not
     * inside the call's completion, with no loop task; the call it starts leaves in the read's one flush.
     */
    @Test
    void aCompletionHandedOverInsideAReadRunsAtItsEndAndItsNextCallLeavesInTheReadsFlush() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            List<Runnable> tail = new ArrayList<>();
            ch.handler.endOfIteration(tail::add);
            List<String> order = new ArrayList<>();
            Connection[] conn = new Connection[1];
            ch.handler.run(e -> {
                conn[0] = e.connect(EngineChannel.PEER, SVC, 0);
                Call call = e.newCall(ch.now(), conn[0], new Drain(ch) {
                    @Override
                    public void onComplete(Call c, int errorCode) {
                        order.add("completed " + errorCode);
                        assertTrue(ch.handler.runAtUnitEnd(() -> {
                            order.add("callback");
                            ch.handler.run(en -> {
                                Call next = en.newCall(ch.now(), conn[0], new Drain(ch));
                                next.write(ch.now(), Unpooled.copiedBuffer(new byte[] {5, 6, 7, 8}));
                                next.finishSending(ch.now());
                            });
                        }), "a unit is running");
                        order.add("completion returned");
                    }
                });
                call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {1, 2, 3, 4}));
                call.finishSending(ch.now());
            });
            tail.forEach(Runnable::run);
            tail.clear();
            RxHeader request = data(ch.sent()).get(0).header();
            int before = ch.flushes.flushes;

            RxHeader reply = new RxHeader(request.epoch(), request.cid(), request.callNumber(), 1, 1,
                    PacketType.DATA, PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            ch.receiveBurst(EngineChannel.data(reply, new byte[] {9, 9, 9, 9}));

            assertEquals(List.of("completed 0", "completion returned", "callback"), order);
            assertTrue(tail.isEmpty(), "no end-of-iteration flush: the read's own flush carried the next call");
            assertEquals(before + 1, ch.flushes.flushes, "one flush for the read");
            List<DataPacket> next = data(ch.sent());
            assertEquals(1, next.size(), "the next call's request left with the read: " + next);
            assertEquals(request.callNumber() + 1, next.get(0).header().callNumber());
            assertFalse(ch.handler.runAtUnitEnd(() -> order.add("outside")), "outside a unit nothing is queued");
            assertEquals(0L, ch.handler.taskFailures());
        }
    }

    /**
     * One unit queues at most {@link EngineHandler#UNIT_TAIL_MAX} callbacks at its end (the rest go to the loop's task
     * queue): a chain of completions that each start a call refused at once cannot hold the loop inside one unit. The
     * next unit queues again.
     */
    @Test
    void aUnitsTailIsBounded() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            int[] queued = new int[1];
            int[] ran = new int[1];
            Runnable again = new Runnable() {
                @Override
                public void run() {
                    ran[0]++;
                    if (ch.handler.runAtUnitEnd(this)) { // as a completion that starts a call refused at once
                        queued[0]++;
                    }
                }
            };
            ch.handler.run(e -> {
                if (ch.handler.runAtUnitEnd(again)) {
                    queued[0]++;
                }
            });
            assertEquals(EngineHandler.UNIT_TAIL_MAX, queued[0], "queued at the unit's end, then refused");
            assertEquals(EngineHandler.UNIT_TAIL_MAX, ran[0], "the unit ended after running them");
            ch.handler.run(e -> assertTrue(ch.handler.runAtUnitEnd(() -> ran[0]++), "a new unit queues again"));
            assertEquals(EngineHandler.UNIT_TAIL_MAX + 1, ran[0]);
        }
    }

    /** A callback that throws at a unit's end is counted as a task failure; the ones after it still run. */
    @Test
    void aThrowingCallbackAtAUnitsEndIsCountedAndTheRestRun() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            List<String> ran = new ArrayList<>();
            ch.handler.run(e -> {
                ch.handler.runAtUnitEnd(() -> {
                    throw new IllegalStateException("application callback failed");
                });
                ch.handler.runAtUnitEnd(() -> ran.add("second"));
            });
            assertEquals(List.of("second"), ran);
            assertEquals(1L, ch.handler.taskFailures());
        }
    }

    /**
     * A long read burst (a window read by recvmmsg) is flushed every {@link EngineHandler#FLUSH_EVERY} datagrams:
     * the ACKs for its first packets leave before the rest is read, so the sender is not left waiting a whole burst.
     */
    @Test
    void aLongReadBurstIsFlushedEveryFewDatagrams() {
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (EngineChannel ch = new EngineChannel(config)) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new Drain(ch))));
            int before = ch.flushes.flushes;
            int n = 2 * EngineHandler.FLUSH_EVERY;
            ch.receiveBurst(requestAckBurst(n));
            assertEquals(n, acks(ch.sent(), AckReason.REQUESTED).size(), "each REQUEST_ACK was answered");
            assertEquals(before + 2, ch.flushes.flushes, "one flush per " + EngineHandler.FLUSH_EVERY + " datagrams");
        }
    }

    /** @return DATA packets 1..n of one call, each asking for an ACK, the last one LAST_PACKET */
    private static DataPacket[] requestAckBurst(int n) {
        DataPacket[] burst = new DataPacket[n];
        for (int i = 0; i < n; i++) {
            int flags = PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK
                    | (i == n - 1 ? PacketFlags.LAST_PACKET : 0);
            RxHeader h = new RxHeader(0x80000001, 0x100, 1, i + 1, i + 1, PacketType.DATA, flags, 0, 0, 0, SVC);
            burst[i] = EngineChannel.data(h, new byte[i == n - 1 ? 5 : 1412]);
        }
        return burst;
    }

    /**
     * With GRO a read burst is one read already in memory: its ACKs are flushed once, at its end, where equal-size
     * ones can leave as one GSO send.
     */
    @Test
    void withGroAReadBurstIsFlushedOnceAtItsEnd() {
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (EngineChannel ch = new EngineChannel(config, null, Integer.MAX_VALUE)) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new Drain(ch))));
            int before = ch.flushes.flushes;
            int n = 3 * EngineHandler.FLUSH_EVERY;
            ch.receiveBurst(requestAckBurst(n));
            assertEquals(n, acks(ch.sent(), AckReason.REQUESTED).size(), "each REQUEST_ACK was answered");
            assertEquals(before + 1, ch.flushes.flushes, "one flush for the whole burst");
        }
    }

    @Test
    void theAfterWorkHookRunsOncePerReadBurstAndTaskBeforeTheFlush() {
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (EngineChannel ch = new EngineChannel(config)) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new Drain(ch))));
            List<Integer> flushesSeenByHook = new ArrayList<>();
            ch.handler.afterWorkHook(() -> flushesSeenByHook.add(ch.flushes.flushes));
            int before = ch.flushes.flushes;
            RxHeader h1 = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK, 0, 0, 0, SVC);
            RxHeader h2 = new RxHeader(0x80000001, 0x100, 1, 2, 2, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK | PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            ch.receiveBurst(EngineChannel.data(h1, new byte[1412]), EngineChannel.data(h2, new byte[5]));
            assertEquals(List.of(before), flushesSeenByHook, "one run for the burst of two, before its flush");
            assertEquals(before + 1, ch.flushes.flushes);
            ch.handler.run(e -> { });
            assertEquals(2, flushesSeenByHook.size(), "and one per handed-over task");
            ch.handler.afterWorkHook(() -> {
                throw new IllegalStateException("a failing hook");
            });
            ch.handler.run(e -> { });
            assertEquals(1, ch.handler.taskFailures(), "a throwing hook counts as a task failure");
        }
    }

    @Test
    void aThrowingTaskIsCountedAsATaskFailureNotAsMalformed() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            ch.handler.run(e -> {
                throw new IllegalStateException("a failing task");
            });
            assertEquals(1, ch.handler.taskFailures());
            assertEquals(0, ch.decoder.malformedDatagrams());
            assertEquals(0, ch.handler.datagramFailures());
            assertEquals(0, ch.handler.timerFailures());
            // The loop goes on: a later task runs.
            boolean[] ran = {false};
            ch.handler.run(e -> ran[0] = true);
            assertTrue(ran[0]);
            assertEquals(1, ch.handler.taskFailures());
        }
    }

    @Test
    void aThrowingTimerIsCountedAsATimerFailure() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            ch.handler.run(e -> {
                Connection conn = e.connect(EngineChannel.PEER, SVC, 0);
                Call call = e.newCall(ch.now(), conn, new Drain(ch));
                call.setDeadline(ch.now(), ch.now() + 100 * MS);
            });
            ch.advance(50 * MS);
            assertEquals(0, ch.handler.timerFailures(), "the deadline is not due yet");
            ch.sink.failures = 1; // the deadline's ABORT then throws inside the timer's run
            ch.advance(60 * MS);
            assertEquals(1, ch.handler.timerFailures(), "the deadline's abort ran on the timer and threw");
            assertEquals(0L, ch.handler.taskFailures());
            assertEquals(0, ch.decoder.malformedDatagrams());
            ch.sent();
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // without the fix the loop never ends
    void aCallWhoseAbortCannotBeSentStillEndsOnce() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            Drain listener = new Drain(ch);
            ch.handler.run(e -> {
                Connection conn = e.connect(EngineChannel.PEER, SVC, 0);
                Call call = e.newCall(ch.now(), conn, listener);
                call.setDeadline(ch.now(), ch.now() + 100 * MS);
            });
            ch.sink.failures = Integer.MAX_VALUE; // every send throws from here on
            ch.advance(110 * MS);
            assertEquals(1, ch.handler.timerFailures(), "the deadline's abort threw once, and the call ended");
            assertEquals(List.of(-3), listener.ended);
            ch.sink.failures = 0;
            ch.sent();
        }
    }

    @Test
    void aListenerThrowingOnTheTimersAbortIsCountedByTheEngineNotAsATimerFailure() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            Drain throwing = new Drain(ch) {
                @Override
                public void onComplete(Call c, int errorCode) {
                    super.onComplete(c, errorCode);
                    throw new IllegalStateException("a listener failing on the timer's abort");
                }
            };
            ch.handler.run(e -> {
                Connection conn = e.connect(EngineChannel.PEER, SVC, 0);
                Call call = e.newCall(ch.now(), conn, throwing);
                call.setDeadline(ch.now(), ch.now() + 100 * MS);
            });
            ch.advance(110 * MS);
            assertEquals(List.of(-3), throwing.ended, "the listener was told RX_CALL_TIMEOUT");
            assertEquals(0, ch.handler.timerFailures(), "the engine caught the listener's failure");
            long[] listenerFailures = {-1};
            ch.handler.run(e -> listenerFailures[0] = e.totals().get(RxCounter.LISTENER_FAILURES));
            assertEquals(1L, listenerFailures[0]);
            ch.sent();
        }
    }

    @Test
    void packetsTheEngineTookAreNotReleasedAgainWhenItThrows() {
        // Moved here from a real-socket test: the engine keeps the packets it was handed, also when it then throws
        // on the loop; the handler counts an engine failure and releases nothing.
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (EngineChannel ch = new EngineChannel(config)) {
            ch.handler.run(e -> e.registerService(SVC, 0, call -> call.setListener(new Drain(ch))));
            // The client asks for an ACK at once: the engine sends it while it handles the datagram, and the sink throws.
            RxHeader h = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET | PacketFlags.REQUEST_ACK, 0, 0, 0, SVC);
            ch.sink.failures = 1;
            ch.receive(EngineChannel.data(h, new byte[10]));
            assertEquals(1, ch.decoder.datagramsReceived());
            assertEquals(1, ch.handler.datagramFailures(), "the engine threw on the datagram");
            assertEquals(0, ch.decoder.malformedDatagrams(), "an engine failure is not a malformed datagram");
            int[] conns = {-1};
            ch.handler.run(e -> conns[0] = e.serverConnections().size());
            assertEquals(1, conns[0], "the call was created");
            // close() shuts the engine down: the call still holds the request packet and releases it once.
        }
    }

    @Test
    void otherMessagesAreReleasedAndSocketErrorsCounted() {
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            ByteBuf stray = Unpooled.buffer(4).writeInt(1);
            ch.channel.pipeline().fireChannelRead(stray);
            assertEquals(0, stray.refCnt(), "a message the engine handler cannot use is released");
            ch.channel.pipeline().fireExceptionCaught(new java.net.PortUnreachableException("icmp"));
            assertEquals(1, ch.handler.socketErrors());
            assertEquals(0, ch.decoder.malformedDatagrams());
            assertNotNull(ch.channel.pipeline().get(EngineHandler.class));
        }
    }
}
