// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.DebugReplies;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * A client's cancel reaches a server handler through its call's context (docs/embedding.md "Cancellation") before the
 * server sends anything more for that call. Both endpoints run on {@link ManualClock}s that never move, so no timer
 * (delayed ACK, retransmission, deadline) can send a packet; what the server sends is recorded by a tap on its
 * engine's packet sink, on the server's event loop, the same thread that cancels the handler's context, so the
 * recorded events are in the order they happened. The assertions are on that order, never on elapsed time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CancellationOrderTest {
    static final int SERVICE = 4100;
    /** Sends part of a reply, then blocks on a latch that only its context's cancel listener opens. */
    static final int OP_BLOCK_ELSEWHERE = 1;
    /** Sends part of a reply, then blocks reading a request the client never ends. */
    static final int OP_BLOCK_IN_READ = 2;

    final ManualClock serverClock = new ManualClock();
    final ManualClock clientClock = new ManualClock();
    /** Server loop and handler thread events, in order. */
    final List<String> events = new ArrayList<>();
    final CountDownLatch started = new CountDownLatch(1);
    /** Opened by the tap once the server sent a DATA packet: the partial reply is on the wire. */
    final CountDownLatch dataSent = new CountDownLatch(1);
    final CountDownLatch handlerDone = new CountDownLatch(1);
    RxEndpoint server;
    RxEndpoint client;

    private void event(String e) {
        synchronized (events) {
            events.add(e);
        }
    }

    private List<String> events() {
        synchronized (events) {
            return new ArrayList<>(events);
        }
    }

    /** Records every DATA and ACK packet of a call the server sends, then hands it on. */
    private PacketSink tap(PacketSink sink) {
        return new PacketSink() {
            @Override
            public void send(InetSocketAddress peer, RxPacket packet) {
                note(packet);
                sink.send(peer, packet);
            }

            @Override
            public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
                packets.forEach(this::note);
                sink.sendJumbogram(peer, packets);
            }

            private void note(RxPacket p) {
                int type = p.header().type();
                if ((type == PacketType.DATA || type == PacketType.ACK) && p.header().callNumber() != 0) {
                    event("server sent " + (type == PacketType.DATA ? "DATA" : "ACK") + " of call "
                            + p.header().callNumber());
                    if (type == PacketType.DATA) {
                        dataSent.countDown();
                    }
                }
            }

            @Override
            public boolean encodesOnSend() {
                return sink.encodesOnSend();
            }

            @Override
            public int routeMtu(InetSocketAddress peer) {
                return sink.routeMtu(peer);
            }

            @Override
            public int receiveBufferBytes() {
                return sink.receiveBufferBytes();
            }

            @Override
            public void debugReplyWithheld(InetSocketAddress querier, DebugReplies policy, long withheld) {
                sink.debugReplyWithheld(querier, policy, withheld);
            }
        };
    }

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_BLOCK_ELSEWHERE, (call, op) -> {
                    CountDownLatch cancelled = new CountDownLatch(1);
                    call.context().onCancel(() -> {
                        event("handler context cancelled " + call.context().cancelCode());
                        cancelled.countDown();
                    });
                    replyPartly(call);
                    assertTrue(cancelled.await(20, TimeUnit.SECONDS)); // "blocked": only the cancel opens it
                    event("handler woke, cancelled=" + call.context().isCancelled());
                    tryToWriteMore(call);
                })
                .blocking(OP_BLOCK_IN_READ, (call, op) -> {
                    call.context().onCancel(() -> event("handler context cancelled " + call.context().cancelCode()));
                    replyPartly(call);
                    try {
                        call.input().read();
                        event("handler read returned");
                    } catch (RxException e) {
                        event("handler read failed " + e.code() + (e.remote() ? " remote" : " local"));
                    }
                    tryToWriteMore(call);
                })
                .build();
        server = RxEndpoint.builder().clock(serverClock).bind(new InetSocketAddress("127.0.0.1", 0))
                .sinkTap(this::tap).service(service).open();
        client = RxEndpoint.builder().clock(clientClock).probeUnreachable(false)
                .bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    private void replyPartly(RxCall call) throws Exception {
        call.output().write(new byte[100]);
        call.output().flush();
        event("handler flushed part of its reply");
        started.countDown();
    }

    private void tryToWriteMore(RxCall call) {
        try {
            call.output().write(new byte[5000]);
            call.output().flush();
            event("handler wrote more");
        } catch (java.io.IOException e) {
            event("handler write failed " + (e instanceof RxException rx ? rx.code() : e.toString()));
        } finally {
            handlerDone.countDown();
        }
    }

    @AfterEach
    void stop() {
        client.close(0); // the clocks stand still: a grace period would never pass
        server.close(0);
    }

    /**
     * Runs {@code op} on the server, cancels it from the client once the handler has sent part of its reply, waits
     * until the handler returned and the server's loop ran everything queued before, and gives the events.
     */
    private List<String> cancelOnceStarted(int op) throws Exception {
        RxCall call = client.connect(server.localAddress(), SERVICE).newCall();
        call.output().write(new byte[] {0, 0, 0, (byte) op});
        call.output().flush(); // the request stays open: the server's read of it blocks
        assertTrue(started.await(20, TimeUnit.SECONDS), "the handler never started");
        // the cancel follows the partial reply on the wire (else the server's loop may read the ABORT first)
        assertTrue(dataSent.await(20, TimeUnit.SECONDS), "the handler's flush sent nothing");
        call.cancel();
        assertTrue(handlerDone.await(20, TimeUnit.SECONDS), "the handler never returned");
        server.runtime().transport.submit(engine -> null).join(); // loop work queued by the handler has run
        call.close();
        return events();
    }

    /** Asserts that the server sent DATA before the cancel and nothing of the call after it. */
    private static void assertNothingSentAfterCancel(List<String> ev) {
        int cancelled = ev.indexOf("handler context cancelled " + RxCodes.RX_USER_ABORT);
        assertTrue(cancelled > 0, "the handler's context saw the cancel: " + ev);
        assertTrue(ev.subList(0, cancelled).stream().anyMatch(e -> e.startsWith("server sent DATA")),
                "the partial reply went out before the cancel (the tap records): " + ev);
        assertFalse(ev.subList(cancelled, ev.size()).stream().anyMatch(e -> e.startsWith("server sent")),
                "nothing of the call was sent after the handler's context was cancelled: " + ev);
        assertEquals("handler write failed " + RxCodes.RX_USER_ABORT, ev.get(ev.size() - 1), ev.toString());
    }

    @Test
    void aHandlerBlockedElsewhereSeesTheCancelBeforeTheServerSendsMore() throws Exception {
        List<String> ev = cancelOnceStarted(OP_BLOCK_ELSEWHERE);
        assertNothingSentAfterCancel(ev);
        int cancelled = ev.indexOf("handler context cancelled " + RxCodes.RX_USER_ABORT);
        assertEquals(cancelled + 1, ev.indexOf("handler woke, cancelled=true"), ev.toString());
    }

    @Test
    void aHandlerBlockedInAReadSeesTheCancelThenItsReadFailsWithTheCode() throws Exception {
        List<String> ev = cancelOnceStarted(OP_BLOCK_IN_READ);
        assertNothingSentAfterCancel(ev);
        // the reader wakes at the end of the loop's work, after the listener (or, spuriously, at any time)
        assertTrue(ev.contains("handler read failed " + RxCodes.RX_USER_ABORT + " remote"), ev.toString());
    }
}
