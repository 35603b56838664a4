// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.CaptureLogger;
import org.rx4j.testing.LeakCheckExtension;
import org.slf4j.event.Level;

/**
 * A call cut by its endpoint's close ends with one reason everywhere, whatever the handler's form and in every run
 * (docs/errors.md "Local reasons"): on the server that closes, a blocking and an async handler's calls both end with
 * RX_USER_ABORT (−6), reason ENDPOINT_CLOSING, in their contexts and in the call log; on the client that closes, the
 * blocking and the async call both throw ENDPOINT_CLOSING and log it. Ordered by latches, not by time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CloseReasonTest {
    private static final int SERVICE = 4242;

    /** Two handlers that take their calls and never answer: opcode 1 blocking, opcode 2 async. */
    private static final class Holding {
        final CountDownLatch bothRunning = new CountDownLatch(2);
        final CompletableFuture<RxCallContext> blockingContext = new CompletableFuture<>();
        final CompletableFuture<RxCallContext> asyncContext = new CompletableFuture<>();

        RxService service() {
            return RxService.builder(SERVICE).blocking(1, (call, op) -> {
                blockingContext.complete(call.context());
                bothRunning.countDown();
                CountDownLatch cancelled = new CountDownLatch(1);
                call.context().onCancel(cancelled::countDown);
                cancelled.await();
            }).async(2, req -> {
                asyncContext.complete(req.context());
                bothRunning.countDown();
                return new CompletableFuture<>();
            }).build();
        }
    }

    private static RxEndpoint.Builder loopback() {
        return RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    private static RxException failure(CompletableFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RxException.class, e.getCause());
    }

    private static CompletableFuture<Void> blockingCall(RxConnection conn, int opcode) {
        return CompletableFuture.runAsync(() -> {
            try {
                conn.call(new byte[] {0, 0, 0, (byte) opcode});
            } catch (java.io.IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    @Test
    void theServersCloseEndsBlockingAndAsyncHandlersWithTheSameReason() throws Exception {
        for (int run = 0; run < 5; run++) {
            Holding h = new Holding();
            CaptureLogger serverLog = new CaptureLogger(null);
            try (RxEndpoint client = loopback().open()) {
                RxEndpoint server = loopback().service(h.service()).open();
                server.runtime().callLog = serverLog;
                RxConnection conn = client.connect(server.localAddress(), SERVICE);
                CompletableFuture<Void> blocking = blockingCall(conn, 1);
                CompletableFuture<byte[]> async = conn.callAsync(new byte[] {0, 0, 0, 2});
                assertTrue(h.bothRunning.await(30, TimeUnit.SECONDS));
                server.close(0);

                assertEquals(RxException.Reason.ENDPOINT_CLOSING, h.blockingContext.get().cancelReason(), "run " + run);
                assertEquals(RxException.Reason.ENDPOINT_CLOSING, h.asyncContext.get().cancelReason(), "run " + run);
                List<String> lines = serverLog.lines(Level.DEBUG);
                assertEquals(2, lines.size(), lines.toString());
                for (String line : lines) {
                    assertTrue(line.contains("code -6 (RX_USER_ABORT, endpoint closing)"), "run " + run + ": " + line);
                }
                // The client learns it from the server's ABORT: the peer's code.
                RxException b = assertInstanceOf(RxException.class,
                        assertThrows(ExecutionException.class, () -> blocking.get(30, TimeUnit.SECONDS)).getCause());
                assertEquals(RxException.Reason.PEER, b.reason());
                assertEquals(RxException.Reason.PEER, failure(async).reason());
            }
        }
    }

    @Test
    void theClientsCloseEndsBlockingAndAsyncCallsWithTheSameReason() throws Exception {
        for (int run = 0; run < 5; run++) {
            Holding h = new Holding();
            CaptureLogger clientLog = new CaptureLogger(null);
            try (RxEndpoint server = loopback().service(h.service()).open()) {
                RxEndpoint client = loopback().open();
                client.runtime().callLog = clientLog;
                RxConnection conn = client.connect(server.localAddress(), SERVICE);
                CompletableFuture<Void> blocking = blockingCall(conn, 1);
                CompletableFuture<byte[]> async = conn.callAsync(new byte[] {0, 0, 0, 2});
                assertTrue(h.bothRunning.await(30, TimeUnit.SECONDS));
                client.close(0);

                RxException b = assertInstanceOf(RxException.class,
                        assertThrows(ExecutionException.class, () -> blocking.get(30, TimeUnit.SECONDS)).getCause());
                RxException a = failure(async);
                for (RxException e : List.of(b, a)) {
                    assertEquals(RxCodes.RX_USER_ABORT, e.code(), e.getMessage());
                    assertFalse(e.remote());
                    assertEquals(RxException.Reason.ENDPOINT_CLOSING, e.reason(), "run " + run + ": " + e.getMessage());
                }
                List<String> lines = clientLog.lines(Level.DEBUG);
                assertEquals(2, lines.size(), lines.toString());
                for (String line : lines) {
                    assertTrue(line.contains("code -6 (RX_USER_ABORT, endpoint closing)"), "run " + run + ": " + line);
                }
            }
        }
    }
}
