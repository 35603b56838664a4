// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * docs/robustness.md, Rule: busy channels and workers: one overloaded service does not starve another on the same
 * endpoint. Each
 * service's blocking handlers use at most the workers less one per other service; the rest of its calls wait in its
 * own queue. Live loopback; asserts counts and outcomes only.
 */
@Timeout(60)
class ServiceShareTest {
    @Test
    void aServiceWhoseHandlersBlockLeavesAWorkerForAnotherService() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger slowRunning = new AtomicInteger();
        // Own threads: the common pool has one thread on a 2-core machine, and a blocked call would hold it.
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .workers(0, 2).maxQueuedCalls(10).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            server.registerService(RxService.builder(147).wholeStream(call -> {
                byte[] req = call.input().readAllBytes();
                slowRunning.incrementAndGet();
                release.await(30, TimeUnit.SECONDS);
                call.output().write(req);
            }).build());
            server.registerService(RxService.builder(148)
                    .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
            RxConnection slow = client.connect(server.localAddress(), 147);
            List<CompletableFuture<byte[]>> stuck = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int b = i;
                stuck.add(CompletableFuture.supplyAsync(() -> call(slow, b), callers));
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.stats().get("callsStarted") < 3 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertEquals(3L, server.stats().get("callsStarted"));

            RxConnection fast = client.connect(server.localAddress(), 148);
            CompletableFuture<byte[]> other = CompletableFuture.supplyAsync(() -> call(fast, 9), callers);
            assertArrayEquals(new byte[] {9}, other.get(20, TimeUnit.SECONDS),
                    "the other service is served while the first one's handlers block");
            // The one worker the slow service may use picks its call up on its own thread: wait for it (bounded).
            long picked = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (slowRunning.get() < 1 && System.nanoTime() < picked) {
                Thread.onSpinWait();
            }
            assertEquals(1, slowRunning.get(), "the blocked service used its share: 2 workers less 1");
            for (CompletableFuture<byte[]> f : stuck) {
                assertFalse(f.isDone());
            }

            release.countDown();
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(new byte[] {(byte) i}, stuck.get(i).get(20, TimeUnit.SECONDS));
            }
            assertEquals(3, slowRunning.get());
        } finally {
            callers.shutdown();
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
