// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stream.CallTracker;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;
import org.rx4j.wire.AbortCodes;

/**
 * Graceful close with calls in flight, over real loopback sockets: new calls are refused, calls that finish
 * within the grace period succeed, the rest are aborted with RX_USER_ABORT (−6) on both sides, and every
 * buffer is released (the leak check runs after both endpoints closed), including the staged reply of a call
 * the application never closed (which stays readable from a heap copy).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class GracefulCloseTest {
    static final int SERVICE = 600;
    /** Waits for the test's go, then replies "done". */
    static final int OP_FINISH = 1;
    /** Never replies; records how the call ended. */
    static final int OP_STUCK = 2;
    /** Async handler whose stage never completes. */
    static final int OP_ASYNC_STUCK = 3;
    /** Replies 200 kB at once. */
    static final int OP_BIG = 4;
    static final long GRACE_MS = 3000;
    private final ManualClock serverClock = new ManualClock();

    RxEndpoint server;
    RxEndpoint client;
    RxConnection conn;
    CountDownLatch started;
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch stuckStarted = new CountDownLatch(1);
    final BlockingQueue<String> serverSaw = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws Exception {
        started = new CountDownLatch(3);
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_FINISH, (call, op) -> {
                    started.countDown();
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                    call.output().write("done".getBytes(StandardCharsets.US_ASCII));
                })
                .blocking(OP_STUCK, (call, op) -> {
                    started.countDown();
                    stuckStarted.countDown();
                    try {
                        call.completion().join();
                        serverSaw.add("ok");
                    } catch (CompletionException e) {
                        RxException rx = (RxException) e.getCause();
                        serverSaw.add((rx.remote() ? "remote:" : "local:") + rx.code());
                    }
                })
                .async(OP_ASYNC_STUCK, req -> {
                    started.countDown();
                    return new CompletableFuture<>();
                })
                .blocking(OP_BIG, (call, op) -> call.output().write(new byte[200_000]))
                .build();
        // The server runs on a manual clock: its grace period ends when the test says so, never because the machine
        // was slow (the engine needs no timer on this loss-free loopback path).
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).clock(serverClock).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        conn = client.connect(server.localAddress(), SERVICE);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static byte[] op(int op) {
        return new byte[] {0, 0, 0, (byte) op};
    }

    private static RxException failure(CompletableFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RxException.class, e.getCause());
    }

    @Test
    void serverCloseRefusesNewCallsLetsCallsFinishAndAbortsTheRest() throws Exception {
        CompletableFuture<byte[]> finishing = conn.callAsync(op(OP_FINISH));
        CompletableFuture<byte[]> stuck = conn.callAsync(op(OP_STUCK));
        CompletableFuture<byte[]> asyncStuck = conn.callAsync(op(OP_ASYNC_STUCK));
        assertTrue(started.await(20, TimeUnit.SECONDS), "all three calls are in flight");

        // Its own thread: close() blocks, and the common pool may have only one.
        CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> server.close(GRACE_MS),
                r -> new Thread(r, "closer").start());
        while (!server.isClosing()) {
            Thread.onSpinWait();
        }
        RxException refused = failure(client.connect(server.localAddress(), SERVICE).callAsync(op(OP_FINISH)));
        assertEquals(AbortCodes.RX_USER_ABORT, refused.code(), "a call arriving while closing is refused");
        assertTrue(refused.remote());
        assertFalse(closing.isDone(), "close waits for the calls in flight");

        release.countDown();
        assertArrayEquals("done".getBytes(StandardCharsets.US_ASCII), finishing.get(30, TimeUnit.SECONDS),
                "a call that finishes within the grace period succeeds");
        assertFalse(closing.isDone(), "close still waits for the stuck calls within the grace period");
        serverClock.advance(Duration.ofMillis(GRACE_MS + 1));

        closing.get(30, TimeUnit.SECONDS);
        RxException e1 = failure(stuck);
        assertEquals(AbortCodes.RX_USER_ABORT, e1.code());
        assertTrue(e1.remote());
        RxException e2 = failure(asyncStuck);
        assertEquals(AbortCodes.RX_USER_ABORT, e2.code());
        assertTrue(e2.remote());
        assertEquals("local:-6", serverSaw.poll(20, TimeUnit.SECONDS), "the server aborted its own call");
        assertThrows(IllegalStateException.class, () -> server.registerService(RxService.builder(9).build()));
    }

    @Test
    void clientCloseAbortsItsCallsAndReleasesWhatTheApplicationLeftOpen() throws Exception {
        RxCall unread = conn.newCall();
        unread.output().write(op(OP_BIG));
        unread.output().close();
        unread.awaitCompletion(); // the whole reply is staged in the call, never read, never closed

        RxCall stuck = conn.newCall();
        stuck.output().write(op(OP_STUCK));
        stuck.output().flush();
        assertTrue(stuckStarted.await(20, TimeUnit.SECONDS));

        client.close(200);
        RxException e = assertThrows(RxException.class, () -> stuck.input().read());
        assertEquals(AbortCodes.RX_USER_ABORT, e.code());
        assertFalse(e.remote());
        assertEquals("remote:-6", serverSaw.poll(20, TimeUnit.SECONDS));
        // Graceful: the reply that arrived before the close stays readable (copied off the pool, so the leak check
        // still sees every pooled buffer released), and closing the call after reading it to its end never throws.
        assertEquals(200_000, unread.input().readAllBytes().length, "the unread reply survives the endpoint's close");
        unread.close();
        assertEquals(RxException.Reason.ENDPOINT_CLOSING, e.reason());
        assertThrows(RxException.class, conn::newCall);
        assertThrows(IllegalStateException.class, () -> client.connect(server.localAddress(), SERVICE));
        client.close(); // idempotent
    }

    @Test
    void theCloseCountsHandlersAndCallsInTheRightNumber() {
        CallTracker t = new CallTracker();
        t.callStarted();
        t.handlerQueued();
        assertEquals("1 call and 1 handler", t.running());
        assertEquals("1 handler still running 1000 ms after its call was cancelled; interrupting it",
                t.handlersStillRunning(1000));
        t.callStarted();
        t.handlerQueued();
        assertEquals("2 calls and 2 handlers", t.running());
        assertEquals("2 handlers still running 1000 ms after their calls were cancelled; interrupting them",
                t.handlersStillRunning(1000));
    }

    /**
     * After the grace period, close waits a tenth of it (50 ms to 1 s) for handlers that ignore their cancellation,
     * not a fixed second: close(1000) with a busy handler returns after about 1.1 s, not 2 s.
     */
    @Test
    void theWaitForHandlersAfterTheGraceScalesWithIt() {
        assertEquals(100, RxEndpoint.handlerExitWaitMs(1000));
        assertEquals(200, RxEndpoint.handlerExitWaitMs(2000));
        assertEquals(50, RxEndpoint.handlerExitWaitMs(0));
        assertEquals(1000, RxEndpoint.handlerExitWaitMs(60_000));
    }
}
