// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

/**
 * Graceful close with a slow reader and many async calls alongside (a regression test: a client endpoint's
 * close(5000) returned early and failed a reader with −6 while half a megabyte of its reply had arrived).
 * Graceful means: close waits for the calls in flight for the whole grace period, measured on the endpoint's
 * (manual) clock; a reader gets every byte that arrived before the grace period ended, then −6; and
 * {@code call.close()} after a complete read never throws. Both endpoint roles.
 */
@Timeout(120)
@ExtendWith(LeakCheckExtension.class)
class GracefulCloseSlowReaderTest {
    static final int SERVICE = 610;
    /** Echoes the request back as it streams in. */
    static final int OP_ECHO = 1;
    /** Replies 4 bytes when the test says so. */
    static final int OP_SMALL = 2;
    /** Server role: the handler reads the request slowly (the test paces it). */
    static final int OP_SLOW_SINK = 3;
    static final int ECHO_BYTES = 8 << 20;
    static final int ASYNC_CALLS = 200;
    static final long GRACE_MS = 5000;

    final ManualClock clientClock = new ManualClock();
    final ManualClock serverClock = new ManualClock();
    /** Completes when the async calls may reply. */
    final CompletableFuture<Void> smallGo = new CompletableFuture<>();
    final CountDownLatch smallStarted = new CountDownLatch(ASYNC_CALLS);
    final java.util.concurrent.Semaphore sinkPace = new java.util.concurrent.Semaphore(0);
    final AtomicLong sinkRead = new AtomicLong();
    final AtomicReference<Throwable> sinkEnd = new AtomicReference<>();
    final CountDownLatch sinkDone = new CountDownLatch(1);
    RxEndpoint server;
    RxEndpoint client;

