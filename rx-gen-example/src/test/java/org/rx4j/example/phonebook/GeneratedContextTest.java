// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.RxRequest;
import org.rx4j.rpc.RxService;
import org.rx4j.security.RxNullSecurityClass;

/**
 * Generated client stubs called from a handler inherit its deadline (docs/embedding.md "Context that flows"): a
 * front handler with a 200 ms deadline looks a name up in a phone book that never answers, through the generated
 * blocking and async stubs, on a connection and on a pool; the lookup fails with −3 and the phone book's call is
 * cancelled with −3. Without inheritance the lookup never ends and the test finds nothing recorded in its 60 s wait.
 */
@Timeout(120)
class GeneratedContextTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final int FRONT = 4399;

    /** A phone book whose lookups never answer; records how each lookup's call was cancelled. */
    private static final class SilentBook implements PbAsyncServer {
        final BlockingQueue<String> saw = new LinkedBlockingQueue<>();

        @Override
        public CompletionStage<Void> add(RxRequest request, PbEntry entry) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Integer> lookup(RxRequest request, String name) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            request.context().onCancel(() -> {
                saw.add("cancelled " + request.context().cancelCode());
                f.cancel(false);
            });
            return f;
        }

        @Override
        public CompletionStage<List<PbEntry>> list(RxRequest request) {
            return CompletableFuture.completedFuture(List.of());
        }
    }

    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void generatedStubsInheritTheHandlersDeadline(int form) throws Exception {
        SilentBook book = new SilentBook();
        BlockingQueue<String> frontSaw = new LinkedBlockingQueue<>();
        try (RxEndpoint s = RxEndpoint.builder().bind(LOOPBACK)
                     .service(PbAsyncDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             book))
                     .open();
             RxEndpoint frontEnd = RxEndpoint.builder().bind(LOOPBACK).open();
             RxEndpoint c = RxEndpoint.builder().bind(LOOPBACK).open();
             RxConnectionPool pool = RxConnectionPool.open(frontEnd, s.localAddress(), PhonebookExample.SERVICE_ID);
             PbClient onConnection = PbClient.connect(frontEnd, s.localAddress(), PhonebookExample.SERVICE_ID,
                     RxNullSecurityClass.INSTANCE)) {
            PbClient onPool = new PbClient(pool);
            frontEnd.registerService(RxService.builder(FRONT).blocking(1, (call, op) -> {
                CountDownLatch ownEnd = new CountDownLatch(1);
                call.context().onCancel(ownEnd::countDown);
                call.setDeadline(Duration.ofMillis(200));
                try {
                    int n = switch (form) {
                        case 0 -> onConnection.lookup("alice");
                        case 1 -> onConnection.lookupAsync("alice").get();
                        case 2 -> onPool.lookup("alice");
                        default -> onPool.lookupAsync("alice").get();
                    };
                    frontSaw.add("value " + n);
                } catch (ExecutionException e) {
                    frontSaw.add("code " + ((RxException) e.getCause()).code());
                } catch (RxException e) {
                    frontSaw.add("code " + e.code());
                }
                // The inherited deadline may fire a few microseconds before the handler's own (it is carried over as
                // the time left, read a moment later): wait for the handler's call to end too, so that its own
                // timeout, not a reply racing it, ends the inbound call.
                ownEnd.await(60, TimeUnit.SECONDS);
            }).build());
            try (RxCall call = c.connect(frontEnd.localAddress(), FRONT)
                    .newCall(RxCallOptions.DEFAULT.withOpcode(1))) {
                call.output().close();
                RxException inbound = assertThrows(RxException.class, call::awaitCompletion);
                assertEquals(RxCodes.RX_CALL_TIMEOUT, inbound.code());
            }
            String front = frontSaw.poll(60, TimeUnit.SECONDS);
            assertNotNull(front, "the front handler recorded nothing");
            assertEquals("code " + RxCodes.RX_CALL_TIMEOUT, front, "the generated stub's call");
            String back = book.saw.poll(60, TimeUnit.SECONDS);
            assertEquals("cancelled " + RxCodes.RX_CALL_TIMEOUT, back, "what the phone book saw");
        }
    }
}
