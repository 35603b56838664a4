// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-call cancellation from each side and per-call deadlines over real loopback sockets: the side that
 * acts sees a local {@link RxException}, the other side a remote one with the same code (RX_USER_ABORT −6
 * for a cancel, RX_CALL_TIMEOUT −3 for a deadline). What each server handler saw is recorded as
 * "remote:code" / "local:code". Assertions are on codes, never on elapsed time.
 *
 * <p>A client-side deadline must pass only after the server handler has the call (else the server may never see
 * the call, and "what the server saw" is a race against a loaded machine): those tests run their client on a
 * {@link ManualClock}, wait until the handler started, and only then move the clock past the deadline. The
 * {@link Timeout} only guards against a hang.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CancelAndDeadlineTest {
    static final int SERVICE = 4000;
    /** Waits until the call ends and records how. */
    static final int OP_HOLD = 1;
    /** Sends part of a reply, then cancels the call itself. */
    static final int OP_SERVER_CANCEL = 2;
    /** Sets a 300 ms deadline on the server call, then waits for its end. */
    static final int OP_SERVER_DEADLINE = 3;
    /** An async handler whose stage is cancelled. */
    static final int OP_ASYNC_CANCEL = 4;
    /** Replies at once. */
    static final int OP_QUICK = 5;

    RxEndpoint server;
    RxEndpoint client;
    /** A client whose clock stands still until a test moves it; opened by {@link #clockedConnect()}. */
    RxEndpoint clockedClient;
    final ManualClock clock = new ManualClock();
    /** One permit each time an OP_HOLD handler starts. */
    final Semaphore started = new Semaphore(0);
    final BlockingQueue<String> serverSaw = new LinkedBlockingQueue<>();

    private void awaitEnd(RxCall call) {
        try {
            call.completion().join();
            serverSaw.add("ok");
        } catch (CompletionException e) {
            RxException rx = (RxException) e.getCause();
            serverSaw.add((rx.remote() ? "remote:" : "local:") + rx.code());
        }
    }

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_HOLD, (call, op) -> {
                    started.release();
                    awaitEnd(call);
                })
                .blocking(OP_SERVER_CANCEL, (call, op) -> {
                    call.output().write(new byte[10_000]);
                    call.output().flush();
                    call.cancel();
                    awaitEnd(call);
                })
                .blocking(OP_SERVER_DEADLINE, (call, op) -> {
                    call.setDeadline(Duration.ofMillis(300));
                    awaitEnd(call);
                })
                .async(OP_ASYNC_CANCEL, req -> {
                    CompletableFuture<byte[]> f = new CompletableFuture<>();
                    f.cancel(false);
                    return f;
                })
                .async(OP_QUICK, req -> CompletableFuture.completedFuture(new byte[] {42}))
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        if (clockedClient != null) {
            clockedClient.close(0); // its clock stands still: a grace period would never pass
        }
        client.close();
        server.close();
    }

    private RxConnection connect() {
        return client.connect(server.localAddress(), SERVICE);
    }

    /** @return a connection from a client endpoint on {@link #clock} */
    private RxConnection clockedConnect() throws Exception {
        clockedClient = RxEndpoint.builder().clock(clock).bind(new InetSocketAddress("127.0.0.1", 0)).open();
        return clockedClient.connect(server.localAddress(), SERVICE);
    }

    /** Waits until the server handler has the call, then moves the client's clock past any deadline set so far. */
    private void passDeadlineOnceServerHasTheCall() throws InterruptedException {
        assertTrue(started.tryAcquire(20, TimeUnit.SECONDS), "the server handler never started");
        clock.advance(Duration.ofSeconds(1));
    }

    private static byte[] op(int op) {
        return new byte[] {(byte) (op >>> 24), (byte) (op >>> 16), (byte) (op >>> 8), (byte) op};
    }

    private String nextServerOutcome() throws InterruptedException {
        String s = serverSaw.poll(20, TimeUnit.SECONDS);
        assertTrue(s != null, "the server handler never saw the call end");
        return s;
    }

    @Test
    void clientCancelsAStreamingCall() throws Exception {
        RxCall call = connect().newCall();
        call.output().write(op(OP_HOLD));
        call.output().write(new byte[5000]);
        call.output().flush();
        assertTrue(started.tryAcquire(20, TimeUnit.SECONDS));
        call.cancel();
        RxException e = assertThrows(RxException.class, () -> call.input().read());
        assertEquals(RxCodes.RX_USER_ABORT, e.code());
        assertFalse(e.remote());
        assertEquals("remote:-6", nextServerOutcome());
        call.close(); // an aborted call closes quietly
        ExecutionException done = assertThrows(ExecutionException.class, () -> call.completion().get());
        assertEquals(RxCodes.RX_USER_ABORT, ((RxException) done.getCause()).code());
    }

    @Test
    void clientCancelsAnAsyncCallByCancellingItsFuture() throws Exception {
        CompletableFuture<byte[]> f = connect().callAsync(op(OP_HOLD));
        assertTrue(started.tryAcquire(20, TimeUnit.SECONDS));
        assertTrue(f.cancel(true));
        assertThrows(CancellationException.class, f::join);
        assertEquals("remote:-6", nextServerOutcome());
    }

    @Test
    void serverCancelsItsCall() throws Exception {
        RxConnection conn = connect();
        RxCall call = conn.newCall();
        call.output().write(op(OP_SERVER_CANCEL));
        RxException e = assertThrows(RxException.class, () -> call.input().readAllBytes());
        assertEquals(RxCodes.RX_USER_ABORT, e.code());
        assertTrue(e.remote());
        assertEquals("local:-6", nextServerOutcome());
        call.close();
        assertArrayEquals(new byte[] {42}, conn.call(op(OP_QUICK)), "the connection still works");
    }

    @Test
    void asyncHandlerCancellingItsStageAbortsWithUserAbort() {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> connect().callAsync(op(OP_ASYNC_CANCEL)).get(20, TimeUnit.SECONDS));
        RxException rx = assertInstanceOf(RxException.class, e.getCause());
        assertEquals(RxCodes.RX_USER_ABORT, rx.code());
        assertTrue(rx.remote());
    }

    @Test
    void streamingCallDeadlineFailsWithCallTimeoutOnBothSides() throws Exception {
        RxCall call = clockedConnect().newCall(RxCallOptions.timeout(Duration.ofMillis(300)));
        call.output().write(op(OP_HOLD));
        call.output().flush();
        passDeadlineOnceServerHasTheCall();
        RxException e = assertThrows(RxException.class, () -> call.input().read());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, e.code());
        assertFalse(e.remote());
        assertEquals("remote:-3", nextServerOutcome());
        call.close();
    }

    @Test
    void deadlineSetOnAStartedCallApplies() throws Exception {
        RxCall call = clockedConnect().newCall();
        call.output().write(op(OP_HOLD));
        call.output().flush();
        assertTrue(started.tryAcquire(20, TimeUnit.SECONDS));
        call.setDeadline(clockedClient.now() + TimeUnit.MILLISECONDS.toNanos(200));
        clock.advance(Duration.ofSeconds(1));
        RxException e = assertThrows(RxException.class, call::awaitCompletion);
        assertEquals(RxCodes.RX_CALL_TIMEOUT, e.code());
        assertEquals("remote:-3", nextServerOutcome());
        call.close();
    }

    @Test
    void asyncCallDeadlineFailsWithCallTimeout() throws Exception {
        CompletableFuture<byte[]> f = clockedConnect().callAsync(op(OP_HOLD),
                RxCallOptions.timeout(Duration.ofMillis(300)));
        passDeadlineOnceServerHasTheCall();
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
        RxException rx = assertInstanceOf(RxException.class, e.getCause());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, rx.code());
        assertFalse(rx.remote());
        assertEquals("remote:-3", nextServerOutcome());
    }

    @Test
    void typedCallsTakeADeadline() throws Exception {
        RxConnection conn = clockedConnect();
        CompletableFuture<Integer> f = conn.callAsync(OP_HOLD, w -> { }, org.rx4j.rpc.xdr.XdrReader::readInt,
                RxCallOptions.timeout(Duration.ofMillis(300)));
        passDeadlineOnceServerHasTheCall();
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
        assertEquals(RxCodes.RX_CALL_TIMEOUT, assertInstanceOf(RxException.class, e.getCause()).code());
        assertEquals("remote:-3", nextServerOutcome());
        assertThrows(IllegalArgumentException.class,
                () -> conn.callAsync(OP_HOLD, w -> { }, org.rx4j.rpc.xdr.XdrReader::readInt,
                        RxCallOptions.timeout(Duration.ZERO)));

        // The blocking form on its own thread; the clock passes its 300 ms deadline once the server has the call (the
        // first call's end may still be counted in the connection's active calls, so that count cannot tell).
        CompletableFuture<Integer> blocking = CompletableFuture.supplyAsync(() -> {
            try {
                return conn.call(OP_HOLD, w -> { }, org.rx4j.rpc.xdr.XdrReader::readInt,
                        RxCallOptions.timeout(Duration.ofMillis(300)));
            } catch (java.io.IOException x) {
                throw new CompletionException(x);
            }
        }, r -> new Thread(r, "typed-caller").start());
        passDeadlineOnceServerHasTheCall();
        ExecutionException b = assertThrows(ExecutionException.class, () -> blocking.get(20, TimeUnit.SECONDS));
        assertEquals(RxCodes.RX_CALL_TIMEOUT, assertInstanceOf(RxException.class, b.getCause()).code());
    }

    @Test
    void futureTimeoutAbortsTheCallWithCallTimeout() throws Exception {
        CompletableFuture<byte[]> call = connect().callAsync(op(OP_HOLD));
        assertTrue(started.tryAcquire(20, TimeUnit.SECONDS), "the server handler never started");
        // The timeout starts only now, once the server has the call: it cannot win a race against the request.
        CompletableFuture<byte[]> f = call.orTimeout(300, TimeUnit.MILLISECONDS);
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, e.getCause());
        assertEquals("remote:-3", nextServerOutcome());
    }

    @Test
    void serverCallDeadlineReachesTheClient() {
        RxException e = assertThrows(RxException.class, () -> connect().call(op(OP_SERVER_DEADLINE)));
        assertEquals(RxCodes.RX_CALL_TIMEOUT, e.code());
        assertTrue(e.remote());
    }

    @Test
    void deadlineThatDoesNotPassChangesNothing() throws Exception {
        RxConnection conn = connect();
        try (RxCall call = conn.newCall(RxCallOptions.timeout(Duration.ofSeconds(30)))) {
            call.output().write(op(OP_QUICK));
            assertArrayEquals(new byte[] {42}, call.input().readAllBytes());
        }
        assertArrayEquals(new byte[] {42}, conn.callAsync(op(OP_QUICK),
                RxCallOptions.timeout(Duration.ofSeconds(30))).get(20, TimeUnit.SECONDS));
        assertThrows(IllegalArgumentException.class, () -> conn.newCall(RxCallOptions.timeout(Duration.ZERO)));
    }
}