    /**
     * @param clientOnManualClock true for the client-role tests; the server-role test's client runs on the real clock
     *     (its ACK timers must fire while the server's clock stands still)
     */
    void open(boolean clientOnManualClock) throws IOException {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_ECHO, (call, op) -> call.output().write(call.input().readAllBytes()))
                .async(OP_SMALL, req -> {
                    smallStarted.countDown();
                    return smallGo.thenApply(x -> new byte[] {1, 2, 3, 4});
                })
                .blocking(OP_SLOW_SINK, (call, op) -> {
                    byte[] buf = new byte[64 * 1024];
                    try {
                        while (true) {
                            sinkPace.acquire();
                            int n = call.input().read(buf);
                            if (n < 0) {
                                break;
                            }
                            sinkRead.addAndGet(n);
                        }
                        call.output().write(new byte[] {9});
                        sinkEnd.set(new Exception("ok"));
                    } catch (IOException | InterruptedException e) {
                        sinkEnd.set(e);
                    } finally {
                        sinkDone.countDown();
                    }
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).clock(serverClock)
                .service(service).open();
        RxEndpoint.Builder cb = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0));
        client = (clientOnManualClock ? cb.clock(clientClock) : cb).open();
    }

    @AfterEach
    void stop() {
        sinkPace.release(1_000_000);
        smallGo.complete(null);
        if (client != null) {
            client.close(0);
        }
        if (server != null) {
            server.close(0);
        }
    }

    private static byte[] op(int op) {
        return new byte[] {0, 0, 0, (byte) op};
    }

    /** Starts ASYNC_CALLS calls on ASYNC_CALLS / 4 connections and waits until the server runs every one. */
    private List<CompletableFuture<byte[]>> manyAsync() throws InterruptedException {
        List<CompletableFuture<byte[]>> all = new ArrayList<>();
        for (int c = 0; c < ASYNC_CALLS / 4; c++) {
            RxConnection conn = client.connect(server.localAddress(), SERVICE);
            for (int i = 0; i < 4; i++) {
                all.add(conn.callAsync(op(OP_SMALL)));
            }
        }
        assertTrue(smallStarted.await(60, TimeUnit.SECONDS), "every async call is in flight");
        return all;
    }

    private static CompletableFuture<Void> closeOnThread(RxEndpoint e, long graceMs) {
        return CompletableFuture.runAsync(() -> e.close(graceMs), r -> new Thread(r, "closer").start());
    }

    /** Writes the whole echo request (the server reads all of it, then replies). */
    private static void writeRequest(RxCall call, int bytes) throws IOException {
        OutputStream out = call.output();
        out.write(op(OP_ECHO));
        byte[] block = new byte[64 * 1024];
        for (int sent = 0; sent < bytes; sent += block.length) {
            out.write(block, 0, Math.min(block.length, bytes - sent));
        }
        out.close();
    }

    /** Reads up to n bytes (fewer at end of stream). */
    private static long read(InputStream in, long n) throws IOException {
        byte[] buf = new byte[16 * 1024];
        long got = 0;
        while (got < n) {
            int k = in.read(buf, 0, (int) Math.min(buf.length, n - got));
            if (k < 0) {
                break;
            }
            got += k;
        }
        return got;
    }

    @Test
    void clientCloseWaitsForASlowReaderThatFinishesWithinTheGracePeriod() throws Exception {
        open(true);
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        List<CompletableFuture<byte[]>> async = manyAsync();
        RxCall echo = conn.newCall();
        writeRequest(echo, ECHO_BYTES);
        long got = read(echo.input(), 1 << 20); // the echo is flowing
        assertEquals(1 << 20, got);

        CompletableFuture<Void> closing = closeOnThread(client, GRACE_MS);
        while (!client.isClosing()) {
            Thread.onSpinWait();
        }
        clientClock.advance(Duration.ofMillis(GRACE_MS - 1)); // real time passes too: only this clock counts
        smallGo.complete(null);
        for (CompletableFuture<byte[]> f : async) {
            assertEquals(4, f.get(60, TimeUnit.SECONDS).length, "an async call finishing in the grace period");
        }
        assertFalse(closing.isDone(), "close waits for the slow reader within the grace period");
        got += read(echo.input(), Long.MAX_VALUE);
        assertEquals(ECHO_BYTES, got, "the slow reader got the whole reply");
        echo.close(); // never throws after a complete read
        closing.get(60, TimeUnit.SECONDS);
    }

    @Test
    void clientCloseAfterTheGracePeriodLetsTheReaderDrainWhatArrived() throws Exception {
        open(true);
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        List<CompletableFuture<byte[]>> async = manyAsync();
        RxCall echo = conn.newCall();
        writeRequest(echo, ECHO_BYTES);
        long got = read(echo.input(), 1 << 20);
        // The reader stops; the loop keeps at least half of CallStreams.INBOX_LIMIT staged for it.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hang guard, not a timing assertion
        while (echo.input().available() < CallStreams.INBOX_LIMIT / 2 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        int staged = echo.input().available();
        assertTrue(staged >= CallStreams.INBOX_LIMIT / 2, "staged " + staged);

        CompletableFuture<Void> closing = closeOnThread(client, GRACE_MS);
        while (!client.isClosing()) {
            Thread.onSpinWait();
        }
        assertFalse(closing.isDone());
        clientClock.advance(Duration.ofMillis(GRACE_MS + 1));
        closing.get(60, TimeUnit.SECONDS);

        // Everything staged before the grace period ended is still readable; then the call's −6.
        byte[] buf = new byte[16 * 1024];
        long after = 0;
        RxException end = null;
        try {
            while (true) {
                int k = echo.input().read(buf);
                assertTrue(k >= 0, "an aborted call never reads as a clean end of stream");
                after += k;
            }
        } catch (RxException e) {
            end = e;
        }
        assertTrue(after >= staged, "read " + after + " of " + staged + " staged bytes after close");
        assertEquals(RxCodes.RX_USER_ABORT, end.code());
        assertEquals(RxException.Reason.ENDPOINT_CLOSING, end.reason());
        assertTrue(got + after < ECHO_BYTES);
        echo.close(); // quietly: the failure was reported by read
        for (CompletableFuture<byte[]> f : async) {
            java.util.concurrent.ExecutionException x = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
            RxException rx = org.junit.jupiter.api.Assertions.assertInstanceOf(RxException.class, x.getCause());
            assertEquals(RxCodes.RX_USER_ABORT, rx.code(), "unfinished async calls fail when the grace period ends");
        }
    }

    @Test
    void serverCloseWaitsForASlowReadingHandlerThenItGetsWhatArrived() throws Exception {
        open(false);
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        List<CompletableFuture<byte[]>> async = manyAsync();
        RxCall sink = conn.newCall();
        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
            try {
                sink.output().write(op(OP_SLOW_SINK));
                byte[] block = new byte[64 * 1024];
                for (int i = 0; i < 32; i++) {
                    sink.output().write(block);
                }
                sink.output().close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> new Thread(r, "writer").start());
        sinkPace.release(4);
        while (sinkRead.get() == 0) {
            Thread.onSpinWait();
        }
        CompletableFuture<Void> closing = closeOnThread(server, GRACE_MS);
        while (!server.isClosing()) {
            Thread.onSpinWait();
        }
        serverClock.advance(Duration.ofMillis(GRACE_MS - 1));
        smallGo.complete(null);
        for (CompletableFuture<byte[]> f : async) {
            assertEquals(4, f.get(60, TimeUnit.SECONDS).length, "an async call finishing in the grace period");
        }
        assertFalse(closing.isDone(), "close waits for the slow handler within the grace period");
        sinkPace.release(1_000_000);
        assertTrue(sinkDone.await(60, TimeUnit.SECONDS));
        assertEquals("ok", sinkEnd.get().getMessage());
        assertEquals(32L * 64 * 1024, sinkRead.get());
        writing.get(60, TimeUnit.SECONDS);
        assertEquals(1, read(sink.input(), 10));
        sink.close();
        closing.get(60, TimeUnit.SECONDS);
    }
}
