// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every async call form ends its call the same way when the caller ends the returned future first: {@code orTimeout}
 * aborts the call with RX_CALL_TIMEOUT (−3), {@code cancel} and {@code completeOnTimeout} with RX_USER_ABORT (−6), and
 * the server's handler sees that ABORT (docs/embedding.md "Cancellation and deadlines"). Over loopback sockets; the
 * caller ends the future only once the server's handler has the call (a latch), so the server always sees it.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CallerEndsTest {
    static final int SERVICE = 4100;
    /** Holds the call until it ends and records how. */
    static final int OP_HOLD = 1;

    RxEndpoint server;
    RxEndpoint client;
    final BlockingQueue<Boolean> started = new LinkedBlockingQueue<>();
    final BlockingQueue<String> serverSaw = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_HOLD, (call, op) -> {
                    started.add(true);
                    try {
                        call.completion().join();
                        serverSaw.add("ok");
                    } catch (CompletionException e) {
                        RxException rx = (RxException) e.getCause();
                        serverSaw.add((rx.remote() ? "remote:" : "local:") + rx.code());
                    }
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static byte[] op(int op) {
        return new byte[] {(byte) (op >>> 24), (byte) (op >>> 16), (byte) (op >>> 8), (byte) op};
    }

    /** Starts a call of one form, waits until the server's handler has it, ends it as {@code end} says. */
    private <T> CompletableFuture<T> endOnceStarted(CompletableFuture<T> call,
                                                    Function<CompletableFuture<T>, CompletableFuture<T>> end)
            throws InterruptedException {
        assertTrue(started.poll(20, TimeUnit.SECONDS) != null, "the server handler never started");
        return end.apply(call);
    }

    private String serverOutcome() throws InterruptedException {
        String s = serverSaw.poll(20, TimeUnit.SECONDS);
        assertTrue(s != null, "the server handler never saw the call end");
        return s;
    }

    private void assertTimesOut(CompletableFuture<?> call) throws InterruptedException {
        CompletableFuture<?> f = endOnceStarted(call, c -> c.orTimeout(1, TimeUnit.MILLISECONDS));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof TimeoutException, e.getCause().toString());
        assertEquals("remote:-3", serverOutcome());
    }

    private <T> void assertCompletesOnTimeout(CompletableFuture<T> call, T value) throws Exception {
        CompletableFuture<T> f = endOnceStarted(call, c -> c.completeOnTimeout(value, 1, TimeUnit.MILLISECONDS));
        assertEquals(value, f.get(20, TimeUnit.SECONDS));
        assertEquals("remote:-6", serverOutcome());
    }

    private void assertCancels(CompletableFuture<?> call) throws Exception {
        endOnceStarted(call, c -> {
            c.cancel(true);
            return c;
        });
        assertEquals("remote:-6", serverOutcome());
    }

    private RxConnection connect() {
        return client.connect(server.localAddress(), SERVICE);
    }

    private RxConnectionPool pool() {
        return RxConnectionPool.open(client, server.localAddress(), SERVICE);
    }

    @Test
    void rawConnectionCall() throws Exception {
        RxConnection c = connect();
        assertTimesOut(c.callAsync(op(OP_HOLD)));
        assertCompletesOnTimeout(c.callAsync(op(OP_HOLD)), new byte[0]);
        assertCancels(c.callAsync(op(OP_HOLD)));
    }

    @Test
    void typedConnectionCall() throws Exception {
        RxConnection c = connect();
        assertTimesOut(c.callAsync(OP_HOLD, w -> { }, XdrReader::readInt));
        assertTimesOut(c.callAsync(OP_HOLD, w -> { }, XdrReader::readInt,
                RxCallOptions.timeout(Duration.ofMinutes(5))));
        assertCompletesOnTimeout(c.callAsync(OP_HOLD, w -> { }, XdrReader::readInt), 7);
        assertCancels(c.callAsync(OP_HOLD, w -> { }, XdrReader::readInt));
    }

    @Test
    void rawPoolCall() throws Exception {
        try (RxConnectionPool p = pool()) {
            assertTimesOut(p.callAsync(op(OP_HOLD)));
            assertCompletesOnTimeout(p.callAsync(op(OP_HOLD)), new byte[0]);
            assertCancels(p.callAsync(op(OP_HOLD)));
        }
    }

    @Test
    void typedPoolCall() throws Exception {
        try (RxConnectionPool p = pool()) {
            assertTimesOut(p.callAsync(OP_HOLD, w -> { }, XdrReader::readInt));
            assertTimesOut(p.callAsync(OP_HOLD, w -> { }, XdrReader::readInt,
                    RxCallOptions.timeout(Duration.ofMinutes(5))));
            assertCompletesOnTimeout(p.callAsync(OP_HOLD, w -> { }, XdrReader::readInt), 7);
            assertCancels(p.callAsync(OP_HOLD, w -> { }, XdrReader::readInt));
        }
    }

    /** A call cut by its connection's close ends with −6, reason CONNECTION_CLOSED; a later call is refused (−2). */
    @Test
    void closingTheConnectionSaysSo() throws Exception {
        RxConnection c = connect();
        CompletableFuture<byte[]> running = c.callAsync(op(OP_HOLD));
        assertTrue(started.poll(20, TimeUnit.SECONDS) != null, "the server handler never started");
        c.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(20, TimeUnit.SECONDS));
        RxException cut = (RxException) e.getCause();
        assertEquals(RxCodes.RX_USER_ABORT, cut.code());
        assertEquals(RxException.Reason.CONNECTION_CLOSED, cut.reason(), cut.getMessage());
        assertEquals("remote:-6", serverOutcome());
        RxException refused = assertThrows(RxException.class, () -> c.call(op(OP_HOLD)));
        assertEquals(RxCodes.RX_INVALID_OPERATION, refused.code());
        assertEquals(RxException.Reason.CONNECTION_CLOSED, refused.reason(), refused.getMessage());
    }
}
