// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.CaptureLogger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When every worker is busy and the queue is full, a new call is aborted with the busy code (rx-wire-facts.md §7). */
@Timeout(60)
class WorkerPoolBusyTest {
    @Test
    void callsBeyondWorkersAndQueueAreAbortedWithTheBusyCode() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .workers(1, 1).maxQueuedCalls(1).busyAbortCode(4711).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            CaptureLogger log = new CaptureLogger(null);
            server.runtime().callLog = log;
            server.registerService(RxService.builder(147).wholeStream(call -> {
                byte[] req = call.input().readAllBytes();
                started.countDown();
                release.await(30, TimeUnit.SECONDS);
                call.output().write(req);
            }).build());
            RxConnection conn = client.connect(server.localAddress(), 147);
            // Own threads: the common pool has one thread on a 2-core machine, and the first call blocks it.
            ExecutorService callers = Executors.newFixedThreadPool(2);
            CompletableFuture<byte[]> first = CompletableFuture.supplyAsync(() -> call(conn, 1), callers);
            assertTrue(started.await(10, TimeUnit.SECONDS));
            CompletableFuture<byte[]> queued = CompletableFuture.supplyAsync(() -> call(conn, 2), callers);
            // Wait (bounded) until the server has started the second call, so it sits in the queue.
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.stats().get("callsStarted") < 2 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertEquals(2L, server.stats().get("callsStarted"));
            RxException busy = assertThrows(RxException.class, () -> conn.call(new byte[] {3}));
            assertEquals(4711, busy.code());
            assertTrue(busy.remote());
            release.countDown();
            assertArrayEquals(new byte[] {1}, first.get(10, TimeUnit.SECONDS));
            assertArrayEquals(new byte[] {2}, queued.get(10, TimeUnit.SECONDS));
            callers.shutdown();
            // The busy refusal has its call-log line like every call end (docs/embedding.md "Call logs").
            log.lineWith("server 147 from ", " code 4711 (error 4711) in ");
            assertTrue(log.lineWith("server 147 from ", " refused, the service's workers and queue are full: code 4711"
                    + " (error 4711)").endsWith("(error 4711)"));
        }
    }

    private static byte[] call(RxConnection conn, int b) {
        try {
            return conn.call(new byte[] {(byte) b});
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
