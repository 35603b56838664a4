// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.slf4j.Logger;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An async call's future always completes, whatever fails around it: an application's callback executor that refuses
 * the completion ({@link RxEndpoint.Builder#callbackExecutor}), by rejecting it or with any other exception (the
 * completion then runs on the event loop), or a failure while the call ends (the future then fails with
 * RX_INVALID_OPERATION and that failure as its cause).
 */
@Timeout(60)
class AsyncFutureCompletesTest {
    static final int SERVICE = 4717;
    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .service(RxService.builder(SERVICE)
                        .async(1, req -> CompletableFuture.completedFuture(new byte[] {5, 6}))
                        .build())
                .open();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close(0);
        }
        server.close(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rejects", "throws"})
    void aRefusedCompletionRunsOnTheLoopInstead(String how) throws Exception {
        Executor refusing = r -> {
            if (how.equals("rejects")) {
                throw new RejectedExecutionException("shut down");
            }
            throw new IllegalStateException("closed");
        };
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).callbackExecutor(refusing).open();
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        assertArrayEquals(new byte[] {5, 6}, conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS));
    }

    @Test
    void aFailureWhileTheCallEndsFailsTheFutureInsteadOfLeavingItWaiting() throws Exception {
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        // A call log whose every line throws: the client writes its line while the call ends, before the future.
        client.runtime().callLog = (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(),
                new Class<?>[] {Logger.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("is")) {
                        return true;
                    }
                    if (method.getName().equals("getName")) {
                        return "throwing";
                    }
                    throw new IllegalStateException("log line refused");
                });
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS));
        RxException rx = assertInstanceOf(RxException.class, e.getCause());
        assertEquals(RxCodes.RX_INVALID_OPERATION, rx.code());
        assertInstanceOf(IllegalStateException.class, rx.getCause());
    }
}
