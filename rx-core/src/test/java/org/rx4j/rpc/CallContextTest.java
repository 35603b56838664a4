// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;

/**
 * A call's context (docs/embedding.md "Cancellation") as handlers see it over loopback: the endpoint's close cancels
 * a blocked handler through it (reason ENDPOINT_CLOSING, no interrupt), an async handler's request carries it, a call
 * that completes is never cancelled, and a listener added after the cancel runs at once. Assertions are on what the
 * handlers recorded, never on elapsed time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CallContextTest {
    static final int SERVICE = 4300;
    /** Blocks until its context is cancelled, then records how. */
    static final int OP_WAIT_FOR_CANCEL = 1;
    /** Async: never completes by itself; records its context's cancel. */
    static final int OP_ASYNC_WAIT = 2;
    /** Replies at once; records whether its context was cancelled after the call ended. */
    static final int OP_QUICK = 3;

    final BlockingQueue<String> handlerSaw = new LinkedBlockingQueue<>();
    final CountDownLatch started = new CountDownLatch(1);
    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_WAIT_FOR_CANCEL, (call, op) -> {
                    RxCallContext ctx = call.context();
                    CountDownLatch cancelled = new CountDownLatch(1);
                    ctx.onCancel(cancelled::countDown);
                    started.countDown();
                    boolean woke = cancelled.await(20, TimeUnit.SECONDS);
                    handlerSaw.add("woke=" + woke + " code=" + ctx.cancelCode() + " reason=" + ctx.cancelReason()
                            + " interrupted=" + Thread.currentThread().isInterrupted());
                    ctx.onCancel(() -> handlerSaw.add("late listener ran at once"));
                })
                .async(OP_ASYNC_WAIT, req -> {
                    CompletableFuture<byte[]> f = new CompletableFuture<>();
                    req.context().onCancel(() -> {
                        handlerSaw.add("async cancelled " + req.context().cancelCode() + " "
                                + req.context().cancelReason());
                        f.cancel(false); // stops the work; the call has ended already
                    });
                    started.countDown();
                    return f;
                })
                .blocking(OP_QUICK, (call, op) -> {
                    call.output().write(1);
                    call.output().close();
                    call.completion().whenComplete((v, t) -> handlerSaw.add("quick cancelled="
                            + call.context().isCancelled()));
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service).open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private String next() throws InterruptedException {
        String s = handlerSaw.poll(20, TimeUnit.SECONDS);
        assertTrue(s != null, "the handler recorded nothing");
        return s;
    }

    @Test
    void closingTheServerCancelsABlockedHandlerThroughItsContext() throws Exception {
        RxCall call = client.connect(server.localAddress(), SERVICE).newCall();
        call.output().write(new byte[] {0, 0, 0, OP_WAIT_FOR_CANCEL});
        call.output().flush();
        assertTrue(started.await(20, TimeUnit.SECONDS), "the handler never started");
        server.close(0);
        // close returned: it waited for the handler, which left through its context, not an interrupt
        assertEquals("woke=true code=" + RxCodes.RX_USER_ABORT + " reason=ENDPOINT_CLOSING interrupted=false",
                handlerSaw.poll());
        assertEquals("late listener ran at once", handlerSaw.poll());
        // The client's call ends with the server's ABORT; waited for, so close() finds it ended (a close racing the
        // ABORT's arrival would throw it instead).
        RxException cut = assertThrows(RxException.class, call::awaitCompletion);
        assertEquals(RxCodes.RX_USER_ABORT, cut.code());
        call.close();
    }

    @Test
    void anAsyncHandlerHearsTheClientsCancelThroughItsRequest() throws Exception {
        CompletableFuture<byte[]> f = client.connect(server.localAddress(), SERVICE)
                .callAsync(new byte[] {0, 0, 0, OP_ASYNC_WAIT});
        assertTrue(started.await(20, TimeUnit.SECONDS), "the handler never started");
        f.cancel(false);
        assertEquals("async cancelled " + RxCodes.RX_USER_ABORT + " PEER", next());
    }

    @Test
    void aBlockedHandlerCancelledByTheClientsAbortSaysPeer() throws Exception {
        RxCall call = client.connect(server.localAddress(), SERVICE).newCall();
        call.output().write(new byte[] {0, 0, 0, OP_WAIT_FOR_CANCEL});
        call.output().flush();
        assertTrue(started.await(20, TimeUnit.SECONDS), "the handler never started");
        call.cancel();
        assertEquals("woke=true code=" + RxCodes.RX_USER_ABORT + " reason=PEER interrupted=false", next());
        assertTrue(call.context().isCancelled());
        assertEquals(RxException.Reason.OTHER, call.context().cancelReason(), "the client cancelled it itself");
        call.close();
    }

    @Test
    void aCompletedCallIsNeverCancelled() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        assertEquals(1, conn.call(new byte[] {0, 0, 0, OP_QUICK}).length);
        assertEquals("quick cancelled=false", next());
        RxCall call = conn.newCall();
        call.cancel();
        assertTrue(call.completion().handle((v, t) -> t != null).join());
        assertTrue(call.context().isCancelled(), "the client side's context too");
        assertFalse(call.context().cancelReason() == RxException.Reason.ENDPOINT_CLOSING);
        call.close();
    }
}
